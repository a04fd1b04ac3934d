package backfill

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/internal/waitindex"
)

// EASY is aggressive backfilling with one reservation, for the first
// waiting job that does not fit.
type EASY struct {
	// Rank is the queue order (default [RankFCFS], arrival): the head job
	// is the first in it that does not fit.
	Rank Rank
	// BackfillSJF makes the backfill pass try the jobs behind the head in
	// order of increasing estimate (ties by arrival), EASY-SJBF, instead
	// of in queue order.
	BackfillSJF bool
	// Predict makes EASY plan with runtime predictions instead of the
	// users' estimates (EASY++; see the package doc). The estimates stay
	// the jobs' kill limits.
	Predict bool
	// Key, when set, orders the queue instead of Rank: smaller first,
	// ties by arrival, evaluated again at every scheduling instant (the
	// priority policy's multifactor priority).
	Key func(t *sim.Task, now sim.Time) float64

	m  *sim.Machine
	pr *predictor // with Predict
	// basis, when set (tests), sees every prediction and the jobs it
	// was made from.
	basis func(t *sim.Task, from []int)
	idx   waitindex.Index // the waiting jobs
	head  int             // no job before this arrival index is waiting
	run   runningEnds     // running jobs by planned end: the profile
	// plain makes Schedule scan the waiting jobs in a list, the reference
	// the tests compare with.
	plain bool
	// sortAll makes scheduleRanked sort the whole queue at every pass and
	// never skip one (tests compare it with scheduleDynamic and the skip).
	sortAll bool
	// list keeps the waiting jobs in q (plain, or a rank or backfill
	// order other than the default).
	list bool
	q    queue // the waiting jobs, with list
	// dyn holds the waiting jobs instead of q under a dynamic rank
	// without Key (and not sortAll).
	dyn    dynQueue
	useDyn bool
	// With predictions: changed is set by a completion (and by an
	// arrival, unless quick keeps it in fresh) and cleared by a
	// scheduling pass, which records its head and the head's shadow time
	// (see scheduleRanked); fresh lists the jobs that arrived since a
	// pass last tried the waiting jobs (see unmoved), which with quick
	// are not yet in q and sjf (see settle).
	changed    bool
	lastHead   *sim.Task
	lastShadow sim.Time
	fresh      []*sim.Task
	// quick is set where scheduleRanked may pass without trying every
	// waiting job (see unmoved): with predictions, a static order and
	// no Key. dozes is set where it skips the pass without reading the
	// profile when fewer processors are free than any waiting job
	// needs, so that corrections may wait (see Timer): with
	// predictions and no Key.
	quick, dozes bool
	// With predictions: the running jobs whose corrections are not yet
	// in the profile (see Timer and flush; with alarms catchUp puts
	// them in as it makes them), and the latest predicted end
	// a correction set since the profile was last flushed and the head's
	// shadow time computed (lateEnd, noEnd when none: flush resets it,
	// and every flush is followed by computing the shadow time or
	// finding it unmoved).
	stale   []*sim.Task
	lateEnd sim.Time
	// dormant lists the running jobs whose next correction has no timer
	// (with dozes but not alarms; see Timer and wake).
	dormant []*sim.Task
	// eager makes Timer change the profile at once and scheduleRanked
	// read it to tell whether the shadow time moved, as before flush:
	// tests compare the two.
	eager bool
	rk    ranker
	sjf   queue // with BackfillSJF: the waiting jobs by (estimate, arrival)
	// sizes counts the waiting jobs by size (list): a pass ends when
	// fewer processors are left than any of them needs.
	sizes sizeCount
	// started lists the jobs started in this pass (list) until they
	// are dropped from q and sjf; pos is dropStarted's scratch; bpos
	// holds the places in its candidates of the jobs the last backfill
	// pass started.
	started []*sim.Task
	pos     []int
	bpos    []int
	// alarms makes the corrections with one timer, corr (with quick,
	// unless eager; see correctionAlarm).
	alarms bool
	corr   correctionAlarm
}

var _ sim.Policy = (*EASY)(nil)

// NewEASY returns an EASY backfilling policy.
func NewEASY() *EASY { return &EASY{} }

