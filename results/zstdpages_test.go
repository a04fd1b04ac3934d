package results

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// TestPageCodec_SameBytes checks that the registered page codec
// compresses pages to the same bytes as arrow-go's own zstd codec: pages of
// sizes around the block size, the small window and beyond it, of
// contents from constant to random, each compressed several times in
// changing order by the same encoders.
func TestPageCodec_SameBytes(t *testing.T) {
	reg, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	pc, ok := reg.(pageCodec)
	if !ok {
		t.Fatalf("registered zstd codec is %T, not pageCodec", reg)
	}
	lib := pc.Codec
	c := pageCodec{Codec: lib, enc: new(pageEncoder)}
	rng := rand.New(rand.NewPCG(1, 2))
	kinds := map[string]func(n int) []byte{
		"zeros": func(n int) []byte { return make([]byte, n) },
		"constant": func(n int) []byte {
			b := make([]byte, 0, n+8)
			for len(b) < n {
				b = binary.LittleEndian.AppendUint64(b, 86400)
			}
			return b[:n]
		},
		"counting": func(n int) []byte {
			b := make([]byte, 0, n+8)
			for i := uint64(0); len(b) < n; i++ {
				b = binary.LittleEndian.AppendUint64(b, 1000+i*3)
			}
			return b[:n]
		},
		"skewed": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.ExpFloat64() * 4)
			}
			return b
		},
		"random": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
	}
	sizes := []int{0, 1, 100, 1023, 1024, 1025, 4096, 128<<10 - 1, 128 << 10, 128<<10 + 1,
		512 << 10, 1 << 20, smallWindow - 1, smallWindow, smallWindow + 1, 3 << 20}
	var pages [][]byte
	var names []string
	for _, kind := range []string{"zeros", "constant", "counting", "skewed", "random"} {
		for _, n := range sizes {
			pages = append(pages, kinds[kind](n))
			names = append(names, fmt.Sprintf("%s/%d", kind, n))
		}
	}
	// Every page three times: in order, then every other page backwards,
	// then in order again.
	order := make([]int, 0, 3*len(pages))
	for i := range pages {
		order = append(order, i)
	}
	for i := len(pages) - 1; i >= 0; i -= 2 {
		order = append(order, i)
	}
	for i := range pages {
		order = append(order, i)
	}
	for _, i := range order {
		want := lib.EncodeLevel(nil, pages[i], compress.DefaultCompressionLevel)
		got := c.EncodeLevel(make([]byte, 0, 16), pages[i], compress.DefaultCompressionLevel)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: %d compressed bytes differ from arrow-go's %d", names[i], len(got), len(want))
		}
		back, err := compress.Decode(lib, nil, got)
		if err != nil || !bytes.Equal(back, pages[i]) {
			t.Fatalf("%s: does not decompress to the page (%v)", names[i], err)
		}
	}
}
