//go:build linux

package coordinator

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// tablesResident returns the resident bytes of the Badger tables (.sst)
// under dir mapped into this process, from /proc/self/smaps.
func tablesResident(t *testing.T, dir string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var total int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		switch {
		case len(fs) >= 5 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":"):
			in = len(fs) >= 6 && strings.HasPrefix(fs[5], dir+string(os.PathSeparator)) && strings.HasSuffix(fs[5], ".sst")
		case in && len(fs) >= 2 && fs[0] == "Rss:":
			kb, _ := strconv.ParseInt(fs[1], 10, 64)
			total += kb << 10
		}
	}
	return total
}

// TestStore_TablesPagedOut reads back 8,192 results of 3 KB kept in
// Badger's tables, as the versions before segments kept small results
// (24 MB of tables, read through memory maps), and checks that the
// store's tables resident in the process stay below 12 MB: the store
// pages out its mapped tables every pageOutEvery results read or
// recorded, so the coordinator's resident memory does not grow with the
// results of a sweep (100,000 results of small tasks left about 300 MB of
// tables resident before). Results recorded now go to segments, and the
// test checks that the tables then hold a small part of them.
func TestStore_TablesPagedOut(t *testing.T) {
	const (
		n     = 8192
		size  = 3 << 10
		bound = 12 << 20
	)
	// The store is opened by a relative path, as the default state
	// directory is given, while /proc/self/maps names its tables by
	// absolute paths.
	t.Chdir(t.TempDir())
	s, err := OpenStore("state")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := mappedPath("state")
	rng := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, n)
	for lo := 0; lo < n; lo += 128 {
		err := s.db.Update(func(txn *badger.Txn) error {
			for i := lo; i < lo+128; i++ {
				ids[i] = fmt.Sprintf("%064x", i)
				b := make([]byte, size)
				for k := range b {
					b[k] = byte(rng.Uint32())
				}
				if err := txn.Set([]byte(prefixRes+ids[i]), b); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.db.Flatten(1); err != nil {
		t.Fatal(err)
	}
	pageOutTables(s.db, filepath.Join("state", badgerDir))
	if pageoutUnsupported.Load() {
		t.Skip("the kernel refuses MADV_DONTNEED")
	}
	peak := tablesResident(t, filepath.Join(dir, badgerDir))
	for i, id := range ids {
		b, err := s.Result(id, false)
		if err != nil || len(b) != size {
			t.Fatalf("result %d: %d bytes, %v", i, len(b), err)
		}
		if i%512 == 0 {
			peak = max(peak, tablesResident(t, filepath.Join(dir, badgerDir)))
		}
	}
	peak = max(peak, tablesResident(t, filepath.Join(dir, badgerDir)))
	t.Logf("%d results of %d bytes read: at most %d KB of tables resident", n, size, peak>>10)
	if peak > bound {
		t.Errorf("%d KB of the store's tables resident reading %d results of %d bytes, want at most %d KB", peak>>10, n, size, bound>>10)
	}

	// The same results recorded now, in another state: in segments, the
	// tables keeping a reference, the state and the provenance of each.
	s2, err := OpenStore("state2")
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < n; lo += 256 {
		recs := make([]ResultRecord, 0, 256)
		for i := lo; i < lo+256; i++ {
			recs = append(recs, ResultRecord{ID: ids[i], State: TaskState{Index: i, SimVersion: "v"}, Result: make([]byte, size)})
		}
		if err := s2.RecordResults("run", recs); err != nil {
			t.Fatal(err)
		}
	}
	if err := s2.Close(); err != nil { // flushes the memtable
		t.Fatal(err)
	}
	inTables, inSegs := tablesSize(t, "state"), tablesSize(t, "state2")
	t.Logf("tables of %d KB with the results in them, %d KB with the results in segments", inTables>>10, inSegs>>10)
	if inSegs > n*size/8 {
		t.Errorf("tables of %d KB for %d results of %d bytes in segments, want at most %d KB", inSegs>>10, n, size, n*size/8>>10)
	}
}

// tablesSize returns the size of the Badger tables of the state dir.
func tablesSize(t *testing.T, dir string) int64 {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, badgerDir, "*.sst"))
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, f := range fs {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		total += fi.Size()
	}
	return total
}
