package results

import (
	"bytes"
	"hash/maphash"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// pageCodec is the zstd codec of the Parquet writers and readers. It is
// arrow-go's codec with these changes, none of which changes the
// compressed bytes (TestPageCodec_SameBytes):
//
//   - Pages compressed at the default level (all of ours) go through one
//     encoder kept while outputs are written, built with the same options
//     as arrow-go's. arrow-go takes its encoders from a sync.Pool, which
//     the garbage collector empties: every collection while outputs are
//     written then cost a new encoder, and two of them were often alive at
//     once.
//   - That encoder has a window of [smallWindow] instead of arrow-go's
//     8 MB, and a history buffer of a quarter of the size (4 MB instead of
//     16 MB), for pages no larger than the window (a page is at most about
//     1 MB: the writers' data and dictionary page size). A frame of one
//     page refers back only within the page, and a page no larger than
//     either window is written as a single segment, whose header does not
//     give the window, so the bytes are the same. A larger page goes
//     through an encoder with arrow-go's window, made when first needed.
//   - The encoder remembers the last pages it compressed ([pageMemo]): a
//     page equal to one of them, byte for byte, gets the same compressed
//     bytes without being compressed again.
type pageCodec struct {
	compress.Codec // arrow-go's, for decoding and the other levels
	enc            *pageEncoder
}

// smallWindow is the window of the encoder of pages up to its size.
const smallWindow = 2 << 20

// pageEncoder is the encoder of pageCodec, made when first used and
// dropped by drop (when a sweep's Parquet files are written, so that its
// memory is free for the tables).
type pageEncoder struct {
	mu    sync.Mutex
	small *zstd.Encoder // window smallWindow
	large *zstd.Encoder // arrow-go's window
	memo  pageMemo
}

// get returns the encoder of a page of n bytes, making it if needed.
func (p *pageEncoder) get(n int) *zstd.Encoder {
	p.mu.Lock()
	defer p.mu.Unlock()
	enc, opts := &p.small, []zstd.EOption{zstd.WithWindowSize(smallWindow)}
	if n > smallWindow {
		enc, opts = &p.large, nil
	}
	if *enc == nil {
		e, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithZeroFrames(true), zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true)}, opts...)...)
		if err != nil {
			panic(err) // only for invalid options
		}
		*enc = e
	}
	return *enc
}

// drop lets the garbage collector have the encoders; a later page makes
// new ones.
func (p *pageEncoder) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.small, p.large = nil, nil
	p.memo = pageMemo{}
}

// encode compresses src, appending to dst.
func (p *pageEncoder) encode(dst, src []byte) []byte {
	sum := memoSum(src)
	p.mu.Lock()
	out, ok := p.memo.lookup(sum, src)
	p.mu.Unlock()
	if ok {
		return append(dst, out...)
	}
	at := len(dst)
	dst = p.get(len(src)).EncodeAll(src, dst)
	p.mu.Lock()
	p.memo.add(sum, len(src), dst[at:])
	p.mu.Unlock()
	return dst
}

// pageMemo remembers the last pages compressed by their compressed bytes,
// at most memoBytes of them. The outputs' pages repeat: columns that are
// constant (zero, or null) for every job of a policy that has no use for
// them give the same page in row group after row group, and with accurate
// estimates the estimate column's pages equal the runtime column's. The
// compressed bytes of a page depend only on the page (a frame per page,
// from an encoder with fixed options), so a page equal to a remembered
// one, byte for byte, is given the remembered bytes. A hash finds the
// candidate, and the candidate's bytes are decompressed and compared with
// the page, which costs less than compressing it again; the pages
// themselves are not kept.
type pageMemo struct {
	pages   []memoPage // least recently used first
	bytes   int
	dec     *zstd.Decoder
	scratch []byte
}

// memoPage is a remembered page: its hash, its length and its compressed
// bytes.
type memoPage struct {
	sum uint64
	n   int
	out []byte
}

// memoBytes bounds the compressed bytes a pageMemo keeps.
const memoBytes = 1 << 20

// memoSeed seeds the hash of pages.
var memoSeed = maphash.MakeSeed()

// memoSum returns the hash of a page.
func memoSum(src []byte) uint64 { return maphash.Bytes(memoSeed, src) }

// lookup returns the compressed bytes of src, whose hash is sum, if it is
// remembered.
func (m *pageMemo) lookup(sum uint64, src []byte) ([]byte, bool) {
	for i := len(m.pages) - 1; i >= 0; i-- {
		e := m.pages[i]
		if e.sum != sum || e.n != len(src) {
			continue
		}
		if m.dec == nil {
			dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
			if err != nil {
				return nil, false
			}
			m.dec = dec
		}
		got, err := m.dec.DecodeAll(e.out, m.scratch[:0])
		if err != nil || !bytes.Equal(got, src) {
			continue
		}
		m.scratch = got
		copy(m.pages[i:], m.pages[i+1:])
		m.pages[len(m.pages)-1] = e
		return e.out, true
	}
	return nil, false
}

// add remembers a page of n bytes whose hash is sum by its compressed
// bytes out, forgetting the least recently used pages beyond memoBytes.
func (m *pageMemo) add(sum uint64, n int, out []byte) {
	if len(out) > memoBytes/2 {
		return
	}
	var spare []byte
	for len(m.pages) > 0 && m.bytes+len(out) > memoBytes {
		old := m.pages[0]
		m.bytes -= len(old.out)
		k := copy(m.pages, m.pages[1:])
		m.pages[k] = memoPage{}
		m.pages = m.pages[:k]
		if cap(old.out) > cap(spare) {
			spare = old.out
		}
	}
	m.pages = append(m.pages, memoPage{sum: sum, n: n, out: append(spare[:0], out...)})
	m.bytes += len(out)
}

// pageEnc is the encoder of the registered pageCodec.
var pageEnc = new(pageEncoder)

func init() {
	lib, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		panic(err) // arrow-go registers zstd in its init
	}
	compress.RegisterCodec(compress.Codecs.Zstd, pageCodec{Codec: lib, enc: pageEnc})
}

// EncodeLevel implements compress.Codec.
func (c pageCodec) EncodeLevel(dst, src []byte, level int) []byte {
	if level != compress.DefaultCompressionLevel && zstd.EncoderLevelFromZstd(level) != zstd.SpeedDefault {
		return c.Codec.EncodeLevel(dst, src, level)
	}
	return c.enc.encode(dst[:0], src)
}

// DecodeWithError implements compress.ErrorCodec.
func (c pageCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	return compress.Decode(c.Codec, dst, src)
}

// NewReader implements compress.StreamingCodec.
func (c pageCodec) NewReader(r io.Reader) io.ReadCloser {
	return c.Codec.(compress.StreamingCodec).NewReader(r)
}

// NewWriter implements compress.StreamingCodec.
func (c pageCodec) NewWriter(w io.Writer) io.WriteCloser {
	return c.Codec.(compress.StreamingCodec).NewWriter(w)
}

// NewWriterLevel implements compress.StreamingCodec.
func (c pageCodec) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return c.Codec.(compress.StreamingCodec).NewWriterLevel(w, level)
}
