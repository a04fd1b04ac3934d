package report_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sweep"
)

// tinyPolicy starts waiting jobs in arrival order when they fit, then
// resumes the suspended jobs whose processors are free; job 2's arrival
// suspends job 1 with an overhead of 5 s.
type tinyPolicy struct{ m *sim.Machine }

func (p *tinyPolicy) Init(m *sim.Machine) error { p.m = m; return nil }
func (p *tinyPolicy) Arrive(t *sim.Task) {
	if t.ID == 2 {
		p.m.Check(p.m.Suspend(p.m.Task(0), 5))
	}
}
func (p *tinyPolicy) Finish(*sim.Task) {}
func (p *tinyPolicy) Timer(int)        {}
func (p *tinyPolicy) Schedule() {
	m := p.m
	for i := range m.NumTasks() {
		if t := m.Task(i); t.State == sim.Waiting && t.Procs <= m.Free() {
			m.Check(m.Start(t))
		}
	}
	for i := range m.NumTasks() {
		if t := m.Task(i); m.CanResume(t) {
			m.Check(m.Resume(t, 0))
		}
	}
}

// TestGanttBoxes_Golden draws a schedule derived by hand on 4
// processors:
//
//	job 1 (2 procs, 100 s) works 0-10 on 0-1, is suspended by job 2's
//	      arrival with a 5 s overhead (10-15), resumes at 65 when job 3
//	      frees processor 0, and ends at 155;
//	job 2 (4 procs, 30 s) arrives at 10 and runs 15-45;
//	job 3 (1 proc, 20 s) arrives at 20 and runs 45-65 on processor 0.
//
// The boxes are checked one by one, then the SVG against
// testdata/gantt/tiny.svg (-update rewrites it).
func TestGanttBoxes_Golden(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 10, Runtime: 30, Estimate: 30, Procs: 4},
		{ID: 3, Submit: 20, Runtime: 20, Estimate: 20, Procs: 1},
	}
	res, err := sim.Run(context.Background(), 4, jobs, &tinyPolicy{}, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := report.GanttBoxes(res, 0, 160, 1, []int{0, 1, 2})
	slices.SortStableFunc(got, func(a, b plot.GanttBox) int { return int(a.Start - b.Start) })
	want := []plot.GanttBox{
		{Label: "1", Start: 0, End: 10, Lo: 0, Hi: 2, Class: 0},
		{Label: "1", Start: 10, End: 15, Lo: 0, Hi: 2, Class: -1, Stopped: true},
		{Label: "2", Start: 15, End: 45, Lo: 0, Hi: 4, Class: 1},
		{Label: "3", Start: 45, End: 65, Lo: 0, Hi: 1, Class: 2},
		{Label: "1", Start: 65, End: 155, Lo: 0, Hi: 2, Class: 0, Restarted: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("boxes\n%+v\nwant\n%+v", got, want)
	}
	g := &plot.Gantt{Title: "tiny schedule", XLabel: "simulated time (s)", Procs: 4, From: 0, To: 160,
		Classes: []string{"job 1", "job 2", "job 3"}, Boxes: got}
	path := filepath.Join(t.TempDir(), "tiny.svg")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "gantt/tiny.svg", string(svg))
}

func TestRuns(t *testing.T) {
	set := sim.NewProcSet(10)
	for _, i := range []int{0, 1, 2, 5, 7, 8} {
		set.Add(i)
	}
	if got, want := report.Runs(set), [][2]int{{0, 3}, {5, 6}, {7, 9}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Runs = %v, want %v", got, want)
	}
}

