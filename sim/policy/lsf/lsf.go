package lsf

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/internal/runmap"
)

// Discipline is one row of Parsons & Sevcik's Table 3.
type Discipline uint8

// Disciplines.
const (
	RTC          Discipline = iota // run to completion, rigid
	RTCAD                          // run to completion, adaptive
	RTCADSubset                    // run to completion, adaptive, subset-sum
	Preempt                        // simple preemption, rigid
	PreemptAD                      // simple preemption, adaptive (matrix)
	Mig                            // migratable, rigid
	MigAD                          // migratable, adaptive
	MigADSubset                    // migratable, adaptive, subset-sum
	MallAD                         // malleable, adaptive
	MallADSubset                   // malleable, adaptive, subset-sum
)

var disciplineNames = [...]string{
	"lsf-rtc", "lsf-rtc-ad", "lsf-rtc-adsubset", "lsf-preempt", "lsf-preempt-ad",
	"lsf-mig", "lsf-mig-ad", "lsf-mig-adsubset", "lsf-mall-ad", "lsf-mall-adsubset",
}

// Disciplines returns every discipline in Table 3's order.
func Disciplines() []Discipline {
	out := make([]Discipline, len(disciplineNames))
	for i := range out {
		out[i] = Discipline(i)
	}
	return out
}

// String returns the discipline's policy name ("lsf-rtc", ...).
func (d Discipline) String() string {
	if int(d) < len(disciplineNames) {
		return disciplineNames[d]
	}
	return "lsf-?"
}

// Preemptive reports whether the discipline preempts running jobs.
func (d Discipline) Preemptive() bool { return d >= Preempt }
func (d Discipline) subset() bool {
	return d == RTCADSubset || d == MigADSubset || d == MallADSubset
}

// Defaults of [Config].
const (
	DefaultQuantum        = 60
	DefaultMinRunPreempt  = 60
	DefaultMinRunMigrate  = 600
	DefaultAcquiredRatio  = 0.5
	DefaultDemandRatio    = 0.9
	DefaultMaxJobsPerProc = 5
	DefaultDelta          = 5
	DefaultCheckpointCost = 60
	DefaultDispatchDelay  = 0
)

// Scan is how LSF-RTC (and LSF-PREEMPT's filling of free processors)
// walks the pending queue in key order.
type Scan string

// Scans.
const (
	// ScanFirstFit starts every job whose desired size fits, skipping
	// those that do not (§5.1: "skipping any jobs at the head of the
	// queue for which not enough processors are available").
	ScanFirstFit Scan = "first_fit"
	// ScanInOrder starts jobs from the head of the queue while they fit
	// and stops at the first that does not (strict FCFS or SPT, no
	// skipping).
	ScanInOrder Scan = "in_order"
	// ScanOne starts at most one job per decision, the first that fits
	// (§5.1 read literally: the scheduler "finds the first job for which
	// enough processors are available ... assigns processors to the job").
	ScanOne Scan = "one"
)

// Scans lists the scans, the default first.
var Scans = []Scan{ScanFirstFit, ScanInOrder, ScanOne}

// stops reports whether the scan ends after a job that started or not:
// in_order at the first job that does not start, one at the first that
// does, first_fit never.
func (s Scan) stops(started bool) bool {
	return s == ScanInOrder && !started || s == ScanOne && started
}

// PreemptDemand is what LSF-PREEMPT's criterion (2) compares with demand
// knowledge.
type PreemptDemand string

// The readings of "the service demand of the preempting job must be a
// (different) fraction less than that of the running job" (§5).
const (
	// DemandRemaining compares remaining demands (the key), as the
	// choice among several candidates does ("the shortest remaining
	// service demand").
	DemandRemaining PreemptDemand = "remaining"
	// DemandTotal compares the jobs' whole service demands D.
	DemandTotal PreemptDemand = "total"
)

// PreemptDemands lists the readings, the default first.
var PreemptDemands = []PreemptDemand{DemandRemaining, DemandTotal}

// Fill is where LSF-PREEMPT's filling of free processors puts the
// suspended jobs.
type Fill string

