package report

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// KindGantt draws the schedule of one task (PlotOptions.Task) over a
// time window: time on x, processors on y, each job a box on the
// processors it held, coloured by category or by a jobs.parquet column.
//
// The outputs keep each job's first start and end, not the intervals of
// a job that was suspended, killed, checkpointed, migrated or resized,
// so the task is simulated again, with every such interval recorded: the
// simulator is deterministic, and the figure is refused unless every
// job's start and end equal the task's rows in jobs.parquet. The engine
// tracks processor identities under every policy, so every job is drawn
// on the processors it held (several boxes when they are not
// contiguous).
const KindGantt = "gantt"

// MaxGanttJobs is the most jobs a Gantt figure draws: beyond, boxes are
// thinner than their outlines and the figure is refused with a narrower
// window to try. Up to a few hundred jobs the job IDs fit in the larger
// boxes.
const MaxGanttJobs = 1000

// ganttDefaultJobs is how many jobs the window suggested for a run too
// large to draw whole holds.
const ganttDefaultJobs = 300

// ganttColourBins is the most colours a numeric column is cut into.
const ganttColourBins = 6

// gantt re-simulates task opts.Task and draws its schedule.
func (s *Sweep) gantt(ctx context.Context, opts PlotOptions) ([]figure, error) {
	t, tracePath, err := s.ganttTask(opts)
	if err != nil {
		return nil, err
	}
	res, err := runner.DefaultCache.Schedule(ctx, t, tracePath)
	if err != nil {
		return nil, fmt.Errorf("gantt: %w", err)
	}
	recs := metrics.Records(res)
	if err := s.checkSchedule(t.Index, recs); err != nil {
		return nil, err
	}
	from, to := opts.From, opts.To
	if to == 0 {
		to = res.End
	}
	inWindow := jobsIn(res, from, to)
	if n := len(inWindow); n > MaxGanttJobs || (n > ganttDefaultJobs && opts.From == 0 && opts.To == 0) {
		a, b := suggestWindow(res, from)
		return nil, fmt.Errorf("task %d: %d jobs hold processors in %s, more than a Gantt chart can show (at most %d; %d read well): narrow the window, for example --from %s --to %s",
			t.Index, n, windowText(opts.From, opts.To), MaxGanttJobs, ganttDefaultJobs, durationText(a), durationText(b))
	}
	if len(inWindow) == 0 {
		return nil, fmt.Errorf("task %d: no job holds processors in %s (the run ends at %s)", t.Index, windowText(opts.From, opts.To), durationText(res.End))
	}
	classes, classOf, what, err := s.ganttColours(t.Index, recs, inWindow, opts)
	if err != nil {
		return nil, err
	}
	unit, unitName := sim.Time(3600), "h"
	if to-from > 7*86400 {
		unit, unitName = 86400, "days"
	}
	g := &plot.Gantt{Procs: res.Procs, From: float64(from) / float64(unit), To: float64(to) / float64(unit),
		XLabel: "simulated time (" + unitName + ")", Classes: classes}
	g.Boxes = ganttBoxes(res, from, to, unit, classOf)
	w := WorkloadOf(&s.taskRow(t.Index).TaskCols)
	g.Title = fmt.Sprintf("%s\ntask %d: %s, %s, %d jobs, coloured by %s", w, t.Index, t.Name(), windowText(opts.From, opts.To), len(inWindow), what)
	name := fmt.Sprintf("%s-task%d%s-%s", KindGantt, t.Index, windowSlug(opts.From, opts.To), slug(what))
	return []figure{{name: name, chart: g}}, nil
}

// taskRow returns the tasks.parquet row of task index i (nil if none).
func (s *Sweep) taskRow(i int) *results.TaskRow {
	for k := range s.Tasks {
		if s.Tasks[k].TaskIndex == i {
			return &s.Tasks[k]
		}
	}
	return nil
}

