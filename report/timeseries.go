package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
)

// KindTimeseries draws, per workload, the queue length (waiting and
// suspended jobs) and the utilization of each chosen task against
// simulated time, from timeseries.parquet.
const KindTimeseries = "timeseries"

// MaxTimeLines is the most tasks one time-series figure draws: more
// lines over thousands of steps cannot be told apart. Choose tasks with
// Where.
const MaxTimeLines = 8

// taskLine is the rows of one task in a time-series or Gantt file.
type taskLine struct {
	tc   *results.TaskCols
	rows []int
}

// tasksOf groups the rows of f by task, keeping the tasks that pass
// where, in file order.
func tasksOf(f *results.Frame, where []Filter) []*taskLine {
	byTask := map[int32]*taskLine{}
	var out []*taskLine
	for i := range f.Len() {
		k := f.TaskOf[i]
		tl := byTask[k]
		if tl == nil {
			tc := f.Task(i)
			if !matchFilters(where, tc) {
				continue
			}
			tl = &taskLine{tc: tc}
			byTask[k] = tl
			out = append(out, tl)
		}
		tl.rows = append(tl.rows, i)
	}
	return out
}

// lineNames names each task of one figure by its label, adding the
// parameters that tell apart the tasks sharing it, then the replication
// when names still repeat.
func lineNames(tasks []*taskLine) []string {
	names := make([]string, len(tasks))
	count := func() map[string]int {
		m := map[string]int{}
		for _, n := range names {
			m[n]++
		}
		return m
	}
	for i, t := range tasks {
		names[i] = t.tc.Label
	}
	// Per label shared by several tasks, the parameters whose values
	// differ among them.
	differ := map[string][]string{}
	for i, t := range tasks {
		for k, v := range t.tc.ParamValues {
			for j, u := range tasks {
				if names[j] == names[i] && fmt.Sprint(u.tc.ParamValues[k]) != fmt.Sprint(v) && !slices.Contains(differ[names[i]], k) {
					differ[names[i]] = append(differ[names[i]], k)
				}
			}
		}
	}
	label := slices.Clone(names)
	for i, t := range tasks {
		keys := differ[label[i]]
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s=%v", k, t.tc.ParamValues[k]))
		}
		if len(parts) > 0 {
			names[i] += " (" + strings.Join(parts, ", ") + ")"
		}
	}
	c := count()
	for i, t := range tasks {
		if c[names[i]] > 1 {
			names[i] += fmt.Sprintf(" rep %d", t.tc.Replication)
		}
	}
	return names
}

// timeseries makes one figure per workload of the chosen tasks.
func (s *Sweep) timeseries(opts PlotOptions) ([]figure, error) {
	path := filepath.Join(s.Dir, results.TimeseriesFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no %s in %s: add outputs: {timeseries: {step: 3600}} to the spec and run it again", results.TimeseriesFile, s.Dir)
	}
	f, err := results.ReadFrame(path, "time", "waiting", "suspended", "utilization")
	if err != nil {
		return nil, err
	}
	tasks := tasksOf(f, opts.Where)
	if len(tasks) == 0 {
		return nil, fmt.Errorf("no task of %s passes the filters", path)
	}
	var order []Workload
	byWorkload := map[Workload][]*taskLine{}
	for _, t := range tasks {
		w := WorkloadOf(t.tc)
		if byWorkload[w] == nil {
			order = append(order, w)
		}
		byWorkload[w] = append(byWorkload[w], t)
	}
	var out []figure
	for _, w := range order {
		ts := byWorkload[w]
		if len(ts) > MaxTimeLines {
			return nil, fmt.Errorf("%d tasks on %s: a time-series figure draws at most %d; choose with --where (for example --where policy=%s)",
				len(ts), w, MaxTimeLines, ts[0].tc.Policy)
		}
		chart := &plot.Timeseries{XLabel: "simulated time (days)", QueueLabel: "queue (waiting + suspended jobs)"}
		step := sim.Time(0)
		for i, name := range lineNames(ts) {
			l := plot.TimeLine{Name: name}
			for k, r := range ts[i].rows {
				t := sim.Time(f.Num["time"][r])
				if k == 1 {
					step = t - sim.Time(f.Num["time"][ts[i].rows[0]])
				}
				if t < opts.From || (opts.To > 0 && t >= opts.To) {
					continue
				}
				l.T = append(l.T, float64(t)/86400)
				l.Queue = append(l.Queue, f.Num["waiting"][r]+f.Num["suspended"][r])
				l.Util = append(l.Util, f.Num["utilization"][r])
			}
			if len(l.T) == 0 {
				return nil, fmt.Errorf("task %d (%s) has no step in the window %s", ts[i].tc.TaskIndex, name, windowText(opts.From, opts.To))
			}
			chart.Lines = append(chart.Lines, l)
		}
		what := "queue length at each step's start, utilization over the step"
		if step > 0 {
			what += " (step " + durationText(step) + ")"
		}
		if opts.From > 0 || opts.To > 0 {
			what += ", " + windowText(opts.From, opts.To)
		}
		if len(opts.Where) > 0 {
			what += ", where " + whereText(opts.Where)
		}
		chart.Title = w.String() + "\n" + what
		out = append(out, figure{name: KindTimeseries + "-" + slug(workloadSlug(w)) + windowSlug(opts.From, opts.To), chart: chart})
	}
	return out, nil
}

// durationText writes a duration in the largest whole unit: "1h", "30m",
// "90s", "2d".
func durationText(d sim.Time) string {
	for _, u := range []struct {
		s string
		n sim.Time
	}{{"d", 86400}, {"h", 3600}, {"m", 60}} {
		if d%u.n == 0 {
			return fmt.Sprintf("%d%s", d/u.n, u.s)
		}
	}
	return fmt.Sprintf("%ds", d)
}

// windowText describes a time window of [PlotOptions]: from and to (0:
// open), both in the largest unit that writes both whole.
func windowText(from, to sim.Time) string {
	switch {
	case to > 0:
		for _, u := range []struct {
			s string
			n sim.Time
		}{{"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}} {
			if from%u.n == 0 && to%u.n == 0 {
				return fmt.Sprintf("time %d%s to %d%s", from/u.n, u.s, to/u.n, u.s)
			}
		}
	case from > 0:
		return fmt.Sprintf("time from %s", durationText(from))
	}
	return "whole run"
}

// windowSlug is the file name part of a time window ("" for none).
func windowSlug(from, to sim.Time) string {
	if from == 0 && to == 0 {
		return ""
	}
	s := "-t" + durationText(from)
	if to > 0 {
		s += "-" + durationText(to)
	}
	return s
}

// ParseSimTime reads a simulated time or duration: whole seconds, or a
// whole or decimal number with a unit s, m, h or d ("36h", "1.5d").
func ParseSimTime(s string) (sim.Time, error) {
	s = strings.TrimSpace(s)
	num, mult := s, 1.0
	for _, u := range []struct {
		suffix string
		n      float64
	}{{"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.n
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("time %q: want seconds or a number with s, m, h or d (for example 36h)", s)
	}
	t := v * mult
	if !(t >= 0 && t < 1e15) {
		return 0, fmt.Errorf("time %q: want a time from 0 on", s)
	}
	return sim.Time(t), nil
}
