package sim

import (
	"slices"
	"sort"
)

// Compression that visits cheaply the reservations that cannot move.
//
// [Profile.Compress] checks every reservation with a scan of the profile
// from now to its start. With a long queue (conservative backfilling at
// high load) that scan, repeated for every waiting job at every early end,
// is quadratic and dominates the simulation. [Compaction] tracks the
// places where processors were given back since every reservation was
// last known to sit at its earliest start, and skips, with an O(1) test,
// every reservation that cannot use them.
//
// Why the test is exact. Let reservation j (Procs P, Dur D, Start s) sit
// at its earliest start at some moment: no t in [now, s) has P processors
// free during [t, s) up to t+D (the part of the window from s on is j's
// own). From then on the profile changes by reservations (processors
// taken: no new room) and releases (processors given back, over a set U
// of times). If j can later start at some t < s, then either
//   - the step just before s now has P free (the run of wide steps ends at
//     s, so j fits just before it): that step gained processors, so s-1 is
//     in U; or
//   - some maximal run of steps with at least P free, starting before s,
//     is at least D long, and (as it was too short or too narrow before) it
//     contains a time in U.
// For every release the Compaction records an upper bound, for every
// processor count P, on the length of any run of steps with at least P
// free that overlaps the released interval, and the earliest start and
// latest end of such runs (computed just after the release; a run that
// later grows does so through a later release, which records its own
// bound). The two cases are then checked apart:
//   - the run ending at s: only when s is at most the latest released
//     end and the step before s has P free; j can then start at that
//     run's start (a walk back from s);
//   - a run of D or more: only when D is at most the bound for P. The
//     scan looks for the first such run, from the earliest start of the
//     new runs at P on, up to the start found for the run ending at s,
//     and gives up past the latest end of the new runs. A scan that finds
//     nothing is remembered for P (a memo): no new run at P longer than
//     the longest run it passed (shorter than D) starts before its limit.
//     Reservations only shorten runs, so the memo holds until a release
//     records a run at least P high, at least that long, starting before
//     the limit. A later scan at P, in the same compression, folds in the
//     runs recorded since (each one either moves the memo's limit back to
//     its start or makes the memo's duration longer than it) and, when
//     its D is at least the memo's duration, starts at the memo's limit.
//     Only runs that start before the latest limit of the compression's
//     memos are kept for that (a memo with more than 1024 of them to fold
//     in is dropped).
// Most reservations pass neither test and cost a comparison or two. The
// bound costs a walk over the steps around each release, from the last
// full step before it to the first full step after it, and an update of
// the levels whose bound it raises (len, first and last are monotone in
// the level, so the update stops at the first level it does not change).
//
// When is "at its earliest start" known? A reservation made by
// [Profile.EarliestStart], or re-placed by a compression, is at its
// earliest at that moment. In start order (see Compress) a compression
// leaves every reservation at its earliest: the reservation moved after
// reservation j started at or after j's old start, so it frees nothing
// before j's new start. So in start order only the releases since the
// last compression count. In queue order a later job may move away from
// before an earlier one's start, so the releases of the last compression
// count too (the Compaction carries them over).

// Compaction compresses a profile like [Profile.Compress], skipping the
// reservations that cannot move. The policy tells it of every release
// made between compressions ([Compaction.Released]) and must not change
// the profile otherwise except by reserving. The zero value is ready for
// start order; set Carry for any other order.
type Compaction struct {
	// Carry keeps the releases of the last compression in the bound of
	// the next one, as an order other than by start time needs.
	Carry bool

	// Moved holds, after [Profile.CompressWith], the indices of the
	// reservations it moved, in increasing order (the policy can then
	// re-sort only those).
	Moved []int

	pending []Reservation // releases since the last compression
	cur     runBound      // releases of this compression
	prev    runBound      // releases of the last one (with Carry)
	stack   []int         // scratch: steps of rising free counts
	runs    []run         // scratch: the runs of a bound
	ed      [2]edit       // scratch: the two changes of a slide
	near    int           // the step last looked up

	// A long scan that found nothing is remembered per processor count
	// until a run that could change its answer is recorded, within the
	// compression.
	acts     []run  // the runs recorded that can change a memo, in order
	epoch    int    // compressions made
	memo     []memo // by processor count
	memoUpTo Time   // the latest limit of the compression's memos
}