// Init implements [sim.Policy].
func (p *EASY) Init(m *sim.Machine) error {
	p.m = m
	p.q, p.head, p.sjf = nil, 0, nil
	p.changed, p.lastHead = true, nil
	clear(p.fresh)
	p.fresh = p.fresh[:0]
	clear(p.stale)
	p.stale, p.lateEnd = p.stale[:0], noEnd
	clear(p.dormant)
	p.dormant = p.dormant[:0]
	p.list = p.plain || p.Rank != RankFCFS || p.BackfillSJF || p.Predict || p.Key != nil
	p.rk.r, p.rk.fn = p.Rank, p.Key
	p.useDyn = p.list && p.Key == nil && p.rk.dynamic() && !p.sortAll && !p.plain
	p.dyn.reset(p.Rank)
	p.quick = p.Predict && p.Key == nil && !p.sortAll && !p.Rank.Dynamic()
	p.dozes = p.Predict && p.Key == nil && !p.sortAll
	p.alarms = p.quick && !p.eager
	p.run.reset(m.NumTasks(), p.alarms)
	p.corr.reset()
	p.pr, p.rk.pr = nil, nil
	if p.Predict {
		p.pr = &predictor{basis: p.basis}
		p.pr.init(m)
		p.rk.pr = p.pr
	}
	p.rk.reset(m.NumTasks())
	if !p.list {
		p.idx.Reset(m.NumTasks())
	} else {
		p.sizes.reset(m.Size())
	}
	return checkEstimates(m)
}

// Arrive implements [sim.Policy].
func (p *EASY) Arrive(t *sim.Task) {
	if p.pr != nil {
		p.pr.arrive(t)
	}
	if p.list {
		p.sizes.add(t.Procs)
	}
	if p.quick {
		// Kept out of the queue until a pass has tried it (see settle):
		// most start at once.
		p.fresh = append(p.fresh, t)
		if len(p.rk.keys) > 0 {
			p.rk.setKey(t, p.m.Now())
		}
		return
	}
	p.changed = true
	if p.list {
		switch {
		case p.useDyn:
			p.dyn.add(t, newDynJob(p.Rank, t, p.est(t)))
		case p.Rank == RankFCFS && p.Key == nil:
			p.q = append(p.q, t)
		default:
			p.q = p.rk.insert(p.q, t, p.m.Now())
		}
		if p.BackfillSJF {
			// Estimates (and a waiting job's prediction) do not change:
			// the list stays in order.
			i, _ := slices.BinarySearchFunc(p.sjf, t, p.compareSJF)
			p.sjf = slices.Insert(p.sjf, i, t)
		}
		return
	}
	p.idx.Add(t)
}

// Finish gives back the rest of the job's estimated time: its planned end
// leaves the profile. (A job whose corrections are not yet in the profile,
// see flush, is there at the end it had before them, already passed.)
func (p *EASY) Finish(t *sim.Task) {
	p.changed = true
	p.run.remove(t)
	if p.pr != nil {
		if p.alarms {
			if p.corr.job == t {
				p.corr.known = false
			}
			if p.pr.underpredicted(t) {
				p.corr.under--
			}
		}
		p.pr.stale[t.Index] = false // flush passes it over
		p.pr.finish(t)
	}
}

// est returns the time EASY plans for t: its estimate, or its current
// prediction with Predict.
func (p *EASY) est(t *sim.Task) sim.Time {
	if p.pr != nil {
		return p.pr.estimate(t)
	}
	return t.Estimate
}

// plan returns the shadow time of a head of procs processors and what is
// left free now and at the shadow time once the head has its reservation
// there (see runningEnds: the reservation itself is not made).
func (p *EASY) plan(now sim.Time, procs int) (shadow sim.Time, freeNow, atShadow int) {
	shadow, atShadow, freeNow = p.run.shadow(now, p.m.Free(), procs)
	if shadow == now {
		freeNow -= procs
	}
	return shadow, freeNow, atShadow - procs
}

// noEnd is lateEnd when no correction is waiting to be flushed.
const noEnd = sim.Time(math.MinInt64)

