package sim

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// ErrPolicy is wrapped by errors caused by a policy asking the machine for
// something impossible (starting a job on too few free processors, resuming
// on processors that are busy, ...). Such an error ends the run.
var ErrPolicy = errors.New("policy error")

// ErrInput is wrapped by errors about the jobs or machine given to [Run].
var ErrInput = errors.New("invalid simulation input")

// Options tune a run. The zero value is a plain run.
type Options struct {
	// Segments, when true, records every interval in which a job held
	// processors in [Result.Segments] (for invariant checks and plots).
	Segments bool
	// CheckEvery, when > 0, makes the engine check its own processor
	// bookkeeping every CheckEvery instants (slow; for tests).
	CheckEvery int
	// Horizon, when > 0, ends the run at that time even if jobs are
	// unfinished (see [Result.End]); 0 runs until every job is done.
	Horizon Time
	// SeriesStep, when > 0, records the machine's state every SeriesStep
	// seconds in [Result.Series] (at least [MinSeriesStep]); 0 records
	// nothing and costs nothing.
	SeriesStep Time
}

// Segment is one interval during which a job held a set of processors.
type Segment struct {
	Task       int // index of the job
	Start, End Time
	Set        ProcSet
	Working    bool // false for suspend/resume overhead
}

// Result is the outcome of a run.
type Result struct {
	// Procs is the machine size.
	Procs int
	// Tasks holds every job's final state in arrival order (submit time,
	// then input order); Task.Index is the position here.
	Tasks []Task
	// Segments is filled when [Options.Segments] is set.
	Segments []Segment
	// Decisions lists every admission decision in the order the policy
	// made them; filled when [Options.Segments] is set.
	Decisions []Decision
	// Instants counts the instants at which the policy was asked to schedule.
	Instants int
	// End is when the run ended: the last event, the [Options.Horizon],
	// or the completion of the last tagged job ([Elastic.Tagged]). A run
	// that ends early keeps only the jobs that arrived by End in Tasks;
	// the unfinished ones are not Done and have End -1.
	End Time
	// MaxQueue is the largest number of jobs queued (waiting, suspended
	// or stopped) after any instant.
	MaxQueue int
	// QueueTime[k] is how long exactly k jobs were queued, from the first
	// instant to End (see [Result.QueueQuantile], [Result.QueueMean]).
	QueueTime []Time
	// Series is the time series of [Options.SeriesStep]: one sample per
	// step from the step holding the first instant to the end of the last
	// job (to End when jobs remain).
	Series []Sample
}

// Machine is the engine's state as a policy sees it. Its methods may only be
// called from within the [Policy] methods, on the engine's goroutine.
type Machine struct {
	size   int
	now    Time
	free   ProcSet
	nfree  int
	tasks  []Task
	next   int // next job to arrive
	active []*Task
	events eventQueue
	seq    uint64
	err    error
	opts   Options
	segs   []Segment
	decs   []Decision
	policy Policy
	dirty  bool // a decision created work for the current instant

	done       int // completed or rejected jobs
	suspended  int // Suspended jobs
	tagged     int // tagged jobs of the run
	taggedLeft int // tagged jobs not yet done
	cut        bool
}

// Size returns the number of processors of the machine.
func (m *Machine) Size() int { return m.size }

// Now returns the current simulated time.
func (m *Machine) Now() Time { return m.now }

// Free returns the number of processors held by no job.
func (m *Machine) Free() int { return m.nfree }

// FreeSet returns the free processors. The caller must not modify it.
func (m *Machine) FreeSet() ProcSet { return m.free }

// Active returns the jobs holding processors (Running, Suspending,
// Resuming), in no particular order. The slice is valid until the next
// Machine call that changes it.
func (m *Machine) Active() []*Task { return m.active }

// Task returns job i of the run.
func (m *Machine) Task(i int) *Task { return &m.tasks[i] }

// NumTasks returns the number of jobs of the run.
func (m *Machine) NumTasks() int { return len(m.tasks) }

func (m *Machine) fail(err error) error {
	if a, ok := m.policy.(ErrorAnnotator); ok && m.err == nil {
		err = fmt.Errorf("%w: %w", ErrPolicy, a.AnnotateError(err))
	} else {
		err = fmt.Errorf("%w: at t=%d: %w", ErrPolicy, m.now, err)
	}
	if m.err == nil {
		m.err = err
	}
	return err
}