// memo records that, when n runs had been recorded (len(acts)), no new
// run of steps with at least its processor count free and at least dur
// long started before upTo. Reserving only shortens runs, so it stays
// true, in the compression it was made in (epoch), except for the runs
// recorded since: one as high and as long can start before upTo. A run
// that is new later either overlaps a release of then (the memo covers
// it) or a release recorded since.
type memo struct {
	epoch int // the compression it was made in (none: 0)
	dur   Time
	upTo  Time
	n     int
}

// maxMemoActs is the most runs a memo is checked against before it is
// dropped.
const maxMemoActs = 1024

// run is a run of steps with at least h free, from start to end (n long).
type run struct {
	h          int
	n          Time
	start, end Time
}

// runBound bounds, for every processor count, the length of runs of free
// steps that overlap some released times, and where they lie. Each bound
// is a monotone function of the processor count, kept as its steps, so
// that its cost follows the runs added, not the machine size.
type runBound struct {
	len   levelMax // len(P): longest run with >= P free (clamped at now)
	first levelMax // -first(P): earliest start of such a run (levels 1..max)
	last  levelMax // last(P): latest end of such a run (levels 1..max)
	max   int      // levels 1..max are set
	touch Time     // last released time + 1: starts after it never touch
	any   bool
}

// levelMax is a function of the level (1, 2, ...) that does not increase
// with it: the value of the first step whose upper level is at or above
// the level, base above the last step.
// On a machine of up to denseLevels processors it is an array with a
// value per level, the fastest to read.
type levelMax struct {
	dense []Time // the values by level when not nil; base above top
	top   int
	steps []levelStep
	base  Time
}

// denseLevels is the largest machine whose bounds are arrays.
const denseLevels = 4096

// levelStep is the value of a [levelMax] up to level up (from the
// previous step's up + 1).
type levelStep struct {
	up int
	v  Time
}

// at returns the value at level l.
func (f *levelMax) at(l int) Time {
	if f.dense != nil {
		if l > f.top {
			return f.base
		}
		return f.dense[l]
	}
	s := f.steps
	k := sort.Search(len(s), func(i int) bool { return s[i].up >= l })
	if k == len(s) {
		return f.base
	}
	return s[k].v
}

// raise makes the value at every level 1..h at least v.
func (f *levelMax) raise(h int, v Time) {
	if f.dense != nil {
		for l := f.top + 1; l <= h; l++ {
			f.dense[l] = f.base
		}
		f.top = max(f.top, h)
		for l := h; l >= 1 && f.dense[l] < v; l-- {
			f.dense[l] = v
		}
		return
	}
	s := f.steps
	k := sort.Search(len(s), func(i int) bool { return s[i].up >= h })
	if k < len(s) && s[k].v >= v || k == len(s) && f.base >= v {
		return // so is every level below h
	}
	// The levels below v up to h are a suffix of 1..h: the steps j..k-1
	// whole, and step k up to h.
	j := k
	for j > 0 && s[j-1].v < v {
		j--
	}
	end := k // step k goes on above h (or is base): keep it
	if k < len(s) && s[k].up == h {
		end = k + 1
	}
	if j > 0 && s[j-1].v == v {
		s[j-1].up = h
		f.steps = slices.Delete(s, j, end)
		return
	}
	f.steps = slices.Replace(s, j, end, levelStep{up: h, v: v})
}

// reset makes the value base at every level.
func (f *levelMax) reset(base Time) { f.steps, f.base, f.top = f.steps[:0], base, 0 }

// size makes f's form fit a machine of n processors.
func (f *levelMax) size(n int) {
	if n <= denseLevels && len(f.dense) < n+1 {
		f.dense = make([]Time, n+1)
	}
}

func (b *runBound) size(n int) {
	b.len.size(n)
	b.first.size(n)
	b.last.size(n)
}

func (b *runBound) reset() {
	b.len.reset(0)
	b.first.reset(-Never)
	b.last.reset(0)
	b.max, b.touch, b.any = 0, 0, false
}

// window returns the times between which a run of steps with at least
// procs free that is new since the bound was reset can lie (from > to
// when none can).
func (b *runBound) window(procs int) (from, to Time) {
	if !b.any || procs > b.max {
		return Never, 0
	}
	return -b.first.at(procs), b.last.at(procs)
}

