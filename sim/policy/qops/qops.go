package qops

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
)

// Policy is QoPS with feedback, tolerance, slack and kill-and-restart.
type Policy struct {
	cfg      Config
	m        *sim.Machine
	cur      plan
	run      *sim.Profile // the running jobs alone, by estimate
	killRun  *sim.Profile // scratch: run without a kill victim
	in       inserter
	jobs     []jobInfo
	compress bool // a job ended early since the last compression
	timer    sim.Timer
	baseline map[string]float64
	rs       []sim.Reservation // scratch for compression
	stats    Stats
}

var _ sim.Policy = (*Policy)(nil)

// jobInfo is what the policy knows of one job, by arrival index.
type jobInfo struct {
	deadlineJob bool
	requested   sim.Time // d; sim.Never for none
	earliest    sim.Time // E; 0 when no offer
	offered     sim.Time // O; 0 when no offer
	tolerance   float64  // TF_j
	offer       bool     // an offer was made
	runStart    sim.Time // start of the current run
}

// Stats are counts over a run.
type Stats struct {
	// Inserts counts runs of Original_QoPS; MeanN and MaxN are the mean
	// and largest number of admitted waiting jobs they saw.
	Inserts int
	MeanN   float64
	MaxN    int
	// Offers and OffersTaken count feedback offers and accepted ones;
	// Kills counts kill-and-restart victims.
	Offers, OffersTaken, Kills int
}

var (
	_ sim.Policy        = (*Policy)(nil)
	_ metrics.Annotator = (*Policy)(nil)
)

// New returns a QoPS policy; errors wrap [ErrInvalidConfig].
func New(cfg Config) (*Policy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Policy{cfg: cfg}, nil
}

// Init derives every job's requested deadline and tolerance and computes
// the category slowdowns of the QoS charge, from EASY runs of the same
// workload (cached per workload).
func (p *Policy) Init(m *sim.Machine) error {
	p.m = m
	p.cur = plan{prof: sim.NewProfile(m.Size(), 0)}
	p.run = sim.NewProfile(m.Size(), 0)
	p.in = inserter{m: m, size: m.Size(), k: p.cfg.KFactor, leastLaxity: p.cfg.LeastLaxity, newJobFirst: p.cfg.NewJobFirst, pointNOnly: p.cfg.pointNOnly, plain: p.cfg.plain, checkBase: p.cfg.checkBase}
	n := m.NumTasks()
	all := make([]sim.Job, n)
	var originals []sim.Job
	for i := range n {
		t := m.Task(i)
		if t.Estimate < t.Runtime {
			return fmt.Errorf("qops: job %d: estimate %d below runtime %d: deadline guarantees need estimate >= runtime", t.ID, t.Estimate, t.Runtime)
		}
		all[i] = t.Job
		if t.Original() {
			originals = append(originals, t.Job)
		}
	}
	var ends map[int64]sim.Time
	if p.cfg.Deadlines == nil {
		var err error
		if ends, err = EASYEnds(m.Size(), originals); err != nil {
			return err
		}
	}
	p.jobs = make([]jobInfo, n)
	for i := range n {
		t := m.Task(i)
		j := &p.jobs[i]
		j.requested = sim.Never
		if p.cfg.Deadlines != nil {
			if d, ok := p.cfg.Deadlines[t.ID]; ok {
				j.deadlineJob, j.requested = true, d
			}
		} else if p.cfg.DeadlineFraction >= 1 || unit(p.cfg.Seed, streamDeadline, t.Origin) < p.cfg.DeadlineFraction {
			end, ok := ends[t.Origin]
			if !ok {
				return fmt.Errorf("qops: job %d is a copy of job %d, which is not in the workload", t.ID, t.Origin)
			}
			j.deadlineJob, j.requested = true, RequestedDeadline(t.Submit, t.Runtime, end, p.cfg.Stringency)
		}
		j.tolerance = p.cfg.Tolerance
		if p.cfg.ToleranceRandom {
			j.tolerance = 2 * p.cfg.Tolerance * unit(p.cfg.Seed, streamTolerance, t.ID)
		}
	}
	b, err := preempt.Baseline(m.Size(), all)
	if err != nil {
		return fmt.Errorf("qops category slowdowns: %w", err)
	}
	p.baseline = b
	return nil
}

// Baseline returns the mean bounded slowdown of each non-empty ss16
// category under EASY on the run's workload: the category slowdowns of
// the QoS charge.
func (p *Policy) Baseline() map[string]float64 { return maps.Clone(p.baseline) }

// Stats returns the run's counts.
func (p *Policy) Stats() Stats {
	s := p.stats
	s.Inserts, s.MaxN = p.in.calls, p.in.maxN
	if p.in.calls > 0 {
		s.MeanN = float64(p.in.sumN) / float64(p.in.calls)
	}
	return s
}

