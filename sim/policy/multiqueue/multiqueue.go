package multiqueue

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/internal/waitindex"
)

// Queues is the number of job classes and queues.
const Queues = 4

// Defaults of [Config].
const (
	DefaultBound1         = 100
	DefaultBound2         = 1000
	DefaultBound3         = 10000
	DefaultInitialDelay   = 2500
	DefaultDelayBatch     = 100
	DefaultDelayThreshold = 0.25
)

// Config holds the parameters of the policy.
type Config struct {
	// ClassBounds are the upper estimate bounds of classes 1-3, seconds,
	// non-decreasing and >= 1; longer estimates are class 4.
	ClassBounds [Queues - 1]sim.Time
	// Delay holds class-4 jobs back by the global delay D (section 4.2).
	Delay bool
	// InitialDelay is D_1, seconds.
	InitialDelay float64
	// AdaptiveDelay adapts D once per batch of completions.
	AdaptiveDelay bool
	// DelayBatch is the number of completions per batch.
	DelayBatch int
	// DelayThreshold bounds |delta_k|: D changes only above it.
	DelayThreshold float64
	// Delta1Unit takes delta_1 = 1 instead of the printed s_1.
	Delta1Unit bool
	// SelfCheck verifies the partition bookkeeping after every instant
	// (for tests); the first violation is returned by [Policy.Err].
	SelfCheck bool
}

// DefaultConfig returns the registry's defaults.
func DefaultConfig() Config {
	return Config{
		ClassBounds:    [Queues - 1]sim.Time{DefaultBound1, DefaultBound2, DefaultBound3},
		InitialDelay:   DefaultInitialDelay,
		AdaptiveDelay:  true,
		DelayBatch:     DefaultDelayBatch,
		DelayThreshold: DefaultDelayThreshold,
	}
}

// ErrConfig is wrapped by the errors of [Config.Validate].
var ErrConfig = errors.New("invalid multiqueue configuration")

// Validate checks the ranges and that the class bounds do not decrease.
func (c Config) Validate() error {
	var errs []error
	for i, b := range c.ClassBounds {
		if b < 1 {
			errs = append(errs, fmt.Errorf("%w: class_bound_%d must be >= 1, got %d", ErrConfig, i+1, b))
		}
		if i > 0 && b < c.ClassBounds[i-1] {
			errs = append(errs, fmt.Errorf("%w: class_bound_%d must be >= class_bound_%d (%d), got %d", ErrConfig, i+1, i, c.ClassBounds[i-1], b))
		}
	}
	if c.InitialDelay < 0 {
		errs = append(errs, fmt.Errorf("%w: initial_delay must be >= 0, got %v", ErrConfig, c.InitialDelay))
	}
	if c.DelayBatch < 1 {
		errs = append(errs, fmt.Errorf("%w: delay_batch must be >= 1, got %d", ErrConfig, c.DelayBatch))
	}
	if c.DelayThreshold < 0 {
		errs = append(errs, fmt.Errorf("%w: delay_threshold must be >= 0, got %v", ErrConfig, c.DelayThreshold))
	}
	return errors.Join(errs...)
}

// Class returns the queue (1-4) of a job with estimate est.
func (c Config) Class(est sim.Time) int {
	for i, b := range c.ClassBounds {
		if est <= b {
			return i + 1
		}
	}
	return Queues
}

// pivot is a queue head's reservation.
type pivot struct {
	t     *sim.Task // nil: the queue has no pivot
	start sim.Time  // reserved start
}

// Policy is multiple-queue backfilling; see the package doc.
type Policy struct {
	cfg  Config
	m    *sim.Machine
	prof *sim.Profile // running jobs by estimate, plus pivot reservations

	idx    waitindex.Index     // waiting jobs by arrival
	wait   []*sim.Task         // waiting jobs in arrival order, with plain
	queues [Queues][]*sim.Task // per queue, in arrival order; started jobs are skipped lazily
	heads  [Queues]int         // first possibly waiting index of each queue
	pivots [Queues]pivot       // current pivot of each queue
	order  []int               // scratch: queues in pivot start order

	job []jobInfo // per task index

	delay    *Delay
	finished []*sim.Task // completions of the current instant, not yet batched

	// released is set when a job ended before its estimate and gave
	// planned processors back: only then can a pivot move earlier.
	released bool

	part partitions
	err  error
	fit  fitsNow // Fits at now during a pass

	// plain makes Schedule's pass look at every waiting job in a list,
	// the reference the tests compare with.
	plain bool
}