// Released records that procs processors were given back during
// [start, start+dur) (a [Profile.Release] the policy made).
func (c *Compaction) Released(start, dur Time, procs int) {
	c.pending = append(c.pending, Reservation{Start: start, Dur: dur, Procs: procs})
}

// CompressWith moves n reservations earlier where the profile allows,
// taking them in index order, with the result of [Profile.Compress] (the
// same starts, the same profile) provided the policy kept c informed of its
// releases. It reports whether any start changed.
func (p *Profile) CompressWith(c *Compaction, now Time, n int, r func(i int) *Reservation) bool {
	c.begin(p)
	moved := false
	c.Moved = c.Moved[:0]
	for i := 0; i < n; i++ {
		rv := r(i)
		if rv.Start <= now || rv.Start == Never {
			continue
		}
		long := c.cur.allows(rv) || c.prev.allows(rv)
		touch := rv.Start <= max(c.cur.touch, c.prev.touch) && p.fitsJustBefore(c, rv)
		if !long && !touch {
			continue
		}
		at := rv.Start
		if touch {
			// The run of steps ending at rv.Start is new: rv fits from its
			// start on (the rest of its window is its own place).
			at = p.runStart(c.near, rv.Procs)
		}
		if long {
			at = p.earliestNewRun(c, now, at, rv)
		}
		if at == rv.Start {
			continue
		}
		p.move(c, i, rv, at)
		moved = true
	}
	return moved
}

// begin starts a compression of p: it resets the bound of this
// compression's releases (keeping the last one's with Carry) and the
// memos, and records the releases made since the last compression.
func (c *Compaction) begin(p *Profile) {
	c.cur.size(p.size)
	c.prev.size(p.size)
	if c.Carry {
		c.prev, c.cur = c.cur, c.prev
	} else {
		c.prev.reset()
	}
	c.cur.reset()
	// Memos hold within a compression; the runs recorded are those
	// that can change one.
	c.epoch++
	c.acts, c.memoUpTo = c.acts[:0], 0
	if len(c.memo) < p.size+1 {
		c.memo = make([]memo, p.size+1)
	}
	for _, rv := range c.pending {
		p.bound(&c.cur, c, rv.Start, rv.Start+rv.Dur, c.near)
	}
	c.pending = c.pending[:0]
}

// fitsJustBefore reports whether the step just before rv.Start has
// rv.Procs free, and leaves that step in c.near. In start order it is
// found from the last one looked up (the next one is at or after it).
func (p *Profile) fitsJustBefore(c *Compaction, rv *Reservation) bool {
	if c.Carry {
		c.near = p.index(rv.Start - 1)
	} else {
		c.near = p.indexNear(c.near, rv.Start-1)
	}
	return p.free[c.near] >= rv.Procs
}

// earliestNewRun returns the start of the first new run of rv.Dur or
// more steps with rv.Procs free before limit, or limit when there is
// none. Such a run lies in the windows of the two bounds, and not before
// the memo of the last scan at rv.Procs that found none (unless a run
// recorded since says otherwise); a scan that finds none leaves its memo.
func (p *Profile) earliestNewRun(c *Compaction, now, limit Time, rv *Reservation) Time {
	f1, t1 := c.cur.window(rv.Procs)
	f2, t2 := c.prev.window(rv.Procs)
	m := &c.memo[rv.Procs]
	// No new run at rv.Procs starts before from, or none of shorter or
	// more (when from is a memo's).
	from, shorter := c.applyMemo(m, rv, max(now, min(f1, f2)))
	at, longest := p.earliestLong(from, max(t1, t2), limit, rv)
	if at == limit {
		up := max(limit, from)
		*m = memo{epoch: c.epoch, dur: max(longest+1, shorter), upTo: up, n: len(c.acts)}
		c.memoUpTo = max(c.memoUpTo, up)
	}
	return at
}

// applyMemo returns where the scan for rv can start, from or later, and
// the duration no run from there on reaches (0 when from is unchanged):
// when m is of this compression and rv.Dur is at least its duration, the
// scan starts at its limit. The runs recorded since m was made are first
// folded in: each one either ends m at its start or makes m's duration
// longer than it, whichever keeps m for rv.
func (c *Compaction) applyMemo(m *memo, rv *Reservation, from Time) (Time, Time) {
	if m.epoch != c.epoch || len(c.acts)-m.n > maxMemoActs {
		return from, 0
	}
	for _, a := range c.acts[m.n:] {
		if a.h < rv.Procs || a.n < m.dur || a.start >= m.upTo {
			continue
		}
		if a.n >= rv.Dur {
			m.upTo = a.start
		} else {
			m.dur = a.n + 1
		}
	}
	m.n = len(c.acts)
	if rv.Dur >= m.dur && m.upTo > from {
		return m.upTo, m.dur
	}
	return from, 0
}