// ganttTask finds task opts.Task in the spec that made the sweep (its
// metadata, or opts.SpecFile) and checks it is the task of the outputs.
func (s *Sweep) ganttTask(opts PlotOptions) (*sweep.Task, string, error) {
	row := s.taskRow(opts.Task)
	switch {
	case opts.Task < 0:
		return nil, "", fmt.Errorf("a Gantt chart draws one task: give its task_index (0..%d)", len(s.Tasks)-1)
	case row == nil:
		return nil, "", fmt.Errorf("no task %d in %s (task_index 0..%d)", opts.Task, s.Dir, len(s.Tasks)-1)
	case row.Error != "":
		return nil, "", fmt.Errorf("task %d failed, it has no schedule: %s", opts.Task, row.Error)
	}
	md, err := results.ReadMetadata(filepath.Join(s.Dir, results.TasksFile))
	if err != nil {
		return nil, "", err
	}
	text, base := []byte(md[results.MetaSpec]), s.Dir
	if opts.SpecFile != "" {
		if text, err = os.ReadFile(opts.SpecFile); err != nil {
			return nil, "", fmt.Errorf("read spec: %w", err)
		}
		if sum := sha256.Sum256(text); hex.EncodeToString(sum[:]) != md[results.MetaSpecSHA256] {
			return nil, "", fmt.Errorf("spec %s is not the one that made %s (sha256 %.12s, the outputs say %.12s)", opts.SpecFile, s.Dir, hex.EncodeToString(sum[:]), md[results.MetaSpecSHA256])
		}
		base = filepath.Dir(opts.SpecFile)
	}
	spec, err := sweep.Parse(text, base)
	if err != nil {
		return nil, "", fmt.Errorf("the spec of %s (give its file with --spec when it names traces by relative path): %w", s.Dir, err)
	}
	tasks, err := spec.Tasks()
	if err != nil {
		return nil, "", err
	}
	if opts.Task >= len(tasks) || tasks[opts.Task].ID != row.TaskID {
		return nil, "", fmt.Errorf("task %d of the spec is not the task of %s (its ID differs): the outputs were made by another version of the simulator or of the traces", opts.Task, s.Dir)
	}
	t := &tasks[opts.Task]
	path := ""
	for _, tr := range spec.Traces() {
		if tr.SHA256 == t.Workload.TraceSHA256 {
			path = tr.Path
		}
	}
	return t, path, nil
}

// checkSchedule refuses a re-simulated schedule whose jobs do not start
// and end as the task's rows of jobs.parquet say.
func (s *Sweep) checkSchedule(task int, recs []metrics.Record) error {
	path := filepath.Join(s.Dir, results.JobsFile)
	seen := false
	err := results.ReadJobSeries(path, []string{"job_id", "start", "end"}, func(i int, cols [][]float64) error {
		if i != task {
			return nil
		}
		seen = true
		if len(cols[0]) != len(recs) {
			return fmt.Errorf("task %d simulated again has %d jobs, %s has %d", task, len(recs), path, len(cols[0]))
		}
		for k, r := range recs {
			start, end := float64(max(r.Start, 0)), float64(max(r.End, 0))
			if float64(r.JobID) != cols[0][k] || start != cols[1][k] || end != cols[2][k] {
				return fmt.Errorf("task %d simulated again: job %d runs %g-%g, %s says %g-%g: the outputs were made by another version of the simulator",
					task, r.JobID, start, end, path, cols[1][k], cols[2][k])
			}
		}
		return nil
	})
	if err == nil && !seen {
		err = fmt.Errorf("task %d has no rows in %s", task, path)
	}
	return err
}

// jobsIn returns the indexes of the jobs that hold processors in [from,
// to), sorted.
func jobsIn(res *sim.Result, from, to sim.Time) []int {
	seen := map[int]bool{}
	var out []int
	for _, sg := range res.Segments {
		if sg.End > from && sg.Start < to && !seen[sg.Task] {
			seen[sg.Task] = true
			out = append(out, sg.Task)
		}
	}
	slices.Sort(out)
	return out
}

// suggestWindow returns a window from about from that holds about
// ganttDefaultJobs jobs, in whole hours.
func suggestWindow(res *sim.Result, from sim.Time) (sim.Time, sim.Time) {
	var starts []sim.Time
	for _, sg := range res.Segments {
		if sg.End > from {
			starts = append(starts, max(sg.Start, from))
		}
	}
	slices.Sort(starts)
	a := from - from%3600
	b := res.End
	if len(starts) > ganttDefaultJobs {
		b = starts[ganttDefaultJobs]
	}
	b = max(a+3600, (b+3599)/3600*3600)
	return a, b
}

// ganttColours returns the colour classes, the class of each job index,
// and what the colours are: the categories of a scheme (opts.Color ""
// or "category"; opts.Scheme, default ss4), or a numeric column of
// jobs.parquet, by value when it takes few values in the window, else in
// bins of about equal counts.
func (s *Sweep) ganttColours(task int, recs []metrics.Record, jobs []int, opts PlotOptions) ([]string, []int, string, error) {
	classOf := make([]int, len(recs))
	if opts.Color == "" || opts.Color == "category" {
		name := opts.Scheme
		if name == "" {
			name = "ss4"
		}
		sc, err := metrics.LookupScheme(name)
		if err != nil {
			return nil, nil, "", err
		}
		sc = sc.For(recs)
		present := map[string]bool{}
		for _, j := range jobs {
			present[sc.Classify(&recs[j])] = true
		}
		var classes []string
		for _, l := range sc.Labels() {
			if present[l] {
				classes = append(classes, l)
			}
		}
		for j := range recs {
			classOf[j] = slices.Index(classes, sc.Classify(&recs[j]))
		}
		return classes, classOf, name + " category", nil
	}
	var vals []float64
	err := results.ReadJobSeries(filepath.Join(s.Dir, results.JobsFile), []string{opts.Color}, func(i int, cols [][]float64) error {
		if i == task {
			vals = cols[0]
		}
		return nil
	})
	if err != nil {
		return nil, nil, "", fmt.Errorf("colour by %s: %w", opts.Color, err)
	}
	if len(vals) != len(recs) {
		return nil, nil, "", fmt.Errorf("colour by %s: %d values for %d jobs", opts.Color, len(vals), len(recs))
	}
	window := make([]float64, len(jobs))
	for k, j := range jobs {
		window[k] = vals[j]
	}
	b := newBins(window)
	for j, v := range vals {
		classOf[j] = b.class(v)
	}
	return b.labels(opts.Color), classOf, opts.Color, nil
}