// Check ends the run with an error wrapping [ErrPolicy] and err when err
// is not nil, as a failed Machine call does; nil does nothing. Policies
// pass it the errors of calls that cannot fail while their own state is
// right, such as a [Profile.Reserve] where [Profile.EarliestStart] found
// room or a [Profile.Release] of their own reservation, so that a broken
// invariant stops the run instead of passing silently.
func (m *Machine) Check(err error) {
	if err != nil {
		m.fail(err)
	}
}

// Start starts a Waiting job (or restarts a Stopped elastic one) on its
// Procs lowest-numbered free processors: [Machine.DispatchN] with no delay.
func (m *Machine) Start(t *Task) error { return m.DispatchN(t, 0) }

// StartOn starts a Waiting job (or restarts a Stopped elastic one) on the
// given free processors; len(set) must equal the job's Procs. Policies that
// place jobs themselves use it: [Machine.Dispatch] with no delay.
func (m *Machine) StartOn(t *Task, set ProcSet) error { return m.Dispatch(t, set, 0) }

// Dispatch starts a Waiting job, or restarts a Stopped elastic one, on the
// free processors set, whose size must be the job's Procs (a resizable
// job's size is chosen before with [Machine.Mold]). With delay > 0 the job
// holds the processors, doing no work, for that long (Resuming) before it
// works: the dispatch delay.
func (m *Machine) Dispatch(t *Task, set ProcSet, delay Time) error {
	if err := m.canStart(t, delay); err != nil {
		return err
	}
	if set.Len() != t.Procs || !m.free.Contains(set) {
		return m.fail(fmt.Errorf("start job %d on %v: not %d free processors", t.ID, set, t.Procs))
	}
	set = set.Clone()
	m.free.Subtract(set)
	m.startOn(t, set, delay)
	return nil
}

// DispatchN is [Machine.Dispatch] on the job's Procs lowest-numbered free
// processors.
func (m *Machine) DispatchN(t *Task, delay Time) error {
	if err := m.canStart(t, delay); err != nil {
		return err
	}
	set, ok := m.free.TakeLowest(t.Procs)
	if !ok {
		return m.fail(fmt.Errorf("start job %d: needs %d processors, %d free", t.ID, t.Procs, m.nfree))
	}
	m.startOn(t, set, delay)
	return nil
}

// canStart checks that t may be (re)started now with the given delay.
func (m *Machine) canStart(t *Task, delay Time) error {
	if t.State != Waiting && (t.State != Stopped || t.Elastic == nil) {
		return m.fail(fmt.Errorf("start job %d: job is %v", t.ID, t.State))
	}
	if delay < 0 {
		return m.fail(fmt.Errorf("start job %d: negative delay %d", t.ID, delay))
	}
	return nil
}

// startOn gives t the processors set, already taken from the free set,
// and runs it after delay.
func (m *Machine) startOn(t *Task, set ProcSet, delay Time) {
	m.nfree -= t.Procs
	t.Set = set
	if t.Elastic != nil {
		m.flexStart(t)
	}
	if t.FirstStart < 0 {
		t.FirstStart = m.now
	}
	m.addActive(t)
	if delay > 0 {
		m.resumeAfter(t, delay)
		return
	}
	m.run(t)
}

// resumeAfter puts a job holding its processors into Resuming: it does no
// work for d > 0 seconds, then runs.
func (m *Machine) resumeAfter(t *Task, d Time) {
	t.State = Resuming
	t.Since = m.now
	t.SegStart = m.now
	t.completion = m.schedule(m.now+d, evOverheadEnd, t, 0)
}

// bookWork ends a Running job's working segment at m.now, booking its
// segment, its elastic work and its Work so far.
func (m *Machine) bookWork(t *Task) {
	m.closeSegment(t, true)
	m.accrue(t)
	t.Work += m.now - t.SegStart
}

// run puts a job holding its processors into Running and schedules its completion.
func (m *Machine) run(t *Task) {
	t.State = Running
	t.SegStart = m.now
	t.Since = m.now
	m.elasticRun(t)
	t.completion = m.schedule(m.now+t.Runtime-t.Work, evCompletion, t, 0)
}

