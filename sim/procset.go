package sim

import (
	"math/bits"
	"strconv"
	"strings"
)

// ProcSet is a set of processor numbers 0..n-1 as a bitset. The zero value
// is the empty set. A ProcSet owned by a [Task] must not be modified by a
// policy.
type ProcSet struct {
	w []uint64
}

// NewProcSet returns a set able to hold processors 0..n-1, all absent.
func NewProcSet(n int) ProcSet { return ProcSet{w: make([]uint64, (n+63)/64)} }

// FullProcSet returns the set {0..n-1}.
func FullProcSet(n int) ProcSet {
	s := NewProcSet(n)
	for i := 0; i < n; i++ {
		s.Add(i)
	}
	return s
}

// Add puts processor i in the set.
func (s *ProcSet) Add(i int) { s.w[i>>6] |= 1 << (uint(i) & 63) }

// Remove takes processor i out of the set.
func (s *ProcSet) Remove(i int) { s.w[i>>6] &^= 1 << (uint(i) & 63) }

// Has reports whether processor i is in the set.
func (s ProcSet) Has(i int) bool {
	return i>>6 < len(s.w) && s.w[i>>6]&(1<<(uint(i)&63)) != 0
}

// Len returns the number of processors in the set.
func (s ProcSet) Len() int {
	n := 0
	for _, w := range s.w {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether the set holds no processor.
func (s ProcSet) Empty() bool {
	for _, w := range s.w {
		if w != 0 {
			return false
		}
	}
	return true
}

// Contains reports whether every processor of o is in s.
func (s ProcSet) Contains(o ProcSet) bool {
	for i, w := range o.w {
		if w == 0 {
			continue
		}
		if i >= len(s.w) || w&^s.w[i] != 0 {
			return false
		}
	}
	return true
}

// Overlaps reports whether s and o share a processor.
func (s ProcSet) Overlaps(o ProcSet) bool {
	n := min(len(s.w), len(o.w))
	for i := 0; i < n; i++ {
		if s.w[i]&o.w[i] != 0 {
			return true
		}
	}
	return false
}

// Union adds every processor of o to s.
func (s *ProcSet) Union(o ProcSet) {
	for i, w := range o.w {
		s.w[i] |= w
	}
}

// Subtract removes every processor of o from s.
func (s *ProcSet) Subtract(o ProcSet) {
	for i, w := range o.w {
		if i < len(s.w) {
			s.w[i] &^= w
		}
	}
}

// Clone returns an independent copy of s.
func (s ProcSet) Clone() ProcSet { return ProcSet{w: append([]uint64(nil), s.w...)} }

// TakeLowest moves the k lowest-numbered processors of s into a new set of
// the same capacity and returns it. It reports false, leaving s unchanged,
// when s has fewer than k processors.
func (s *ProcSet) TakeLowest(k int) (ProcSet, bool) {
	if s.Len() < k {
		return ProcSet{}, false
	}
	out := ProcSet{w: make([]uint64, len(s.w))}
	for i := 0; i < len(s.w) && k > 0; i++ {
		w := s.w[i]
		if c := bits.OnesCount64(w); c <= k {
			out.w[i] = w
			s.w[i] = 0
			k -= c
			continue
		}
		for k > 0 {
			b := w & -w
			out.w[i] |= b
			w &^= b
			k--
		}
		s.w[i] = w
	}
	return out, true
}

// Each calls f for every processor in the set, in increasing order.
func (s ProcSet) Each(f func(i int)) {
	for wi, w := range s.w {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(wi*64 + b)
			w &= w - 1
		}
	}
}

// String returns the set as ranges, for example "0-3,8,10-11".
func (s ProcSet) String() string {
	var b strings.Builder
	b.WriteByte('{')
	first, prev, start := true, -2, -2
	flush := func() {
		if start < 0 {
			return
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Itoa(start))
		if prev > start {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(prev))
		}
	}
	s.Each(func(i int) {
		if i != prev+1 {
			flush()
			start = i
		}
		prev = i
	})
	flush()
	b.WriteByte('}')
	return b.String()
}

// SetDiff makes s the processors of a that are not in b, reusing s's
// storage when it has a's capacity.
func (s *ProcSet) SetDiff(a, b ProcSet) {
	if len(s.w) != len(a.w) {
		s.w = make([]uint64, len(a.w))
	}
	for i := range s.w {
		s.w[i] = a.w[i]
		if i < len(b.w) {
			s.w[i] &^= b.w[i]
		}
	}
}

// Next returns the lowest processor of the set at or above i, or -1 when
// there is none.
func (s ProcSet) Next(i int) int {
	if i < 0 {
		i = 0
	}
	for wi := i >> 6; wi < len(s.w); wi++ {
		w := s.w[wi]
		if wi == i>>6 {
			w &= ^uint64(0) << (uint(i) & 63)
		}
		if w != 0 {
			return wi*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}
