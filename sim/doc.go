// Package sim is schedfarm's discrete-event simulator of a space-shared
// parallel machine.
//
// The engine ([Run]) replays a list of [Job]s on a machine of a fixed number
// of processors under a [Policy]. It knows no policy by name: a policy is told
// what happened ([Policy.Arrive], [Policy.Finish], [Policy.Timer]) and then
// makes its decisions once per instant in [Policy.Schedule] through the
// narrow [Machine] API (Start, Suspend, Resume, Kill, timers, and the
// admission, moldable and elastic calls of the sections below). A call
// the machine refuses ends the run with an error wrapping [ErrPolicy];
// [Machine.Check] does the same for a policy's own broken invariant, such
// as a [Profile] reservation that does not fit.
//
// # Time and the order of events
//
// Time is integer seconds ([Time]). Events are ordered by (time, kind,
// sequence). At one instant the engine applies, in this order:
//
//  1. all completions (the job's processors are freed),
//  2. all ends of suspend/resume overheads,
//  3. all arrivals (in submit order, then input order),
//  4. all timers (in the order they were set),
//
// and only then calls [Policy.Schedule] exactly once for that instant.
// Decisions taken in Schedule take effect at the current instant; a
// decision that creates a new event at the current instant (a zero-length
// overhead, a timer set for now) gets another Schedule call at the same
// instant, so a policy always sees a settled state.
//
// A timer about one running job ([Machine.SetTaskTimer], such as a
// correction at its predicted end) does not fire once the job has
// completed, nor at its completion instant. The engine knows when a
// running job completes, so such a timer set for then or later is held
// by the job instead of queued: it costs nothing when the job completes
// first, and takes its place among the events, by the order it was set
// in, if the job stops running otherwise. Events are reused once applied
// or cancelled; a [Timer] handle carries its event's sequence, so
// cancelling a timer that has fired stays a no-op.
//
// # Processors
//
// The machine knows processor identities ([ProcSet]). A started job gets the
// lowest-numbered free processors. A suspended job keeps the identity of its
// processors (they are free for others meanwhile) and resumes on exactly the
// same ones: preemption is local. A killed job loses its work and its
// processors and goes back to waiting.
//
// # Admission control
//
// A policy may decide, at a job's arrival instant and only then, to admit
// it ([Machine.Admit], optionally with a guaranteed completion time, set
// once) or to reject it ([Machine.Reject]: the job ends in the final state
// [Rejected] without ever holding processors). Jobs a policy never decides
// count as admitted. With segment recording on, the engine logs every
// decision in [Result.Decisions] for invariant checks. [Job.Origin] names
// the job a copy was made from (the duplicate load transform), so that a
// policy can treat copies like their originals.
//
// # Elastic jobs
//
// A job with [Job.Elastic] set has a demand of sequential work and an
// Amdahl speedup; the policy chooses its allocation, a multiple of
// [Elastic.Unit] in [Elastic.Min, Elastic.Max], at each (re)start with
// [Machine.Mold], the same call that sizes moldable jobs, then starts it
// with [Machine.Dispatch] (optionally after a dispatch delay during which
// the processors are held idle). Such a job may
// be checkpointed ([Machine.Checkpoint]: processors held idle for the cost,
// then released; the job is Stopped and restarts anywhere, on any
// allocation) or suspended in place. The remaining sequential work is the
// conserved quantity ([Elastic]). A run with tagged jobs ends when they
// are all done, and [Options.Horizon] ends a run at a fixed time; the jobs
// that have arrived by then are in the result, unfinished ones not Done.
//
// # What sim does not do
//
// sim reads no files and imports nothing of the farm; workloads come from
// package workload, policies from package policy, metrics from package
// metrics.
package sim
