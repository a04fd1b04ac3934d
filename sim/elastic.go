package sim

import (
	"fmt"
	"math"
)

// Elastic describes a job whose processor allocation the policy chooses
// (adaptive) and may change at a checkpoint (malleable), with an Amdahl
// speedup model. A job with a nil [Job.Elastic] is rigid.
//
// The conserved quantity is the remaining sequential work R (seconds on one
// processor, a float). On k processors the job works at rate S(k); a
// (re)start at now with R left ends at now + max(1, ceil(R/S(k) − 1e-6));
// stopping after dt working seconds subtracts dt·S(k) from R. The job's
// [Job.Procs], [Job.Runtime] and [Job.Estimate] are its desired (rigid)
// size and the time it needs there; [Machine.Mold] sets Procs to the
// allocation of each (re)start, and Runtime becomes the total working time.
type Elastic struct {
	// Work is the demand D: seconds of work on one processor (> 0).
	Work float64
	// SeqFrac is Amdahl's sequential fraction f in [0, 1]:
	// S(k) = 1/(f + (1−f)/k).
	SeqFrac float64
	// Min and Max bound the allocation (1 <= Min <= Procs <= Max).
	Min, Max int
	// Unit is the allocation granularity: allocations are multiples of it
	// (>= 1).
	Unit int
	// Tagged marks a measured job: when a run has tagged jobs, it ends
	// as soon as all of them are done ([Options.Horizon] still applies).
	Tagged bool
}

// Speedup returns S(k) = 1/(f + (1−f)/k).
func (e *Elastic) Speedup(k int) float64 {
	return 1 / (e.SeqFrac + (1-e.SeqFrac)/float64(k))
}

// Duration returns the working time the job needs on k processors with
// rem seconds of sequential work left: max(1, ceil(rem/S(k) − 1e-6)).
func (e *Elastic) Duration(rem float64, k int) Time { return workTime(rem, e.Speedup(k)) }

// Flex is a run's record of an elastic job ([Task.Flex]); the engine keeps
// it, policies read it.
type Flex struct {
	// Rem is the remaining sequential work at the end of the last working
	// segment (see [Task.RemainingWork] for the value now).
	Rem float64
	// Served is the sequential work done, Σ dt·S(k) over working segments
	// (D − Rem while the job is unfinished; at most D + S(k_last) at the end).
	Served float64
	// Acquired is the processor-seconds spent working, Σ k·dt.
	Acquired float64
	// Desired is the job's desired (rigid) size, [Job.Procs] as given.
	Desired int
	// FirstProcs and LastProcs are the first and the latest allocation
	// (0 before the first start).
	FirstProcs, LastProcs int
	// Checkpoints counts checkpoints; Migrations restarts on the same
	// number of processors after a checkpoint (or, for a rigid job,
	// resumptions on other processors: [Machine.ResumeOn]);
	// Reconfigurations restarts on a different number.
	Checkpoints, Migrations, Reconfigurations int
	// RunStart is when the job last began to work after a (re)start or a
	// resume (the end of a dispatch delay).
	RunStart Time
}

// RemainingWork returns an elastic job's remaining sequential work as of
// now (0 for rigid jobs).
func (t *Task) RemainingWork(now Time) float64 {
	if t.Elastic == nil {
		return 0
	}
	r := t.Flex.Rem
	if t.State == Running {
		r -= float64(now-t.SegStart) * t.Elastic.Speedup(t.Procs)
	}
	return r
}

// ServedWork returns an elastic job's sequential work done as of now.
func (t *Task) ServedWork(now Time) float64 {
	if t.Elastic == nil {
		return 0
	}
	s := t.Flex.Served
	if t.State == Running {
		s += float64(now-t.SegStart) * t.Elastic.Speedup(t.Procs)
	}
	return s
}

// AcquiredWork returns the processor-seconds an elastic job (or any job)
// has spent working as of now.
func (t *Task) AcquiredWork(now Time) float64 {
	if t.Elastic == nil {
		return float64(t.WorkDone(now)) * float64(t.Procs)
	}
	a := t.Flex.Acquired
	if t.State == Running {
		a += float64(now-t.SegStart) * float64(t.Procs)
	}
	return a
}

