package coordinator_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
)

// TestStore_RecordResults_compactionMemory records 8,000 results of 16 KB
// (under the spool threshold, as the results of a reproduction's small
// tasks are) and checks that the live heap grows by at most 64 MB while
// they are written and Badger flushes and compacts their references,
// until the store is closed. The results are random bytes, incompressible
// like the zstd-compressed results they stand for. While Badger's tables
// held such results, the growth was 241-282 MB with Badger's default
// block size, table sizes and compression (see openStore) and 68-95 MB
// with the store's options (on a loaded 2-core machine); 9 MB with the
// results in segments, so the bound fails if they go back to the tables.
func TestStore_RecordResults_compactionMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 128 MB of results")
	}
	const (
		n     = 8000
		size  = 16 << 10
		batch = 100
		bound = 64 << 20
	)
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, batch*size)
	// Other tests of the package may leave memory behind: the bound is on
	// what the store adds to the live heap.
	runtime.GC()
	base := testkit.LiveHeap()
	stop := testkit.LivePeak()
	st := MustOpenStore(t, filepath.Join(t.TempDir(), "state"))
	for start := 0; start < n; start += batch {
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		recs := make([]coordinator.ResultRecord, batch)
		for i := range recs {
			id := fmt.Sprintf("t%05d", start+i)
			recs[i] = coordinator.ResultRecord{ID: id, State: coordinator.TaskState{Index: start + i}, Result: buf[i*size : (i+1)*size]}
		}
		if err := st.RecordResults("r", recs); err != nil {
			t.Fatal(err)
		}
	}
	err := st.Close()
	peak := stop()
	peak -= min(base, peak)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d results of %d KB: live heap peak %d MB above the %d MB before", n, size>>10, peak>>20, base>>20)
	if peak > bound {
		t.Errorf("live heap peaked %d MB above its level before, recording %d MB of results; want at most %d MB", peak>>20, n*size>>20, bound>>20)
	}
}
