package coordinator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Results under spoolMin (most of a sweep of many small tasks) are
// appended to segment files under the spool directory, and Badger keeps a
// reference to each (segment, offset, size and checksum), as it keeps one
// to a spool file for a large result. Badger reads its tables through
// memory maps, so results kept in its tables stayed resident in the
// coordinator as file-backed memory once read or written: reading the
// 100,000 results of a sweep of small tasks back to write the outputs
// left about 300 MB of tables resident, and paging them out
// (MADV_PAGEOUT) made every result read afterwards read its table block
// from the disk again, at three times the CPU. Segments are read with
// plain reads, through the page cache, outside the process's memory; the
// tables keep only the references, the task states and the provenance
// (about 0.3 KB a task).
//
// A store open for writing appends to a segment of its own, created on
// its first result and closed at segMax bytes (the next is then created).
// A batch of results is written to the segment (write calls, not synced)
// before the transaction with their references is committed, so killing
// the coordinator at any point loses nothing acknowledged: what was
// written is in the kernel's page cache. A crash of the machine may lose
// the last writes of both; a reference whose bytes did not reach the
// disk is found at reading (short file, wrong checksum) and the task is
// run again, like a damaged spool file ([ErrResultDamaged]). A segment is
// synced when it is closed.
//
// A result replaced or forgotten leaves its bytes in its segment.
// [Store.CollectGarbage] removes a segment none of whose results is
// referenced any more (a sweep run again with --force replaces all of
// its results, so its earlier segments go whole), and one mostly dead has
// its results still referenced copied to the segment being written first.
const (
	// segMagic starts a segment reference (a marshalled result starts
	// with "SFTR", a spool reference with spoolMagic).
	segMagic = "SFSG"
	// segRefLen is the length of a segment reference: magic, uint32
	// segment number, uint64 offset, uint32 size and uint32 CRC-32C of
	// the result's bytes, big-endian.
	segRefLen = len(segMagic) + 4 + 8 + 4 + 4
	// segPrefix starts a segment file's name (seg-00000001); spool
	// files are named res-ID and err-ID.
	segPrefix = "seg-"
)

// segMax is the size from which a segment is closed and the next one
// started (a variable for the tests).
var segMax int64 = 64 << 20

// segRef is where a result is in the segments.
type segRef struct {
	seg       uint32
	off       uint64
	size, sum uint32
}

// encode returns the reference as Badger stores it.
func (r segRef) encode() []byte {
	b := make([]byte, 0, segRefLen)
	b = append(b, segMagic...)
	b = binary.BigEndian.AppendUint32(b, r.seg)
	b = binary.BigEndian.AppendUint64(b, r.off)
	b = binary.BigEndian.AppendUint32(b, r.size)
	return binary.BigEndian.AppendUint32(b, r.sum)
}

// parseSegRef decodes a stored value that is a segment reference; ok is
// false for any other value (a result kept in Badger by an earlier
// version, a spool reference).
func parseSegRef(v []byte) (r segRef, ok bool) {
	if len(v) != segRefLen || !bytes.HasPrefix(v, []byte(segMagic)) {
		return r, false
	}
	v = v[len(segMagic):]
	return segRef{
		seg:  binary.BigEndian.Uint32(v),
		off:  binary.BigEndian.Uint64(v[4:]),
		size: binary.BigEndian.Uint32(v[12:]),
		sum:  binary.BigEndian.Uint32(v[16:]),
	}, true
}

// segments are a store's segment files.
type segments struct {
	dir string // the spool directory
	// gc is held for reading while results are written and their
	// references committed, and for writing while segments are removed,
	// so that a segment is never removed between the two.
	gc sync.RWMutex
	mu sync.Mutex // guards what follows
	// w is the segment being appended to (nil before the first result
	// and after an error), wseg its number, wsize its size.
	w     *os.File
	wseg  uint32
	wsize int64
	// next is the number of the next segment to create (0: not known
	// yet).
	next uint32
	// readers are the segments opened for reading, by number.
	readers map[uint32]*os.File
}

func newSegments(spool string) *segments {
	return &segments{dir: spool, readers: map[uint32]*os.File{}}
}

// segName returns the file name of segment n.
func segName(n uint32) string { return fmt.Sprintf("%s%08d", segPrefix, n) }

