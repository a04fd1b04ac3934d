package qops

import (
	"context"
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/internal/runcache"
)

// easyRuns caches EASY end times by workload, the last few kept.
var easyRuns = runcache.New[map[int64]sim.Time](8)

// EASYEnds returns the completion time of every job under EASY
// backfilling on procs processors, by job ID. It is deterministic;
// results for the last few workloads are cached in the process, keyed by
// a SHA-256 of procs and every job, and concurrent calls for the same
// workload simulate it once. The returned map must not be modified.
func EASYEnds(procs int, jobs []sim.Job) (map[int64]sim.Time, error) {
	return easyRuns.Get(runcache.Key("", procs, jobs), func() (map[int64]sim.Time, error) {
		res, err := sim.Run(context.Background(), procs, jobs, backfill.NewEASY(), sim.Options{})
		if err != nil {
			return nil, fmt.Errorf("qops deadlines: easy run: %w", err)
		}
		ends := make(map[int64]sim.Time, len(res.Tasks))
		for i := range res.Tasks {
			ends[res.Tasks[i].ID] = res.Tasks[i].End
		}
		return ends, nil
	})
}

// RequestedDeadline returns section 5's deadline of a job that submits at
// submit, runs for runtime and ends at easyEnd under EASY, with
// stringency s: submit + max(runtime, floor((1-s) x (easyEnd - submit))).
func RequestedDeadline(submit, runtime, easyEnd sim.Time, s float64) sim.Time {
	return submit + max(runtime, sim.Time(math.Floor((1-s)*float64(easyEnd-submit))))
}

// Streams of the per-job draws.
const (
	streamDeadline  = 0x64656164 // "dead"
	streamTolerance = 0x746f6c65 // "tole"
)

// unit returns a number in [0, 1) drawn from (seed, stream, id) by the
// SplitMix64 finalizer: the same job gets the same draw in every run with
// the same seed, whatever the other jobs.
func unit(seed, stream uint64, id int64) float64 {
	x := seed ^ stream*0x9e3779b97f4a7c15 ^ uint64(id)*0xbf58476d1ce4e5b9
	for range 2 {
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return float64(x>>11) / (1 << 53)
}
