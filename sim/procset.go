package sim

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// MaxProcs is the largest machine size [Run] accepts.
const MaxProcs = math.MaxInt32

// bitsetMax is the largest machine whose sets are bitsets: one bit per
// processor, 512 bytes a set at most, the fastest for the many set
// operations of the policies that place jobs themselves. Sets of larger
// machines are lists of runs.
const bitsetMax = 4096

// ProcSet is a set of processor numbers. On a machine of up to 4096
// processors it is a bitset; on a larger one it is the list of its maximal
// runs of consecutive numbers (sorted, disjoint, never adjacent), so that
// its cost follows the number of runs, not the machine size: a job started
// on the lowest-numbered free processors of a 2^20-processor machine holds
// a few runs, not 2^20 bits. Both give the same results. The zero value is
// the empty set.
//
// A ProcSet is a handle: copies share the set, and a change made through
// one is seen through the others (use [ProcSet.Clone] for an independent
// copy). A ProcSet owned by a [Task], or returned by [Machine.FreeSet],
// must not be modified by a policy.
type ProcSet struct {
	p *procRuns
}

// span is the run of processors lo..hi-1.
type span struct{ lo, hi int32 }

// procRuns holds a set: the bitset w when bits is set, else the runs r
// holding n processors.
type procRuns struct {
	bits bool
	w    []uint64
	r    []span
	n    int
}

// NewProcSet returns an empty set for a machine of n processors.
func NewProcSet(n int) ProcSet {
	if n <= bitsetMax {
		return ProcSet{p: &procRuns{bits: true, w: make([]uint64, (n+63)/64)}}
	}
	return ProcSet{p: &procRuns{}}
}

// FullProcSet returns the set {0..n-1}.
func FullProcSet(n int) ProcSet {
	s := NewProcSet(n)
	if s.p.bits {
		for i := 0; i < n; i++ {
			s.Add(i)
		}
		return s
	}
	if n > 0 {
		s.p.r = append(s.p.r, span{0, int32(n)})
		s.p.n = n
	}
	return s
}

// isBits reports whether s is a bitset.
func (s ProcSet) isBits() bool { return s.p != nil && s.p.bits }

// isRuns reports whether s is a list of runs (the zero value is one).
func (s ProcSet) isRuns() bool { return s.p == nil || !s.p.bits }

// spans returns the set as runs, whatever its form (a bitset's are made).
func (s ProcSet) spans() []span {
	if !s.isBits() {
		return s.runs()
	}
	var r []span
	s.Each(func(i int) {
		if n := len(r); n > 0 && int(r[n-1].hi) == i {
			r[n-1].hi++
			return
		}
		r = append(r, span{int32(i), int32(i) + 1})
	})
	return r
}