// Suspend stops a Running job. With overhead > 0 the job keeps its
// processors, doing no work, for that long (Suspending) and then releases
// them (Suspended); with overhead 0 it releases them at once.
func (m *Machine) Suspend(t *Task, overhead Time) error {
	if t.State != Running {
		return m.fail(fmt.Errorf("suspend job %d: job is %v", t.ID, t.State))
	}
	if overhead < 0 {
		return m.fail(fmt.Errorf("suspend job %d: negative overhead %d", t.ID, overhead))
	}
	m.dropCompletion(t)
	m.bookWork(t)
	t.Suspensions++
	if overhead > 0 {
		t.State = Suspending
		t.Since = m.now
		t.completion = m.schedule(m.now+overhead, evOverheadEnd, t, 0)
		return nil
	}
	m.release(t)
	t.State = Suspended
	m.suspended++
	t.Since = m.now
	t.completion = nil
	return nil
}

// Resume restarts a Suspended job on exactly the processors it had, which
// must all be free. With overhead > 0 the job holds them, doing no work,
// for that long (Resuming) before it runs again.
func (m *Machine) Resume(t *Task, overhead Time) error {
	if t.State != Suspended {
		return m.fail(fmt.Errorf("resume job %d: job is %v", t.ID, t.State))
	}
	if overhead < 0 {
		return m.fail(fmt.Errorf("resume job %d: negative overhead %d", t.ID, overhead))
	}
	if !m.free.Contains(t.Set) {
		return m.fail(fmt.Errorf("resume job %d: its processors %v are not all free", t.ID, t.Set))
	}
	t.SuspendedTime += m.now - t.Since
	m.suspended--
	m.free.Subtract(t.Set)
	m.nfree -= t.Procs
	m.addActive(t)
	if overhead > 0 {
		m.resumeAfter(t, overhead)
		return nil
	}
	m.run(t)
	return nil
}

// CanResume reports whether a Suspended job's processors are all free.
func (m *Machine) CanResume(t *Task) bool {
	return t.State == Suspended && m.free.Contains(t.Set)
}

// Kill stops a Running or Suspended job and throws its work away; it is
// Waiting again and must be started from scratch.
func (m *Machine) Kill(t *Task) error {
	t.LostWork += t.WorkDone(m.now)
	switch t.State {
	case Running:
		m.dropCompletion(t)
		m.closeSegment(t, true)
		m.release(t)
		if t.Elastic != nil {
			t.Flex.Rem, t.Flex.Served = t.Elastic.Work, 0
		}
	case Suspended:
		t.SuspendedTime += m.now - t.Since
		m.suspended--
	default:
		return m.fail(fmt.Errorf("kill job %d: job is %v", t.ID, t.State))
	}
	t.completion = nil
	t.Work = 0
	t.Kills++
	t.State = Waiting
	t.Since = m.now
	t.Set = ProcSet{}
	return nil
}

// Timer is a handle to a pending timer.
type Timer struct {
	e   *event
	ord uint64 // the event's order key when set: events are reused
}

// SetTimer asks for Policy.Timer(tag) at time at (>= now). A timer for the
// current instant fires before the instant ends.
func (m *Machine) SetTimer(at Time, tag int) Timer {
	if at < m.now {
		at = m.now
	}
	e := m.schedule(at, evTimer, nil, tag)
	return Timer{e, e.ord}
}

// CancelTimer cancels a pending timer; cancelling a fired or zero Timer is a no-op.
func (m *Machine) CancelTimer(tm Timer) {
	if tm.e == nil || tm.e.ord != tm.ord {
		return
	}
	switch e := tm.e; {
	case e.idx >= 0:
		m.unschedule(e)
	case e.idx == idxHeld:
		t := e.task
		for p := &t.timers; *p != nil; p = &(*p).next {
			if *p == e {
				*p = e.next
				break
			}
		}
		m.events.recycle(e)
	}
}

