package sim

import (
	"sort"
)

// runs returns the set's runs (nil for the zero value).
func (s ProcSet) runs() []span {
	if s.p == nil {
		return nil
	}
	return s.p.r
}

// own makes sure s has storage of its own to change.
func (s *ProcSet) own() {
	if s.p == nil {
		s.p = &procRuns{}
	}
}

// set replaces the set's runs with r (sorted, disjoint, not adjacent).
func (s *ProcSet) set(r []span) {
	s.own()
	n := 0
	for _, x := range r {
		n += int(x.hi - x.lo)
	}
	s.p.r, s.p.n, s.p.bits, s.p.w = r, n, false, nil
}

// find returns the index of the first run that ends after i (len when
// none does).
func find(r []span, i int) int {
	return sort.Search(len(r), func(k int) bool { return int(r[k].hi) > i })
}

// addRuns puts processor i in a set of runs.
func (s *ProcSet) addRuns(i int) {
	if s.hasRuns(i) {
		return
	}
	s.own()
	r := s.p.r
	k := find(r, i)
	v := int32(i)
	joinPrev := k > 0 && r[k-1].hi == v
	joinNext := k < len(r) && r[k].lo == v+1
	switch {
	case joinPrev && joinNext:
		r[k-1].hi = r[k].hi
		r = append(r[:k], r[k+1:]...)
	case joinPrev:
		r[k-1].hi = v + 1
	case joinNext:
		r[k].lo = v
	default:
		r = append(r, span{})
		copy(r[k+1:], r[k:])
		r[k] = span{v, v + 1}
	}
	s.p.r = r
	s.p.n++
}

// removeRuns takes processor i out of a set of runs.
func (s *ProcSet) removeRuns(i int) {
	if !s.hasRuns(i) {
		return
	}
	r := s.p.r
	k := find(r, i)
	v := int32(i)
	x := r[k]
	switch {
	case x.lo == v && x.hi == v+1:
		r = append(r[:k], r[k+1:]...)
	case x.lo == v:
		r[k].lo = v + 1
	case x.hi == v+1:
		r[k].hi = v
	default:
		r = append(r, span{})
		copy(r[k+1:], r[k:])
		r[k].hi = v
		r[k+1].lo = v + 1
	}
	s.p.r = r
	s.p.n--
}

// hasRuns reports whether processor i is in a set of runs.
func (s ProcSet) hasRuns(i int) bool {
	r := s.runs()
	k := find(r, i)
	return k < len(r) && int(r[k].lo) <= i
}

// containsRuns reports whether every processor of b is in a.
func containsRuns(a, b []span) bool {
	k := 0
	for _, x := range b {
		if k < len(a) && a[k].hi <= x.lo {
			k += find(a[k:], int(x.lo))
		}
		if k == len(a) || a[k].lo > x.lo || a[k].hi < x.hi {
			return false
		}
	}
	return true
}

// overlapsRuns reports whether a and b share a processor.
func overlapsRuns(a, b []span) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].hi <= b[j].lo:
			i += find(a[i:], int(b[j].lo))
		case b[j].hi <= a[i].lo:
			j += find(b[j:], int(a[i].lo))
		default:
			return true
		}
	}
	return false
}

// fewRuns is the most runs of another set that [ProcSet.Union] and
// [ProcSet.Subtract] apply one by one, in place; above it they merge
// the two lists into a new one.
const fewRuns = 8

// addRun adds the processors lo..hi-1 (not already a run of s) in place.
func (s *ProcSet) addRun(x span) {
	r := s.p.r
	// k: the first run that ends at or after x.lo (touches or follows it).
	k := sort.Search(len(r), func(i int) bool { return r[i].hi >= x.lo })
	e := k // runs k..e-1 touch x and merge with it
	had := 0
	for e < len(r) && r[e].lo <= x.hi {
		had += int(r[e].hi - r[e].lo)
		x.lo, x.hi = min(x.lo, r[e].lo), max(x.hi, r[e].hi)
		e++
	}
	switch {
	case e == k:
		r = append(r, span{})
		copy(r[k+1:], r[k:])
	case e > k+1:
		r = append(r[:k+1], r[e:]...)
	}
	r[k] = x
	s.p.r = r
	s.p.n += int(x.hi-x.lo) - had
}

