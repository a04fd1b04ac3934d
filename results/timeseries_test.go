package results_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// seriesSpec is realSpec's workload under a non-preemptive policy and a
// suspending one, with a 30-minute time series.
const seriesSpec = `
name: series-test
workloads:
  - trace: ctc
    skip: 2000
    count: 300
policies:
  - name: easy
  - name: ss
    params:
      suspension_factor: 2
outputs:
  timeseries: {step: 1800}
`

// TestTimeseries_Write runs a real sweep with a time series, sends each
// result through the wire form, writes the outputs and reads
// timeseries.parquet back: every sample is there, with its task's
// columns. The series of the non-preemptive policy is checked against
// the job records: at each step's start, a job is waiting when it has
// arrived and not started, running when it has started and not ended;
// the busy processor-seconds of the steps add up to the jobs' work.
func TestTimeseries_Write(t *testing.T) {
	r := MustRun(t, seriesSpec)
	stored := make([][]byte, len(r.res))
	for i, res := range r.res {
		if len(res.Series) == 0 {
			t.Fatalf("task %d: no series", i)
		}
		b, err := res.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := results.Unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Series, res.Series) {
			t.Fatalf("task %d: series changed on the wire", i)
		}
		stored[i] = b
	}
	checkSeriesAgainstJobs(t, r.res[0])
	suspended := 0
	for _, x := range r.res[1].Series {
		suspended = max(suspended, x.Suspended)
	}
	if suspended == 0 {
		t.Errorf("ss: no suspended job in any step of the series")
	}

	dir := t.TempDir()
	get := func(i int) (*results.TaskResult, error) { return results.Unmarshal(stored[i]) }
	if err := results.StreamOutputs(dir, r.spec, r.tasks, get, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	f, err := results.ReadFrame(filepath.Join(dir, results.TimeseriesFile))
	if err != nil {
		t.Fatal(err)
	}
	row := 0
	for i, res := range r.res {
		for k, x := range res.Series {
			if row >= f.Len() {
				t.Fatalf("%d rows, want more", f.Len())
			}
			got := sim.Sample{Time: sim.Time(f.Num["time"][row]), Waiting: int(f.Num["waiting"][row]),
				Running: int(f.Num["running"][row]), Suspended: int(f.Num["suspended"][row]),
				Busy: int(f.Num["busy_procs"][row]), Utilization: f.Num["utilization"][row]}
			if got != x || f.Task(row).TaskID != r.tasks[i].ID || f.Task(row).Label != r.tasks[i].Name() {
				t.Fatalf("task %d sample %d: row %d is %+v of task %s, want %+v", i, k, row, got, f.Task(row).TaskID, x)
			}
			row++
		}
	}
	if row != f.Len() {
		t.Errorf("%d rows, want %d", f.Len(), row)
	}
}

// checkSeriesAgainstJobs checks the series of a run without suspensions
// against its job records.
func checkSeriesAgainstJobs(t *testing.T, r *results.TaskResult) {
	t.Helper()
	var work, area float64
	for _, j := range r.Jobs {
		work += float64(j.Procs) * float64(j.Runtime)
	}
	end := r.Series[len(r.Series)-1].Time
	for _, j := range r.Jobs {
		end = max(end, j.End)
	}
	for k, x := range r.Series {
		var want sim.Sample
		want.Time = x.Time
		for _, j := range r.Jobs {
			switch {
			case j.Submit <= x.Time && j.Start > x.Time:
				want.Waiting++
			case j.Start <= x.Time && j.End > x.Time:
				want.Running++
				want.Busy += j.Procs
			}
		}
		want.Utilization = x.Utilization
		if x != want {
			t.Fatalf("sample %d: %+v, jobs say %+v", k, x, want)
		}
		stepEnd := end
		if k+1 < len(r.Series) {
			stepEnd = r.Series[k+1].Time
		}
		area += x.Utilization * float64(r.Stats.Procs) * float64(stepEnd-x.Time)
	}
	if math.Abs(area-work) > 1e-6*work {
		t.Errorf("busy processor-seconds of the series %g, jobs' work %g", area, work)
	}
}

// TestTimeseries_Off: a spec without outputs.timeseries writes no
// timeseries.parquet, and removes one left by an earlier sweep.
func TestTimeseries_Off(t *testing.T) {
	r := MustRun(t, smallSeriesOff)
	for _, res := range r.res {
		if res.Series != nil {
			t.Fatalf("a series without outputs.timeseries")
		}
	}
	dir := t.TempDir()
	stale := filepath.Join(dir, results.TimeseriesFile)
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteOutputs(dir, r.spec, r.tasks, r.res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale %s: %v, want removed", results.TimeseriesFile, err)
	}
}

const smallSeriesOff = `
name: series-off
workloads:
  - trace: ctc
    count: 50
policies:
  - name: fcfs
`

// TestTimeseries_Corrupt: a series that does not decode is an ErrCorrupt.
func TestTimeseries_Corrupt(t *testing.T) {
	ok := seriesResult()
	b, err := ok.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"count":     bytes.Replace(b, []byte(`"series":2`), []byte(`"series":3`), 1),
		"negative":  bytes.Replace(b, []byte(`"series":2`), []byte(`"series":-2`), 1),
		"bytes":     bytes.Replace(b, []byte(`"series_bytes":`), []byte(`"series_bytes":1`), 1),
		"truncated": b[:len(b)/2],
	}
	bad := seriesResult()
	bad.Series[1].Time = bad.Series[0].Time
	if bb, err := bad.Marshal(); err == nil {
		cases["order"] = bb
	}
	for name, c := range cases {
		if _, err := results.Unmarshal(c); !errors.Is(err, results.ErrCorrupt) {
			t.Errorf("%s: Unmarshal = %v, want ErrCorrupt", name, err)
		}
	}
}

func seriesResult() *results.TaskResult {
	return &results.TaskResult{TaskID: "t", Index: 1, Stats: metrics.RunStats{Jobs: 1, Procs: 4},
		Jobs:   []metrics.Record{{JobID: 1, Runtime: 5, Procs: 2, BSD: 1}},
		Series: []sim.Sample{{Time: 0, Running: 1, Busy: 2, Utilization: 0.5}, {Time: 60, Waiting: 3, Suspended: 1, Utilization: 0.25}}}
}

// FuzzUnmarshalSeries is FuzzUnmarshal seeded with a result that has a
// time series.
func FuzzUnmarshalSeries(f *testing.F) {
	b, err := seriesResult().Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := results.Unmarshal(data)
		if err != nil {
			if !errors.Is(err, results.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := results.Unmarshal(b)
		if err != nil || !reflect.DeepEqual(r, r2) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestColumns_DocumentedTimeseries checks timeseries.parquet's columns
// against docs/columns.md, as TestColumns_Documented does the others.
func TestColumns_DocumentedTimeseries(t *testing.T) {
	r := MustRun(t, seriesSpec)
	dir := t.TempDir()
	if err := results.WriteOutputs(dir, r.spec, r.tasks, r.res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	secs, _ := docSections(t)
	want := append(tableColumns(secs["Task columns"]), tableColumns(secs[results.TimeseriesFile])...)
	got := fileColumns(t, filepath.Join(dir, results.TimeseriesFile))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s columns\n%+v\n%s documents\n%+v", results.TimeseriesFile, got, columnsDoc, want)
	}
}
