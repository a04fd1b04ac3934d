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
// contents from constant to random, each compressed several times and in
// an order that makes the memo find earlier pages, forget them and find
// them again.
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
	if len(c.enc.memo.pages) == 0 {
		t.Error("the memo remembered no page")
	}
}

// TestPageMemo checks that the memo gives a page's bytes only for an
// equal page, forgets the least recently used pages beyond its bound, and
// keeps a page that is used.
func TestPageMemo(t *testing.T) {
	p := new(pageEncoder)
	a := bytes.Repeat([]byte("abcdefgh"), 1<<15)
	b := bytes.Clone(a)
	b[len(b)/2] ^= 1
	ca := p.encode(nil, a)
	if _, ok := p.memo.lookup(0, a); ok {
		t.Error("found under another hash")
	}
	sumB := memoSum(b)
	if _, ok := p.memo.lookup(sumB, b); ok {
		t.Error("a page differing in one byte was found")
	}
	// Another page under a's hash (a collision) is not a.
	if _, ok := p.memo.lookup(memoSum(a), b); ok {
		t.Error("a page differing in one byte was found under the hash of the remembered one")
	}
	if got, ok := p.memo.lookup(memoSum(a), a); !ok || !bytes.Equal(got, ca) {
		t.Error("the remembered page was not found")
	}
	// Fill the memo with other pages, using a meanwhile: a stays.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 64 {
		pg := make([]byte, 64<<10)
		for k := range pg {
			pg[k] = byte(rng.Uint32())
		}
		p.encode(nil, pg)
		if i%4 == 0 {
			if _, ok := p.memo.lookup(memoSum(a), a); !ok {
				t.Fatalf("page used every fourth page forgotten after %d pages", i+1)
			}
		}
		if p.memo.bytes > memoBytes {
			t.Fatalf("memo holds %d bytes, more than %d", p.memo.bytes, memoBytes)
		}
	}
	if len(p.memo.pages) > memoBytes/(64<<10)+1 {
		t.Errorf("%d pages remembered", len(p.memo.pages))
	}
}
