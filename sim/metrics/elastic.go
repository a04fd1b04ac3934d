package metrics

import "github.com/schedfarm/schedfarm/sim"

// ElasticInfo is an elastic job's outcome beyond the common fields. The
// record's Procs is the desired size, Runtime the time spent working,
// ProcsChosen the first allocation, MinProcs and MaxProcs the bounds,
// Work the demand D and Speedup S(ProcsChosen) (Moldable is true).
type ElasticInfo struct {
	// Tagged marks a measured job; Finished is false for a job the run
	// left unfinished (its End is then the run's end, a lower bound).
	Tagged, Finished bool
	// SeqFraction is Amdahl's f.
	SeqFraction float64
	// ProcsLast is the last allocation (0 if the job never ran).
	ProcsLast int
	// WorkDone is the sequential work done, Σ dt·S(k).
	WorkDone float64
	// ProcSeconds is the processor-seconds spent working, Σ k·dt.
	ProcSeconds float64
	// Checkpoints, Migrations (same-size restarts) and Reconfigurations
	// (restarts on another size).
	Checkpoints, Migrations, Reconfigurations int
}

// ElasticStats are the whole-run figures of a run of elastic jobs, over
// the tagged jobs (all jobs when none is tagged). Unfinished jobs count
// with the run's end as their end.
type ElasticStats struct {
	// Tagged is the number of measured jobs.
	Tagged int `json:"tagged"`
	// MRT is their mean turnaround, s.
	MRT float64 `json:"mrt"`
	// MakespanTagged is the last end of a measured job minus the first
	// submit.
	MakespanTagged int64 `json:"makespan_tagged"`
	// Unfinished counts the measured jobs the run left unfinished.
	Unfinished int `json:"unfinished"`
	// MaxQueue is the largest number of queued jobs (pending, suspended
	// or stopped) of the run.
	MaxQueue int `json:"max_queue"`
	// QueueP90 is the queue length the run exceeded during at most a
	// tenth of its time ([sim.Result.QueueQuantile] at 0.9), QueueMean the
	// time-average queue length.
	QueueP90  int     `json:"queue_p90"`
	QueueMean float64 `json:"queue_mean"`
	// MakespanLB is a lower bound of MakespanTagged: the largest submit +
	// T(max) of a measured job.
	MakespanLB int64 `json:"makespan_lb"`
}

// elasticRecord fills an elastic job's record; an unfinished job gets
// End -1 here, fixed by [Records].
func elasticRecord(r *Record, t *sim.Task) {
	e := t.Elastic
	r.Procs = t.Flex.Desired
	r.Moldable, r.MinProcs, r.MaxProcs, r.Work = true, e.Min, e.Max, e.Work
	r.ProcsChosen, r.BaseRuntime = t.Flex.FirstProcs, e.Duration(e.Work, t.Flex.Desired)
	if t.Flex.FirstProcs > 0 {
		r.Speedup = e.Speedup(t.Flex.FirstProcs)
	}
	r.Elastic = &ElasticInfo{
		Tagged: e.Tagged, Finished: t.State == sim.Done, SeqFraction: e.SeqFrac,
		ProcsLast: t.Flex.LastProcs,
		WorkDone:  t.Flex.Served, ProcSeconds: t.Flex.Acquired,
		Checkpoints: t.Flex.Checkpoints, Migrations: t.Flex.Migrations, Reconfigurations: t.Flex.Reconfigurations,
	}
	if t.State != sim.Done {
		r.Runtime = t.Work // time worked so far
	}
}

// finishUnfinished gives the unfinished jobs of a run cut at end their
// lower-bound figures: End = end, turnaround and wait from it.
func finishUnfinished(r *Record, end sim.Time) {
	r.End = end
	r.Turnaround = end - r.Submit
	r.Wait = r.Turnaround - r.Runtime
	r.BSD = BoundedSlowdown(r.Wait, r.Runtime)
	r.Slowdown = 1 + float64(r.Wait)/float64(max(r.Runtime, 1))
}

// ElasticStatsOf returns the whole-run figures of a run of elastic jobs
// from its result and records, or nil when no job is elastic.
func ElasticStatsOf(res *sim.Result, recs []Record) *ElasticStats {
	anyTagged := false
	for i := range recs {
		if recs[i].Elastic == nil {
			return nil
		}
		anyTagged = anyTagged || recs[i].Elastic.Tagged
	}
	st := &ElasticStats{MaxQueue: res.MaxQueue, QueueP90: res.QueueQuantile(0.9), QueueMean: res.QueueMean()}
	first := sim.Never
	var sum float64
	for i := range recs {
		r := &recs[i]
		if anyTagged && !r.Elastic.Tagged {
			continue
		}
		st.Tagged++
		sum += float64(r.Turnaround)
		first = min(first, r.Submit)
		st.MakespanTagged = max(st.MakespanTagged, int64(r.End))
		if !r.Elastic.Finished {
			st.Unfinished++
		}
		e := sim.Elastic{Work: r.Work, SeqFrac: r.Elastic.SeqFraction}
		st.MakespanLB = max(st.MakespanLB, int64(r.Submit+e.Duration(e.Work, r.MaxProcs)))
	}
	if st.Tagged > 0 {
		st.MRT = sum / float64(st.Tagged)
		st.MakespanTagged -= int64(first)
		st.MakespanLB -= int64(first)
	}
	return st
}
