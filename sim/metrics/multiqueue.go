package metrics

import "github.com/schedfarm/schedfarm/sim"

// QueueInfo holds a job's figures under multiple-queue backfilling
// (policy multiqueue). Under other policies it is zero (Queue 0) and the
// outputs show nulls.
type QueueInfo struct {
	// Queue is the job's queue, 1-4, by its estimate.
	Queue int
	// Delay is the delay imposed on the job, seconds (0 for classes 1-3).
	Delay sim.Time
	// PartitionAtStart is the processors of the job's partition (P_q)
	// just after it started.
	PartitionAtStart int
}

// QueueStats are the whole-run figures of multiple-queue backfilling.
type QueueStats struct {
	// PartitionMean is the time-averaged P_q of queues 1-4.
	PartitionMean [4]float64 `json:"partition_mean"`
	// ProcMoves counts the processors moved from one partition to another.
	ProcMoves int64 `json:"proc_moves"`
	// DelayUpdates counts the batches that changed the delay D.
	DelayUpdates int `json:"delay_updates"`
	// DelayMax and DelayFinal are the largest and the last D, seconds.
	DelayMax   float64 `json:"delay_max"`
	DelayFinal float64 `json:"delay_final"`
}

// Annotator is implemented by policies that add figures of their own to
// a run's records (in the run's job order) and whole-run figures.
type Annotator interface {
	Annotate(recs []Record, stats *RunStats)
}
