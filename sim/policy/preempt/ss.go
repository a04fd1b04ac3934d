package preempt

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Defaults of [SSConfig].
const (
	DefaultSuspensionFactor = 2.0
	DefaultWidthRatio       = 2.0
	DefaultInterval         = sim.Time(60)
	DefaultTSSLimit         = 1.5
)

// SSConfig configures selective suspension.
type SSConfig struct {
	// SuspensionFactor (SF, >= 1, default 2): a job may suspend running
	// jobs whose priority is at most its own divided by SF.
	SuspensionFactor float64
	// WidthRatio (>= 0, default 2): a job that never ran may suspend only
	// running jobs using at most WidthRatio times its processors; 0 means
	// such jobs never suspend others. Suspended jobs re-entering are not
	// bound by it.
	WidthRatio float64
	// Interval (>= 1 s, default 60) is the period of the preemption
	// routine while jobs wait; it also runs at every event.
	Interval sim.Time
	// Tunable turns SS into TSS: a running job's category limit, TSSLimit
	// times the mean bounded slowdown of its ss16 category in an EASY run
	// of the same workload, restricts its suspension (see
	// TSSProtectVictim).
	Tunable bool
	// TSSLimit (>= 0, default 1.5) is the TSS factor; ignored unless
	// Tunable.
	TSSLimit float64
	// TSSProtectVictim (default true) chooses the reading of the TSS rule
	// (section 4.5): when true, a running job may not be suspended while
	// its own priority exceeds its limit (the section's prose); when
	// false, a job may not suspend a running job once the suspender's
	// priority exceeds the victim's limit (the section's formulas).
	// Ignored unless Tunable.
	TSSProtectVictim bool
	// TSSBaselineSS (default false) takes the category means of the TSS
	// limit from a run of plain SS with the same settings instead of EASY
	// ([BaselineSS]): the paper's "average slowdown of the category" may
	// mean that of the scheme being tuned. Ignored unless Tunable.
	TSSBaselineSS bool
	// TSSLimits (default nil) gives the category means of the TSS limit
	// outright, by machine size, instead of taking them from a run: the
	// NS means Kettimuthu et al. print in Tables 4 (CTC, 430 processors)
	// and 5 (SDSC, 128), which package reproduction reads from the
	// paper's claims file, so that the limits are the paper's even where
	// the EASY run of the workload differs from its NS. A run on a
	// machine size it does not give is an error. Ignored unless Tunable;
	// overrides TSSBaselineSS.
	TSSLimits Limits
	// HoldRemembered (default false) keeps the processors a suspended job
	// remembers for it: a job that never ran may take them, free or by
	// suspending their holder, only if it could suspend that suspended
	// job were it running (by priority, width and, for TSS, limit).
	HoldRemembered bool
	// HoldBackfill (default false) refines HoldRemembered: a job that
	// never ran may also use free processors a suspended job remembers
	// when, by its estimate, it ends before that job could resume: before
	// each running job holding the suspended job's other processors ends
	// (by its estimate) or may be suspended by it. Ignored unless
	// HoldRemembered.
	HoldBackfill bool
	// StopScan (default false) reads section 4.3's pseudocode literally: a
	// job that never ran scans the running jobs in ascending priority and
	// gives up at the first one it may not suspend, by priority, width or,
	// for TSS, limit ("goto next_idle_job"). When false, the scan skips
	// jobs excluded by width or limit and goes on, as the set C_i of the
	// same section is written; it stops at the first job of too high a
	// priority either way (all later ones are higher).
	StopScan bool
	// MarksOnly (default false) runs the suspending part of the routine
	// only at multiples of Interval, the paper's "the scheduler
	// periodically (after every minute) invokes the preemption routine"
	// (section 4.2): at other events idle jobs start or resume only if
	// their processors are free, as backfilling without reservations.
	// When false, the whole routine also runs at every event.
	MarksOnly bool
	// DeferStart (default false) reads the end of section 4.3's
	// suspend_jobs_1 loop literally: a job that never ran and needs every
	// one of its candidates suspended to make room suspends them but does
	// not start in the same run of the routine; it starts at the next
	// pass (the next event or multiple of Interval) if the processors are
	// still free. When false it starts at once on the processors freed,
	// the pseudocode's loop end being read as an omission.
	DeferStart bool
	// DeferBackfill (default false) refines DeferStart: the next pass of
	// a job left waiting is a backfilling pass right after the routine,
	// at the same instant, which starts the waiting jobs, in descending
	// priority, that fit on the free processors (the scheduler's
	// backfilling without reservations of section 4.2, run after the
	// pseudocode of section 4.3). The job then starts at once unless a
	// job of higher priority fits there first or a later job of the
	// routine took the processors. Without DeferStart it has no effect.
	DeferBackfill bool
	// Overhead is the suspend/resume cost model; the zero value is none.
	Overhead Overhead
}

