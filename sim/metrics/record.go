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
	Runtime       sim.Time // on ProcsChosen processors
	Estimate      sim.Time // on ProcsChosen processors
	Procs         int      // the trace's request
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
	// Origin is the ID of the job this one is a copy of; 0 for an
	// original (see [Record.OriginID]).
	Origin int64
	// Deadline is the completion time the policy guaranteed at admission;
	// 0 for none.
	Deadline sim.Time
	// LostWork is the work thrown away by kills (seconds on Procs
	// processors).
	LostWork sim.Time
	// QoS holds what an admission-control policy (QoPS) decided about the
	// job; nil under other policies.
	QoS *QoS
	// ProcsChosen is the size the job ran on and BaseRuntime its runtime
	// on Procs processors (the trace's); for a rigid job they equal Procs
	// and Runtime. Zero values (records made by hand) read as those.
	ProcsChosen int
	BaseRuntime sim.Time
	// Moldable is true for a moldable job; only then are MinProcs,
	// MaxProcs, Work (sequential work L) and Speedup (S(ProcsChosen))
	// meaningful.
	Moldable           bool
	MinProcs, MaxProcs int
	Work, Speedup      float64
	// Elastic holds an elastic job's figures (LSF disciplines); nil for
	// rigid jobs.
	Elastic *ElasticInfo
	// Info is what the trace says of the job besides its size and times
	// (SWF fields 11-18, -1 where unknown): the user, group and queue of
	// the per-user figures. Records made by hand have the zero value.
	Info sim.JobInfo
	// Family is the per-job slot of a policy family that adds figures of
	// its own: the family's [Annotator] sets it (usually to a pointer to
	// a struct of the family's package) and the family's entries of the
	// output column table read it and, reading back, set it. nil under
	// other policies. metrics knows nothing of its contents, so a new
	// family adds per-job columns without a field here.
	Family any
}

// Chosen returns ProcsChosen, or Procs when it is unset.
func (r *Record) Chosen() int {
	if r.ProcsChosen > 0 {
		return r.ProcsChosen
	}
	return r.Procs
}

// Base returns BaseRuntime, or Runtime when it is unset.
func (r *Record) Base() sim.Time {
	if r.BaseRuntime > 0 {
		return r.BaseRuntime
	}
	return r.Runtime
}

// QoS is what an admission-control policy with deadlines and charges
// (QoPS) knows about one job beyond the engine's state. Times are
// absolute seconds, 0 meaning absent.
type QoS struct {
	// DeadlineJob is true when the job requested a deadline.
	DeadlineJob bool
	// Requested is the requested deadline d.
	Requested sim.Time
	// Earliest (E) and Offered (O) are the earliest feasible deadline the
	// feedback search found and the deadline offered to the user; 0 when
	// no offer was made.
	Earliest, Offered sim.Time
	// Tolerance is the job's tolerance factor TF_j when an offer was made
	// (then > 1), else 0.
	Tolerance float64
	// CategoryBSD is the mean bounded slowdown of the job's ss16 category
	// under EASY on the same workload.
	CategoryBSD float64
	// Charge is the QoS charge: CategoryBSD over the bounded slowdown of
	// ending exactly at the guaranteed deadline, for admitted jobs that
	// requested a deadline; else 0.
	Charge float64
}

// OriginID returns the ID of the job this one is a copy of, or its own.
func (r *Record) OriginID() int64 {
	if r.Origin == 0 {
		return r.JobID
	}
	return r.Origin
}

// ResourceCharge returns the job's resource charge: procs x runtime for
// an admitted job, 0 for a rejected one.
func (r *Record) ResourceCharge() float64 {
	if r.Rejected {
		return 0
	}
	return float64(r.Chosen()) * float64(r.Runtime)
}

// QoSCharge returns the job's QoS charge (0 without [QoS]).
func (r *Record) QoSCharge() float64 {
	if r.QoS == nil {
		return 0
	}
	return r.QoS.Charge
}

// MetDeadline reports whether an admitted job that requested a deadline
// ended by it; ok is false for other jobs.
func (r *Record) MetDeadline() (met, ok bool) {
	if r.QoS == nil || !r.QoS.DeadlineJob || r.Rejected {
		return false, false
	}
	return r.End <= r.QoS.Requested, true
}

// Missed reports whether an admitted job ended after its guaranteed
// deadline (never, when the policy keeps its promises).
func (r *Record) Missed() bool { return !r.Rejected && r.Deadline > 0 && r.End > r.Deadline }