// assign makes s the set of the runs r, keeping s's form.
func (s *ProcSet) assign(r []span) {
	if !s.isBits() {
		s.set(r)
		return
	}
	clear(s.p.w)
	for _, x := range r {
		for i := x.lo; i < x.hi; i++ {
			if int(i>>6) >= len(s.p.w) {
				s.p.w = append(s.p.w, make([]uint64, int(i>>6)-len(s.p.w)+1)...)
			}
			s.p.w[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// Add puts processor i in the set.
func (s *ProcSet) Add(i int) {
	if !s.isBits() {
		s.addRuns(i)
		return
	}
	s.p.w[i>>6] |= 1 << (uint(i) & 63)
}

// Remove takes processor i out of the set.
func (s *ProcSet) Remove(i int) {
	if !s.isBits() {
		s.removeRuns(i)
		return
	}
	s.p.w[i>>6] &^= 1 << (uint(i) & 63)
}

// Has reports whether processor i is in the set.
func (s ProcSet) Has(i int) bool {
	if !s.isBits() {
		return s.hasRuns(i)
	}
	w := s.p.w
	return i >= 0 && i>>6 < len(w) && w[i>>6]&(1<<(uint(i)&63)) != 0
}

// Len returns the number of processors in the set.
func (s ProcSet) Len() int {
	if s.p == nil {
		return 0
	}
	if !s.p.bits {
		return s.p.n
	}
	n := 0
	for _, w := range s.p.w {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether the set holds no processor.
func (s ProcSet) Empty() bool {
	if !s.isBits() {
		return s.Len() == 0
	}
	for _, w := range s.p.w {
		if w != 0 {
			return false
		}
	}
	return true
}

// Contains reports whether every processor of o is in s.
func (s ProcSet) Contains(o ProcSet) bool {
	if s.isBits() && o.isBits() {
		sw := s.p.w
		for i, w := range o.p.w {
			if w == 0 {
				continue
			}
			if i >= len(sw) || w&^sw[i] != 0 {
				return false
			}
		}
		return true
	}
	return containsRuns(s.spans(), o.spans())
}

// Overlaps reports whether s and o share a processor.
func (s ProcSet) Overlaps(o ProcSet) bool {
	if s.isBits() && o.isBits() {
		a, b := s.p.w, o.p.w
		n := min(len(a), len(b))
		for i := 0; i < n; i++ {
			if a[i]&b[i] != 0 {
				return true
			}
		}
		return false
	}
	return overlapsRuns(s.spans(), o.spans())
}

// Union adds every processor of o to s.
func (s *ProcSet) Union(o ProcSet) {
	switch {
	case s.isBits() && o.isBits() && len(o.p.w) <= len(s.p.w):
		for i, w := range o.p.w {
			s.p.w[i] |= w
		}
	case s.isRuns() && o.isRuns():
		s.unionRuns(o)
	default:
		var u ProcSet
		u.set(s.spans())
		u.unionRuns(ProcSet{p: &procRuns{r: o.spans()}})
		s.own()
		s.assign(u.p.r)
	}
}

// Subtract removes every processor of o from s.
func (s *ProcSet) Subtract(o ProcSet) {
	switch {
	case s.isBits() && o.isBits():
		for i, w := range o.p.w {
			if i < len(s.p.w) {
				s.p.w[i] &^= w
			}
		}
	case s.isRuns() && o.isRuns():
		s.subtractRuns(o)
	default:
		s.assign(diff(nil, s.spans(), o.spans()))
	}
}

// Clone returns an independent copy of s.
func (s ProcSet) Clone() ProcSet {
	switch {
	case s.p == nil:
		return ProcSet{}
	case s.p.bits:
		return ProcSet{p: &procRuns{bits: true, w: append([]uint64(nil), s.p.w...)}}
	}
	return ProcSet{p: &procRuns{r: append([]span(nil), s.p.r...), n: s.p.n}}
}

// TakeLowest moves the k lowest-numbered processors of s into a new set of
// the same form and returns it. It reports false, leaving s unchanged,
// when s has fewer than k processors.
func (s *ProcSet) TakeLowest(k int) (ProcSet, bool) {
	if !s.isBits() {
		return s.takeLowestRuns(k)
	}
	if s.Len() < k {
		return ProcSet{}, false
	}
	sw := s.p.w
	out := ProcSet{p: &procRuns{bits: true, w: make([]uint64, len(sw))}}
	ow := out.p.w
	for i := 0; i < len(sw) && k > 0; i++ {
		w := sw[i]
		if c := bits.OnesCount64(w); c <= k {
			ow[i] = w
			sw[i] = 0
			k -= c
			continue
		}
		for k > 0 {
			b := w & -w
			ow[i] |= b
			w &^= b
			k--
		}
		sw[i] = w
	}
	return out, true
}

// Each calls f for every processor in the set, in increasing order.
func (s ProcSet) Each(f func(i int)) {
	if !s.isBits() {
		s.eachRuns(f)
		return
	}
	for wi, w := range s.p.w {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(wi*64 + b)
			w &= w - 1
		}
	}
}

// EachRun calls f for every maximal run of consecutive processors
// lo..hi-1 in the set, in increasing order: on a large machine its cost
// follows the number of runs, not of processors.
func (s ProcSet) EachRun(f func(lo, hi int)) {
	if !s.isBits() {
		for _, x := range s.runs() {
			f(int(x.lo), int(x.hi))
		}
		return
	}
	// A bitset's runs are found word by word, without making them.
	w := s.p.w
	n := len(w) * 64
	for i := 0; i < n; {
		x := w[i>>6] >> (uint(i) & 63) // bits i.. of i's word
		if x == 0 {
			i = (i>>6 + 1) << 6
			continue
		}
		i += bits.TrailingZeros64(x)
		lo := i
		for i < n {
			// The clear bits i.. of i's word; the shift's zeros stand
			// for processors past the word, looked at next.
			y := ^w[i>>6] >> (uint(i) & 63)
			if y == 0 {
				i = (i>>6 + 1) << 6
				continue
			}
			i += bits.TrailingZeros64(y)
			break
		}
		f(lo, min(i, n))
	}
}

// AddRange puts processors lo..hi-1 in the set (none when hi <= lo).
func (s *ProcSet) AddRange(lo, hi int) {
	if hi <= lo {
		return
	}
	if !s.isBits() {
		s.own()
		s.addRun(span{int32(lo), int32(hi)})
		return
	}
	for i := lo; i < hi; i++ {
		s.Add(i)
	}
}

// String returns the set as ranges, for example "{0-3,8,10-11}".
func (s ProcSet) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for k, x := range s.spans() {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(x.lo)))
		if x.hi-1 > x.lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(int(x.hi - 1)))
		}
	}
	b.WriteByte('}')
	return b.String()
}

// SetDiff makes s the processors of a that are not in b, in a's form,
// reusing s's storage where it can.
func (s *ProcSet) SetDiff(a, b ProcSet) {
	switch {
	case a.isBits() && (b.isBits() || b.Empty()) && (s.p == nil || s.p != b.p || len(b.p.w) == len(a.p.w)):
		s.own()
		if s.p != a.p && (!s.p.bits || len(s.p.w) != len(a.p.w)) {
			s.p.bits, s.p.r, s.p.n = true, nil, 0
			s.p.w = make([]uint64, len(a.p.w))
		}
		for i := range s.p.w {
			x := a.p.w[i]
			if b.isBits() && i < len(b.p.w) {
				x &^= b.p.w[i]
			}
			s.p.w[i] = x
		}
	case a.isRuns() && b.isRuns():
		s.setDiffRuns(a, b)
	case a.isRuns():
		s.own()
		s.set(diff(nil, a.runs(), b.spans()))
	default:
		r := diff(nil, a.spans(), b.spans())
		s.own()
		if !s.p.bits || len(s.p.w) != len(a.p.w) {
			s.p.bits, s.p.r, s.p.n = true, nil, 0
			s.p.w = make([]uint64, len(a.p.w))
		}
		s.assign(r)
	}
}

// Next returns the lowest processor of the set at or above i, or -1 when
// there is none.
func (s ProcSet) Next(i int) int {
	if !s.isBits() {
		return s.nextRuns(i)
	}
	if i < 0 {
		i = 0
	}
	sw := s.p.w
	for wi := i >> 6; wi < len(sw); wi++ {
		w := sw[wi]
		if wi == i>>6 {
			w &= ^uint64(0) << (uint(i) & 63)
		}
		if w != 0 {
			return wi*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}
