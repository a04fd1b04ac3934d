package qops

import (
	"cmp"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// entry is an admitted waiting job and its reservation.
type entry struct {
	t        *sim.Task
	start    sim.Time // reserved start
	deadline sim.Time // deadline it must end by (sim.Never: none yet)
}

func (e *entry) end() sim.Time { return e.start + e.t.Estimate }

// byStart orders a schedule's positions: by reserved start, ties by
// arrival index.
func byStart(a, b entry) int {
	if a.start != b.start {
		return cmp.Compare(a.start, b.start)
	}
	return cmp.Compare(a.t.Index, b.t.Index)
}

// plan is a schedule of admitted waiting jobs in position order together
// with the profile of the running jobs and those reservations.
type plan struct {
	q    []entry
	prof *sim.Profile
}

// inserter runs Original_QoPS (Figure 1). Its scratch slices and the
// plans it hands out are reused between calls: a plan the caller no
// longer needs goes back with [inserter.put].
type inserter struct {
	// m ends the run when a profile edit fails (see [sim.Machine.Check]).
	m           *sim.Machine
	now         sim.Time
	size        int
	k           int
	leastLaxity bool
	newJobFirst bool
	pointNOnly  bool
	plain       bool
	checkBase   bool
	tl, rest    []entry
	moved       []entry
	order       []int32 // positions of the base schedule in list order
	pool        []plan
	memos       []memo
	// badBases counts, with checkBase, the base plans whose profile was
	// not the running jobs' profile plus their reservations.
	badBases int
	// Statistics: calls and the schedule sizes N seen.
	calls, sumN, maxN int
}

// get returns a plan whose storage may be reused.
func (in *inserter) get() plan {
	if n := len(in.pool); n > 0 {
		pl := in.pool[n-1]
		in.pool = in.pool[:n-1]
		return pl
	}
	return plan{prof: sim.NewProfile(in.size, 0)}
}

// put takes back a plan the caller no longer uses.
func (in *inserter) put(pl plan) {
	if pl.prof == nil {
		return
	}
	clear(pl.q)
	in.pool = append(in.pool, plan{q: pl.q[:0], prof: pl.prof})
}

// key is the temporary list's sort key: the deadline, or the laxity
// (deadline - estimate) with least_laxity.
func (in *inserter) key(e *entry) sim.Time {
	if in.leastLaxity && e.deadline != sim.Never {
		return e.deadline - e.t.Estimate
	}
	return e.deadline
}

// cmpTL is the temporary list's order: by key, ties by submit, then by
// index. It is total: two entries of different jobs never compare equal.
func (in *inserter) cmpTL(a, b *entry) int {
	if c := cmp.Compare(in.key(a), in.key(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.t.Submit, b.t.Submit); c != 0 {
		return c
	}
	return cmp.Compare(a.t.Index, b.t.Index)
}

// sortTL sorts the temporary list by [inserter.cmpTL].
func (in *inserter) sortTL(tl []entry) {
	slices.SortFunc(tl, func(a, b entry) int { return in.cmpTL(&a, &b) })
}

// mergeTL appends to dst the merge of a and b, both sorted by
// [inserter.cmpTL], and returns it: the sort of a and b together, since
// the order is total.
func (in *inserter) mergeTL(dst, a, b []entry) []entry {
	for len(a) > 0 && len(b) > 0 {
		if in.cmpTL(&a[0], &b[0]) < 0 {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}

// sortBase sets in.order to the positions of base in list order, so
// that each insertion point takes its later jobs in that order instead
// of sorting them again.
func (in *inserter) sortBase(base []entry) {
	in.order = in.order[:0]
	for i := range base {
		in.order = append(in.order, int32(i))
	}
	slices.SortFunc(in.order, func(a, b int32) int { return in.cmpTL(&base[a], &base[b]) })
}

// checkProfile counts base as bad when its profile is not run plus the
// reservations of base.q: the invariant that lets an insertion point
// build its profile from either side.
func (in *inserter) checkProfile(base plan, run *sim.Profile) {
	c := run.Clone()
	for _, e := range base.q {
		if c.Reserve(e.start, e.t.Estimate, e.t.Procs) != nil {
			in.badBases++
			return
		}
	}
	if c.String() != base.prof.String() {
		in.badBases++
	}
}

// points returns the insertion points p_k = N - floor(N/2^k), k = 0, 1,
// ...: 0, N/2, 3N/4, ..., ending with N, each once.
func points(n int) []int {
	out := []int{0}
	for d := n; d > 0; d /= 2 {
		if p := n - d/2; p != out[len(out)-1] {
			out = append(out, p)
		}
	}
	return out
}

// insert tries to admit j (with j.deadline set) into base: the insertion
// points in increasing order, each from base, as alternatives. It
// returns the first feasible plan (base is left unchanged) and true, or
// false when every point fails. run is the profile of the running jobs
// alone: when j cannot end by its deadline even there, every point fails
// (j violates its deadline wherever it is placed, until more than K
// violations), and insert says so at once.
func (in *inserter) insert(base plan, run *sim.Profile, j entry) (plan, bool) {
	n := len(base.q)
	in.calls++
	in.sumN += n
	in.maxN = max(in.maxN, n)
	if j.deadline != sim.Never && run.EarliestStart(in.now, j.t.Procs, j.t.Estimate)+j.t.Estimate > j.deadline {
		return plan{}, false
	}
	if in.checkBase {
		in.checkProfile(base, run)
	}
	if !in.plain {
		in.sortBase(base.q)
	}
	pts := points(n)
	if in.pointNOnly {
		pts = []int{n}
	}
	for _, p := range pts {
		if got, ok := in.tryPoint(base, run, j, p); ok {
			return got, true
		}
	}
	return plan{}, false
}

// tryPoint is one insertion point p of Figure 1. base.prof must be run
// plus the reservations of base.q, and with !in.plain, in.order must be
// base.q's list order ([inserter.sortBase]).
//
// It keeps base.q[:p] where they are, builds the point's profile and
// temporary list, and places the list. On success it returns the new
// plan and true; on failure the plan's storage goes back to the pool and
// it returns false. Either way base is left unchanged and in.tl keeps
// the list's storage for the next point.
func (in *inserter) tryPoint(base plan, run *sim.Profile, j entry, p int) (plan, bool) {
	pl := in.get()
	sched := append(pl.q[:0], base.q[:p]...)
	in.memos = in.memos[:0]
	in.pointProfile(pl.prof, base, run, p)
	tl := in.pointList(base.q, j, p)
	sched, tl, ok := in.place(pl.prof, sched, tl, p)
	in.tl = tl
	if !ok {
		in.put(plan{q: sched, prof: pl.prof})
		return plan{}, false
	}
	return plan{q: sched, prof: pl.prof}, true
}

// pointProfile sets prof to the profile of point p: the running jobs and
// the reservations of base.q[:p]. base.prof must be run plus the
// reservations of base.q. It is made from whichever side needs fewer
// edits (always base's side with in.plain): base's profile without the
// reservations of base.q[p:], or run with those of base.q[:p] (a profile
// is a merged step function, so both give the same steps).
func (in *inserter) pointProfile(prof *sim.Profile, base plan, run *sim.Profile, p int) {
	if in.plain || len(base.q)-p <= p {
		prof.CopyFrom(base.prof)
		for _, e := range base.q[p:] {
			in.m.Check(prof.Release(e.start, e.t.Estimate, e.t.Procs))
		}
		return
	}
	prof.CopyFrom(run)
	for _, e := range base.q[:p] {
		in.m.Check(prof.Reserve(e.start, e.t.Estimate, e.t.Procs))
	}
}

// pointList returns the temporary list of point p, built in in.tl's
// storage: base[p:] and j in list order ([inserter.cmpTL]), with j
// first instead at points after 0 under in.newJobFirst. With !in.plain,
// in.order must be base's list order.
func (in *inserter) pointList(base []entry, j entry, p int) []entry {
	if in.plain {
		return in.sortedList(base, j, p)
	}
	return in.mergedList(base, j, p)
}

// sortedList is [inserter.pointList] the plain way: it copies base[p:]
// and j into in.tl's storage and sorts them, then moves j to the front
// under in.newJobFirst when p > 0.
func (in *inserter) sortedList(base []entry, j entry, p int) []entry {
	tl := append(in.tl[:0], base[p:]...)
	tl = append(tl, j)
	in.sortTL(tl)
	if in.newJobFirst && p > 0 {
		i := slices.IndexFunc(tl, func(e entry) bool { return e.t == j.t })
		copy(tl[1:i+1], tl[:i])
		tl[0] = j
	}
	return tl
}

// mergedList is [inserter.pointList] without sorting: it takes the
// positions >= p of base in the list order in.order holds (set by
// [inserter.sortBase] for this base) and merges j in, or puts j first
// under in.newJobFirst when p > 0.
func (in *inserter) mergedList(base []entry, j entry, p int) []entry {
	tl := in.tl[:0]
	placed := in.newJobFirst && p > 0 // j goes first
	if placed {
		tl = append(tl, j)
	}
	for _, i := range in.order {
		if int(i) < p {
			continue
		}
		if !placed && in.cmpTL(&j, &base[i]) < 0 {
			tl, placed = append(tl, j), true
		}
		tl = append(tl, base[i])
	}
	if !placed {
		tl = append(tl, j)
	}
	return tl
}

// place runs the placement loop of point p (steps 3 and 4 of Figure 1):
// it reserves the head of tl at its earliest fit on prof and inserts it
// into sched by start, until tl is empty; a job that ends after its
// deadline is a violation, repaired by [inserter.repair]. Preconditions:
// sched holds base.q[:p] sorted by start; prof holds the running jobs
// and the reservations of sched; tl is the point's temporary list, in
// list order after its head; in.memos is empty. It returns sched and tl
// (for their storage) and whether the point succeeded: false after more
// than in.k violations, or at a violation that has nothing to move.
func (in *inserter) place(prof *sim.Profile, sched, tl []entry, p int) ([]entry, []entry, bool) {
	violations := 0
	head := 0 // tl[head:] is the list still to place
	for head < len(tl) {
		jc := tl[head]
		head++
		jc.start = in.earliest(prof, jc.t.Procs, jc.t.Estimate)
		in.m.Check(prof.Reserve(jc.start, jc.t.Estimate, jc.t.Procs))
		if jc.end() <= jc.deadline {
			i, _ := slices.BinarySearchFunc(sched, jc, byStart)
			sched = slices.Insert(sched, i, jc)
			continue
		}
		violations++
		if violations > in.k {
			return sched, tl, false
		}
		// T: the reservations starting at or before Jc's; they are
		// sched[:T]. Positions m..T-1 go back to the list with Jc.
		t := sortSearch(sched, jc.start)
		m := (p + t) / 2
		if m >= t {
			// Nothing to move: Jc would land on the same slot and
			// violate again until more than K violations.
			return sched, tl, false
		}
		sched, tl = in.repair(prof, sched, tl, head, jc, m, t)
		head = 0
	}
	return sched, tl, true
}

// repair handles a violation (step 4 of Figure 1): jc, the list's head
// tl[head-1] with its start set, is reserved on prof but not in sched.
// It releases jc and sched[m:t] from prof, drops sched[m:t] from sched,
// and returns sched and the new temporary list, built in tl's storage:
// jc, then the moved jobs and tl[head:] in list order (in.rest keeps the
// latter for its storage). It voids the point's memos. Preconditions:
// 0 < head <= len(tl); m < t <= len(sched); with !in.plain, tl[head:],
// the list still to place, is in list order.
func (in *inserter) repair(prof *sim.Profile, sched, tl []entry, head int, jc entry, m, t int) ([]entry, []entry) {
	in.memos = in.memos[:0] // releases void what the searches found
	in.m.Check(prof.Release(jc.start, jc.t.Estimate, jc.t.Procs))
	moved := sched[m:t]
	for i := range moved {
		in.m.Check(prof.Release(moved[i].start, moved[i].t.Estimate, moved[i].t.Procs))
	}
	var rest []entry
	if in.plain {
		rest = append(append(in.rest[:0], moved...), tl[head:]...)
		in.sortTL(rest)
	} else {
		// tl[head:] is still in list order: sort the moved jobs
		// alone and merge.
		in.moved = append(in.moved[:0], moved...)
		in.sortTL(in.moved)
		rest = in.mergeTL(in.rest[:0], in.moved, tl[head:])
	}
	sched = slices.Delete(sched, m, t)
	tl = append(append(tl[:0], jc), rest...)
	in.rest = rest
	return sched, tl
}

// sortSearch returns the number of entries of sched (sorted by start)
// that start at or before at.
func sortSearch(sched []entry, at sim.Time) int {
	i, _ := slices.BinarySearchFunc(sched, at, func(e entry, at sim.Time) int {
		if e.start <= at {
			return -1
		}
		return 1
	})
	return i
}

// maxMemos bounds the memos an insertion point keeps, so that looking
// them up stays cheaper than the scans they save; dropping one only
// makes a later search start earlier.
const maxMemos = 8

// memo is what one earliest-fit search from now found, valid while the
// profile only gains reservations: no run of procs free processors
// longer than longest starts in [now, at).
type memo struct {
	procs       int
	at, longest sim.Time
}

// earliest returns prof.EarliestStart(in.now, procs, dur) without
// scanning again what earlier searches of the same point passed since
// the last release. A search for at least procs processors and a
// duration above a memo's longest cannot end before the memo's at (the
// run it needs would have been found), and the earliest start from there
// is the earliest start from now. This is what keeps an insertion point
// from scanning the whole schedule for each job it places at its end.
// The memos are kept by decreasing at, without any that another memo
// makes useless (an at as late, for fewer or as many processors, with a
// longest as short), so the first that applies is the best.
func (in *inserter) earliest(prof *sim.Profile, procs int, dur sim.Time) sim.Time {
	if in.plain {
		return prof.EarliestStart(in.now, procs, dur)
	}
	from, known := in.now, sim.Time(0)
	for _, m := range in.memos {
		if m.procs <= procs && m.longest < dur {
			if m.at > from {
				from, known = m.at, m.longest
			}
			break
		}
	}
	at, longest := prof.EarliestRun(from, procs, dur)
	if at == sim.Never {
		return at
	}
	m := memo{procs: procs, at: at, longest: max(known, longest)}
	kept, pos := in.memos[:0], -1
	for _, o := range in.memos {
		if o.at >= m.at && o.procs <= m.procs && o.longest <= m.longest {
			return at // m adds nothing
		}
		if m.at >= o.at && m.procs <= o.procs && m.longest <= o.longest {
			continue // o adds nothing now
		}
		if pos < 0 && o.at < m.at {
			pos = len(kept)
		}
		kept = append(kept, o)
	}
	if pos < 0 {
		pos = len(kept)
	}
	if len(kept) == maxMemos {
		if pos == maxMemos {
			in.memos = kept
			return at
		}
		kept = kept[:maxMemos-1] // drop the earliest
	}
	in.memos = slices.Insert(kept, pos, m)
	return at
}
