package results

import (
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
	return c.enc.get(len(src)).EncodeAll(src, dst[:0])
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
