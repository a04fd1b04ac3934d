package results_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

const qopsSpec = `
name: results-qops
workloads:
  - trace: ctc
    procs: 430
    skip: 3000
    count: 600
    estimates: accurate
    load: 1.6
    load_mode: duplicate
policies:
  - name: easy
  - name: qops
    params:
      tolerance: 1.5
      stringency: 0.5
      kill_restart: true
      deadline_fraction: 0.5
categories: [ss16]
`

// TestQoPSColumns checks that the admission, deadline and charge columns
// survive the wire format and the Parquet files, with nulls where a job
// has no value, and that the per-task and per-category figures add up.
func TestQoPSColumns(t *testing.T) {
	r := MustRun(t, qopsSpec)
	easy, q := r.res[0], r.res[1]
	rejected, offers, kills, deadline := 0, 0, 0, 0
	for _, j := range q.Jobs {
		if j.QoS == nil {
			t.Fatalf("job %d has no QoS facts under qops", j.JobID)
		}
		if j.Rejected {
			rejected++
		}
		if j.QoS.Offered > 0 {
			offers++
		}
		if j.QoS.DeadlineJob {
			deadline++
		}
		kills += j.Kills
	}
	if rejected == 0 || offers == 0 || kills == 0 || deadline == 0 || deadline == len(q.Jobs) {
		t.Fatalf("rejected %d, offers %d, kills %d, deadline jobs %d of %d: the case tests too little", rejected, offers, kills, deadline, len(q.Jobs))
	}
	st := q.Stats
	if st.QoPS == nil || st.QoPS.Offers != offers || st.Admitted != len(q.Jobs)-rejected || st.DeadlineMisses != 0 || st.WastedProcSeconds == 0 {
		t.Fatalf("qops stats %+v (qops %+v), want %d offers, %d admitted, no misses, wasted work", st, st.QoPS, offers, len(q.Jobs)-rejected)
	}
	if easy.Stats.QoPS != nil || easy.Stats.Admitted != len(easy.Jobs) || easy.Jobs[0].QoS != nil {
		t.Fatalf("easy stats %+v: want every job admitted, no QoS facts", easy.Stats)
	}
	checkRoundTrip(t, r.res)
	dir, rows := writeReadJobs(t, r)
	k := 0
	for _, tr := range r.res {
		for _, j := range tr.Jobs {
			if got := rows[k].Job; !reflect.DeepEqual(got, j) {
				t.Fatalf("task %d job %d: read %+v (QoS %+v), wrote %+v (QoS %+v)", tr.Index, j.JobID, got, got.QoS, j, j.QoS)
			}
			k++
		}
	}
	sum, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	ss16, _ := metrics.LookupScheme("ss16")
	for ti, tr := range r.res {
		aggs := metrics.Summarize(ss16, tr.Jobs)
		for ai, a := range aggs {
			if got := sum[ti*len(aggs)+ai].Aggregate; !reflect.DeepEqual(got, a) {
				t.Fatalf("task %d summary %s: read %+v, want %+v", ti, a.Category, got, a)
			}
		}
		all := aggs[len(aggs)-1]
		if all.Admitted != tr.Stats.Admitted || !relClose(all.ResourceCharge, tr.Stats.ResourceCharge) || !relClose(all.QoSCharge, tr.Stats.QoSCharge) {
			t.Errorf("task %d: overall row %+v does not add up to the task's %+v", ti, all, tr.Stats)
		}
	}
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	want := *q.Stats.QoPS
	want.Inserts = 0 // not a column
	if got := tasks[1].Stats; got.QoPS == nil || *got.QoPS != want || got.Admitted != st.Admitted || got.ProcSeconds != st.ProcSeconds ||
		got.WastedProcSeconds != st.WastedProcSeconds || got.QoSCharge != st.QoSCharge {
		t.Fatalf("tasks.parquet qops row %+v (%+v), want %+v (%+v)", got, got.QoPS, st, want)
	}
	if tasks[0].Stats.QoPS != nil {
		t.Fatalf("tasks.parquet easy row has qops figures %+v", tasks[0].Stats.QoPS)
	}

	// DuckDB sees the nulls: rejected jobs have no start, bsd or deadline.
	needInterop(t)
	f := parquetCheck(t, dir, results.JobsFile)[0]
	if f.Admission == nil || f.Admission.Rejected != rejected || f.Admission.RejectedWithStart != 0 || f.Admission.WithDeadline != len(q.Jobs)-rejected ||
		!relClose(f.Admission.ResourceCharge, easy.Stats.ResourceCharge+st.ResourceCharge) {
		t.Errorf("DuckDB: admission figures %+v, want %d rejected (none with a start), %d with a deadline, resource charge %v",
			f.Admission, rejected, len(q.Jobs)-rejected, easy.Stats.ResourceCharge+st.ResourceCharge)
	}
}