// DefaultSSConfig returns the paper's SS settings, without overhead.
func DefaultSSConfig() SSConfig {
	return SSConfig{
		SuspensionFactor: DefaultSuspensionFactor,
		WidthRatio:       DefaultWidthRatio,
		Interval:         DefaultInterval,
		TSSLimit:         DefaultTSSLimit,
		TSSProtectVictim: true,
	}
}

// Validate checks the configuration; errors wrap [ErrInvalidConfig].
func (c SSConfig) Validate() error {
	switch {
	case !(c.SuspensionFactor >= 1) || math.IsInf(c.SuspensionFactor, 0):
		return fmt.Errorf("%w: suspension factor %v, want >= 1", ErrInvalidConfig, c.SuspensionFactor)
	case !(c.WidthRatio >= 0):
		return fmt.Errorf("%w: width ratio %v, want >= 0", ErrInvalidConfig, c.WidthRatio)
	case c.Interval < 1:
		return fmt.Errorf("%w: interval %d s, want >= 1", ErrInvalidConfig, c.Interval)
	case c.Tunable && !(c.TSSLimit >= 0):
		return fmt.Errorf("%w: TSS limit %v, want >= 0", ErrInvalidConfig, c.TSSLimit)
	}
	if c.TSSLimits != nil {
		if err := c.TSSLimits.Validate(); err != nil {
			return err
		}
	}
	return c.Overhead.Validate()
}

// SS is selective suspension (Kettimuthu et al. 2005, section 4), or
// tunable selective suspension (section 4.5) when built with
// [SSConfig.Tunable]. See the package documentation for the rules and
// costs.
type SS struct {
	core
	cfg      SSConfig
	baseline map[string]float64 // TSS: mean bsd by ss16 category
	limit    []float64          // TSS: priority limit by task index
	guard    bool               // TSS, victim reading: limit protects running jobs
	prio     []float64          // scratch: priority by task index
	waitq    []*sim.Task        // Waiting, not claimants, in arrival order
	susp     suspQueue          // Suspending or Suspended, not claimants
	wb       waitBounds         // Waiting jobs' bounds
	rl       runList            // running jobs by ascending priority
	mark     []bool             // scratch, by task index
	victims  []*sim.Task        // suspended in this pass
	stale    []*sim.Task        // suspended jobs whose watched job left, to rebound
	staleDue []uint8            // scratch of rebound, by position in stale
	holdRem  sim.ProcSet        // scratch of holders
	// checkHolders makes every holders call count the jobs again by a
	// scan of all jobs holding processors, recording a difference in
	// holdersErr: tests of the processor index.
	checkHolders   bool
	holdersErr     error
	holdersChecked int
	run            []*sim.Task // running jobs that may be suspended, by ascending priority
	runAt, syncAt  uint64      // core.changes when run was made and when rl was synced
	runNow         sim.Time    // when run was made
	runAll         bool        // run holds every job of rl
	low            float64     // lowest priority in run, unless lowStale
	lowStale       bool        // a job of run was suspended since low
	act            []*sim.Task // scratch: idle jobs examined in a pass
	cand           []*sim.Task // scratch
	left           bool        // a suspension in this pass left processors free
	backfillDue    bool        // DeferBackfill: a job was left waiting in this pass
	timer          sim.Timer   // pending timer, if timerAt > now
	timerAt        sim.Time
	// reference makes every pass examine every idle job, and the routine
	// run at every multiple of the interval while jobs wait: the plain
	// algorithm, kept to test the fast path against.
	reference bool
}