// Arrive decides the job at once: admit with its requested deadline, by
// kill-and-restart, or with a deadline the user accepts; otherwise
// reject. Jobs without a deadline are always admitted.
func (p *Policy) Arrive(t *sim.Task) {
	p.compact()
	p.in.now = p.m.Now()
	j := &p.jobs[t.Index]
	if !j.deadlineJob {
		pl, e0, ok := p.earliest(p.cur, p.run, t)
		if !ok {
			return
		}
		dl := t.Submit + ceilTime(p.cfg.NodeadlineSlack*float64(e0-t.Submit))
		p.admit(pl, t, dl)
		return
	}
	d := j.requested
	if pl, ok := p.in.insert(p.cur, p.run, entry{t: t, deadline: d}); ok {
		p.admit(pl, t, d)
		return
	}
	if p.cfg.KillRestart && p.killRestart(t, d) {
		return
	}
	if !(j.tolerance > p.cfg.Slack) {
		_ = p.m.Reject(t) // a refused call ends the run (sim.ErrPolicy)
		return
	}
	// Feedback (Figure 2): bisect between d and the end under an
	// infinite deadline.
	best, hi, ok := p.earliest(p.cur, p.run, t)
	if !ok {
		return
	}
	lo := d
	for range p.cfg.RetryCount {
		mid := (lo + hi) / 2
		if pl, ok := p.in.insert(p.cur, p.run, entry{t: t, deadline: mid}); ok {
			p.in.put(best)
			hi, best = mid, pl
		} else {
			lo = mid
		}
	}
	e := max(hi, d)
	o := t.Submit + ceilTime(p.cfg.Slack*float64(e-t.Submit))
	j.offer, j.earliest, j.offered = true, e, o
	p.stats.Offers++
	if float64(o-t.Submit) <= j.tolerance*float64(d-t.Submit) {
		p.stats.OffersTaken++
		p.admit(best, t, o)
		return
	}
	p.in.put(best)
	_ = p.m.Reject(t) // a refused call ends the run (sim.ErrPolicy)
}

// earliest runs Original_QoPS with an infinite deadline, which succeeds
// at the latest at point N, and returns the plan and the job's end in it.
// Should it fail all the same (a broken invariant), it ends the run with
// an error ([sim.Machine.Check]) and returns false.
func (p *Policy) earliest(base plan, run *sim.Profile, t *sim.Task) (plan, sim.Time, bool) {
	pl, ok := p.in.insert(base, run, entry{t: t, deadline: sim.Never})
	if !ok {
		p.m.Check(fmt.Errorf("qops: job %d: no insertion point for an infinite deadline", t.ID))
		return plan{}, 0, false
	}
	i := slices.IndexFunc(pl.q, func(e entry) bool { return e.t == t })
	return pl, pl.q[i].end(), true
}

// admit commits pl, sets t's deadline in it and admits t.
func (p *Policy) admit(pl plan, t *sim.Task, deadline sim.Time) {
	i := slices.IndexFunc(pl.q, func(e entry) bool { return e.t == t })
	pl.q[i].deadline = deadline
	p.in.put(p.cur)
	p.cur = pl
	_ = p.m.Admit(t, deadline) // a refused call ends the run (sim.ErrPolicy)
}