// The readings of "Available processors are first allocated in the same
// way as in LSF-RTC" (§5) for suspended jobs.
const (
	// FillResumeFirst resumes every suspended job whose processors are
	// all free before any pending job is placed, then scans the pending
	// jobs as LSF-RTC does: LSF-RTC scans the pending queue, which holds
	// only jobs that never ran (§5 keeps preempted jobs in a queue of
	// their own), and a suspended job can only be configured for its own
	// processors (criterion 1), so its processors serve, in its stead,
	// only the same-size jobs that preempt it.
	FillResumeFirst Fill = "resume_first"
	// FillRTCOrder scans the suspended jobs with the pending ones in
	// LSF-RTC's order (arrival, or with demand knowledge the key): a
	// pending job that comes first may take processors of a suspended
	// job whose processors are all free.
	FillRTCOrder Fill = "rtc_order"
)

// Fills lists the readings, the default first.
var Fills = []Fill{FillResumeFirst, FillRTCOrder}

// Estimate is how a discipline with demand knowledge but no speedup
// knowledge estimates a job's remaining service demand (its key). §5:
// "service-demand information is used to run jobs having the least
// remaining processing time ... computing the remaining processing time
// will only be accurate if speedup information is available"; the text
// does not say what the estimate is without it.
type Estimate string

// The readings of the remaining demand without speedup knowledge.
const (
	// EstimateProcessorSeconds is D − Σk·dt: the work done is taken to be
	// the processor-seconds acquired (perfect speedup). It turns negative
	// for every parallel job before the job ends (S(k) < k). The default
	// before sim 0.14.0; the reading demand_linear of the Parsons specs.
	EstimateProcessorSeconds Estimate = "processor_seconds"
	// EstimateClamped is max(0, D − Σk·dt): a remaining demand is never
	// below zero; jobs past their demand tie at zero (then by arrival).
	EstimateClamped Estimate = "clamped"
	// EstimateWorkingTime is D − Σdt: the work done is taken to be the
	// seconds worked (no speedup), never more than the work really done,
	// so the estimate stays at or above the true remaining demand (the
	// default).
	EstimateWorkingTime Estimate = "working_time"
	// EstimateDemand is D: the stated demand, not reduced as the job runs
	// (shortest demand first).
	EstimateDemand Estimate = "demand"
)

// Estimates lists the readings, the default first.
var Estimates = []Estimate{EstimateWorkingTime, EstimateProcessorSeconds, EstimateClamped, EstimateDemand}

// Timer tags.
const (
	tagQuantum  = 0 // the preemptive disciplines' quantum
	tagInterval = 1 // the end of DecisionInterval after a decision
)

// ErrConfig is wrapped by configuration errors of [New].
var ErrConfig = errors.New("invalid lsf configuration")

// ErrNotElastic is returned by Init when a job has no [sim.Elastic]
// description: the disciplines need minimum, maximum, demand and speedup.
var ErrNotElastic = errors.New("lsf disciplines need elastic jobs (workload synthetic: parsons1997)")

// Config configures a discipline; see the package documentation for the
// rules each parameter enters.
type Config struct {
	Discipline Discipline
	// KnowDemand and KnowSpeedup are the four knowledge cases.
	KnowDemand, KnowSpeedup bool
	// Quantum is the period of re-evaluation of the preemptive
	// disciplines while jobs wait (> 0).
	Quantum sim.Time
	// MinRun protects a job that has run less than this since its last
	// (re)start or resume (>= 0).
	MinRun sim.Time
	// AcquiredRatio and DemandRatio are LSF-PREEMPT's criterion (2), in (0, 1].
	AcquiredRatio, DemandRatio float64
	// MaxJobsPerProc bounds the jobs (running or suspended) on a processor (>= 1).
	MaxJobsPerProc int
	// Delta is the subset variants' δ (> 0).
	Delta float64
	// CheckpointCost is how long a checkpointed job holds its processors
	// idle (>= 0).
	CheckpointCost sim.Time
	// DispatchDelay is how long a (re)started job holds its processors idle
	// before it works (>= 0).
	DispatchDelay sim.Time
	// DispatchRandom adds to each (re)start's DispatchDelay a delay drawn
	// uniformly from 0..DispatchRandom whole seconds (>= 0; 0: none), §5's
	// "It can take up to thirty seconds to dispatch a job" read as a
	// delay that varies from start to start. The draws come from a PCG
	// stream seeded with Seed, in the order of the (re)starts.
	DispatchRandom sim.Time
	// Seed seeds the DispatchRandom draws (the task's seed).
	Seed uint64
	// Scan is LSF-RTC's walk of the pending queue, also used by
	// LSF-PREEMPT to fill free processors ("" is ScanFirstFit).
	Scan Scan
	// DecisionInterval is the least time between two decisions (>= 0;
	// 0: every event decides at once). An event inside the interval is
	// decided at its end (§5: "scheduling decisions are made at most once
	// every five seconds").
	DecisionInterval sim.Time
	// PreemptDemand is what LSF-PREEMPT's criterion (2) compares with
	// demand knowledge ("" is DemandRemaining).
	PreemptDemand PreemptDemand
	// Estimate is the remaining demand with demand knowledge but no
	// speedup knowledge ("" is EstimateWorkingTime).
	Estimate Estimate
	// Fill is where LSF-PREEMPT's fill puts the suspended jobs ("" is
	// FillResumeFirst).
	Fill Fill
}

