package results

import (
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// pageCodec is the zstd codec of the Parquet writers and readers. It is
// arrow-go's codec with one change: pages compressed at the default level
// (all of ours) go through one encoder kept while outputs are written,
// built with the same options as arrow-go's, so the compressed bytes are
// the same. arrow-go takes its encoders from a sync.Pool, which the
// garbage collector empties: every collection while outputs are written
// then cost a new encoder and its 16 MB window, and two of them were often
// alive at once.
type pageCodec struct {
	compress.Codec // arrow-go's, for decoding and the other levels
	enc            *pageEncoder
}

// pageEncoder is the encoder of pageCodec, made when first used and
// dropped by drop (when a sweep's Parquet files are written, so that its
// memory is free for the tables).
type pageEncoder struct {
	mu  sync.Mutex
	enc *zstd.Encoder
}

// get returns the encoder, making it if needed.
func (p *pageEncoder) get() *zstd.Encoder {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.enc == nil {
		enc, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true))
		if err != nil {
			panic(err) // only for invalid options
		}
		p.enc = enc
	}
	return p.enc
}

// drop lets the garbage collector have the encoder; a later page makes a
// new one.
func (p *pageEncoder) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enc = nil
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
	return c.enc.get().EncodeAll(src, dst[:0])
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