// killRestart tries section 8: running jobs in ascending used
// processor-seconds (ties: arrival); for each, its remaining time is
// dropped, t is inserted with deadline d and then the victim with its
// own deadline and full estimate. The first pair that succeeds is
// committed and the victim killed.
func (p *Policy) killRestart(t *sim.Task, d sim.Time) bool {
	now := p.m.Now()
	var victims []*sim.Task
	for _, r := range p.m.Active() {
		// A victim restarted now must still end by its deadline.
		if r.State == sim.Running && now+r.Estimate <= r.Deadline {
			victims = append(victims, r)
		}
	}
	used := func(r *sim.Task) int64 { return int64(r.Procs) * int64(r.WorkDone(now)) }
	slices.SortFunc(victims, func(a, b *sim.Task) int {
		if c := cmp.Compare(used(a), used(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
	if len(victims) == 0 {
		return false
	}
	scratch := p.in.get() // its profile holds the base schedule without the victim's rest
	defer p.in.put(scratch)
	if p.killRun == nil {
		p.killRun = sim.NewProfile(p.m.Size(), now)
	}
	run := p.killRun
	for _, r := range victims {
		rest := p.jobs[r.Index].runStart + r.Estimate - now
		run.CopyFrom(p.run)
		if rest > 0 {
			p.m.Check(run.Release(now, rest, r.Procs))
		}
		// Without the victim, t must at least fit by d among the running jobs.
		if run.EarliestStart(now, t.Procs, t.Estimate)+t.Estimate > d {
			continue
		}
		scratch.prof.CopyFrom(p.cur.prof)
		if rest > 0 {
			p.m.Check(scratch.prof.Release(now, rest, r.Procs))
		}
		base := plan{q: p.cur.q, prof: scratch.prof}
		pl, ok := p.in.insert(base, run, entry{t: t, deadline: d})
		if !ok {
			continue
		}
		pl2, ok := p.in.insert(pl, run, entry{t: r, deadline: r.Deadline})
		p.in.put(pl)
		if !ok {
			continue
		}
		if p.m.Kill(r) != nil {
			p.in.put(pl2)
			return false
		}
		if rest > 0 {
			p.m.Check(p.run.Release(now, rest, r.Procs))
		}
		p.stats.Kills++
		p.admit(pl2, t, d)
		return true
	}
	return false
}

// Finish gives back the rest of the job's estimated time and asks for a
// compression when that is not nothing.
func (p *Policy) Finish(t *sim.Task) {
	now := p.m.Now()
	p.cur.prof.Advance(now)
	p.run.Advance(now)
	if end := p.jobs[t.Index].runStart + t.Estimate; end > now {
		p.m.Check(p.cur.prof.Release(now, end-now, t.Procs))
		p.m.Check(p.run.Release(now, end-now, t.Procs))
		p.compress = true
	}
}

// Timer implements [sim.Policy].
func (p *Policy) Timer(int) {}

// compact compresses the schedule if a job ended early: every
// reservation is released and placed again, in position order; none
// moves later, so every deadline still holds.
func (p *Policy) compact() {
	now := p.m.Now()
	p.cur.prof.Advance(now)
	p.run.Advance(now)
	if !p.compress {
		return
	}
	p.compress = false
	q := p.cur.q
	p.rs = p.rs[:0]
	for _, e := range q {
		p.rs = append(p.rs, sim.Reservation{Start: e.start, Dur: e.t.Estimate, Procs: e.t.Procs})
	}
	if p.cur.prof.Compress(now, len(q), func(i int) *sim.Reservation { return &p.rs[i] }) {
		for i := range q {
			q[i].start = p.rs[i].Start
		}
		slices.SortFunc(q, byStart)
	}
}

// Schedule starts the jobs whose reservation has come.
func (p *Policy) Schedule() {
	p.compact()
	now := p.m.Now()
	q := p.cur.q
	i := 0
	for i < len(q) && q[i].start <= now {
		if p.m.Start(q[i].t) != nil {
			return
		}
		p.jobs[q[i].t.Index].runStart = now
		p.m.Check(p.run.Reserve(now, q[i].t.Estimate, q[i].t.Procs))
		i++
	}
	p.cur.q = slices.Delete(q, 0, i)
	p.m.CancelTimer(p.timer)
	if len(p.cur.q) > 0 {
		p.timer = p.m.SetTimer(p.cur.q[0].start, 0)
	}
}

// Annotate implements [metrics.Annotator]: each record (in the run's job
// order) gets the job's deadlines, tolerance, category slowdown and QoS
// charge, and the run's figures get the offers and schedule sizes.
func (p *Policy) Annotate(recs []metrics.Record, stats *metrics.RunStats) {
	stats.QoSCharge = 0
	for i := range recs {
		recs[i].QoS = p.qos(p.m.Task(i))
		stats.QoSCharge += recs[i].QoSCharge()
	}
	s := p.Stats()
	stats.QoPS = &metrics.QoPSStats{Offers: s.Offers, OffersTaken: s.OffersTaken, Inserts: s.Inserts, MeanN: s.MeanN, MaxN: s.MaxN}
}

// qos returns the job's QoS facts.
func (p *Policy) qos(t *sim.Task) *metrics.QoS {
	j := &p.jobs[t.Index]
	q := &metrics.QoS{DeadlineJob: j.deadlineJob}
	if j.deadlineJob && j.requested != sim.Never {
		q.Requested = j.requested
	}
	if j.offer {
		q.Earliest, q.Offered, q.Tolerance = j.earliest, j.offered, j.tolerance
	}
	r := metrics.Record{Runtime: t.Runtime, Procs: t.Procs, Estimate: t.Estimate}
	q.CategoryBSD = p.baseline[ss16.Classify(&r)]
	if j.deadlineJob && t.State != sim.Rejected && t.Deadline >= 0 && t.Deadline != sim.Never {
		q.Charge = q.CategoryBSD / metrics.BoundedSlowdown(t.Deadline-t.Submit-t.Runtime, t.Runtime)
	}
	return q
}

var ss16 = func() *metrics.Scheme {
	s, err := metrics.LookupScheme("ss16")
	if err != nil {
		panic(err)
	}
	return s
}()

// ceilTime returns ceil(x) as a time, for x >= 0.
func ceilTime(x float64) sim.Time { return sim.Time(math.Ceil(x)) }