// DefaultConfig returns d's configuration with the defaults.
func DefaultConfig(d Discipline) Config {
	c := Config{
		Discipline: d, Quantum: DefaultQuantum, MinRun: DefaultMinRunMigrate,
		AcquiredRatio: DefaultAcquiredRatio, DemandRatio: DefaultDemandRatio,
		MaxJobsPerProc: DefaultMaxJobsPerProc, Delta: DefaultDelta,
		CheckpointCost: DefaultCheckpointCost, DispatchDelay: DefaultDispatchDelay,
	}
	if d == Preempt || d == PreemptAD {
		c.MinRun = DefaultMinRunPreempt
	}
	return c
}

func (c Config) validate() error {
	switch {
	case int(c.Discipline) >= len(disciplineNames):
		return fmt.Errorf("%w: discipline %d", ErrConfig, c.Discipline)
	case c.Quantum <= 0:
		return fmt.Errorf("%w: quantum must be > 0, got %d", ErrConfig, c.Quantum)
	case c.MinRun < 0:
		return fmt.Errorf("%w: min_run must be >= 0, got %d", ErrConfig, c.MinRun)
	case !(c.AcquiredRatio > 0 && c.AcquiredRatio <= 1):
		return fmt.Errorf("%w: acquired_ratio must be in (0, 1], got %v", ErrConfig, c.AcquiredRatio)
	case !(c.DemandRatio > 0 && c.DemandRatio <= 1):
		return fmt.Errorf("%w: demand_ratio must be in (0, 1], got %v", ErrConfig, c.DemandRatio)
	case c.MaxJobsPerProc < 1:
		return fmt.Errorf("%w: max_jobs_per_proc must be >= 1, got %d", ErrConfig, c.MaxJobsPerProc)
	case !(c.Delta > 0) || math.IsInf(c.Delta, 0):
		return fmt.Errorf("%w: delta must be > 0, got %v", ErrConfig, c.Delta)
	case c.CheckpointCost < 0 || c.DispatchDelay < 0:
		return fmt.Errorf("%w: checkpoint_cost %d and dispatch_delay %d must be >= 0", ErrConfig, c.CheckpointCost, c.DispatchDelay)
	case c.DispatchRandom < 0 || c.DispatchRandom > maxDispatchRandom:
		return fmt.Errorf("%w: dispatch_delay_random must be in [0, %d], got %d", ErrConfig, maxDispatchRandom, c.DispatchRandom)
	case c.Scan != "" && !slices.Contains(Scans, c.Scan):
		return fmt.Errorf("%w: rtc_scan %q is not one of %v", ErrConfig, c.Scan, Scans)
	case c.PreemptDemand != "" && !slices.Contains(PreemptDemands, c.PreemptDemand):
		return fmt.Errorf("%w: preempt_demand %q is not one of %v", ErrConfig, c.PreemptDemand, PreemptDemands)
	case c.Estimate != "" && !slices.Contains(Estimates, c.Estimate):
		return fmt.Errorf("%w: demand_estimate %q is not one of %v", ErrConfig, c.Estimate, Estimates)
	case c.Fill != "" && !slices.Contains(Fills, c.Fill):
		return fmt.Errorf("%w: preempt_fill %q is not one of %v", ErrConfig, c.Fill, Fills)
	case c.DecisionInterval < 0:
		return fmt.Errorf("%w: decision_interval must be >= 0, got %d", ErrConfig, c.DecisionInterval)
	}
	return nil
}

