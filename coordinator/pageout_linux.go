//go:build linux

package coordinator

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/table"
)

// madvDontneed is Linux's MADV_DONTNEED: drop the process's mappings of
// the pages of a range. For a shared file mapping (Badger maps its tables
// MAP_SHARED) the pages stay in the page cache, dirty ones included, and
// a later touch maps them again from it (a minor fault); no data
// changes. On memory that is not a shared file mapping it would discard
// data, so pageOutTables applies it only to tables it holds mapped.
//
// MADV_PAGEOUT, used before, also dropped the pages from the page cache,
// so every result read afterwards read its table block from the disk
// again: TestCoordinator_Run_hundredThousandResults took 202-242 s of
// CPU with those page-outs, 84-96 s with the results in segments and
// MADV_DONTNEED (95 s with segments and no page-outs at all).
const madvDontneed = 4

// pageoutUnsupported is set when the kernel refuses the advice.
var pageoutUnsupported atomic.Bool

// pageOutTables drops this process's mappings of the pages of the Badger
// tables (.sst) of db, in the directory dir (see madvDontneed). Badger
// reads its tables through memory maps, so every key looked up or
// written stays resident as file-backed memory of the process until the
// kernel needs the memory; results are no longer in the tables (see
// segments), but their references, states and provenance take about
// 0.5 KB a task, and states written by earlier versions hold the results
// too (100,000 results of small tasks left about 300 MB of tables
// resident). Dropped, the pages stay in the page cache, outside the
// process's resident memory, and are mapped again when touched.
//
// A range must not be unmapped (and its addresses reused) between
// /proc/self/maps naming it and the advice: Badger unmaps a table once
// no level and no iterator holds it. So the tables advised are those in
// the levels both before and after an iterator is opened, which holds
// every table of the levels until it is closed, after the advice.
//
// dir may be relative (the default state directory is): the paths in
// /proc/self/maps are absolute with symbolic links resolved, so dir is
// resolved the same way before it is compared with them.
func pageOutTables(db *badger.DB, dir string) {
	if pageoutUnsupported.Load() {
		return
	}
	txn := db.NewTransaction(false)
	defer txn.Discard()
	before := db.Tables()
	it := txn.NewIterator(badger.IteratorOptions{})
	defer it.Close()
	inLevels := make(map[uint64]bool, len(before))
	for _, t := range before {
		inLevels[t.ID] = true
	}
	held := make(map[string]bool, len(before))
	for _, t := range db.Tables() {
		if inLevels[t.ID] {
			held[table.IDToFilename(t.ID)] = true
		}
	}
	if len(held) == 0 {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	prefix := mappedPath(dir) + string(os.PathSeparator)
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// start-end perms offset dev inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasPrefix(f[5], prefix) || !held[f[5][len(prefix):]] {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), madvDontneed)
		if errors.Is(errno, syscall.EINVAL) {
			pageoutUnsupported.Store(true)
			return
		}
	}
}

// mappedPath returns dir as /proc/self/maps names the files under it:
// absolute, with symbolic links resolved. It returns dir unchanged when it
// cannot be resolved (the page-out then finds nothing, which is harmless).
func mappedPath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