var _ sim.Policy = (*SS)(nil)

var (
	_ sim.Policy          = (*SS)(nil)
	_ sim.OverheadWatcher = (*SS)(nil)
)

// NewSS returns an SS policy for a run of jobs on procs processors. With
// cfg.Tunable it first simulates EASY on the same jobs for the TSS
// baseline ([Baseline]; cached per workload), unless cfg.TSSLimits gives
// the category means.
func NewSS(cfg SSConfig, procs int, jobs []sim.Job) (*SS, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &SS{cfg: cfg}
	if cfg.Tunable {
		var b map[string]float64
		var err error
		switch {
		case cfg.TSSLimits != nil:
			b, err = cfg.TSSLimits.forMachine(procs)
		case cfg.TSSBaselineSS:
			b, err = BaselineSS(cfg, procs, jobs)
		default:
			b, err = Baseline(procs, jobs)
		}
		if err != nil {
			return nil, err
		}
		p.baseline = b
	}
	return p, nil
}

// Baseline returns the TSS baseline, the mean bounded slowdown of each
// ss16 category (by label) in the EASY run of the workload, or nil for
// plain SS. The map is the caller's.
func (p *SS) Baseline() map[string]float64 { return maps.Clone(p.baseline) }

// Init implements [sim.Policy].
func (p *SS) Init(m *sim.Machine) error {
	p.core.init(m, p.cfg.Overhead)
	p.runAt, p.syncAt, p.runAll = 0, 0, false
	p.keepRem = p.cfg.HoldRemembered
	p.prio = make([]float64, m.NumTasks())
	p.susp.init(m.NumTasks(), m.Size())
	p.mark = make([]bool, m.NumTasks())
	p.holdersErr = nil
	p.rl.init(m.NumTasks())
	p.wb.init(m.NumTasks(), !p.reference && !p.cfg.HoldRemembered)
	p.waitq = p.waitq[:0]
	p.timerAt = -1
	p.limit = nil
	p.guard = p.cfg.Tunable && p.cfg.TSSProtectVictim
	if p.cfg.Tunable {
		s, err := metrics.LookupScheme("ss16")
		if err != nil {
			return err
		}
		p.limit = make([]float64, m.NumTasks())
		for i := range p.limit {
			t := m.Task(i)
			r := metrics.Record{Runtime: t.Runtime, Estimate: t.Estimate, Procs: t.Procs}
			sd, ok := p.baseline[s.Classify(&r)]
			if !ok {
				sd = math.Inf(1)
			}
			p.limit[i] = p.cfg.TSSLimit * sd
		}
	}
	return nil
}

// Arrive implements [sim.Policy].
func (p *SS) Arrive(t *sim.Task) { p.waitq = append(p.waitq, t) }

// Finish implements [sim.Policy].
func (p *SS) Finish(t *sim.Task) {
	p.changes++
	p.leave(t)
	p.rebound()
}

// OverheadDone implements [sim.OverheadWatcher]: a job that finished
// suspending has left its processors. (One that finished resuming changes
// no bound: holders counted it as running from then on.)
func (p *SS) OverheadDone(t *sim.Task) {
	p.changes++
	if t.State == sim.Suspended {
		p.leave(t)
		p.rebound()
	}
}

// before orders idle jobs by descending priority, then arrival.
func (p *SS) before(a, b *sim.Task) int {
	if c := cmp.Compare(p.prio[b.Index], p.prio[a.Index]); c != 0 {
		return c
	}
	return a.Index - b.Index
}