// Policy is an LSF discipline.
type Policy struct {
	cfg     Config
	m       *sim.Machine
	jobs    []*sim.Task // in the system, arrival order
	desired []int       // by task index
	unit    int
	decide  bool
	timerAt sim.Time    // pending quantum timer, -1 none
	lastAt  sim.Time    // time of the last decision, -1 none
	holding bool        // a decision waits for the end of DecisionInterval
	counts  runmap.Map  // jobs per processor, as runs (simple preemption)
	crowded sim.ProcSet // processors holding MaxJobsPerProc jobs or more
	q       queue       // queued jobs (simple preemption)
	rng     *rand.Rand  // DispatchRandom's draws (nil without them)
	// reference makes the simple-preemption disciplines and LSF-RTC
	// decide over every job in the system instead of the queue index, and
	// the others sort their candidates whole instead of from the last
	// sort: the plain routines, kept to test the index and keyOrder
	// against.
	reference bool

	// Scratch reused across decisions (no allocation per decision).
	keyBuf []keyed
	stamp  []uint32 // per task index: == gen marks a task in the current set
	gen    uint32
	pend   []*sim.Task
	run    []*sim.Task
	keys   []float64
	// Subset-sum selection (selectJobs): the candidates left after the
	// first N', their weights, and the reach table.
	ssRest  []*sim.Task
	ssW     []int
	ssReach []bool
	order   keyOrder // the last key sort of runToCompletion and migrate
}

// keyed is a task with its key.
type keyed struct {
	k float64
	t *sim.Task
}

// mark starts a new empty task set (see marked, setMark).
func (p *Policy) mark() {
	p.gen++
	if p.gen == 0 { // wrapped: clear the stamps
		clear(p.stamp)
		p.gen = 1
	}
}

// setMark puts t in the current task set; marked tells whether it is in.
func (p *Policy) setMark(t *sim.Task)     { p.stamp[t.Index] = p.gen }
func (p *Policy) marked(t *sim.Task) bool { return p.stamp[t.Index] == p.gen }

var _ sim.Policy = (*Policy)(nil)
var _ sim.OverheadWatcher = (*Policy)(nil)

// New returns the discipline cfg.Discipline.
func New(cfg Config) (*Policy, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Scan == "" {
		cfg.Scan = ScanFirstFit
	}
	if cfg.Estimate == "" {
		cfg.Estimate = EstimateWorkingTime
	}
	if cfg.Fill == "" {
		cfg.Fill = FillResumeFirst
	}
	return &Policy{cfg: cfg, timerAt: -1, lastAt: -1}, nil
}

// Init checks that every job is elastic, with one allocation unit.
func (p *Policy) Init(m *sim.Machine) error {
	p.m = m
	p.rng = nil
	if p.cfg.DispatchRandom > 0 {
		p.rng = rand.New(rand.NewPCG(p.cfg.Seed, dispatchStream))
	}
	p.desired = make([]int, m.NumTasks())
	for i := range m.NumTasks() {
		t := m.Task(i)
		if t.Elastic == nil {
			return fmt.Errorf("%s: job %d: %w", p.cfg.Discipline, t.ID, ErrNotElastic)
		}
		if i == 0 {
			p.unit = t.Elastic.Unit
		} else if t.Elastic.Unit != p.unit {
			return fmt.Errorf("%s: job %d has allocation unit %d, others %d", p.cfg.Discipline, t.ID, t.Elastic.Unit, p.unit)
		}
		p.desired[i] = t.Procs
	}
	p.counts.Reset(0)
	p.crowded = sim.NewProcSet(m.Size())
	p.stamp = make([]uint32, m.NumTasks())
	if p.indexed() {
		size := func(t *sim.Task) int { return p.desired[t.Index] }
		if p.cfg.Discipline == PreemptAD {
			size = func(t *sim.Task) int { return t.Elastic.Min }
		}
		p.q.init(size)
	}
	return nil
}

// indexed reports whether the discipline decides on the queue index:
// the simple-preemption disciplines, and LSF-RTC with the first-fit scan.
func (p *Policy) indexed() bool {
	d := p.cfg.Discipline
	return (d == Preempt || d == PreemptAD || d == RTC && p.cfg.Scan == ScanFirstFit) && !p.reference
}

// Arrive queues t.
func (p *Policy) Arrive(t *sim.Task) {
	p.jobs = append(p.jobs, t)
	p.decide = true
	if p.indexed() {
		p.q.addPending(t, p.Key(t))
	}
}

// Finish removes t.
func (p *Policy) Finish(t *sim.Task) {
	if i := slices.Index(p.jobs, t); i >= 0 {
		p.jobs = slices.Delete(p.jobs, i, i+1)
	}
	p.decide = true
}

