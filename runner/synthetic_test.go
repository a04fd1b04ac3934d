package runner_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
)

// TestExecute_Synthetic runs an LSF discipline on the parsons1997
// workload: no trace file, tagged-job figures in the stats, elastic
// columns that survive the wire format.
func TestExecute_Synthetic(t *testing.T) {
	spec, err := sweep.Parse([]byte(`name: s
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 150, tagged: 100, horizon: 40000}
policies: [{name: lsf-mig}]
`), ".")
	if err != nil {
		t.Fatal(err)
	}
	tasks, _ := spec.Tasks()
	res, err := runner.Execute(context.Background(), &tasks[0], "")
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats.Elastic
	if st == nil || st.Tagged != 100 || st.MRT <= 0 || st.MakespanLB <= 0 || st.MaxQueue < 1 {
		t.Fatalf("elastic stats %+v", st)
	}
	if st.QueueP90 > st.MaxQueue || st.QueueMean <= 0 || st.QueueMean > float64(st.MaxQueue) {
		t.Errorf("queue P90 %d and mean %v against max %d", st.QueueP90, st.QueueMean, st.MaxQueue)
	}
	tagged, unfinished := 0, 0
	for _, j := range res.Jobs {
		if j.Elastic == nil {
			t.Fatalf("job %d has no elastic record", j.JobID)
		}
		if j.Elastic.Tagged {
			tagged++
			if !j.Elastic.Finished {
				unfinished++
			}
		}
	}
	if tagged != 100 || unfinished != st.Unfinished {
		t.Errorf("%d tagged, %d unfinished; stats say %d unfinished", tagged, unfinished, st.Unfinished)
	}
	b, err := res.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := results.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	want := *res.Jobs[3].Elastic
	want.ProcSeconds = 0 // not on the wire: it only feeds utilization
	if !reflect.DeepEqual(back.Stats, res.Stats) || *back.Jobs[3].Elastic != want {
		t.Errorf("round trip changed the result")
	}
}

// TestExecute_Lublin runs EASY on the Lublin-Feitelson model: the task's
// seed gives the jobs, the same task the same jobs.
func TestExecute_Lublin(t *testing.T) {
	spec, err := sweep.Parse([]byte("name: s\nworkloads:\n  - synthetic: lublin\n    gen: {jobs: 3000}\npolicies: [{name: easy}]\nreplications: 2\n"), ".")
	if err != nil {
		t.Fatal(err)
	}
	tasks, _ := spec.Tasks()
	var runs [3]*results.TaskResult
	for i, k := range []int{0, 0, 1} {
		if runs[i], err = runner.Execute(context.Background(), &tasks[k], ""); err != nil {
			t.Fatal(err)
		}
	}
	if runs[0].Stats.Jobs != 3000 || runs[0].Stats.Procs != 128 {
		t.Fatalf("stats %+v", runs[0].Stats)
	}
	if !reflect.DeepEqual(runs[0].Jobs, runs[1].Jobs) || reflect.DeepEqual(runs[0].Jobs, runs[2].Jobs) {
		t.Error("the same task gave other jobs, or another replication the same")
	}
}
