package metrics

import "github.com/schedfarm/schedfarm/sim"

// BSDThreshold is the runtime floor of the bounded slowdown, in seconds.
const BSDThreshold = 10

// Record is the outcome of one job.
type Record struct {
	JobID         int64
	Submit        sim.Time
	Start         sim.Time // first start
	End           sim.Time
	Wait          sim.Time
	Runtime       sim.Time
	Estimate      sim.Time
	Procs         int
	Turnaround    sim.Time
	BSD           float64 // bounded slowdown
	Slowdown      float64 // 1 + wait/runtime
	Suspensions   int
	SuspendedTime sim.Time
	OverheadTime  sim.Time
	Kills         int
	// Rejected is true for a job an admission-control policy refused at
	// arrival: it never ran, its Start and End are -1, its wait,
	// turnaround and slowdowns 0, and it is left out of every aggregate
	// and of utilization.
	Rejected bool
	// MQ holds the multiqueue policy's per-job figures (zero otherwise).
	MQ QueueInfo
}

// NewRecord computes the record of a completed or rejected job.
func NewRecord(t *sim.Task) Record {
	r := Record{
		JobID: t.ID, Submit: t.Submit, Start: t.FirstStart, End: t.End,
		Runtime: t.Runtime, Estimate: t.Estimate, Procs: t.Procs,
		Suspensions: t.Suspensions, SuspendedTime: t.SuspendedTime,
		OverheadTime: t.OverheadTime, Kills: t.Kills,
	}
	if t.State == sim.Rejected {
		r.Rejected = true
		r.Start, r.End = -1, -1
		return r
	}
	r.Turnaround = t.End - t.Submit
	r.Wait = r.Turnaround - t.Runtime
	r.BSD = BoundedSlowdown(r.Wait, t.Runtime)
	r.Slowdown = 1 + float64(r.Wait)/float64(t.Runtime)
	return r
}

// BoundedSlowdown returns (wait + max(runtime,10)) / max(runtime,10).
func BoundedSlowdown(wait, runtime sim.Time) float64 {
	d := float64(max(runtime, BSDThreshold))
	return (float64(wait) + d) / d
}

// Records returns one record per job of res, in the run's job order
// (submit order).
func Records(res *sim.Result) []Record {
	out := make([]Record, len(res.Tasks))
	for i := range res.Tasks {
		out[i] = NewRecord(&res.Tasks[i])
	}
	return out
}

// RunStats are whole-run figures.
type RunStats struct {
	Jobs        int
	Procs       int
	Makespan    sim.Time // last completion - first submit
	Utilization float64  // useful processor-seconds / (procs x makespan)
	Suspensions int
	Kills       int
	// MultiQueue holds the multiqueue policy's figures (nil otherwise).
	MultiQueue *QueueStats `json:"multiqueue,omitempty"`
}

// Stats computes the whole-run figures of records on a machine of procs;
// rejected jobs count in Jobs only.
func Stats(procs int, recs []Record) RunStats {
	s := RunStats{Jobs: len(recs), Procs: procs}
	if len(recs) == 0 {
		return s
	}
	first, last := sim.Never, sim.Time(0)
	var work float64
	for _, r := range recs {
		if r.Rejected {
			continue
		}
		first = min(first, r.Submit)
		last = max(last, r.End)
		work += float64(r.Runtime) * float64(r.Procs)
		s.Suspensions += r.Suspensions
		s.Kills += r.Kills
	}
	if first == sim.Never {
		return s
	}
	s.Makespan = last - first
	if s.Makespan > 0 {
		s.Utilization = work / (float64(procs) * float64(s.Makespan))
	}
	return s
}