// Timer is the quantum, or the end of a decision interval (the held
// decision is then taken).
func (p *Policy) Timer(tag int) {
	if tag == tagInterval {
		p.holding = false
		return
	}
	p.timerAt = -1
	p.decide = p.decide || p.cfg.Discipline.Preemptive()
}

// OverheadDone re-decides at the end of a checkpoint.
func (p *Policy) OverheadDone(t *sim.Task) {
	if t.State == sim.Stopped {
		p.decide = true
	}
}

// Schedule decides when something happened.
func (p *Policy) Schedule() {
	if !p.decide || p.holding {
		return
	}
	now := p.m.Now()
	if iv := p.cfg.DecisionInterval; iv > 0 && p.lastAt >= 0 && now < p.lastAt+iv {
		p.holding = true
		p.m.SetTimer(p.lastAt+iv, tagInterval)
		return
	}
	p.lastAt = now
	p.decide = false
	switch d := p.cfg.Discipline; {
	case d <= RTCADSubset:
		p.runToCompletion()
	case d == Preempt && p.reference:
		p.preemptPlain()
	case d == Preempt:
		p.preempt()
	case d == PreemptAD && p.reference:
		p.preemptADPlain()
	case d == PreemptAD:
		p.preemptAD()
	default:
		p.migrate()
	}
	if p.cfg.Discipline.Preemptive() && p.timerAt < 0 && p.waiting() {
		p.timerAt = p.m.Now() + p.cfg.Quantum
		p.m.SetTimer(p.timerAt, tagQuantum)
	}
}

// waiting reports whether a job is queued (pending, suspended or stopped).
func (p *Policy) waiting() bool {
	if p.indexed() {
		return p.q.queued()
	}
	for _, t := range p.jobs {
		if t.State == sim.Waiting || t.State == sim.Suspended || t.State == sim.Stopped {
			return true
		}
	}
	return false
}

// Key returns t's priority key (smaller first): acquired processor-seconds,
// or with demand knowledge the remaining demand (D − served work with
// speedup knowledge; without, as Config.Estimate says: by default D −
// seconds worked).
func (p *Policy) Key(t *sim.Task) float64 {
	now := p.m.Now()
	if !p.cfg.KnowDemand {
		return t.AcquiredWork(now)
	}
	d := t.Elastic.Work
	if p.cfg.KnowSpeedup {
		return d - t.ServedWork(now)
	}
	switch p.cfg.Estimate {
	case EstimateProcessorSeconds:
		return d - t.AcquiredWork(now)
	case EstimateClamped:
		return max(0, d-t.AcquiredWork(now))
	case EstimateDemand:
		return d
	}
	return d - float64(t.WorkDone(now))
}

// byKey sorts ts by key, ties by arrival.
func (p *Policy) byKey(ts []*sim.Task) {
	if len(ts) < 2 {
		return
	}
	buf := p.keyBuf[:0]
	for _, t := range ts {
		buf = append(buf, keyed{p.Key(t), t})
	}
	slices.SortFunc(buf, func(a, b keyed) int {
		if a.k != b.k {
			if a.k < b.k {
				return -1
			}
			return 1
		}
		return a.t.Index - b.t.Index
	})
	for i := range buf {
		ts[i] = buf[i].t
	}
	clear(buf)
	p.keyBuf = buf[:0]
}

// protected reports whether t holds processors and may not be preempted:
// in its dispatch delay, or working for less than MinRun since its last
// (re)start or resume.
func (p *Policy) protected(t *sim.Task) bool {
	switch t.State {
	case sim.Resuming:
		return true
	case sim.Running:
		return p.m.Now()-t.Flex.RunStart < p.cfg.MinRun
	}
	return false
}

// alloc is a selected job and its allocation.
type alloc struct {
	t    *sim.Task
	k    int
	grow bool        // may receive leftover units
	set  sim.ProcSet // processors chosen for it (LSF-PREEMPT-AD)
}