// accrue books the working segment of an elastic job that ends now.
func (m *Machine) accrue(t *Task) {
	if t.Elastic == nil || t.State != Running {
		return
	}
	dt := float64(m.now - t.SegStart)
	s := dt * t.Elastic.Speedup(t.Procs)
	t.Flex.Rem -= s
	t.Flex.Served += s
	t.Flex.Acquired += dt * float64(t.Procs)
}

// elasticRun sets an elastic job's Runtime so that the engine's completion
// (now + Runtime − Work) falls when its remaining work is done.
func (m *Machine) elasticRun(t *Task) {
	if t.Elastic != nil {
		t.Runtime = t.Work + t.Elastic.Duration(t.Flex.Rem, t.Procs)
		t.Flex.RunStart = m.now
	}
}

// Checkpoint stops a Running elastic job to restart it later anywhere.
// With cost > 0 the job holds its processors, doing no work, for that
// long (Checkpointing) and then releases them; it is then Stopped, holds
// no processors and may be restarted on any set with [Machine.Dispatch].
func (m *Machine) Checkpoint(t *Task, cost Time) error {
	if t.State != Running || t.Elastic == nil {
		return m.fail(fmt.Errorf("checkpoint job %d: job is %v (elastic %v)", t.ID, t.State, t.Elastic != nil))
	}
	if cost < 0 {
		return m.fail(fmt.Errorf("checkpoint job %d: negative cost %d", t.ID, cost))
	}
	m.dropCompletion(t)
	m.bookWork(t)
	t.Flex.Checkpoints++
	t.Since = m.now
	if cost > 0 {
		t.State = Checkpointing
		t.completion = m.schedule(m.now+cost, evOverheadEnd, t, 0)
		return nil
	}
	m.stop(t)
	return nil
}

// stop releases a checkpointed job's processors: it is Stopped.
func (m *Machine) stop(t *Task) {
	m.release(t)
	t.State = Stopped
	t.Since = m.now
	t.completion = nil
	t.Set = ProcSet{}
}

// flexStart books the (re)start of an elastic job on t.Procs processors.
func (m *Machine) flexStart(t *Task) {
	k := t.Procs
	if t.State == Stopped {
		if k == t.Flex.LastProcs {
			t.Flex.Migrations++
		} else {
			t.Flex.Reconfigurations++
		}
	}
	if t.FirstStart < 0 {
		t.Flex.FirstProcs = k
	}
	t.Flex.LastProcs = k
}

// Queued returns the number of jobs that have arrived and are neither done
// nor holding processors (waiting, suspended or stopped).
func (m *Machine) Queued() int { return m.next - m.done - len(m.active) }

// taggedDone tells whether the run ends now: all tagged jobs are done.
func (m *Machine) taggedDone() bool { return m.tagged > 0 && m.taggedLeft == 0 }

// cutOff ends a run early at m.now: working jobs book their work so far.
func (m *Machine) cutOff() {
	m.cut = true
	for _, t := range m.active {
		if t.State == Running {
			m.bookWork(t)
			t.SegStart = m.now
		}
	}
}

// checkElastic verifies an elastic job's description.
func checkElastic(j Job, procs int) error {
	e := j.Elastic
	if e == nil {
		return nil
	}
	if !(e.Work > 0) || math.IsInf(e.Work, 0) || !(e.SeqFrac >= 0 && e.SeqFrac <= 1) || e.Unit < 1 ||
		e.Min < 1 || e.Min > j.Procs || j.Procs > e.Max || e.Max > procs {
		return fmt.Errorf("%w: elastic job %d: work %v, seq fraction %v, unit %d, min %d, procs %d, max %d on %d processors",
			ErrInput, j.ID, e.Work, e.SeqFrac, e.Unit, e.Min, j.Procs, e.Max, procs)
	}
	return nil
}
