package testkit

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompress checks that the parts come back whole and in order, and
// that each is its own member.
func TestCompress(t *testing.T) {
	data := Compress(t, []byte("one\n"), []byte("two\n"))
	if got := gunzip(t, data); string(got) != "one\ntwo\n" {
		t.Errorf("gunzip = %q, want %q", got, "one\ntwo\n")
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	if first, _ := io.ReadAll(zr); string(first) != "one\n" {
		t.Errorf("first member = %q, want %q", first, "one\n")
	}
}

// TestBomb checks that a bomb is small and expands to its line and
// exactly n newlines.
func TestBomb(t *testing.T) {
	const n = 3<<20 + 5
	data := Bomb(t, n)
	text := gunzip(t, data)
	if len(data) > 64<<10 {
		t.Errorf("bomb of %d newlines takes %d bytes, want a small input", n, len(data))
	}
	if !bytes.HasPrefix(text, []byte(bombLine)) || len(text) != len(bombLine)+n || bytes.Count(text, []byte{'\n'}) != n+2 {
		t.Errorf("bomb expands to %d bytes (%d newlines), want the job line and %d newlines", len(text), bytes.Count(text, []byte{'\n'}), n)
	}
}
