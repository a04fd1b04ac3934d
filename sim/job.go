package sim

// Job is one job of a workload: the simulator's immutable input.
type Job struct {
	// ID is the job's number in its trace (SWF field 1); unique in a workload.
	ID int64
	// Submit is the arrival time.
	Submit Time
	// Runtime is the work the job does, in seconds on Procs processors (> 0).
	Runtime Time
	// Estimate is the user's run-time estimate the policy sees (>= 1).
	// The engine never kills a job that runs past its estimate.
	Estimate Time
	// Procs is the number of processors the job needs (1..machine size).
	Procs int
	// Origin is the ID of the job this one is a copy of (the duplicate
	// load transform), or the job's own ID. Zero means the job's own ID:
	// [Run] fills it in, so a copy of a job whose ID is 0 cannot be told
	// from an original.
	Origin int64
	// Elastic, when not nil, makes the job's allocation the policy's
	// choice within bounds, with a speedup model (see [Elastic]).
	Elastic *Elastic
	// Mold, when not nil, makes the job moldable: Procs, Runtime and
	// Estimate are the trace's values until a policy picks the size with
	// [Machine.Mold]. Rigid jobs have none.
	Mold *Moldable
	// Info is what the trace says of the job besides its size and times
	// (SWF fields 11-18). Policies that group jobs by user (fair-share,
	// runtime predictions) read it.
	Info JobInfo
}

// JobInfo holds a job's fields 11-18 of the Standard Workload Format, -1
// where the trace does not know the value. A job read from a trace has
// them as the trace gives them; a job made otherwise (by hand, by a
// generator) has the zero value unless its maker sets it, which reads as
// user 0, group 0 and so on, [UnknownInfo] when it sets none.
type JobInfo struct {
	// Status is field 11: 1 completed, 0 failed, 5 cancelled, 2-4 the
	// parts of a checkpointed job.
	Status int32
	// User and Group are fields 12 and 13, natural numbers.
	User, Group int32
	// Executable is field 14: the application's number.
	Executable int32
	// Queue and Partition are fields 15 and 16 (queue 0 is interactive).
	Queue, Partition int32
	// Preceding is field 17: the job this one waited for.
	Preceding int64
	// ThinkTime is field 18: seconds from the end of the preceding job
	// to this one's submission.
	ThinkTime Time
}

// UnknownInfo returns a JobInfo with every field unknown (-1).
func UnknownInfo() JobInfo {
	return JobInfo{Status: -1, User: -1, Group: -1, Executable: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
}

// Original reports whether the job is not a copy of another (Origin is
// its own ID or unset).
func (j *Job) Original() bool { return j.Origin == 0 || j.Origin == j.ID }

// State is where a job is in its life.
type State uint8

// Job states.
const (
	Pending       State = iota // not yet arrived
	Waiting                    // arrived, never started or killed since
	Running                    // doing work on its processors
	Suspending                 // being suspended: holds processors, does no work
	Suspended                  // stopped; remembers its processors but holds none
	Resuming                   // being resumed: holds processors, does no work
	Done                       // completed
	Rejected                   // refused at arrival by an admission-control policy; final
	Checkpointing              // being checkpointed: holds processors, does no work
	Stopped                    // checkpointed; holds no processors, restarts anywhere
)

var stateNames = [...]string{"pending", "waiting", "running", "suspending", "suspended", "resuming", "done", "rejected", "checkpointing", "stopped"}

// String returns the state's name.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(?)"
}

// Task is the simulator's live view of one job during a run. Policies read
// it; only the engine changes it (through [Machine] calls).
type Task struct {
	Job
	// Index is the job's position in arrival order (submit time, then
	// input order): its place in [Result.Tasks] and [Machine.Task].
	Index int
	// State is the job's current state.
	State State
	// FirstStart is when the job first started (-1 before).
	FirstStart Time
	// End is the completion time (-1 before).
	End Time
	// Set holds the job's processors while it holds any, and remembers
	// them while it is suspended.
	Set ProcSet
	// Work is the work done in finished run segments (seconds).
	Work Time
	// SegStart is when the current running segment started (valid in Running).
	SegStart Time
	// Since is when the job entered its current state.
	Since Time
	// Suspensions counts suspensions; Kills counts kills (restarts).
	Suspensions, Kills int
	// LostWork is the work thrown away by kills (seconds on Procs
	// processors).
	LostWork Time
	// SuspendedTime is the total time spent in Suspended state.
	SuspendedTime Time
	// OverheadTime is the total time spent suspending and resuming.
	OverheadTime Time
	// Promise is the latest start-time guarantee the policy gave (-1: none);
	// see [Machine.Promise]. PromiseRaised records that a later guarantee
	// replaced an earlier one.
	Promise       Time
	PromiseRaised bool
	// Decided is when the policy admitted ([Machine.Admit]) or rejected
	// ([Machine.Reject]) the job: always its arrival instant, or -1 when
	// the policy never decided (policies without admission control admit
	// every job implicitly).
	Decided Time
	// Deadline is the completion time the policy guaranteed when it
	// admitted the job, or -1 for none. It is set once.
	Deadline Time
	// Aux is free for the policy's own bookkeeping (for example a queue index).
	Aux int
	// Flex is the engine's record of an elastic job (zero for rigid jobs).
	Flex Flex

	completion *event // pending completion or overhead-end event
	timers     *event // timers held until the job stops running (SetTaskTimer)
	activeIdx  int    // position in Machine.active, -1 when not there
}

// WorkDone returns the work the job has done up to now.
func (t *Task) WorkDone(now Time) Time {
	if t.State == Running {
		return t.Work + now - t.SegStart
	}
	return t.Work
}

// Remaining returns the work still to do as of now.
func (t *Task) Remaining(now Time) Time { return t.Runtime - t.WorkDone(now) }

// EstimatedEnd returns when a running job is expected to end by its
// estimate: now plus the estimated remaining work, and at least now+1 if
// the job has outrun its estimate. For a job in overhead, the overhead end
// is taken as the start of the remaining work.
func (t *Task) EstimatedEnd(now Time) Time {
	rest := t.Estimate - t.WorkDone(now)
	if rest < 1 {
		rest = 1
	}
	switch t.State {
	case Running:
		return now + rest
	case Resuming:
		if t.completion != nil {
			return t.completion.at + rest
		}
	}
	return now + rest
}