// list returns the numbers of the segment files, in order.
func (g *segments) list() ([]uint32, error) {
	ents, err := os.ReadDir(g.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list segments: %w", err)
	}
	var out []uint32
	for _, e := range ents {
		name, ok := strings.CutPrefix(e.Name(), segPrefix)
		if !ok {
			continue
		}
		if n, err := strconv.ParseUint(name, 10, 32); err == nil && n > 0 {
			out = append(out, uint32(n))
		}
	}
	slices.Sort(out)
	return out, nil
}

// append writes vals to the current segment (starting one if needed) and
// returns their references. Call with g.gc held for reading.
func (g *segments) append(vals [][]byte) ([]segRef, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	refs := make([]segRef, len(vals))
	for i, v := range vals {
		if g.w == nil || g.wsize >= segMax {
			if err := g.rotate(); err != nil {
				return nil, err
			}
		}
		n, err := g.w.Write(v)
		if err != nil {
			// What the segment holds past its recorded size is unknown:
			// start another for the next results.
			g.w.Close()
			g.w = nil
			return nil, fmt.Errorf("write segment %s: %w", segName(g.wseg), err)
		}
		refs[i] = segRef{seg: g.wseg, off: uint64(g.wsize), size: uint32(len(v)), sum: crc32.Checksum(v, castagnoli)}
		g.wsize += int64(n)
	}
	return refs, nil
}

// rotate syncs and closes the current segment, if any, and creates the
// next. Call with g.mu held.
func (g *segments) rotate() error {
	if err := g.closeWriter(); err != nil {
		return err
	}
	if g.next == 0 {
		ns, err := g.list()
		if err != nil {
			return err
		}
		g.next = 1
		if len(ns) > 0 {
			g.next = ns[len(ns)-1] + 1
		}
	}
	f, err := os.OpenFile(filepath.Join(g.dir, segName(g.next)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create segment: %w", err)
	}
	g.w, g.wseg, g.wsize = f, g.next, 0
	g.next++
	return nil
}

// closeWriter syncs and closes the segment being written, if any. Call
// with g.mu held.
func (g *segments) closeWriter() error {
	if g.w == nil {
		return nil
	}
	err := g.w.Sync()
	if cerr := g.w.Close(); err == nil {
		err = cerr
	}
	g.w = nil
	if err != nil {
		return fmt.Errorf("close segment %s: %w", segName(g.wseg), err)
	}
	return nil
}

// read returns the result r refers to, checked against its size and
// checksum.
func (g *segments) read(r segRef) ([]byte, error) {
	f, err := g.reader(r.seg)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: segment file %s missing", ErrResultDamaged, segName(r.seg))
	}
	if err != nil {
		return nil, err
	}
	b := make([]byte, r.size)
	n, err := f.ReadAt(b, int64(r.off))
	switch {
	case errors.Is(err, io.EOF) || n < len(b) && err == nil:
		return nil, fmt.Errorf("%w: segment file %s ends before the %d bytes at %d (truncated?)", ErrResultDamaged, segName(r.seg), r.size, r.off)
	case err != nil:
		return nil, fmt.Errorf("read segment %s: %w", segName(r.seg), err)
	case crc32.Checksum(b, castagnoli) != r.sum:
		return nil, fmt.Errorf("%w: segment file %s: checksum mismatch of the %d bytes at %d", ErrResultDamaged, segName(r.seg), r.size, r.off)
	}
	return b, nil
}

// reader returns segment n open for reading.
func (g *segments) reader(n uint32) (*os.File, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.readers[n]; f != nil {
		return f, nil
	}
	f, err := os.Open(filepath.Join(g.dir, segName(n)))
	if err != nil {
		return nil, err
	}
	g.readers[n] = f
	return f, nil
}

// remove removes segment n. Call with g.gc held for writing.
func (g *segments) remove(n uint32) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.readers[n]; f != nil {
		f.Close()
		delete(g.readers, n)
	}
	if err := os.Remove(filepath.Join(g.dir, segName(n))); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove segment: %w", err)
	}
	return nil
}

// writing returns the number of the segment being appended to (0 if
// none).
func (g *segments) writing() uint32 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.w == nil {
		return 0
	}
	return g.wseg
}

// close syncs and closes the segment being written and closes the
// segments open for reading.
func (g *segments) close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.closeWriter()
	for n, f := range g.readers {
		f.Close()
		delete(g.readers, n)
	}
	return err
}
