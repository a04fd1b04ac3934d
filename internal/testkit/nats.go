package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DamageStream overwrites 64 bytes in the middle of every message block
// of stream in the JetStream store of a stopped NATS server (its
// directory store), as a damaged disk would: the server drops the
// messages that no longer match their checksums, but still counts them,
// when it starts again. It fails the test when the stream has no block.
func DamageStream(tb testing.TB, store, stream string) {
	tb.Helper()
	blks, err := filepath.Glob(filepath.Join(store, "jetstream", "*", "streams", stream, "msgs", "*.blk"))
	if err != nil || len(blks) == 0 {
		tb.Fatalf("message blocks of stream %s: %v, %v", stream, blks, err)
	}
	for _, p := range blks {
		fi, err := os.Stat(p)
		if err != nil {
			tb.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(strings.Repeat("garbage!", 8)), fi.Size()/2); err != nil {
			tb.Fatal(err)
		}
		if err := f.Close(); err != nil {
			tb.Fatal(err)
		}
	}
}