// Schedule runs the preemption routine: idle jobs in descending priority
// start if they fit, else try to suspend lower-priority running jobs.
//
// A pass examines only the idle jobs that may act: Waiting jobs that fit
// or whose priority reaches SF times the lowest running priority, and
// Suspended jobs whose bound has come; the others would fail their turn.
// When a suspension leaves processors free in the middle of the pass,
// every idle job after the current one is examined, as in the reference
// pass.
func (p *SS) Schedule() {
	now := p.m.Now()
	p.launchReady()
	p.rankRunning(now)
	p.waitq = slices.DeleteFunc(p.waitq, func(t *sim.Task) bool { return t.State != sim.Waiting || p.pending[t.Index] })
	low, avail := p.lowest(), p.avail()
	if p.wb.on && avail > p.wb.ref {
		p.wb.dropAll(p.waitq)
	}
	act := p.act[:0]
	for _, t := range p.waitq {
		if p.wb.on {
			if p.wb.due(t, now) {
				p.prio[t.Index] = xfactor(t, now)
				act = append(act, t)
			}
			continue
		}
		p.prio[t.Index] = xfactor(t, now)
		if p.reference || t.Procs <= avail || p.prio[t.Index] >= p.cfg.SuspensionFactor*low {
			act = append(act, t)
		}
	}
	if p.reference {
		act = p.susp.all(act)
	} else {
		act = p.susp.due(now, act)
	}
	for _, t := range act {
		if t.State != sim.Waiting {
			p.prio[t.Index] = xfactor(t, now)
		}
	}
	slices.SortFunc(act, p.before)
	p.left = false
	for i := 0; i < len(act); i++ {
		t := act[i]
		switch t.State {
		case sim.Waiting:
			p.fresh(t)
		case sim.Suspended:
			p.reenter(t, now)
		default: // Suspending: due again when its overhead ends
			p.susp.set(t, sim.Never, int32(t.Index), -1)
		}
		p.rebound()
		if p.left && !p.reference {
			p.left = false
			act = p.reexamine(act, i, now)
		}
	}
	clear(act)
	p.act = act[:0]
	if p.backfillDue {
		p.backfillDue = false
		p.backfill(now)
	}
	for _, v := range p.victims {
		if v.State == sim.Suspended {
			p.susp.set(v, 0, -1, -1)
		} else {
			p.susp.set(v, sim.Never, int32(v.Index), -1)
		}
	}
	clear(p.victims)
	p.victims = p.victims[:0]
	if p.wb.on {
		p.updateWaitBounds(now)
	}
	p.tick(now)
}

// reexamine returns act with the idle jobs after act[i] replaced, once
// act[i]'s suspensions left processors free, by every idle job ranked
// after it that may act from now on: every Waiting job (the free
// processors grew) and the suspended jobs whose bound has come, including
// those whose watched job was just suspended. The bound of any other
// suspended job holds: its watched jobs still hold its processors.
func (p *SS) reexamine(act []*sim.Task, i int, now sim.Time) []*sim.Task {
	t := act[i]
	tail := act[i+1:]
	for _, u := range tail {
		p.mark[u.Index] = true
	}
	tail = p.susp.due(now, tail)
	for _, u := range p.waitq {
		if u.State == sim.Waiting && !p.mark[u.Index] {
			tail = append(tail, u)
		}
	}
	for _, u := range act[i+1:] {
		p.mark[u.Index] = false
	}
	tail = slices.DeleteFunc(tail, func(u *sim.Task) bool {
		p.prio[u.Index] = xfactor(u, now)
		if p.before(t, u) < 0 {
			return false
		}
		if u.State != sim.Waiting {
			p.susp.restore(u) // not due: it would fail its turn
		}
		return true
	})
	slices.SortFunc(tail, p.before)
	return append(act[:i+1], tail...)
}

// rankRunning collects the running jobs that may be suspended now (not
// started at this instant), by ascending priority (then start, then
// arrival).
//
// When no job has begun or stopped running since the list was made at an
// earlier instant, and every listed job was in it, it is kept as it is,
// and so is the lowest priority in it.
func (p *SS) rankRunning(now sim.Time) {
	if p.runAt == p.changes && p.runAll && p.runNow < now {
		return
	}
	p.syncRunning(now)
	p.run = p.run[:0]
	p.runAll = true
	for _, t := range p.rl.jobs {
		if t.Since < now {
			p.prio[t.Index] = p.rl.key[t.Index]
			p.run = append(p.run, t)
		} else {
			p.runAll = false
		}
	}
	p.runAt, p.runNow = p.changes, now
	p.lowStale = true
}