// move slides reservation i, rv, to start at at, lists it in c.Moved and
// records the processors that came free where its old place does not
// overlap the new.
func (p *Profile) move(c *Compaction, i int, rv *Reservation, at Time) {
	old := rv.Start
	near := p.slide(c, rv, at, c.near)
	rv.Start = at
	c.Moved = append(c.Moved, i)
	p.bound(&c.cur, c, max(old, at+rv.Dur), old+rv.Dur, near)
}

// slide moves rv, which is in the profile, to start at at (before
// rv.Start, at or after the origin; hint is a step near both): the same
// profile as releasing rv and reserving it at at, but only the steps
// where the two places differ are touched (a job that moves a little
// earlier changes a few steps, however long it is). The two changes (the
// new place before the old one, the uncovered tail of the old place) are
// planned apart and written together, so that the steps after them move
// only when their number changes; the steps between them, when they
// share a step, are changed one after the other instead. It returns a
// step near the start of the uncovered tail, max(rv.Start, at+rv.Dur),
// after the change.
func (p *Profile) slide(c *Compaction, rv *Reservation, at Time, hint int) int {
	old, end := rv.Start, rv.Start+rv.Dur
	e1, s2 := min(at+rv.Dur, old), max(old, at+rv.Dur)
	if at < e1 && s2 < end {
		i := p.indexNear(hint, at)
		p.plan(&c.ed[0], i, at, e1, -rv.Procs)
		p.plan(&c.ed[1], p.indexNear(i, s2), s2, end, rv.Procs)
		if c.ed[0].hi <= c.ed[1].lo {
			p.apply(&c.ed[0], &c.ed[1])
			// The tail's window, moved by the change of the first.
			return c.ed[1].lo + len(c.ed[0].out) - (c.ed[0].hi - c.ed[0].lo)
		}
	}
	// Neither edit can fail: the new place had room with rv's own
	// processors counted free, and the tail given back is rv's.
	if at < e1 {
		_ = p.addAt(p.indexNear(hint, at), at, e1, -rv.Procs)
	}
	if s2 < end {
		hint = p.indexNear(hint, s2)
		_ = p.addAt(hint, s2, end, rv.Procs)
	}
	return hint
}

// indexNear is index(t) (t >= origin), searched from step h outwards:
// O(log d) for a step d away from h.
func (p *Profile) indexNear(h int, t Time) int {
	n := len(p.times)
	h = min(max(h, 0), n-1)
	var lo, hi int // times[lo] <= t < times[hi] (hi = n: past the end)
	if p.times[h] <= t {
		lo, hi = h, h+1
		for d := 1; hi < n && p.times[hi] <= t; d *= 2 {
			lo, hi = hi, min(hi+d, n)
		}
	} else {
		lo, hi = h-1, h
		for d := 1; p.times[lo] > t; d *= 2 {
			lo, hi = max(lo-d, 0), lo
		}
	}
	return p.search(lo, hi, t)
}

// earliestWithin is earliestWithout(from, rv) when every time at which
// rv could start earlier lies in a run of steps (with rv.Procs free) that
// overlaps [from, to): the scan starts at from and gives up, keeping
// rv.Start, once it is past to and outside a run. With to = Never it is
// earliestWithout, which is written as that call.
func (p *Profile) earliestWithin(from, to Time, rv *Reservation) Time {
	s, procs, dur := rv.Start, rv.Procs, rv.Dur
	from = max(from, p.times[0])
	if from >= s || from >= to {
		return s
	}
	i := p.index(from)
	cand := Never
	for ; i < len(p.times) && p.times[i] < s; i++ {
		if p.free[i] < procs {
			if p.times[i] >= to {
				return s
			}
			cand = Never
			continue
		}
		if cand == Never {
			cand = max(p.times[i], from)
		}
		if i+1 == len(p.times) || p.times[i+1] >= s || p.times[i+1]-cand >= dur {
			return cand
		}
	}
	return s
}