// SetTaskTimer is [Machine.SetTimer] for a timer about the job t: it
// fires only if t has not completed by then, and not at t's completion
// instant either (completions come before timers), as if the policy
// cancelled it when t finished. The engine knows when a running job
// completes, so a timer set for t's completion or later is held by t
// instead of queued: it costs nothing when t completes first, and is
// queued, in its place among the events, if t stops running otherwise
// (suspended, killed, checkpointed). The policy learns nothing from
// this: such a timer would not have fired.
func (m *Machine) SetTaskTimer(t *Task, at Time, tag int) Timer {
	if at < m.now {
		at = m.now
	}
	if c := t.completion; t.State == Running && c != nil && c.kind() == evCompletion && at >= c.at {
		m.seq++
		e := m.events.newEvent(at, uint64(evTimer)<<seqBits|m.seq, t, tag)
		e.idx = idxHeld
		e.next, t.timers = t.timers, e
		return Timer{e, e.ord}
	}
	e := m.schedule(at, evTimer, nil, tag)
	return Timer{e, e.ord}
}

// dropCompletion takes a running job's pending completion out of the
// queue: the job stops running before it, so the timers it holds are
// queued.
func (m *Machine) dropCompletion(t *Task) {
	m.unschedule(t.completion)
	t.completion = nil
	for e := t.timers; e != nil; {
		next := e.next
		e.next, e.task = nil, nil
		// No new round: e is later than now, or at now while the
		// completions are applied, before the round's timers.
		m.events.push(e)
		e = next
	}
	t.timers = nil
}

// dropTimers recycles the timers held by t, which completes now.
func (m *Machine) dropTimers(t *Task) {
	for e := t.timers; e != nil; {
		next := e.next
		m.events.recycle(e)
		e = next
	}
	t.timers = nil
}

// Promise records that the policy guarantees t will start by at (a
// reservation). Invariant checks compare it with the actual start. A
// promise later than an earlier one is recorded in [Task.PromiseRaised].
func (m *Machine) Promise(t *Task, at Time) {
	if t.Promise >= 0 && at > t.Promise {
		t.PromiseRaised = true
	}
	t.Promise = at
}

func (m *Machine) schedule(at Time, kind eventKind, t *Task, tag int) *event {
	m.seq++
	e := m.events.newEvent(at, uint64(kind)<<seqBits|m.seq, t, tag)
	m.events.push(e)
	if at == m.now {
		m.dirty = true
	}
	return e
}

// unschedule takes the pending event e out of the queue for reuse.
func (m *Machine) unschedule(e *event) {
	m.events.remove(e)
	m.events.recycle(e)
}

func (m *Machine) addActive(t *Task) {
	t.activeIdx = len(m.active)
	m.active = append(m.active, t)
}

func (m *Machine) release(t *Task) {
	m.free.Union(t.Set)
	m.nfree += t.Procs
	i := t.activeIdx
	last := len(m.active) - 1
	m.active[i] = m.active[last]
	m.active[i].activeIdx = i
	m.active[last] = nil
	m.active = m.active[:last]
	t.activeIdx = -1
}

func (m *Machine) closeSegment(t *Task, working bool) {
	if m.opts.Segments && m.now > t.SegStart {
		m.segs = append(m.segs, Segment{Task: t.Index, Start: t.SegStart, End: m.now, Set: t.Set.Clone(), Working: working})
	}
}

// applyNext carries out the first event of the queue. The event is free
// for reuse before it is carried out, so a timer set when one fires (a
// policy re-arming it) reuses the same event: nothing refers to an
// applied event (a task's pending completion is cleared or replaced,
// and a [Timer] handle checks the event's order key).
func (m *Machine) applyNext() {
	e := m.events.pop()
	kind, t, tag := e.kind(), e.task, e.tag
	m.events.recycle(e)
	m.apply(kind, t, tag)
}

// apply carries out one event: of the given kind, for task t
// (completion, overhead end) or tag (timer).
func (m *Machine) apply(kind eventKind, t *Task, tag int) {
	switch kind {
	case evCompletion:
		if t.timers != nil {
			m.dropTimers(t)
		}
		m.closeSegment(t, true)
		m.accrue(t)
		m.done++
		if t.Elastic != nil && t.Elastic.Tagged {
			m.taggedLeft--
		}
		t.Work = t.Runtime
		t.End = m.now
		t.State = Done
		t.Since = m.now
		t.completion = nil
		m.release(t)
		m.policy.Finish(t)
	case evOverheadEnd:
		overhead := m.now - t.Since
		t.OverheadTime += overhead
		if m.opts.Segments && overhead > 0 {
			m.segs = append(m.segs, Segment{Task: t.Index, Start: t.Since, End: m.now, Set: t.Set.Clone()})
		}
		t.completion = nil
		switch t.State {
		case Suspending:
			m.release(t)
			t.State = Suspended
			m.suspended++
			t.Since = m.now
		case Checkpointing:
			m.stop(t)
		default:
			m.run(t)
		}
		if w, ok := m.policy.(OverheadWatcher); ok {
			w.OverheadDone(t)
		}
	case evTimer:
		m.policy.Timer(tag)
	}
}