// removeRun removes the processors lo..hi-1 of x from s in place.
func (s *ProcSet) removeRun(x span) {
	r := s.p.r
	k := find(r, int(x.lo))
	if k == len(r) || r[k].lo >= x.hi {
		return
	}
	if y := r[k]; y.lo < x.lo && y.hi > x.hi {
		// x splits the run in two.
		r = append(r, span{})
		copy(r[k+1:], r[k:])
		r[k].hi, r[k+1].lo = x.lo, x.hi
		s.p.r = r
		s.p.n -= int(x.hi - x.lo)
		return
	}
	removed := 0
	keep := k // runs before keep are kept
	if r[k].lo < x.lo {
		removed += int(r[k].hi - x.lo)
		r[k].hi = x.lo
		keep = k + 1
	}
	e := keep
	for e < len(r) && r[e].hi <= x.hi {
		removed += int(r[e].hi - r[e].lo)
		e++
	}
	if e < len(r) && r[e].lo < x.hi {
		removed += int(x.hi - r[e].lo)
		r[e].lo = x.hi
	}
	if e > keep {
		r = append(r[:keep], r[e:]...)
	}
	s.p.r = r
	s.p.n -= removed
}

// unionRuns adds every processor of o to s, a set of runs.
func (s *ProcSet) unionRuns(o ProcSet) {
	b := o.runs()
	if len(b) == 0 {
		return
	}
	if len(b) <= fewRuns && s.p != o.p {
		s.own()
		for _, x := range b {
			s.addRun(x)
		}
		return
	}
	a := s.runs()
	out := make([]span, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x span
		if j == len(b) || (i < len(a) && a[i].lo <= b[j].lo) {
			x = a[i]
			i++
		} else {
			x = b[j]
			j++
		}
		if n := len(out); n > 0 && x.lo <= out[n-1].hi {
			out[n-1].hi = max(out[n-1].hi, x.hi)
			continue
		}
		out = append(out, x)
	}
	s.set(out)
}

// diff appends the processors of a that are not in b to out, as runs.
func diff(out, a, b []span) []span {
	j := 0
	for _, x := range a {
		if j < len(b) && b[j].hi <= x.lo {
			j += find(b[j:], int(x.lo))
		}
		lo := x.lo
		for k := j; k < len(b) && b[k].lo < x.hi; k++ {
			if b[k].lo > lo {
				out = append(out, span{lo, b[k].lo})
			}
			lo = max(lo, b[k].hi)
		}
		if lo < x.hi {
			out = append(out, span{lo, x.hi})
		}
	}
	return out
}

// subtractRuns removes every processor of o from s, a set of runs.
func (s *ProcSet) subtractRuns(o ProcSet) {
	a, b := s.runs(), o.runs()
	if len(a) == 0 || len(b) == 0 {
		return
	}
	if len(b) <= fewRuns && s.p != o.p {
		for _, x := range b {
			s.removeRun(x)
		}
		return
	}
	s.set(diff(make([]span, 0, len(a)+len(b)), a, b))
}

// takeLowestRuns is [ProcSet.TakeLowest] for a set of runs: it moves the k lowest-numbered processors of s into a new set and
// returns it. It reports false, leaving s unchanged, when s has fewer than
// k processors.
func (s *ProcSet) takeLowestRuns(k int) (ProcSet, bool) {
	if s.Len() < k {
		return ProcSet{}, false
	}
	out := ProcSet{p: &procRuns{}}
	if k == 0 {
		return out, true
	}
	r := s.p.r
	i := 0
	for k > 0 {
		x := r[i]
		if c := int(x.hi - x.lo); c > k {
			out.p.r = append(out.p.r, span{x.lo, x.lo + int32(k)})
			r[i].lo += int32(k)
			out.p.n += k
			break
		}
		out.p.r = append(out.p.r, x)
		out.p.n += int(x.hi - x.lo)
		k -= int(x.hi - x.lo)
		i++
	}
	s.p.r = append(r[:0], r[i:]...)
	s.p.n -= out.p.n
	return out, true
}

// eachRuns is [ProcSet.Each] for a set of runs.
func (s ProcSet) eachRuns(f func(i int)) {
	for _, x := range s.runs() {
		for i := x.lo; i < x.hi; i++ {
			f(int(i))
		}
	}
}

// setDiffRuns makes s (becoming a set of runs) the processors of a that are not in b, reusing s's
// storage when it is neither a's nor b's.
func (s *ProcSet) setDiffRuns(a, b ProcSet) {
	s.own()
	var out []span
	if s.p != a.p && s.p != b.p {
		out = s.p.r[:0]
	}
	s.set(diff(out, a.runs(), b.runs()))
}

// nextRuns is [ProcSet.Next] for a set of runs.
func (s ProcSet) nextRuns(i int) int {
	if i < 0 {
		i = 0
	}
	r := s.runs()
	k := find(r, i)
	if k == len(r) {
		return -1
	}
	return max(i, int(r[k].lo))
}