// earliestLong returns the start of the first run of steps with at
// least rv.Procs free, rv.Dur long or more, that starts in [from, limit)
// (limit <= rv.Start), or limit when there is none. It gives up, returning
// limit, at a step without rv.Procs free at or after to. The caller
// guarantees that every such run that can hold rv starts at or after from
// and overlaps [from, to); a run that started before from is then shorter
// than rv.Dur, so from is taken as a run's start when it falls inside one.
// When it finds none it also returns the length of the longest run it
// passed (each shorter than rv.Dur, counted from from at the earliest),
// or rv.Dur-1 when a run was still open at limit: a memo made of the scan
// then holds for every duration longer than that.
func (p *Profile) earliestLong(from, to, limit Time, rv *Reservation) (at, longest Time) {
	procs, dur := rv.Procs, rv.Dur
	from = max(from, p.times[0])
	if from >= limit || from >= to {
		return limit, 0
	}
	i := p.index(from)
	cand := Never
	for ; i < len(p.times) && p.times[i] < limit; i++ {
		if p.free[i] < procs {
			if cand != Never {
				longest = max(longest, p.times[i]-cand)
			}
			if p.times[i] >= to {
				return limit, longest
			}
			cand = Never
			continue
		}
		if cand == Never {
			cand = max(p.times[i], from)
		}
		if i+1 == len(p.times) || p.times[i+1]-cand >= dur {
			return cand, 0
		}
	}
	if cand != Never {
		longest = dur - 1
	}
	return limit, longest
}

// runStart returns the start (at the origin at the earliest) of the run
// of steps with at least procs free that contains step i, which must have
// procs free.
func (p *Profile) runStart(i int, procs int) Time {
	for i > 0 && p.free[i-1] >= procs {
		i--
	}
	return p.times[i]
}

func (b *runBound) allows(rv *Reservation) bool {
	return b.any && rv.Procs <= b.max && rv.Dur <= b.len.at(rv.Procs)
}

// bound adds to b the runs of free steps that overlap [a, e) now. Every
// such run is the largest rectangle under the profile of its narrowest
// step (a run of steps with at least P free, whose least free count h is
// at least P), found as in the largest-rectangle-in-a-histogram algorithm
// (a stack of steps of rising free counts, each popped by the first step
// after it with no more free) over the steps from the last full step
// before a to the first full step after e. Only the rectangles that
// overlap [a, e) are wanted, so the steps on either side are not all
// pushed: the stack as the algorithm reaches a's step is the steps before
// it, back to the last full one, each with fewer free than every step
// after it up to a's (found by a walk back); after e's step only a step
// with no more free than every step from e's step on can make a
// rectangle that reaches back over e's step. len[P] becomes at least the
// longest rectangle with h >= P that overlaps [a, e). near is a step near
// a's, where the search for it starts.
func (p *Profile) bound(b *runBound, c *Compaction, a, e Time, near int) {
	a = max(a, p.times[0])
	if e <= a {
		return
	}
	b.any = true
	b.touch = max(b.touch, e)
	i0 := p.indexNear(near, a)
	i1 := p.indexNear(i0, e-1)
	free := p.free
	mx := 0
	for i := i0; i <= i1; i++ {
		mx = max(mx, free[i])
	}
	if mx == 0 {
		return
	}
	// The stack before i0: the steps back to the last full one with fewer
	// free than every later step before i0, pushed lowest first.
	st := c.stack[:0]
	lo, m := i0, p.size+1
	for ; lo > 0 && free[lo-1] > 0; lo-- {
		if free[lo-1] < m {
			m = free[lo-1]
			st = append(st, lo-1)
		}
	}
	slices.Reverse(st)
	rs := c.runs[:0]
	// pop pops the steps with at least f free off the stack, for step i,
	// and keeps the rectangles that overlap [a, e) (from i0+1 on, the
	// rectangle of every step popped reaches i0).
	pop := func(i, f int) {
		for len(st) > 0 && free[st[len(st)-1]] >= f {
			top := st[len(st)-1]
			st = st[:len(st)-1]
			h := free[top]
			if i <= i0 || h == 0 {
				continue
			}
			l := lo
			if len(st) > 0 {
				l = st[len(st)-1] + 1
			}
			start, end, n := p.times[l], Never, Never
			if i < len(p.times) {
				end = p.times[i]
				n = end - start
			}
			rs = append(rs, run{h, n, start, end})
			if start < c.memoUpTo {
				// A run starting after every memo's limit changes none.
				c.acts = append(c.acts, run{h, n, start, end})
			}
		}
	}
	for i := i0; i <= i1; i++ {
		pop(i, free[i])
		st = append(st, i)
	}
	// After i1 a step whose rectangle reaches back over i1 has no more
	// free than every step from i1 on; the others are left out.
	least := free[i1]
	for i := i1 + 1; ; i++ {
		f := 0
		if i < len(free) {
			f = free[i]
		}
		if f > least {
			continue
		}
		least = f
		pop(i, f)
		if f == 0 {
			break
		}
		st = append(st, i)
	}
	// A rectangle is popped after those it contains: taken in reverse,
	// each one's walk down the levels stops where its container, already
	// added, covers it.
	for k := len(rs) - 1; k >= 0; k-- {
		r := &rs[k]
		b.add(r.h, r.n, r.start, r.end)
	}
	c.stack, c.runs = st[:0], rs[:0]
}

