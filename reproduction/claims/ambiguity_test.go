package claims

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

// TestAmbiguity_EveryTaskKey checks that an ambiguous selection names
// every task key its rows differ in, the moldable workloads' sigma and
// range_factor included (the hand-kept list the message used had drifted
// from sweep.TaskKeys and left them out), and never the replication.
func TestAmbiguity_EveryTaskKey(t *testing.T) {
	base := results.TaskCols{Trace: "ctc", Policy: "easy", Label: "EASY", Load: 1, LoadMode: "arrival", Estimates: "trace",
		Count: 100, MachineProcs: 430, Moldable: true, Sigma: 1, RangeFactor: 2}
	for _, c := range []struct {
		name string
		edit func(*results.TaskCols)
		want string
	}{
		{"sigma", func(tc *results.TaskCols) { tc.Sigma = 2 }, "which differ in sigma (1, 2)"},
		{"range_factor", func(tc *results.TaskCols) { tc.RangeFactor = 4 }, "which differ in range_factor (2, 4)"},
		{"load", func(tc *results.TaskCols) { tc.Load = 1.2 }, "which differ in load (1, 1.2)"},
		{"policy and label", func(tc *results.TaskCols) { tc.Policy, tc.Label = "fcfs", "FCFS" },
			"which differ in policy (easy, fcfs) and label (EASY, FCFS)"},
		{"replication only", func(tc *results.TaskCols) { tc.Replication = 1 }, "which do not differ in their task columns"},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := base
			c.edit(&other)
			p := &picked{f: &results.Frame{Tasks: []results.TaskCols{base, other}, TaskOf: []int32{0, 1}}, file: "g/summary.parquet"}
			err := ambiguity(p, []int{0, 1})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ambiguity = %v, want %q", err, c.want)
			}
		})
	}
}
