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
)

// madvPageout is Linux's MADV_PAGEOUT (since 5.4): reclaim the pages of
// a range, which for a file's pages means they are dropped from the
// process (and, when no one else maps them, from the page cache) and read
// from the file again if touched. It is a hint: no data changes.
const madvPageout = 21

// pageoutUnsupported is set when the kernel refuses MADV_PAGEOUT.
var pageoutUnsupported atomic.Bool

// pageOutTables asks the kernel to page out the pages of the Badger
// table files (.sst) under dir mapped into this process. Badger reads
// its tables through memory maps, so every result read or written
// stays resident as file-backed memory of the process until the kernel
// needs the memory: reading the 100,000 results of a sweep of small tasks
// left about 300 MB of the store's tables resident. Paged out, they are
// read from the file (or the page cache) when touched again. The ranges
// come from /proc/self/maps; a range unmapped meanwhile (a table a
// compaction removed) takes no harm, since the call changes no data.
//
// dir may be relative (the default state directory is): the paths in
// /proc/self/maps are absolute with symbolic links resolved, so dir is
// resolved the same way before it is compared with them.
func pageOutTables(dir string) {
	if pageoutUnsupported.Load() {
		return
	}
	dir = mappedPath(dir)
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	prefix := dir + string(os.PathSeparator)
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// start-end perms offset dev inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasPrefix(f[5], prefix) || !strings.HasSuffix(f[5], ".sst") {
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
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), madvPageout)
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