var _ sim.Policy = (*Policy)(nil)

// jobInfo is what the policy knows of one job.
type jobInfo struct {
	queue     int8
	notBefore sim.Time
	delay     sim.Time
	partition int // P_q just after the start
}

var (
	_ sim.Policy        = (*Policy)(nil)
	_ metrics.Annotator = (*Policy)(nil)
)

// New returns the policy for a validated configuration.
func New(cfg Config) (*Policy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Policy{cfg: cfg}, nil
}

// EnableSelfCheck turns the self-check of [Config.SelfCheck] on; call it
// before the run.
func (p *Policy) EnableSelfCheck() { p.cfg.SelfCheck = true }

// Err returns the first self-check violation (nil without SelfCheck).
func (p *Policy) Err() error { return p.err }

// Init implements [sim.Policy].
func (p *Policy) Init(m *sim.Machine) error {
	p.m = m
	p.prof = sim.NewProfile(m.Size(), 0)
	p.job = make([]jobInfo, m.NumTasks())
	p.idx.Reset(m.NumTasks())
	p.wait = nil
	p.delay = NewDelay(p.cfg.InitialDelay, p.cfg.AdaptiveDelay, p.cfg.DelayBatch, p.cfg.DelayThreshold, p.cfg.Delta1Unit)
	p.part.init(m.Size())
	for i := 0; i < m.NumTasks(); i++ {
		if t := m.Task(i); t.Estimate < t.Runtime {
			return fmt.Errorf("job %d: estimate %d below runtime %d: backfilling needs estimate >= runtime", t.ID, t.Estimate, t.Runtime)
		}
	}
	return nil
}

// Arrive files the job in its class's queue; a class-4 job under Delay
// gets its not_before and a timer for it.
func (p *Policy) Arrive(t *sim.Task) {
	p.flush()
	now := p.m.Now()
	q := p.cfg.Class(t.Estimate)
	ji := &p.job[t.Index]
	ji.queue = int8(q)
	ji.notBefore = t.Submit
	if q == Queues && p.cfg.Delay {
		ji.delay = sim.Time(p.delay.Imposed())
		ji.notBefore = t.Submit + ji.delay
		if ji.delay > 0 {
			p.m.SetTimer(ji.notBefore, t.Index)
		}
	}
	p.part.arrive(now)
	if p.plain {
		p.wait = append(p.wait, t)
	} else {
		p.idx.Add(t)
	}
	p.queues[q-1] = append(p.queues[q-1], t)
}

// Finish gives back the rest of the job's estimated time and its
// processors to its partition's idle ones, and queues the completion for
// the delay's batches.
func (p *Policy) Finish(t *sim.Task) {
	now := p.m.Now()
	p.prof.Advance(now)
	if end := t.FirstStart + t.Estimate; end > now {
		p.m.Check(p.prof.Release(now, end-now, t.Procs))
		p.released = true
	}
	p.part.finish(now, int(p.job[t.Index].queue), t.Procs)
	if p.cfg.Delay && p.cfg.AdaptiveDelay {
		p.finished = append(p.finished, t)
	}
}

// flush feeds this instant's completions to the delay in arrival-index
// order (they all have the same end).
func (p *Policy) flush() {
	if len(p.finished) == 0 {
		return
	}
	slices.SortFunc(p.finished, func(a, b *sim.Task) int { return a.Index - b.Index })
	for _, t := range p.finished {
		wait := t.End - t.Submit - t.Runtime
		p.delay.Complete(p.job[t.Index].queue == 1, 1+float64(wait)/float64(t.Runtime))
	}
	clear(p.finished)
	p.finished = p.finished[:0]
}

// Timer wakes the policy when a delayed job's not_before comes.
func (p *Policy) Timer(int) { p.flush() }

// headOf returns queue q's first waiting job, or nil.
func (p *Policy) headOf(q int) *sim.Task {
	jobs := p.queues[q]
	i := p.heads[q]
	for i < len(jobs) && jobs[i].State != sim.Waiting {
		i++
	}
	p.heads[q] = i
	if i > 1024 && 2*i > len(jobs) {
		n := copy(jobs, jobs[i:])
		clear(jobs[n:])
		p.queues[q] = jobs[:n]
		p.heads[q] = 0
		i = 0
		jobs = p.queues[q]
	}
	if i == len(jobs) {
		return nil
	}
	return jobs[i]
}

