package results

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/schedfarm/schedfarm/sim/metrics"
)

// recycler is a memory.Allocator that keeps freed buffers and hands them
// out again, so that the Arrow builders, Parquet page buffers and IPC
// bodies of one task after another reuse the same memory instead of
// allocating (and zeroing, and collecting) it anew for every chunk.
// Buffers are kept by capacity (sizes rounded up to one of eight steps
// per power of two), at most max bytes in all; beyond that freed buffers
// are left to the garbage collector. Like Go's allocator it returns
// zeroed, 64-byte aligned memory. It is safe for concurrent use.
type recycler struct {
	mu   sync.Mutex
	free map[int][][]byte // by capacity
	held int              // bytes in free
	max  int
}

// newRecycler returns a recycler keeping at most max bytes of freed
// buffers.
func newRecycler(max int) *recycler { return &recycler{max: max, free: map[int][][]byte{}} }

// roundCap returns the capacity of the buffers that serve n bytes: n
// rounded up to a multiple of 64 and of an eighth of its power of two.
func roundCap(n int) int {
	step := max(64, 1<<max(0, bits.Len(uint(n-1))-3))
	return (n + step - 1) &^ (step - 1)
}

// Allocate implements memory.Allocator.
func (a *recycler) Allocate(size int) []byte {
	if size <= 0 {
		return []byte{}
	}
	c := roundCap(size)
	a.mu.Lock()
	if l := a.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		l[len(l)-1] = nil
		a.free[c] = l[:len(l)-1]
		a.held -= c
		a.mu.Unlock()
		b = b[:c]
		clear(b)
		return b[:size]
	}
	a.mu.Unlock()
	buf := make([]byte, c+64)
	shift := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63)
	return buf[shift : shift+size : shift+c]
}

// Reallocate implements memory.Allocator.
func (a *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		if size > len(b) {
			clear(b[len(b):size])
		}
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free implements memory.Allocator.
func (a *recycler) Free(b []byte) {
	c := cap(b)
	if c == 0 || roundCap(c) != c {
		return // not one of ours
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.held+c > a.max {
		return
	}
	a.free[c] = append(a.free[c], b[:0])
	a.held += c
}

// drain drops the freed buffers kept for reuse, leaving them to the
// garbage collector.
func (a *recycler) drain() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.free)
	a.held = 0
}

var _ memory.Allocator = (*recycler)(nil)

// spareJobs holds the job records of a result the output writer is done
// with ([OwnResults]), for the next [Unmarshal] to decode into.
var spareJobs jobsSpare

// jobsSpare is a slice of job records whose contents nobody uses.
type jobsSpare struct {
	mu   sync.Mutex
	recs []metrics.Record
}

// give keeps recs for reuse, unless a larger slice is kept already.
func (s *jobsSpare) give(recs []metrics.Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cap(recs) > cap(s.recs) {
		s.recs = recs[:0]
	}
}

// take returns an empty slice of capacity at least n: the slice kept, if
// it is large enough (and not much larger), or a new one.
func (s *jobsSpare) take(n int) []metrics.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := cap(s.recs); c >= n && c <= 2*n+1024 {
		recs := s.recs[:0]
		s.recs = nil
		return recs
	}
	return make([]metrics.Record, 0, n)
}