// Timer is a running job's predicted end (with Predict, except under a
// static order): if the job is still running, its prediction grows and
// its place in the profile with it. The profile is changed when it is
// next read (flush): most corrections come at instants where the
// scheduling pass is skipped without reading it (see scheduleRanked),
// and the corrections of one job until then make one change. Under a
// static order it is the alarm (see correctionAlarm), and the pass makes
// the corrections due (catchUp).
func (p *EASY) Timer(tag int) {
	if tag == alarmTag {
		p.corr.at = sim.Never // the pass makes the corrections due
		return
	}
	if p.pr == nil {
		return
	}
	t := p.m.Task(tag)
	if t.State != sim.Running {
		return
	}
	pred := p.pr.grow(t)
	p.markStale(t, pred)
	if p.eager {
		p.pr.arm(t)
		p.flush()
		return
	}
	if p.dozes && p.m.Free() < p.sizes.min {
		// No job can start until one arrives or completes, and the
		// pass then puts the corrections due by then in (wake): the
		// job's next corrections need no instants of their own.
		p.dormant = append(p.dormant, t)
		return
	}
	p.pr.arm(t)
}

// markStale records that t's prediction grew to pred and is not yet in
// the profile.
func (p *EASY) markStale(t *sim.Task, pred sim.Time) {
	if !p.pr.stale[t.Index] {
		p.pr.stale[t.Index] = true
		p.stale = append(p.stale, t)
	}
	p.lateEnd = max(p.lateEnd, t.FirstStart+pred)
}

// wake makes the corrections of the dormant jobs still running that
// came due by now, as their timers would have (a timer at now fires
// before the pass), and sets the timer of each one's next correction.
func (p *EASY) wake(now sim.Time) {
	for _, t := range p.dormant {
		if t.State != sim.Running {
			continue
		}
		if pred, grew := p.pr.growTo(t, now); grew {
			p.markStale(t, pred)
		}
		p.pr.arm(t)
	}
	clear(p.dormant)
	p.dormant = p.dormant[:0]
}

// flush puts the corrections made since the last flush into the
// profile: each job's planned end moves to its predicted end, as one
// change however many corrections it had. Until then the job is in the
// profile at the end it had before them, at or before now, and counts as
// free from there. A job that finished since is passed over (Finish took
// it off the list).
func (p *EASY) flush() {
	p.lateEnd = noEnd
	if len(p.stale) == 0 {
		return
	}
	for _, t := range p.stale {
		if !p.pr.stale[t.Index] {
			continue // finished
		}
		p.pr.stale[t.Index] = false
		p.run.move(t, t.FirstStart+p.est(t))
	}
	clear(p.stale)
	p.stale = p.stale[:0]
}

func (p *EASY) start(t *sim.Task) bool {
	if p.m.Start(t) != nil {
		return false
	}
	p.run.add(t, p.m.Now()+p.est(t))
	if p.pr != nil {
		p.firstCorrection(t)
	}
	if !p.list {
		p.idx.Remove(t)
	} else {
		p.sizes.remove(t.Procs)
		p.started = append(p.started, t)
	}
	if p.useDyn {
		p.dyn.remove(t.Index)
	}
	return true
}

// Schedule starts jobs in order while they fit, reserves for the first one
// that does not and backfills the rest around that reservation.
//
// The waiting jobs are kept in an index by arrival with the least width
// and estimate of each range, and the backfill pass asks it for the next
// job that may start: one as narrow as the processors free now and at
// the shadow time, or one as narrow as those free now that ends by the
// shadow time. Under load most waiting jobs can do neither, and the pass
// skips them by ranges instead of looking at each.
func (p *EASY) Schedule() {
	clear(p.started)
	p.started = p.started[:0]
	if p.plain && p.pr == nil {
		p.schedulePlain()
		return
	}
	if p.list {
		p.scheduleRanked()
		if p.alarms {
			p.setAlarm(p.m.Now())
		}
		return
	}
	now := p.m.Now()
	var head *sim.Task
	for {
		i := p.idx.First(p.head)
		if i < 0 {
			return // nothing waits; later arrivals have later indices
		}
		p.head = i
		head = p.m.Task(i)
		if head.Procs > p.m.Free() || !p.start(head) {
			break
		}
	}
	if p.idx.Len() == 1 {
		shadow, _, _ := p.run.shadow(now, p.m.Free(), head.Procs)
		p.m.Promise(head, shadow)
		return
	}
	shadow, freeNow, atShadow := p.plan(now, head.Procs)
	p.m.Promise(head, shadow)
	// As in schedulePlain: a job may start if it is as narrow as what is
	// free now and, unless it ends by the shadow time, at the shadow time.
	for i := head.Index + 1; ; i++ {
		free := p.m.Free()
		if free == 0 {
			break
		}
		ifShort := int32(min(free, freeNow))
		always, dur := min(ifShort, int32(atShadow)), shadow-now
		if i = p.idx.Next(i, func(procs int32, est sim.Time) bool {
			return procs <= always || (procs <= ifShort && est <= dur)
		}); i < 0 {
			break
		}
		t := p.m.Task(i)
		long := now+t.Estimate > shadow
		if p.start(t) {
			freeNow -= t.Procs
			if long {
				atShadow -= t.Procs
			}
		}
	}
}