// makePivot gives queue q's head, if any, a reservation at its earliest
// fit at or after max(now, not_before).
func (p *Policy) makePivot(q int) {
	t := p.headOf(q)
	p.pivots[q] = pivot{t: t}
	if t == nil {
		return
	}
	from := max(p.m.Now(), p.job[t.Index].notBefore)
	at := p.prof.EarliestStart(from, t.Procs, t.Estimate)
	p.m.Check(p.prof.Reserve(at, t.Estimate, t.Procs))
	p.pivots[q].start = at
	p.m.Promise(t, at)
}

// compress re-places the pivot reservations in start order (ties by
// arrival), each at its earliest fit at or after max(now, not_before),
// which is never later than before. It does so only after a job ended
// before its estimate: otherwise the profile has only gained blocks since
// each pivot was placed at its earliest fit, and none can move.
func (p *Policy) compress(now sim.Time) {
	if !p.released {
		return
	}
	p.released = false
	p.order = p.order[:0]
	for q := range p.pivots {
		if p.pivots[q].t != nil && p.pivots[q].start > now {
			p.order = append(p.order, q)
		}
	}
	if len(p.order) == 0 {
		return
	}
	slices.SortFunc(p.order, func(a, b int) int {
		pa, pb := &p.pivots[a], &p.pivots[b]
		if pa.start != pb.start {
			if pa.start < pb.start {
				return -1
			}
			return 1
		}
		return pa.t.Index - pb.t.Index
	})
	for _, q := range p.order {
		pv := &p.pivots[q]
		t := pv.t
		p.m.Check(p.prof.Release(pv.start, t.Estimate, t.Procs))
		at := p.prof.EarliestStart(max(now, p.job[t.Index].notBefore), t.Procs, t.Estimate)
		p.m.Check(p.prof.Reserve(at, t.Estimate, t.Procs))
		if at != pv.start {
			pv.start = at
			p.m.Promise(t, at)
		}
	}
}

// newPivots gives every queue without a pivot one, in the arrival order
// of the heads.
func (p *Policy) newPivots() {
	for {
		best := -1
		for q := range p.pivots {
			if p.pivots[q].t != nil {
				continue
			}
			h := p.headOf(q)
			if h == nil {
				continue
			}
			if best < 0 || h.Index < p.headOf(best).Index {
				best = q
			}
		}
		if best < 0 {
			return
		}
		p.makePivot(best)
	}
}

// start starts t, whose processors are already planned in the profile
// (as its pivot reservation or by the caller), and books the partitions.
func (p *Policy) start(t *sim.Task) bool {
	if p.m.Start(t) != nil {
		return false
	}
	if !p.plain {
		p.idx.Remove(t)
	}
	ji := &p.job[t.Index]
	ji.partition = p.part.start(p.m.Now(), int(ji.queue), t.Procs)
	if p.cfg.SelfCheck && p.err == nil {
		switch {
		case ji.partition < t.Procs:
			p.err = fmt.Errorf("at t=%d: job %d of width %d started with partition_at_start %d", p.m.Now(), t.ID, t.Procs, ji.partition)
		case t.FirstStart < ji.notBefore:
			p.err = fmt.Errorf("at t=%d: job %d started before its not_before %d", p.m.Now(), t.ID, ji.notBefore)
		}
	}
	return true
}

// Schedule compresses the pivot reservations, gives empty-headed queues a
// pivot and makes one pass over the waiting jobs in arrival order.
//
// The pass acts only on pivots whose reservation has come and on jobs
// that fit now (as wide as the free processors and as the least free
// during their estimate). It takes them in arrival order from the pivots
// and from an index of the waiting jobs with the least width and
// estimate of each range, which skips ranges where no job fits: a job
// narrower and shorter than one that fits fits too. Under load most
// waiting jobs do not fit, and the pass no longer looks at each.
func (p *Policy) Schedule() {
	if p.plain {
		p.schedulePlain()
		return
	}
	p.flush()
	now := p.m.Now()
	p.prof.Advance(now)
	p.compress(now)
	p.newPivots()
	p.fit.invalidate()
	for i := 0; p.m.Free() > 0; i++ {
		free := p.m.Free()
		if i = p.nextStep(i, now, free); i < 0 {
			break
		}
		t := p.m.Task(i)
		ji := &p.job[t.Index]
		q := int(ji.queue) - 1
		if pv := &p.pivots[q]; pv.t == t {
			if pv.start > now || !p.start(t) {
				continue
			}
			// Its reservation is at now: it is already in the profile.
			p.makePivot(q)
			p.fit.invalidate()
			continue
		}
		if now < ji.notBefore {
			continue
		}
		if p.prof.Reserve(now, t.Estimate, t.Procs) != nil {
			continue
		}
		p.fit.invalidate()
		if !p.start(t) {
			p.m.Check(p.prof.Release(now, t.Estimate, t.Procs))
		}
	}
	if p.cfg.SelfCheck && p.err == nil {
		p.err = p.check()
	}
}