// spread gives left processors, one unit at a time, to the growable
// selected job with the smallest allocation (ties: selection order), or
// with speedup knowledge the one with the highest efficiency after the
// unit; never above a job's maximum. It returns what is left.
func (p *Policy) spread(sel []alloc, left int) int {
	u := p.unit
	for left >= u {
		best := -1
		bestEff := 0.0
		for i, a := range sel {
			if !a.grow || a.k+u > a.t.Elastic.Max {
				continue
			}
			if p.cfg.KnowSpeedup {
				eff := a.t.Elastic.Speedup(a.k+u) / float64(a.k+u)
				if best < 0 || eff > bestEff {
					best, bestEff = i, eff
				}
			} else if best < 0 || a.k < sel[best].k {
				best = i
			}
		}
		if best < 0 {
			break
		}
		sel[best].k += u
		left -= u
	}
	return left
}

// NPrime returns LSF-RTC-ADSUBSET's commitment N' = floor(N_ff·max(1 −
// L/(δ·N_ff), 0)) for L jobs in the system and nff first-fit selections.
func NPrime(l, nff int, delta float64) int {
	if nff == 0 {
		return 0
	}
	f := float64(nff) * max(1-float64(l)/(delta*float64(nff)), 0)
	return int(math.Floor(f + 1e-9))
}

// SubsetSum returns the indexes (ascending) of the subset of w with the
// largest sum <= capacity; among the best, the lexicographically earliest.
// Weights and capacity are small non-negative integers (allocation units).
func SubsetSum(w []int, capacity int) []int {
	out, _ := subsetSum(w, capacity, nil)
	return out
}

// subsetSum is SubsetSum with its table in buf, which it returns (grown
// if needed) for the next call.
func subsetSum(w []int, capacity int, buf []bool) ([]int, []bool) {
	if capacity <= 0 || len(w) == 0 {
		return nil, buf
	}
	n, width := len(w), capacity+1
	// reach[i*width+c]: some subset of w[i:] sums to exactly c.
	reach := slices.Grow(buf[:0], (n+1)*width)[:(n+1)*width]
	clear(reach[n*width:])
	reach[n*width] = true
	for i := n - 1; i >= 0; i-- {
		row, next := reach[i*width:(i+1)*width], reach[(i+1)*width:(i+2)*width]
		for c := range row {
			row[c] = next[c] || (c >= w[i] && next[c-w[i]])
		}
	}
	best := capacity
	for !reach[best] {
		best--
	}
	var out []int
	c := best
	for i := 0; i < n && c > 0; i++ {
		if w[i] <= c && reach[(i+1)*width+c-w[i]] {
			out = append(out, i)
			c -= w[i]
		}
	}
	return out, reach
}

// selectJobs picks jobs from cands (in key order) with sizes size(t):
// first fit into avail; with the subset rule, only the first N' first-fit
// jobs are kept and the rest of avail is filled by subset-sum over the
// remaining candidates. inSystem is L.
func (p *Policy) selectJobs(cands []*sim.Task, avail int, size func(*sim.Task) int, inSystem int) []alloc {
	var ff []int
	left := avail
	for i, t := range cands {
		if k := size(t); k <= left {
			ff = append(ff, i)
			left -= k
		}
	}
	if !p.cfg.Discipline.subset() {
		out := make([]alloc, len(ff))
		for j, i := range ff {
			out[j] = alloc{t: cands[i], k: size(cands[i])}
		}
		return out
	}
	np := NPrime(inSystem, len(ff), p.cfg.Delta)
	var out []alloc
	left = avail
	for _, i := range ff[:np] {
		out = append(out, alloc{t: cands[i], k: size(cands[i])})
		left -= size(cands[i])
	}
	if left/p.unit <= 0 {
		return out // the subset-sum has no room
	}
	// The candidates not taken: ff[:np] is ascending, so skip those
	// positions in one walk.
	rest, w, taken := p.ssRest[:0], p.ssW[:0], ff[:np]
	for i, t := range cands {
		if len(taken) > 0 && taken[0] == i {
			taken = taken[1:]
			continue
		}
		rest = append(rest, t)
		w = append(w, size(t)/p.unit)
	}
	var sel []int
	sel, p.ssReach = subsetSum(w, left/p.unit, p.ssReach)
	for _, i := range sel {
		out = append(out, alloc{t: rest[i], k: size(rest[i])})
	}
	clear(rest)
	p.ssRest, p.ssW = rest[:0], w[:0]
	return out
}

