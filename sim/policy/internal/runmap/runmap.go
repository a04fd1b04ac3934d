// Package runmap keeps a function from processor number to a value as
// its runs of processors with one value, so that its cost follows the
// runs of the jobs' processor sets, not the machine size: a policy that
// counts or names the jobs on each processor of a 2^20-processor machine
// keeps a few runs per job instead of an entry per processor.
package runmap

import (
	"slices"
	"sort"
)

// Run is the value V of processors Lo..Hi-1.
type Run struct{ Lo, Hi, V int32 }

// Map is a function from processor number to a value, kept as its runs of
// equal values other than a default (sorted, disjoint): the processors
// outside every run have the default.
// The zero value maps every processor to 0.
type Map struct {
	s   []Run
	def int32
	out []Run // scratch for Update
}

// Reset maps every processor to def, keeping the memory of the runs.
func (m *Map) Reset(def int32) {
	m.s = m.s[:0]
	m.def = def
}

// Default returns the value of the processors outside every run.
func (m *Map) Default() int32 { return m.def }

// Runs returns the runs of values other than the default, in order. The
// slice is the map's own: it is valid until the next Update or Reset and
// must not be modified.
func (m *Map) Runs() []Run { return m.s }

// At returns the value of processor i.
func (m *Map) At(i int) int32 {
	s := m.s
	k := sort.Search(len(s), func(k int) bool { return int(s[k].Hi) > i })
	if k < len(s) && int(s[k].Lo) <= i {
		return s[k].V
	}
	return m.def
}

// Update sets the value of every processor lo..hi-1 to f of its value, and
// calls each, if not nil, with every run of the range and its new value,
// in increasing order (the runs cover lo..hi-1; two may share a value).
func (m *Map) Update(lo, hi int32, f func(v int32) int32, each func(lo, hi, v int32)) {
	s := m.s
	j := sort.Search(len(s), func(k int) bool { return s[k].Hi > lo })
	out := m.out[:0]
	put := func(x Run) {
		if x.Hi <= x.Lo {
			return
		}
		if n := len(out); n > 0 && out[n-1].Hi == x.Lo && out[n-1].V == x.V {
			out[n-1].Hi = x.Hi
			return
		}
		out = append(out, x)
	}
	k := j
	at := lo
	if k < len(s) && s[k].Lo < lo {
		put(Run{s[k].Lo, lo, s[k].V}) // the part of the first run before lo
	}
	for ; k < len(s) && s[k].Lo < hi; k++ {
		x := s[k]
		if x.Lo > at { // a gap of default values
			v := f(m.def)
			if each != nil {
				each(at, x.Lo, v)
			}
			if v != m.def {
				put(Run{at, x.Lo, v})
			}
		}
		a, b := max(x.Lo, lo), min(x.Hi, hi)
		v := f(x.V)
		if each != nil {
			each(a, b, v)
		}
		if v != m.def {
			put(Run{a, b, v})
		}
		put(Run{hi, x.Hi, x.V}) // the part of the last run after hi
		at = b
	}
	if at < hi {
		v := f(m.def)
		if each != nil {
			each(at, hi, v)
		}
		if v != m.def {
			put(Run{at, hi, v})
		}
	}
	m.s = slices.Replace(s, j, k, out...)
	m.out = out[:0]
}