// add records a run of n seconds, from start to end, with h free: it
// counts for every level 1..h. len and last are non-increasing in the
// level and first is non-decreasing (a run at a level is one at every
// lower level), so the update is a walk down from h that stops at the
// first level the run changes nothing at: O(levels changed), not
// O(machine size).
func (b *runBound) add(h int, n, start, end Time) {
	b.len.raise(h, n)
	b.first.raise(h, -start)
	b.last.raise(h, end)
	b.max = max(b.max, h)
}

// edit is a change of free processors by delta during [start, end), as a
// window of steps: the steps lo..hi-1 are replaced by out (canonical: no
// two equal neighbours, and none equal to its neighbours outside the
// window).
type edit struct {
	lo, hi int
	out    []Time
	outF   []int
}

// plan computes e for a change of delta during [start, end) (origin <=
// start < end), given i = index(start), without changing p. The window
// reaches from the step before start (when start is a breakpoint, for a
// merge) to the step at end (when end is one), so that merging inside it
// makes the whole profile canonical.
func (p *Profile) plan(e *edit, i int, start, end Time, delta int) {
	e.out, e.outF = e.out[:0], e.outF[:0]
	n := len(p.times)
	e.lo = i
	if p.times[i] == start && i > 0 {
		e.lo = i - 1
	}
	push := func(t Time, f int) {
		if k := len(e.outF); k > 0 && e.outF[k-1] == f {
			return
		}
		e.out = append(e.out, t)
		e.outF = append(e.outF, f)
	}
	for k := e.lo; k < i; k++ {
		push(p.times[k], p.free[k])
	}
	if p.times[i] < start {
		push(p.times[i], p.free[i])
	}
	j := i
	for ; j < n && p.times[j] < end; j++ {
		push(max(p.times[j], start), p.free[j]+delta)
	}
	e.hi = j
	if end != Never {
		if j < n && p.times[j] == end {
			push(end, p.free[j])
			e.hi = j + 1
		} else {
			push(end, p.free[j-1])
		}
	}
}

// apply replaces the windows of a and b (a's before b's, not sharing a
// step) by their new steps. Only the steps between the windows, and those
// after b's when the length changes, are moved.
func (p *Profile) apply(a, b *edit) {
	d1, d2 := len(a.out)-(a.hi-a.lo), len(b.out)-(b.hi-b.lo)
	n := len(p.times)
	if d := d1 + d2; d > 0 {
		for range d {
			p.times = append(p.times, 0)
			p.free = append(p.free, 0)
		}
		copy(p.times[b.hi+d:], p.times[b.hi:n])
		copy(p.free[b.hi+d:], p.free[b.hi:n])
		copy(p.times[a.hi+d1:], p.times[a.hi:b.lo])
		copy(p.free[a.hi+d1:], p.free[a.hi:b.lo])
	} else {
		copy(p.times[a.hi+d1:], p.times[a.hi:b.lo])
		copy(p.free[a.hi+d1:], p.free[a.hi:b.lo])
		if d < 0 {
			copy(p.times[b.hi+d:], p.times[b.hi:n])
			copy(p.free[b.hi+d:], p.free[b.hi:n])
			p.times = p.times[:n+d]
			p.free = p.free[:n+d]
		}
	}
	copy(p.times[a.lo:], a.out)
	copy(p.free[a.lo:], a.outF)
	copy(p.times[b.lo+d1:], b.out)
	copy(p.free[b.lo+d1:], b.outF)
}