// NewRecord computes the record of a completed or rejected job.
func NewRecord(t *sim.Task) Record {
	r := Record{
		JobID: t.ID, Submit: t.Submit, Start: t.FirstStart, End: t.End,
		Runtime: t.Runtime, Estimate: t.Estimate, Procs: t.Procs,
		Suspensions: t.Suspensions, SuspendedTime: t.SuspendedTime,
		OverheadTime: t.OverheadTime, Kills: t.Kills,
		Deadline: max(t.Deadline, 0), LostWork: t.LostWork, Info: t.Info,
	}
	if !t.Original() {
		r.Origin = t.Origin
	}
	r.ProcsChosen, r.BaseRuntime = t.Procs, t.Runtime
	if a := t.Mold; a != nil {
		r.Procs, r.BaseRuntime = a.BaseProcs, a.BaseRuntime
		r.Moldable, r.MinProcs, r.MaxProcs, r.Work = true, a.Min, a.Max, a.Work
		r.Speedup = a.Speedup.At(t.Procs)
	}
	if t.State == sim.Rejected {
		r.Rejected = true
		r.Start, r.End = -1, -1
		return r
	}
	if t.Elastic != nil {
		elasticRecord(&r, t)
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
		if e := out[i].Elastic; e != nil && !e.Finished {
			finishUnfinished(&out[i], res.End)
		}
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
	// Admitted counts the jobs that ran (all but rejected ones).
	Admitted int
	// ProcSeconds is processors x runtime summed over every submitted
	// job; ResourceCharge over the admitted ones (the accepted
	// processor-seconds). QoSCharge sums the QoS charges, DeadlineMisses
	// counts admitted jobs that ended after their guaranteed deadline,
	// and WastedProcSeconds is the work thrown away by kills, in
	// processor-seconds.
	ProcSeconds, ResourceCharge, QoSCharge float64
	DeadlineMisses                         int
	WastedProcSeconds                      float64
	// MultiQueue holds the multiqueue policy's figures (nil otherwise).
	MultiQueue *QueueStats `json:"multiqueue,omitempty"`
	// QoPS holds the qops policy's figures (nil otherwise).
	QoPS *QoPSStats `json:"qops,omitempty"`
	// Elastic holds the figures of a run of elastic jobs (nil otherwise).
	Elastic *ElasticStats `json:"elastic,omitempty"`
	// Fairness holds the fairness figures between users (nil when no
	// admitted job has a known user).
	Fairness *FairnessStats `json:"fairness,omitempty"`
}

// QoPSStats are the whole-run figures of QoPS admission control.
type QoPSStats struct {
	// Offers counts feedback offers and OffersTaken the accepted ones.
	Offers      int `json:"offers"`
	OffersTaken int `json:"offers_taken"`
	// Inserts counts runs of the insertion routine (Original_QoPS);
	// MeanN and MaxN are the mean and largest number of admitted waiting
	// jobs it saw.
	Inserts int     `json:"inserts"`
	MeanN   float64 `json:"mean_n"`
	MaxN    int     `json:"max_n"`
}

// Stats computes the whole-run figures of records on a machine of procs;
// rejected jobs count only in Jobs and ProcSeconds. The QoS charges come
// from the records' [QoS], so policies that set it after Stats (in
// Annotate) update QoSCharge themselves.
func Stats(procs int, recs []Record) RunStats {
	s := RunStats{Jobs: len(recs), Procs: procs}
	if len(recs) == 0 {
		return s
	}
	first, last := sim.Never, sim.Time(0)
	var work float64
	for i := range recs {
		r := &recs[i]
		s.ProcSeconds += float64(r.Runtime) * float64(r.Chosen())
		s.WastedProcSeconds += float64(r.LostWork) * float64(r.Chosen())
		if r.Rejected {
			continue
		}
		s.Admitted++
		s.ResourceCharge += r.ResourceCharge()
		s.QoSCharge += r.QoSCharge()
		if r.Missed() {
			s.DeadlineMisses++
		}
		first = min(first, r.Submit)
		last = max(last, r.End)
		if r.Elastic != nil {
			work += r.Elastic.ProcSeconds
		} else {
			work += float64(r.Runtime) * float64(r.Chosen())
		}
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
	s.Fairness = Fairness(recs)
	return s
}
