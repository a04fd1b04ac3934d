package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// equalTraces reports how got, parsed from Write(want), differs from want:
// it must have the same machine size, header and records (line numbers
// aside) and no drops.
func equalTraces(want, got *Trace) error {
	if got.Procs != want.Procs {
		return fmt.Errorf("Procs=%d, want %d", got.Procs, want.Procs)
	}
	if !reflect.DeepEqual(got.Header, want.Header) {
		return fmt.Errorf("Header=%q\nwant %q", got.Header, want.Header)
	}
	if got.Drops != (DropReport{}) {
		return fmt.Errorf("Drops=%+v after a round trip, want none", got.Drops)
	}
	if len(got.Records) != len(want.Records) {
		return fmt.Errorf("len(Records)=%d, want %d", len(got.Records), len(want.Records))
	}
	for i := range got.Records {
		g, w := got.Records[i], want.Records[i]
		g.Line, w.Line = 0, 0
		if g != w {
			return fmt.Errorf("Records[%d]=%+v, want %+v", i, g, w)
		}
	}
	return nil
}

// MustRead reads testdata/read/name and fails tb on error.
func MustRead(tb testing.TB, name string, procs int) *Trace {
	tb.Helper()
	tr, err := Read(filepath.Join("testdata", "read", name), procs)
	if err != nil {
		tb.Fatalf("Read(%s)=%v", name, err)
	}
	return tr
}