// nextStep returns the least arrival index >= from of a pivot whose
// reservation has come or of a waiting job of at most free processors
// that fits now; -1 when there is none.
func (p *Policy) nextStep(from int, now sim.Time, free int) int {
	i := p.idx.Next(from, func(procs int32, est sim.Time) bool {
		return int(procs) <= free && p.fit.fits(p.prof, est, int(procs))
	})
	for q := range p.pivots {
		pv := &p.pivots[q]
		if pv.t != nil && pv.start <= now && pv.t.Index >= from && (i < 0 || pv.t.Index < i) {
			i = pv.t.Index
		}
	}
	return i
}

// schedulePlain is Schedule looking at every waiting job in a list.
func (p *Policy) schedulePlain() {
	p.flush()
	now := p.m.Now()
	p.prof.Advance(now)
	p.compress(now)
	p.newPivots()
	p.fit.invalidate()
	started := false
	for _, t := range p.wait {
		if p.m.Free() == 0 {
			break
		}
		ji := &p.job[t.Index]
		q := int(ji.queue) - 1
		if pv := &p.pivots[q]; pv.t == t {
			if pv.start > now {
				continue
			}
			// Its reservation is at now: it is already in the profile.
			if !p.start(t) {
				continue
			}
			started = true
			p.makePivot(q)
			p.fit.invalidate()
			continue
		}
		if now < ji.notBefore || t.Procs > p.m.Free() || !p.fit.fits(p.prof, t.Estimate, t.Procs) {
			continue
		}
		if p.prof.Reserve(now, t.Estimate, t.Procs) != nil {
			continue
		}
		p.fit.invalidate()
		if !p.start(t) {
			p.m.Check(p.prof.Release(now, t.Estimate, t.Procs))
			continue
		}
		started = true
	}
	if started {
		out := p.wait[:0]
		for _, t := range p.wait {
			if t.State == sim.Waiting {
				out = append(out, t)
			}
		}
		clear(p.wait[len(out):])
		p.wait = out
	}
	if p.cfg.SelfCheck && p.err == nil {
		p.err = p.check()
	}
}

// check verifies the partition bookkeeping and the queues against the machine.
func (p *Policy) check() error {
	if err := p.part.check(p.m.Size() - p.m.Free()); err != nil {
		return fmt.Errorf("at t=%d: %w", p.m.Now(), err)
	}
	for q := range p.queues {
		for _, t := range p.queues[q][p.heads[q]:] {
			if c := p.cfg.Class(t.Estimate); c != q+1 {
				return fmt.Errorf("at t=%d: job %d (estimate %d, class %d) is in queue %d", p.m.Now(), t.ID, t.Estimate, c, q+1)
			}
		}
		if pv := p.pivots[q]; pv.t != nil && pv.t != p.headOf(q) {
			return fmt.Errorf("at t=%d: pivot of queue %d is job %d, not its head", p.m.Now(), q+1, pv.t.ID)
		}
	}
	return nil
}

// Annotate implements [metrics.Annotator]: each record (in the run's job
// order, which is the task index) gets its queue, delay and partition at
// start, and the run its partition and delay figures (the delay ones 0
// without Delay).
func (p *Policy) Annotate(recs []metrics.Record, stats *metrics.RunStats) {
	for i := range recs {
		if i >= len(p.job) {
			break
		}
		ji := &p.job[i]
		recs[i].MQ = metrics.QueueInfo{Queue: int(ji.queue), Delay: ji.delay, PartitionAtStart: ji.partition}
	}
	if stats != nil {
		st := &metrics.QueueStats{PartitionMean: p.part.means(), ProcMoves: p.part.moves}
		if p.cfg.Delay {
			st.DelayUpdates, st.DelayMax, st.DelayFinal = p.delay.Updates(), p.delay.Max(), p.delay.D()
		}
		stats.MultiQueue = st
	}
}
