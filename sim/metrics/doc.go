// Package metrics turns a simulation [sim.Result] into per-job records,
// category labels and per-category aggregates.
//
// Definitions (all times in seconds):
//
//   - wait = end - submit - runtime: all time not running (queued,
//     suspended, suspend/resume overhead, work lost to kills);
//   - turnaround = end - submit;
//   - bounded slowdown = (wait + max(runtime, 10)) / max(runtime, 10);
//   - slowdown (Lawson) = 1 + wait / runtime;
//   - utilization = useful processor-seconds / (machine size x (last
//     completion - first submit)); makespan = last completion - first submit.
//
// Category schemes classify a job by its actual runtime, processors and
// estimate; see [Schemes]. Aggregates ([Aggregate]) give, per category
// and overall, the count of jobs and of admitted ones, the mean and max
// over the admitted jobs of bounded slowdown, turnaround, wait and
// slowdown, the sums of the QoPS charges and the deadline misses.
package metrics
