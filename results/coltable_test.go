package results_test

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// familySpecs are small sweeps whose jobs and tasks fill every column of
// the column tables: rigid jobs under a preemptive policy, the multiqueue
// policy, QoPS with rejected jobs, kills and offers, a moldable workload,
// elastic jobs under an LSF discipline, and a trace with SWF fields
// 11-18.
var familySpecs = map[string]string{
	"multiqueue": mqSpec,
	"qops":       qopsSpec,
	"moldable": `
name: results-moldable
workloads:
  - trace: sdsc
    count: 300
    sigma: 1
    range_factor: 2
policies:
  - name: moldable-combined
categories: [weight10]
`,
	"elastic": `
name: results-elastic
workloads:
  - synthetic: parsons1997
    gen:
      mean_interarrival: 300
      tagged: 40
      horizon: 40000
policies:
  - name: lsf-mig-ad
categories: [ss16]
`,
	"preempt": realSpec,
	"swf":     swfSpec,
}

// frameText returns row i of a column read through a Frame (a reader
// independent of the column table) as the CSV writes it.
func frameText(t *testing.T, f *results.Frame, c results.Column, i int) string {
	t.Helper()
	if s, ok := f.Str[c.Name]; ok {
		return s[i]
	}
	v, ok := f.Num[c.Name]
	if !ok {
		t.Fatalf("frame has no column %s", c.Name)
	}
	switch {
	case math.IsNaN(v[i]):
		return ""
	case c.Type.Name() == "bool":
		return strconv.FormatBool(v[i] == 1)
	case c.Type.Name() == "int64":
		return strconv.FormatInt(int64(v[i]), 10)
	}
	return strconv.FormatFloat(v[i], 'g', -1, 64)
}

// TestColumnTable_Agree: for every column of jobs.parquet and
// tasks.parquet, the value written to Parquet (read back by name), the
// value the typed reader gives back, the value through the wire format
// and the CSV cell of schedfarm sim's writer are the same, on rows of every
// policy family; every nullable column has a value on some row.
func TestColumnTable_Agree(t *testing.T) {
	jobCols, err := results.Columns(results.JobsFile)
	if err != nil {
		t.Fatal(err)
	}
	jobCols = jobCols[:len(jobCols)-1] // the category columns are checked by TestColumns_Documented
	taskCols, _ := results.Columns(results.TasksFile)
	seen := map[string]bool{}
	for name, spec := range familySpecs {
		t.Run(name, func(t *testing.T) {
			r := MustRun(t, spec)
			dir := MustWrite(t, r, r.res)
			csvPath := filepath.Join(t.TempDir(), "jobs.csv")
			if err := results.WriteJobsCSV(csvPath, r.spec, r.tasks, r.res); err != nil {
				t.Fatal(err)
			}
			rows := readCSVFile(t, csvPath)
			head := map[string]int{}
			for i, h := range rows[0] {
				head[h] = i
			}
			jobs, err := results.ReadJobs(filepath.Join(dir, results.JobsFile))
			if err != nil {
				t.Fatal(err)
			}
			tasksFrame, err := results.ReadFrame(filepath.Join(dir, results.TasksFile))
			if err != nil {
				t.Fatal(err)
			}
			frame, err := results.ReadJobsFrame(filepath.Join(dir, results.JobsFile), tasksFrame.Tasks, names(jobCols)...)
			if err != nil {
				t.Fatal(err)
			}
			var want []metrics.Record
			var wire []metrics.Record
			for _, res := range r.res {
				b, err := res.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				back, err := results.Unmarshal(b)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, res.Jobs...)
				wire = append(wire, back.Jobs...)
			}
			if len(jobs) != len(want) || len(rows)-1 != len(want) || frame.Len() != len(want) || len(wire) != len(want) {
				t.Fatalf("%d jobs: parquet %d, csv %d, frame %d, wire %d", len(want), len(jobs), len(rows)-1, frame.Len(), len(wire))
			}
			for i := range want {
				w := results.JobCells(&want[i])
				pq, wr := results.JobCells(&jobs[i].Job), results.JobCells(&wire[i])
				for k, c := range jobCols {
					cell := rows[i+1][head[c.Name]]
					if f := frameText(t, frame, c, i); f != w[k] || pq[k] != w[k] || wr[k] != w[k] || cell != w[k] {
						t.Fatalf("job row %d column %s: written %q, file %q, reader %q, wire %q, csv %q", i, c.Name, w[k], f, pq[k], wr[k], cell)
					}
					if w[k] != "" {
						seen[c.Name] = true
					}
				}
			}
			for i, res := range r.res {
				w := results.TaskCells(res)
				for k, c := range taskCols {
					if c.Name == "wall_time_ms" {
						continue
					}
					if f := frameText(t, tasksFrame, c, i); f != w[k] {
						t.Fatalf("task %d column %s: written %q, file %q", i, c.Name, w[k], f)
					}
					if w[k] != "" {
						seen[c.Name] = true
					}
				}
			}
		})
	}
	for _, c := range append(jobCols, taskCols...) {
		if !seen[c.Name] && c.Nullable {
			t.Errorf("column %s has no value on any row of the family specs: the test does not cover it", c.Name)
		}
	}
}

func names(cs []results.Column) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// readCSVFile returns the records of the CSV file at path.
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