// bins cut a numeric column into at most ganttColourBins colour classes:
// one per value when it takes that few (discrete), else ranges [e[k],
// e[k+1]) of about equal counts, the last one closed.
type bins struct {
	edges    []float64
	discrete bool
}

func newBins(vals []float64) bins {
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	if d := slices.Compact(slices.Clone(sorted)); len(d) <= ganttColourBins {
		return bins{edges: d, discrete: true}
	}
	edges := []float64{sorted[0]}
	for k := 1; k < ganttColourBins; k++ {
		if e := sorted[k*len(sorted)/ganttColourBins]; e > edges[len(edges)-1] {
			edges = append(edges, e)
		}
	}
	// The largest value closes the last range (more than
	// ganttColourBins distinct values: it is above the first edge).
	if last := sorted[len(sorted)-1]; last > edges[len(edges)-1] {
		edges = append(edges, last)
	}
	return bins{edges: edges}
}

// class is the class of v; values outside the edges go to the nearest
// class.
func (b bins) class(v float64) int {
	i := sort.SearchFloat64s(b.edges, v) // the first edge >= v
	if b.discrete {
		return min(i, len(b.edges)-1)
	}
	if i < len(b.edges) && b.edges[i] == v {
		i++
	}
	return max(0, min(i-1, len(b.edges)-2))
}

// labels names the classes for column col.
func (b bins) labels(col string) []string {
	if b.discrete {
		out := make([]string, len(b.edges))
		for i, v := range b.edges {
			out[i] = fmt.Sprintf("%s = %s", col, num(v))
		}
		return out
	}
	out := make([]string, len(b.edges)-1)
	for i := range out {
		end := ")"
		if i == len(out)-1 {
			end = "]"
		}
		out[i] = fmt.Sprintf("%s in [%s, %s%s", col, num(b.edges[i]), num(b.edges[i+1]), end)
	}
	return out
}

// num writes a class edge compactly.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// ganttBoxes makes the boxes of every segment overlapping [from, to), x
// in units of unit seconds. A segment followed by a gap before the job's
// next one is stopped, one after such a gap ran again: the segments of
// a job touch while it holds processors (a working one, then its
// suspend overhead), and a gap is a time it held none (suspended,
// killed and waiting, checkpointed).
func ganttBoxes(res *sim.Result, from, to, unit sim.Time, classOf []int) []plot.GanttBox {
	byJob := map[int][]int{} // indexes into res.Segments, in start order
	for i, sg := range res.Segments {
		byJob[sg.Task] = append(byJob[sg.Task], i)
	}
	for _, ix := range byJob {
		slices.SortStableFunc(ix, func(a, b int) int { return int(res.Segments[a].Start - res.Segments[b].Start) })
	}
	var boxes []plot.GanttBox
	for i, sg := range res.Segments {
		if sg.End <= from || sg.Start >= to {
			continue
		}
		ix := byJob[sg.Task]
		k := slices.Index(ix, i)
		stopped := k+1 < len(ix) && res.Segments[ix[k+1]].Start > sg.End
		restarted := k > 0 && res.Segments[ix[k-1]].End < sg.Start
		class := classOf[sg.Task]
		if !sg.Working {
			class = -1
		}
		for _, r := range runs(sg.Set) {
			boxes = append(boxes, plot.GanttBox{
				Label: strconv.FormatInt(res.Tasks[sg.Task].ID, 10),
				Start: float64(sg.Start) / float64(unit), End: float64(sg.End) / float64(unit),
				Lo: r[0], Hi: r[1], Class: class, Stopped: stopped, Restarted: restarted,
			})
		}
	}
	return boxes
}

// runs returns the contiguous ranges [lo, hi) of a processor set.
func runs(set sim.ProcSet) [][2]int {
	var out [][2]int
	set.Each(func(i int) {
		if n := len(out); n > 0 && out[n-1][1] == i {
			out[n-1][1] = i + 1
			return
		}
		out = append(out, [2]int{i, i + 1})
	})
	return out
}