func TestBins(t *testing.T) {
	few := report.NewBins([]float64{1, 4, 4, 16})
	if got, want := few.Labels("procs"), []string{"procs = 1", "procs = 4", "procs = 16"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if few.Class(4) != 1 || few.Class(16) != 2 {
		t.Errorf("classes of 4 and 16: %d, %d", few.Class(4), few.Class(16))
	}
	var vals []float64
	for v := range 60 {
		vals = append(vals, float64(v))
	}
	many := report.NewBins(vals)
	labels := many.Labels("wait")
	if len(labels) != 6 || labels[0] != "wait in [0, 10)" || labels[5] != "wait in [50, 59]" {
		t.Errorf("labels %q", labels)
	}
	for _, c := range []struct {
		v    float64
		want int
	}{{0, 0}, {9, 0}, {10, 1}, {59, 5}, {100, 5}, {-1, 0}} {
		if got := many.Class(c.v); got != c.want {
			t.Errorf("class of %g = %d, want %d", c.v, got, c.want)
		}
	}
}

// ssSpec is a scenario with suspensions, moldSpec a moldable run.
const (
	ssSpec = `
name: report-gantt-ss
workloads:
  - trace: ctc
    count: 300
    procs: 430
policies:
  - name: ss
    label: SS
    params: {suspension_factor: 2}
`
	moldSpec = `
name: report-gantt-mold
workloads:
  - trace: sdsc
    count: 200
    sigma: 1
    range_factor: 4
policies:
  - name: moldable-schedule
    label: mold
`
)

func TestSweep_Plots_Gantt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  string
		opts  report.PlotOptions
		file  string
		texts []string
	}{
		{"Suspensions", ssSpec, report.PlotOptions{Task: 0},
			"gantt-task0-ss4-category",
			[]string{"stopped", "ran again", "processors", "simulated time (h)"}},
		{"Moldable", moldSpec, report.PlotOptions{Task: 0, Color: "procs_chosen"},
			"gantt-task0-procs_chosen",
			[]string{"processors", "simulated time (h)", "procs_chosen in [1, 4)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := runnertest.Write(tc.spec, "testdata", dir); err != nil {
				t.Fatal(err)
			}
			s, err := report.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "Moldable" {
				// The scheduler chose other sizes than the trace's.
				moulded := 0
				err := results.ReadJobSeries(filepath.Join(dir, results.JobsFile), []string{"procs", "procs_chosen"}, func(_ int, cols [][]float64) error {
					for k := range cols[0] {
						if cols[0][k] != cols[1][k] {
							moulded++
						}
					}
					return nil
				})
				if err != nil || moulded == 0 {
					t.Fatalf("moldable run: %d jobs ran on another size than requested (%v)", moulded, err)
				}
			}
			tc.opts.Kind, tc.opts.OutDir = report.KindGantt, t.TempDir()
			files, err := s.Plots(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{filepath.Join(tc.opts.OutDir, tc.file+".png"), filepath.Join(tc.opts.OutDir, tc.file+".svg")}
			if !slices.Equal(files, want) {
				t.Fatalf("files %q, want %q", files, want)
			}
			checkPNG(t, files[0])
			texts := svgTexts(t, files[1])
			for _, w := range tc.texts {
				if !slices.Contains(texts, w) {
					t.Errorf("no text %q in %q", w, texts)
				}
			}
		})
	}
}

func TestSweep_Plots_GanttErrors(t *testing.T) {
	spec, tasks := mustParseSpec(t, strings.Replace(ssSpec, "count: 300", "count: 400", 1))
	res, err := runnertest.Run(context.Background(), spec, tasks)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(t.TempDir(), "good")
	if err := results.WriteOutputs(good, spec, tasks, res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	// Outputs whose schedule is not the simulator's: one job ends later.
	res[0].Jobs[5].End += 7
	bad := filepath.Join(t.TempDir(), "bad")
	if err := results.WriteOutputs(bad, spec, tasks, res, "test", results.WithTables(report.Tables)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		dir  string
		opts report.PlotOptions
		want string
	}{
		{"NoTask", good, report.PlotOptions{Task: -1}, "a Gantt chart draws one task: give its task_index (0..0)"},
		{"TaskRange", good, report.PlotOptions{Task: 3}, "no task 3 in"},
		{"TooMany", good, report.PlotOptions{}, "task 0: 400 jobs hold processors in whole run, more than a Gantt chart can show (at most 1000; 300 read well): narrow the window, for example --from 0d --to "},
		{"Empty", good, report.PlotOptions{From: 1000 * 86400}, "task 0: no job holds processors in time from 1000d"},
		{"Column", good, report.PlotOptions{From: 86400, To: 3 * 86400, Color: "nope"}, "colour by nope"},
		{"Mismatch", bad, report.PlotOptions{}, "task 0 simulated again: job "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Kind, tc.opts.OutDir = report.KindGantt, t.TempDir()
			files, err := report.Plots(tc.dir, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || len(files) > 0 {
				t.Errorf("Plots() = %q, %v, want an error containing %q", files, err, tc.want)
			}
		})
	}
}

// mustParseSpec parses a spec with traces resolved from testdata up.
func mustParseSpec(t *testing.T, text string) (*sweep.Spec, []sweep.Task) {
	t.Helper()
	s, err := sweep.Parse([]byte(text), "testdata")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	return s, ts
}
