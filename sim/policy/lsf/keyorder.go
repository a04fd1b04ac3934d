package lsf

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// keyOrder keeps a decision's key sort of its candidates for the next
// decision. A candidate whose key has not changed since (a queued job's
// key changes only while it runs) keeps its place relative to the others
// that have not changed, so only the rest (running jobs, new arrivals)
// needs sorting, and the two sorted lists are merged: O(n + r log r) for
// n candidates of which r changed, instead of O(n log n).
type keyOrder struct {
	prev   []keyed  // the last sort, with the keys it used
	mark   []uint32 // per task index: gen (a candidate), gen+1 (kept)
	gen    uint32
	kept   []keyed
	fresh  []keyed
	merged []keyed
}

// sortByKey sorts ts by key, ties by arrival, as byKey does (which it
// calls instead with reference).
func (p *Policy) sortByKey(ts []*sim.Task) {
	if p.reference {
		p.byKey(ts)
		return
	}
	o := &p.order
	if n := p.m.NumTasks(); len(o.mark) < n {
		o.mark = make([]uint32, n)
	}
	o.gen += 2
	for _, t := range ts {
		o.mark[t.Index] = o.gen
	}
	kept := o.kept[:0]
	for _, e := range o.prev {
		if o.mark[e.t.Index] == o.gen && p.Key(e.t) == e.k {
			kept = append(kept, e)
			o.mark[e.t.Index] = o.gen + 1
		}
	}
	fresh := o.fresh[:0]
	for _, t := range ts {
		if o.mark[t.Index] == o.gen {
			fresh = append(fresh, keyed{p.Key(t), t})
		}
	}
	slices.SortFunc(fresh, cmpKeyed)
	merged := o.merged[:0]
	a, b := kept, fresh
	for len(a) > 0 && len(b) > 0 {
		if before(a[0], b[0]) {
			merged, a = append(merged, a[0]), a[1:]
		} else {
			merged, b = append(merged, b[0]), b[1:]
		}
	}
	merged = append(append(merged, a...), b...)
	for i := range merged {
		ts[i] = merged[i].t
	}
	clear(kept)
	clear(fresh)
	clear(o.prev)
	o.kept, o.fresh = kept[:0], fresh[:0]
	o.prev, o.merged = merged, o.prev[:0]
}