// Run simulates jobs on a machine of procs processors under policy p.
// Jobs need not be sorted; they arrive in (Submit, input order). Run
// returns an error wrapping [ErrInput] for a bad job, [ErrPolicy] when the
// policy misbehaves, or ctx's error when ctx ends first (checked at every
// instant, so a cancelled run stops within one instant's work; ctx.Err is
// an atomic load, a few nanoseconds).
func Run(ctx context.Context, procs int, jobs []Job, p Policy, opts Options) (*Result, error) {
	if procs <= 0 || procs > MaxProcs {
		return nil, fmt.Errorf("%w: machine size %d", ErrInput, procs)
	}
	var ser *sampler
	if opts.SeriesStep != 0 {
		if opts.SeriesStep < MinSeriesStep {
			return nil, fmt.Errorf("%w: time series step %d s, want at least %d", ErrInput, opts.SeriesStep, MinSeriesStep)
		}
		ser = &sampler{step: opts.SeriesStep}
	}
	m := &Machine{size: procs, free: FullProcSet(procs), nfree: procs, opts: opts, policy: p}
	if err := m.load(jobs); err != nil {
		return nil, err
	}
	if err := p.Init(m); err != nil {
		return nil, fmt.Errorf("init policy: %w", err)
	}
	res := &Result{Procs: procs}
	queued, queuedAt := 0, Time(-1) // queue length since queuedAt
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		at := m.nextInstant()
		if at == Never {
			break
		}
		if opts.Horizon > 0 && at > opts.Horizon {
			m.now = opts.Horizon
			m.cutOff()
			break
		}
		if ser != nil {
			ser.advance(m, at)
		}
		if err := m.simulateInstant(at, res); err != nil {
			return nil, err
		}
		res.queueFor(queued, queuedAt, at)
		queued, queuedAt = m.Queued(), at
		res.MaxQueue = max(res.MaxQueue, queued)
		if m.taggedDone() {
			m.cutOff()
			break
		}
		if err := m.periodicChecks(res.Instants); err != nil {
			return nil, err
		}
	}
	res.queueFor(queued, queuedAt, m.now)
	if ser != nil {
		res.Series = ser.finish(m, m.now)
	}
	return m.result(res)
}

// load checks jobs and makes their tasks, in (Submit, input order).
func (m *Machine) load(jobs []Job) error {
	m.tasks = make([]Task, len(jobs))
	order := make([]int, len(jobs))
	var horizon horizon
	for i := range jobs {
		if err := checkJob(&jobs[i], m.size, &horizon); err != nil {
			return err
		}
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].Submit < jobs[order[b]].Submit })
	for k, i := range order {
		m.tasks[k] = Task{Job: jobs[i], Index: k, FirstStart: -1, End: -1, Promise: -1, Decided: -1, Deadline: -1, activeIdx: -1}
		if m.tasks[k].Origin == 0 {
			m.tasks[k].Origin = m.tasks[k].ID
		}
		if e := jobs[i].Elastic; e != nil {
			m.tasks[k].Flex.Rem, m.tasks[k].Flex.Desired = e.Work, jobs[i].Procs
			if e.Tagged {
				m.tagged++
			}
		}
	}
	m.taggedLeft = m.tagged
	return nil
}

// checkJob returns an error wrapping [ErrInput] when j cannot run on a
// machine of procs processors, and adds j to the horizon h of the jobs
// checked so far.
func checkJob(j *Job, procs int, h *horizon) error {
	if j.Procs <= 0 || j.Procs > procs {
		return fmt.Errorf("%w: job %d needs %d processors on a %d-processor machine", ErrInput, j.ID, j.Procs, procs)
	}
	if j.Runtime <= 0 || j.Estimate <= 0 || j.Submit < 0 {
		return fmt.Errorf("%w: job %d: submit %d, runtime %d, estimate %d", ErrInput, j.ID, j.Submit, j.Runtime, j.Estimate)
	}
	if err := checkElastic(*j, procs); err != nil {
		return err
	}
	if err := h.add(*j); err != nil {
		return err
	}
	return checkMold(j, procs)
}