// syncRunning brings p.rl up to the running jobs at now, if a job may
// have begun or stopped running since it last did (see [core.changes]).
func (p *SS) syncRunning(now sim.Time) {
	if p.syncAt != p.changes {
		p.rl.sync(p.m, now)
		p.syncAt = p.changes
	}
}

// ranked returns the running jobs of this pass by ascending priority
// (then start, then arrival); some may have been suspended since.
func (p *SS) ranked() []*sim.Task { return p.run }

// may reports whether a job of priority tau may suspend running job r
// by priority and, for TSS, by the limit of r's category.
func (p *SS) may(tau float64, r *sim.Task) bool {
	if tau < p.cfg.SuspensionFactor*p.prio[r.Index] {
		return false
	}
	switch {
	case p.limit == nil:
		return true
	case p.guard:
		return !p.protected(r, p.prio[r.Index])
	}
	return tau <= p.limit[r.Index]
}

// protected reports whether, under the victim reading of TSS, job r
// running with priority x may not be suspended: x exceeds r's limit. As
// a running job's priority is constant, so is its protection until it
// leaves its processors.
func (p *SS) protected(r *sim.Task, x float64) bool {
	return p.guard && x > p.limit[r.Index]
}

// lowest returns the lowest priority of a job that may still be suspended
// in this pass, or +Inf. Jobs protected by TSS are left out, except in
// reference mode (fresh skips them one by one there).
func (p *SS) lowest() float64 {
	if p.lowStale {
		p.low = math.Inf(1)
		for _, r := range p.run {
			if r.State == sim.Running && (p.reference || !p.protected(r, p.prio[r.Index])) {
				p.low = min(p.low, p.prio[r.Index])
			}
		}
		p.lowStale = false
	}
	return p.low
}

// tick sets the timer on the first multiple of the interval at which an
// idle job might act (in reference mode: the next multiple, while any job
// waits or is suspended).
func (p *SS) tick(now sim.Time) {
	next := sim.Never
	if p.reference {
		if len(p.waitq) > 0 || p.susp.Len() > 0 {
			next = now + 1
		}
	} else if p.wb.on {
		for _, t := range p.waitq {
			if t.State == sim.Waiting && !p.pending[t.Index] {
				next = min(next, max(p.wb.at[t.Index], now+1))
			}
		}
		if b := p.susp.next(); b != sim.Never {
			next = min(next, max(b, now+1))
		}
	} else {
		// The lowest priority of a running job that may be suspended,
		// from now+1 on.
		low := math.Inf(1)
		for _, r := range p.m.Active() {
			if r.State == sim.Running {
				if x := xfactor(r, now); !p.protected(r, x) {
					low = min(low, x)
				}
			}
		}
		avail := p.avail()
		for _, t := range p.waitq {
			switch {
			case t.State != sim.Waiting || p.pending[t.Index]:
			case t.Procs <= avail:
				next = now + 1
			case !math.IsInf(low, 1):
				// tau(x) = (x - submit + estimate)/estimate reaches SF*low.
				x := t.Submit - t.Estimate + sim.FloorTime(p.cfg.SuspensionFactor*low*float64(t.Estimate)) - 1
				next = min(next, max(x, now+1))
			}
		}
		if b := p.susp.next(); b != sim.Never {
			next = min(next, max(b, now+1))
		}
	}
	if next == sim.Never {
		return
	}
	iv := p.cfg.Interval
	at := (next + iv - 1) / iv * iv
	if at == p.timerAt {
		return
	}
	if p.timerAt > now {
		p.m.CancelTimer(p.timer)
	}
	p.timer = p.m.SetTimer(at, 0)
	p.timerAt = at
}
