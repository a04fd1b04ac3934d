package preempt

import (
	"slices"
	"sort"
)

// denseIndexMax is the largest machine whose processor index (the owner
// and the held count of each processor) is kept as arrays, one entry per
// processor. A larger machine keeps both as lists of runs of processors
// with one value (segMap), so that the index costs the runs of the jobs'
// sets, not the machine size. A variable so that tests can make small
// machines use the runs.
var denseIndexMax = 4096

// seg is the value v of processors lo..hi-1.
type seg struct{ lo, hi, v int32 }

// segMap is a function from processor number to a value, kept as its
// runs of equal values other than a default (sorted, disjoint): the
// processors outside every run have the default.
type segMap struct {
	s   []seg
	def int32
	out []seg // scratch for update
}

// at returns the value of processor i.
func (m *segMap) at(i int) int32 {
	s := m.s
	k := sort.Search(len(s), func(k int) bool { return int(s[k].hi) > i })
	if k < len(s) && int(s[k].lo) <= i {
		return s[k].v
	}
	return m.def
}

// update sets the value of every processor lo..hi-1 to f of its value, and
// calls each, if not nil, with every run of the range and its new value.
func (m *segMap) update(lo, hi int32, f func(v int32) int32, each func(lo, hi, v int32)) {
	s := m.s
	j := sort.Search(len(s), func(k int) bool { return s[k].hi > lo })
	out := m.out[:0]
	put := func(x seg) {
		if x.hi <= x.lo {
			return
		}
		if n := len(out); n > 0 && out[n-1].hi == x.lo && out[n-1].v == x.v {
			out[n-1].hi = x.hi
			return
		}
		out = append(out, x)
	}
	k := j
	at := lo
	if k < len(s) && s[k].lo < lo {
		put(seg{s[k].lo, lo, s[k].v}) // the part of the first run before lo
	}
	for ; k < len(s) && s[k].lo < hi; k++ {
		x := s[k]
		if x.lo > at { // a gap of default values
			v := f(m.def)
			if each != nil {
				each(at, x.lo, v)
			}
			if v != m.def {
				put(seg{at, x.lo, v})
			}
		}
		a, b := max(x.lo, lo), min(x.hi, hi)
		v := f(x.v)
		if each != nil {
			each(a, b, v)
		}
		if v != m.def {
			put(seg{a, b, v})
		}
		put(seg{hi, x.hi, x.v}) // the part of the last run after hi
		at = b
	}
	if at < hi {
		v := f(m.def)
		if each != nil {
			each(at, hi, v)
		}
		if v != m.def {
			put(seg{at, hi, v})
		}
	}
	m.s = slices.Replace(s, j, k, out...)
	m.out = out[:0]
}
