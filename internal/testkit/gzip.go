// Package testkit holds helpers the project's tests share: gzip data
// (a trace in one or more members, a gzip bomb, a gzipped file read
// back), a buffer safe for concurrent use, polling for a condition and
// reading a folder's example files.
// Only tests import it.
package testkit

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// Compress returns the parts gzipped one after the other, each as its own
// gzip member (one part: an ordinary .gz file). It fails tb on a write
// error.
func Compress(tb testing.TB, parts ...[]byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(p); err != nil {
			tb.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	return buf.Bytes()
}

// bombLine is the trace text a [Bomb] starts with: a header and one valid
// job line on 8 processors.
const bombLine = "; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n"

// Bomb returns a gzipped trace of bombLine followed by n newlines: a
// small input whose text is huge (the gzip bomb of a hostile task). It
// fails tb on a write error.
func Bomb(tb testing.TB, n int64) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := zw.Write([]byte(bombLine)); err != nil {
		tb.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{'\n'}, 1<<20)
	for ; n > 0; n -= int64(len(chunk)) {
		if _, err := zw.Write(chunk[:min(n, int64(len(chunk)))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Gunzip returns the decompressed contents of the gzipped file at path.
// It fails tb on any error.
func Gunzip(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return b
}