// runToCompletion: LSF-RTC, LSF-RTC-AD, LSF-RTC-ADSUBSET.
func (p *Policy) runToCompletion() {
	if p.m.Free() < p.unit {
		return // nothing can start
	}
	if p.indexed() {
		p.fillRTC()
		return
	}
	pend := p.pend[:0]
	for _, t := range p.jobs {
		if t.State == sim.Waiting {
			pend = append(pend, t)
		}
	}
	defer func() { clear(pend); p.pend = pend[:0] }()
	if len(pend) == 0 {
		return
	}
	p.sortByKey(pend)
	free := p.m.Free()
	if p.cfg.Discipline == RTC {
		for _, t := range pend {
			k := p.desired[t.Index]
			started := k <= free
			if started {
				p.dispatch(t, k)
				free -= k
			}
			if p.cfg.Scan.stops(started) {
				return
			}
		}
		return
	}
	sel := p.selectJobs(pend, free, func(t *sim.Task) int { return t.Elastic.Min }, len(p.jobs))
	used := 0
	for i := range sel {
		sel[i].grow = true
		used += sel[i].k
	}
	p.spread(sel, free-used)
	for _, a := range sel {
		p.dispatch(a.t, a.k)
	}
}

// dispatch starts or restarts t on k of the lowest free processors: the
// size is chosen with [sim.Machine.Mold], as for moldable jobs.
func (p *Policy) dispatch(t *sim.Task, k int) {
	if p.m.Mold(t, k) == nil {
		_ = p.m.DispatchN(t, p.delay()) // a refused call ends the run (sim.ErrPolicy)
	}
}

// maxDispatchRandom bounds DispatchRandom (a day).
const maxDispatchRandom = 86400

// dispatchStream is the PCG stream of DispatchRandom's draws.
const dispatchStream = 0xd15a7c4

// delay returns the dispatch delay of the next (re)start: DispatchDelay
// plus, with DispatchRandom, a draw from 0..DispatchRandom.
func (p *Policy) delay() sim.Time {
	if p.rng == nil {
		return p.cfg.DispatchDelay
	}
	return p.cfg.DispatchDelay + sim.Time(p.rng.IntN(int(p.cfg.DispatchRandom)+1))
}

// dispatchOn starts or restarts t on the free processors set, sized with
// [sim.Machine.Mold].
func (p *Policy) dispatchOn(t *sim.Task, set sim.ProcSet) error {
	if err := p.m.Mold(t, set.Len()); err != nil {
		return err
	}
	return p.m.Dispatch(t, set, p.delay())
}

// migrate: LSF-MIG, LSF-MIG-AD(SUBSET), LSF-MALL-AD(SUBSET).
func (p *Policy) migrate() {
	d := p.cfg.Discipline
	avail := p.m.Size()
	cands := p.pend[:0] // scratch, as in runToCompletion
	defer func() { clear(cands); p.pend = cands[:0] }()
	for _, t := range p.jobs {
		switch {
		case t.State == sim.Checkpointing || p.protected(t):
			avail -= t.Procs
		case t.State == sim.Running || t.State == sim.Waiting || t.State == sim.Stopped:
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return
	}
	p.sortByKey(cands)
	neverRun := func(t *sim.Task) bool { return t.FirstStart < 0 }
	size := func(t *sim.Task) int {
		switch {
		case d == Mig:
			return p.desired[t.Index]
		case d == MigAD || d == MigADSubset:
			if neverRun(t) {
				return t.Elastic.Min
			}
			return t.Flex.LastProcs
		}
		return t.Elastic.Min
	}
	sel := p.selectJobs(cands, avail, size, len(p.jobs))
	used := 0
	for i := range sel {
		used += sel[i].k
		sel[i].grow = d == MallAD || d == MallADSubset || ((d == MigAD || d == MigADSubset) && neverRun(sel[i].t))
	}
	p.spread(sel, avail-used)
	chosen := make(map[*sim.Task]int, len(sel))
	for _, a := range sel {
		chosen[a.t] = a.k
	}
	// Preempt first: unselected running jobs, and (malleable) running jobs
	// whose allocation changes.
	for _, t := range cands {
		if t.State != sim.Running {
			continue
		}
		if k, ok := chosen[t]; !ok || k != t.Procs {
			_ = p.m.Checkpoint(t, p.cfg.CheckpointCost) // a refused call ends the run (sim.ErrPolicy)
		}
	}
	// Then start the selected jobs that fit now, in key order; the others
	// wait for the processors of the jobs being checkpointed.
	for _, a := range sel {
		if a.t.State != sim.Running && a.t.State != sim.Checkpointing && a.k <= p.m.Free() {
			p.dispatch(a.t, a.k)
		}
	}
}
