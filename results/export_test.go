package results

import "github.com/schedfarm/schedfarm/sim/metrics"

// JobCells returns the values of j's job columns as the CSV writes them
// ("" for a null), in column order.
func JobCells(j *metrics.Record) []string {
	out := make([]string, len(jobColumns))
	for i, c := range jobColumns {
		out[i] = c.text(j)
	}
	return out
}

// TaskCells returns the values of r's tasks.parquet columns after the
// task columns as text, in column order.
func TaskCells(r *TaskResult) []string {
	out := make([]string, len(tasksColumns))
	for i, c := range tasksColumns {
		out[i] = c.text(r)
	}
	return out
}