// checkMold returns an error wrapping [ErrInput] when the moldable
// description of j (if any) does not fit j and the machine.
func checkMold(j *Job, procs int) error {
	if a := j.Mold; a != nil && (a.Min < 1 || a.Max > procs || a.BaseProcs != j.Procs || a.BaseRuntime != j.Runtime ||
		a.BaseEstimate != j.Estimate || a.Min > j.Procs || a.Max < j.Procs || a.Speedup == nil) {
		return fmt.Errorf("%w: job %d: moldable in [%d,%d] from %d processors, runtime %d, estimate %d on a %d-processor machine",
			ErrInput, j.ID, a.Min, a.Max, a.BaseProcs, a.BaseRuntime, a.BaseEstimate, procs)
	}
	return nil
}

// nextInstant returns the time of the next event or arrival ([Never]
// when there is none).
func (m *Machine) nextInstant() Time {
	at := Never
	if m.events.len() > 0 {
		at = m.events.peekAt()
	}
	if m.next < len(m.tasks) && m.tasks[m.next].Submit < at {
		at = m.tasks[m.next].Submit
	}
	return at
}

// simulateInstant simulates the instant at: the events due that come
// before arrivals (ends, overheads), the arrivals, the other events due,
// then the policy's Schedule; again, as long as a round changed
// something at at. It ends the run after a million rounds.
func (m *Machine) simulateInstant(at Time, res *Result) error {
	m.now = at
	for rounds := 0; ; rounds++ {
		if rounds > 1_000_000 {
			return m.fail(errors.New("no progress: the policy keeps creating work at one instant"))
		}
		m.dirty = false
		for m.events.len() > 0 && m.events.peekAt() == at && m.events.peek().kind() < evArrival {
			m.applyNext()
		}
		m.arrive(at)
		for m.events.len() > 0 && m.events.peekAt() == at {
			m.applyNext()
		}
		m.policy.Schedule()
		res.Instants++
		if m.err != nil {
			return m.err
		}
		if !m.dirty {
			return nil
		}
	}
}

// arrive hands the tasks submitted at at to the policy, waiting.
func (m *Machine) arrive(at Time) {
	for m.next < len(m.tasks) && m.tasks[m.next].Submit == at {
		t := &m.tasks[m.next]
		m.next++
		t.State = Waiting
		t.Since = at
		m.policy.Arrive(t)
	}
}

// periodicChecks checks the engine's bookkeeping every
// [Options.CheckEvery] instants.
func (m *Machine) periodicChecks(instants int) error {
	if m.opts.CheckEvery > 0 && instants%m.opts.CheckEvery == 0 {
		if err := m.check(); err != nil {
			return err
		}
	}
	return nil
}

// result completes res at the end of the run: the tasks (only those that
// arrived, after a cut-off), segments and decisions. Without a cut-off
// every task must have completed or been rejected.
func (m *Machine) result(res *Result) (*Result, error) {
	res.End = m.now
	if m.cut {
		m.tasks = m.tasks[:m.next]
	}
	for i := range m.tasks {
		if t := &m.tasks[i]; t.State != Done && t.State != Rejected && !m.cut {
			return nil, m.fail(fmt.Errorf("job %d never completed (it is %v)", t.ID, t.State))
		}
	}
	res.Tasks = m.tasks
	res.Segments = m.segs
	res.Decisions = m.decs
	return res, nil
}

// check verifies the engine's processor bookkeeping.
func (m *Machine) check() error {
	used := NewProcSet(m.size)
	n := 0
	for _, t := range m.active {
		if used.Overlaps(t.Set) || t.Set.Len() != t.Procs {
			return fmt.Errorf("engine check at t=%d: job %d set %v overlaps or has wrong size", m.now, t.ID, t.Set)
		}
		used.Union(t.Set)
		n += t.Procs
	}
	if n+m.nfree != m.size || used.Overlaps(m.free) || m.free.Len() != m.nfree {
		return fmt.Errorf("engine check at t=%d: %d used + %d free != %d", m.now, n, m.nfree, m.size)
	}
	return nil
}