// schedulePlain is Schedule looking at every waiting job in a list.
func (p *EASY) schedulePlain() {
	now := p.m.Now()
	i := 0
	for i < len(p.q) && p.q[i].Procs <= p.m.Free() && p.start(p.q[i]) {
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
	if len(p.q) < 2 {
		if len(p.q) == 1 {
			head := p.q[0]
			shadow, _, _ := p.run.shadow(now, p.m.Free(), head.Procs)
			p.m.Promise(head, shadow)
		}
		return
	}
	head := p.q[0]
	shadow, freeNow, atShadow := p.plan(now, head.Procs)
	p.m.Promise(head, shadow)
	// The profile holds the running jobs, whose free processors never
	// decrease with time, and the head's reservation (as plan reckons
	// it): the least free during a job's run is what is free now or, if
	// it runs past the shadow time, what is free then. Both are kept up
	// to date as jobs start, so each waiting job costs O(1).
	started := false
	for _, t := range p.q[1:] {
		free := p.m.Free()
		if free == 0 {
			break
		}
		long := now+t.Estimate > shadow
		if t.Procs <= free && t.Procs <= freeNow && (!long || t.Procs <= atShadow) && p.start(t) {
			started = true
			freeNow -= t.Procs
			if long {
				atShadow -= t.Procs
			}
		}
	}
	if started {
		p.q = p.q.removeStarted()
	}
}

// scheduleRanked is schedulePlain with the queue in the rank's order
// (sorted again at this instant for a dynamic rank) and, with
// BackfillSJF, the candidates behind the head tried shortest first. The
// head's reservation is promised only in arrival order: under another
// order a job that arrives later, or whose key grows, may take the head's
// place, so the reservation is not a guarantee.
//
// When fewer processors are free than the narrowest waiting job needs,
// no job can start and the pass would change nothing where it makes no
// promise (the head's reservation is made and taken back): it is skipped,
// and with it the sort of a dynamic order. The priority policy's key is
// left to run at every instant. With predictions, a pass where only
// corrections or arrivals came since the last one may do less (unmoved),
// and the corrections that waited while no job could start are made
// first (wake).
func (p *EASY) scheduleRanked() {
	now := p.m.Now()
	promises := p.Rank == RankFCFS && p.pr == nil && p.Key == nil
	if p.Key == nil && !promises && !p.sortAll && p.m.Free() < p.sizes.min {
		return
	}
	if p.alarms {
		if p.run.endedBy(now) {
			p.catchUp(now)
		}
	} else if len(p.dormant) > 0 {
		p.wake(now)
	}
	if p.useDyn {
		if p.pr != nil && p.unmoved(now) {
			return
		}
		p.changed, p.lastHead = false, nil
		p.scheduleDynamic(now)
		return
	}
	if p.quick {
		if p.unmoved(now) {
			return
		}
	} else {
		p.flush()
	}
	p.changed, p.lastHead = false, nil
	p.settle()
	p.rk.sort(p.q, now)
	i := 0
	for i < len(p.q) && p.q[i].Procs <= p.m.Free() && p.start(p.q[i]) {
		i++
	}
	n := copy(p.q, p.q[i:])
	clear(p.q[n:])
	p.q = p.q[:n]
	if i > 0 && p.BackfillSJF {
		p.dropStarted(false, true, now)
	}
	if len(p.q) == 0 {
		return
	}
	head := p.q[0]
	shadow, freeNow, atShadow := p.plan(now, head.Procs)
	p.lastHead, p.lastShadow = head, shadow
	if promises {
		p.m.Promise(head, shadow)
	}
	if len(p.q) == 1 {
		return
	}
	cands := p.q[1:]
	if p.BackfillSJF {
		cands = p.sjf // the head among them
	}
	byEst := p.BackfillSJF || (p.Rank == RankSJF && p.Key == nil)
	if p.backfillInOrder(cands, byEst, head, now, shadow, freeNow, atShadow) {
		p.dropBackfilled(now)
	}
}

// unmoved handles a pass at now with predictions when it need not try
// every waiting job, and reports whether it did; otherwise it puts the
// corrections into the profile for a whole pass.
//
// If no job completed since the last pass, what is free now is what that
// pass left, and the head's shadow time is the same unless a correction
// moved it (below). With the shadow time unmoved, no job the last pass
// tried can start: what is free now and at and after the shadow time is
// at most what that pass left, and a job that would have run past the
// shadow time then still would. Under a static order, the head stays the
// head unless a job that arrived since (fresh) comes before it in the
// queue's order and does not start in order; see passFresh. Under a
// dynamic order no job may have arrived, and the head must still come
// first in the order at now.
//
// The shadow time did not move if every correction since it was
// computed ends by it (lateEnd): the profile from the shadow time on is
// as it was, and before it only fewer processors are free, so no earlier
// start fits and the shadow time still does. The profile need not be
// read then, unless a fresh job is to be tried. (No promise is made with
// predictions.)
func (p *EASY) unmoved(now sim.Time) bool {
	h := p.lastHead
	// Under eager, which tests compare with, a fresh job makes a whole
	// pass.
	if p.changed || h == nil || h.State != sim.Waiting || p.lastShadow <= now || p.eager && len(p.fresh) > 0 {
		p.flush()
		return false
	}
	if p.eager || p.lateEnd > p.lastShadow {
		p.flush()
		if shadow, _, _ := p.run.shadow(now, p.m.Free(), h.Procs); shadow != p.lastShadow {
			return false
		}
	}
	if p.useDyn {
		// The keys changed with time: the head must still come first.
		if !p.dyn.first(h.Index, now) {
			p.flush()
			return false
		}
		return true
	}
	if len(p.fresh) == 0 {
		return true
	}
	p.flush()
	return p.passFresh(h, now)
}

// passFresh is the pass of scheduleRanked with head h at its unmoved
// shadow time (see unmoved) when the only jobs that may start are those
// that arrived since the last pass (fresh). It reports false, having
// started nothing, when a whole pass is needed.
//
// The fresh jobs that come before h in the queue's order start in order
// if together they fit what is free and each ends by the shadow time:
// then h is still the head and its shadow time does not move (the
// profile from the shadow time on is unchanged, and before it fewer
// processors are free). Otherwise one of them may become the head or
// move its shadow time, and a whole pass is needed. The others are then
// tried as the backfill pass tries them, in its order, each against what
// is left: the jobs before them in that order cannot start, and a job
// that cannot start leaves what is left unchanged. What is left at the
// shadow time is what is free then less the head's processors, as in a
// whole pass (plan).
func (p *EASY) passFresh(h *sim.Task, now sim.Time) bool {
	shadow := p.lastShadow
	fresh := p.fresh
	ahead := 0
	if p.Rank != RankFCFS {
		slices.SortFunc(fresh, func(a, b *sim.Task) int { return p.rk.compare(a, b, now) })
		procs := 0
		for ; ahead < len(fresh) && p.rk.compare(fresh[ahead], h, now) < 0; ahead++ {
			t := fresh[ahead]
			procs += t.Procs
			if procs > p.m.Free() || now+p.est(t) > shadow {
				return false
			}
		}
	}
	for _, t := range fresh[:ahead] {
		p.start(t)
	}
	cands := fresh[ahead:]
	if p.BackfillSJF {
		slices.SortFunc(cands, p.compareSJF)
	}
	freeNow, atShadow := p.run.freeAt(now, shadow, p.m.Free())
	p.backfillInOrder(cands, false, h, now, shadow, freeNow, atShadow-h.Procs)
	// The fresh jobs that started were never in q or sjf.
	clear(p.started)
	p.started = p.started[:0]
	p.settle()
	return true
}

// settle puts the jobs of fresh still waiting into q (and sjf), as Arrive
// does without predictions, and empties fresh. They arrived after every
// job in q: in arrival order they go at its end.
func (p *EASY) settle() {
	if len(p.fresh) == 0 {
		return
	}
	now := p.m.Now()
	if p.Rank == RankFCFS {
		slices.SortFunc(p.fresh, func(a, b *sim.Task) int { return a.Index - b.Index })
	}
	for _, t := range p.fresh {
		if t.State != sim.Waiting {
			continue // started by passFresh
		}
		if p.Rank == RankFCFS {
			p.q = append(p.q, t)
		} else {
			p.q = p.rk.place(p.q, t, now) // its key was kept at arrival
		}
		if p.BackfillSJF {
			i, _ := slices.BinarySearchFunc(p.sjf, t, p.compareSJF)
			p.sjf = slices.Insert(p.sjf, i, t)
		}
	}
	clear(p.fresh)
	p.fresh = p.fresh[:0]
}

// dropBackfilled removes the jobs the backfill pass started from the list
// it tried them in, by their places (bpos): sjf, or q behind its head.
// With sjf, they are dropped from q as dropStarted does.
func (p *EASY) dropBackfilled(now sim.Time) {
	if !p.BackfillSJF {
		for k := range p.bpos {
			p.bpos[k]++ // places in q[1:]
		}
		p.q = p.q.removeAt(p.bpos)
		clear(p.started)
		p.started = p.started[:0]
		return
	}
	p.sjf = p.sjf.removeAt(p.bpos)
	p.dropStarted(!p.useDyn, false, now)
}

// dropStarted removes the jobs started in this pass from q (inQ) and
// sjf (inSJF, with BackfillSJF), and forgets them. Both lists are in a static order in
// which each job compares equal only to itself (q sorted at now under
// the priority policy's key), so each started job is found by a binary
// search: only the jobs that start are looked at, not every waiting job.
func (p *EASY) dropStarted(inQ, inSJF bool, now sim.Time) {
	if inQ {
		switch {
		case p.Key != nil || p.rk.dynamic():
			p.q = p.q.removeStarted()
		case p.Rank == RankFCFS:
			p.q, p.pos = p.q.drop(p.started, func(a, b *sim.Task) int { return a.Index - b.Index }, p.pos)
		default:
			p.q, p.pos = p.q.drop(p.started, func(a, b *sim.Task) int { return p.rk.compare(a, b, now) }, p.pos)
		}
	}
	if inSJF && p.BackfillSJF {
		p.sjf, p.pos = p.sjf.drop(p.started, p.compareSJF, p.pos)
	}
	clear(p.started)
	p.started = p.started[:0]
}

// compareSJF orders a and b as sjf holds them: by estimate (prediction
// with Predict; the sjf rank's key, as an integer), ties by arrival.
func (p *EASY) compareSJF(a, b *sim.Task) int {
	if c := cmp.Compare(p.est(a), p.est(b)); c != 0 {
		return c
	}
	return cmp.Compare(a.Index, b.Index)
}

// backfillInOrder is the backfill pass of schedulePlain over cands in
// their order, head reserved at shadow: each candidate but head starts
// when it fits the processors free now (freeNow, also the machine's) and,
// if it would run past shadow, those left free at shadow (atShadow). It
// reports whether it started any, and records their places in cands in
// p.bpos.
//
// The pass ends when fewer processors are left than any waiting job
// needs and, with cands in increasing est (byEst), at the first
// candidate that would run past shadow when fewer are left at shadow:
// every candidate after it would run past shadow too.
func (p *EASY) backfillInOrder(cands []*sim.Task, byEst bool, head *sim.Task, now, shadow sim.Time, freeNow, atShadow int) bool {
	started := false
	p.bpos = p.bpos[:0]
	// A candidate's estimate is read only when it is narrow enough; with
	// byEst, once one runs past shadow (allLong), so do all after it.
	allLong := false
	// What a candidate may use (free now, and at shadow once allLong)
	// changes only when one starts or allLong is set.
	free := min(p.m.Free(), freeNow)
	for k := 0; k < len(cands); k++ {
		if free < p.sizes.min {
			break
		}
		// Under load most candidates are too wide: pass over them
		// reading nothing else.
		for k < len(cands) && cands[k].Procs > free {
			k++
		}
		if k == len(cands) {
			break
		}
		t := cands[k]
		if t == head {
			continue
		}
		long := allLong || now+p.est(t) > shadow
		if long && byEst && !allLong {
			allLong = true
			if free = min(free, atShadow); free < p.sizes.min {
				break
			}
		}
		if long && t.Procs > atShadow {
			continue
		}
		if p.start(t) {
			started = true
			p.bpos = append(p.bpos, k)
			freeNow -= t.Procs
			if long {
				atShadow -= t.Procs
			}
			free = min(p.m.Free(), freeNow)
			if allLong {
				free = min(free, atShadow)
			}
		}
	}
	return started
}

// scheduleDynamic is scheduleRanked under a dynamic rank (wfp3, unicep,
// xfactor) without sorting the queue: the jobs that start in order, the
// head, and then the candidates that start behind it are each taken as
// the smallest key of those that can start, which the queue (dynQueue)
// finds without computing every waiting job's key. It starts the same
// jobs as scheduleRanked.
func (p *EASY) scheduleDynamic(now sim.Time) {
	started := false
	var head *sim.Task
	for {
		i := p.dyn.min(&fit{all: true, now: now})
		if i < 0 {
			break
		}
		t := p.m.Task(i)
		if t.Procs <= p.m.Free() && p.start(t) {
			started = true
			continue
		}
		head = t
		break
	}
	if started && p.BackfillSJF {
		p.dropStarted(false, true, now)
	}
	if head == nil || p.dyn.n < 2 {
		return
	}
	started = false
	shadow, freeNow, atShadow := p.plan(now, head.Procs)
	p.lastHead, p.lastShadow = head, shadow
	if p.BackfillSJF {
		// The head among them.
		started = p.backfillInOrder(p.sjf, true, head, now, shadow, freeNow, atShadow)
	} else {
		// In queue order, a candidate starts when it fits what is left
		// and is passed over otherwise; what is left only decreases, so a
		// candidate passed over never fits again. The candidates that
		// start are therefore, one after the other, the first in queue
		// order of those that fit what is left.
		f := fit{now: now, shadow: shadow, skip: []int{head.Index}}
		for {
			f.ifShort = min(p.m.Free(), freeNow)
			f.always = min(f.ifShort, atShadow)
			if f.ifShort <= 0 {
				break
			}
			i := p.dyn.min(&f)
			if i < 0 {
				break
			}
			t := p.m.Task(i)
			if !p.start(t) {
				f.skip = append(f.skip, i) // as the loop in queue order passes it over
				continue
			}
			freeNow -= t.Procs
			if now+p.est(t) > shadow {
				atShadow -= t.Procs
			}
		}
	}
	if started && p.BackfillSJF {
		p.dropBackfilled(now)
	}
}

// dynJob is what a dynamic rank's key reads of a waiting job, as floats
// (its submit time and, for wfp3 and xfactor, its estimate and size, for
// unicep the key's constant divisor log2(n) e), and its size and estimate
// as the backfill pass reads them.
type dynJob struct {
	submit, e, n float64
	procs        int
	est          sim.Time
}

// newDynJob returns t's dynJob under r with the estimate e the policy
// sees (a waiting job's estimate or prediction does not change).
func newDynJob(r Rank, t *sim.Task, e sim.Time) dynJob {
	d := dynJob{submit: float64(t.Submit), e: float64(e), n: float64(t.Procs), procs: t.Procs, est: e}
	if r == RankUNICEP {
		d.e = math.Log2(float64(max(t.Procs, 2))) * float64(e)
	}
	return d
}

// key returns the job's key at now, the same value rankKeys gives:
// times are integers below 2^53, so the differences and sums of their
// floats are exact.
func (d *dynJob) key(r Rank, now float64) float64 {
	switch r {
	case RankWFP3:
		x := (now - d.submit) / d.e
		return -x * x * x * d.n
	case RankUNICEP:
		return -(now - d.submit) / d.e
	default: // RankXFactor
		return -(now - d.submit + d.e) / d.e
	}
}
