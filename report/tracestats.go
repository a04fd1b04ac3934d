package report

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
)

// Week is the length of a week in seconds.
const Week = 7 * 86400

// lenBounds are the upper runtime bounds of the len4 classes 1-3 (Lawson
// and Smirni's classes; class 4 is longer).
var lenBounds = [3]sim.Time{100, 1000, 10000}

// WorkloadStats are a workload's statistics of Lawson, Smirni and Puiu 2002,
// Table 1 and Figs 1-2. A CV is the population standard deviation over
// the mean.
type WorkloadStats struct {
	Name string
	Jobs int
	// Runtime and Procs summarize the jobs' runtimes (s) and processors.
	Runtime, Procs Summary
	// JobsPerWeek is the number of jobs over the weeks from the first to
	// the last submission; Weekly counts the jobs submitted in each week
	// since the first submission (Fig. 1).
	JobsPerWeek float64
	Weekly      []int
	// Batches are the statistics of consecutive batches of jobs in
	// submit order, the final partial batch dropped (Fig. 2).
	Batches []BatchStats
}

// Summary is the mean, median and CV of a sample.
type Summary struct {
	Mean, Median, CV float64
}

// BatchStats describe one batch of consecutive jobs.
type BatchStats struct {
	// Start is the submit time of the batch's first job.
	Start sim.Time
	// Runtime is the mean and CV of the batch's runtimes; Class the same
	// per len4 class (NaN for an empty class) and Share each class's
	// fraction of the batch's jobs.
	Runtime Summary
	Class   [4]Summary
	Share   [4]float64
}

// summarize returns the mean, median and CV of xs (NaNs when empty). It
// sorts xs.
func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{math.NaN(), math.NaN(), math.NaN()}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	slices.Sort(xs)
	n := len(xs)
	med := xs[n/2]
	if n%2 == 0 {
		med = (xs[n/2-1] + xs[n/2]) / 2
	}
	cv := math.NaN()
	if mean != 0 {
		cv = math.Sqrt(ss/float64(n)) / mean
	}
	return Summary{Mean: mean, Median: med, CV: cv}
}

// lenClass returns the len4 class (0-3) of a runtime.
func lenClass(rt float64) int {
	for i, b := range lenBounds {
		if rt <= float64(b) {
			return i
		}
	}
	return 3
}

// ComputeWorkloadStats computes the statistics of jobs given as submit
// times, runtimes and processors in submit order, with batches of batch
// jobs (default [DefaultBatch]).
func ComputeWorkloadStats(name string, submit, runtime, procs []float64, batch int) WorkloadStats {
	if batch <= 0 {
		batch = DefaultBatch
	}
	st := WorkloadStats{Name: name, Jobs: len(submit)}
	st.Runtime = summarize(slices.Clone(runtime))
	st.Procs = summarize(slices.Clone(procs))
	if len(submit) == 0 {
		return st
	}
	first, last := submit[0], submit[0]
	for _, s := range submit {
		first, last = min(first, s), max(last, s)
	}
	weeks := int((last-first)/Week) + 1
	st.Weekly = make([]int, weeks)
	for _, s := range submit {
		st.Weekly[int((s-first)/Week)]++
	}
	if span := last - first; span > 0 {
		st.JobsPerWeek = float64(len(submit)) / (span / Week)
	}
	for b := 0; (b+1)*batch <= len(submit); b++ {
		rts := runtime[b*batch : (b+1)*batch]
		bs := BatchStats{Start: sim.Time(submit[b*batch]), Runtime: summarize(slices.Clone(rts))}
		var per [4][]float64
		for _, rt := range rts {
			c := lenClass(rt)
			per[c] = append(per[c], rt)
		}
		for c := range per {
			bs.Class[c] = summarize(per[c])
			bs.Share[c] = float64(len(per[c])) / float64(batch)
		}
		st.Batches = append(st.Batches, bs)
	}
	return st
}

// JobsStats computes the workload statistics of every workload of the
// sweep from the job rows of one setting's first replication (all
// settings of a workload simulate the same jobs).
func (s *Sweep) JobsStats(batch int) ([]WorkloadStats, error) {
	first := map[Workload]int{}
	var order []Workload
	for i := range s.Tasks {
		t := &s.Tasks[i]
		w := WorkloadOf(&t.TaskCols)
		if _, ok := first[w]; ok || t.Error != "" {
			continue
		}
		first[w] = t.TaskIndex
		order = append(order, w)
	}
	byTask := map[int]WorkloadStats{}
	want := map[int]Workload{}
	for w, ti := range first {
		want[ti] = w
	}
	err := results.ReadJobSeries(filepath.Join(s.Dir, results.JobsFile), []string{"submit", "runtime", "procs"}, func(task int, cols [][]float64) error {
		if w, ok := want[task]; ok {
			byTask[task] = ComputeWorkloadStats(w.String(), cols[0], cols[1], cols[2], batch)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []WorkloadStats
	for _, w := range order {
		if st, ok := byTask[first[w]]; ok {
			out = append(out, st)
		}
	}
	return out, nil
}

// WriteStatsTable writes Table 1 as Markdown: one column per workload.
func WriteStatsTable(w io.Writer, stats []WorkloadStats) error {
	var b strings.Builder
	b.WriteString("| |")
	for _, st := range stats {
		b.WriteString(" " + st.Name + " |")
	}
	b.WriteString("\n|---|")
	for range stats {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	row := func(name string, f func(st *WorkloadStats) string) {
		b.WriteString("| " + name + " |")
		for i := range stats {
			b.WriteString(" " + f(&stats[i]) + " |")
		}
		b.WriteString("\n")
	}
	row("jobs", func(st *WorkloadStats) string { return fmt.Sprint(st.Jobs) })
	row("mean / median runtime (s)", func(st *WorkloadStats) string {
		return fmt.Sprintf("%.0f / %.0f", st.Runtime.Mean, st.Runtime.Median)
	})
	row("runtime CV", func(st *WorkloadStats) string { return fmt.Sprintf("%.2f", st.Runtime.CV) })
	row("mean / median processors", func(st *WorkloadStats) string {
		return fmt.Sprintf("%.1f / %.0f", st.Procs.Mean, st.Procs.Median)
	})
	row("processors CV", func(st *WorkloadStats) string { return fmt.Sprintf("%.2f", st.Procs.CV) })
	row("jobs per week", func(st *WorkloadStats) string { return fmt.Sprintf("%.0f", st.JobsPerWeek) })
	row("weekly jobs: CV over weeks", func(st *WorkloadStats) string {
		xs := make([]float64, len(st.Weekly))
		for i, n := range st.Weekly {
			xs[i] = float64(n)
		}
		return fmt.Sprintf("%.2f", summarize(xs).CV)
	})
	row("batch mean runtime: min..max (s)", func(st *WorkloadStats) string {
		lo, hi := batchRange(st, func(b *BatchStats) float64 { return b.Runtime.Mean })
		return fmt.Sprintf("%.0f..%.0f", lo, hi)
	})
	row("batch runtime CV: min..max", func(st *WorkloadStats) string {
		lo, hi := batchRange(st, func(b *BatchStats) float64 { return b.Runtime.CV })
		return fmt.Sprintf("%.2f..%.2f", lo, hi)
	})
	for c := range 4 {
		row(fmt.Sprintf("batch class-%d CV: mean", c+1), func(st *WorkloadStats) string {
			return fmt.Sprintf("%.2f", batchMean(st, func(b *BatchStats) float64 { return b.Class[c].CV }))
		})
	}
	for c := range 4 {
		row(fmt.Sprintf("batch class-%d share: min..max", c+1), func(st *WorkloadStats) string {
			lo, hi := batchRange(st, func(b *BatchStats) float64 { return b.Share[c] })
			return fmt.Sprintf("%.2f..%.2f", lo, hi)
		})
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func batchRange(st *WorkloadStats, f func(*BatchStats) float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range st.Batches {
		if v := f(&st.Batches[i]); !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return math.NaN(), math.NaN()
	}
	return lo, hi
}

func batchMean(st *WorkloadStats, f func(*BatchStats) float64) float64 {
	var sum float64
	n := 0
	for i := range st.Batches {
		if v := f(&st.Batches[i]); !math.IsNaN(v) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// WriteStatsFiles writes into dir table1.md, fig01-weekly.csv,
// fig02-batches.csv and the figures of Figs 1-2 in the given formats
// (default: all), and returns the paths.
func WriteStatsFiles(dir string, stats []WorkloadStats, formats []string) ([]string, error) {
	return writeStatsFiles(dir, stats, formats, "")
}

// WriteStatsFilesOf is [WriteStatsFiles] for only the files whose names
// start with prefix ("fig01", "fig02"; "" for all).
func WriteStatsFilesOf(dir string, stats []WorkloadStats, formats []string, prefix string) ([]string, error) {
	return writeStatsFiles(dir, stats, formats, prefix)
}

// writeStatsFiles is WriteStatsFiles for the files whose names start with
// only ("fig01", "fig02"; "" for all).
func writeStatsFiles(dir string, stats []WorkloadStats, formats []string, only string) ([]string, error) {
	if len(formats) == 0 {
		formats = Formats
	}
	if err := mkdir(dir); err != nil {
		return nil, err
	}
	sw := &statsWriter{dir: dir, only: only}
	for _, f := range []struct {
		name  string
		write func(io.Writer, []WorkloadStats) error
	}{
		{"table1.md", WriteStatsTable},
		{"fig01-weekly.csv", writeWeeklyCSV},
		{"fig02-batches.csv", writeBatchesCSV},
	} {
		if err := sw.write(f.name, func(w io.Writer) error { return f.write(w, stats) }); err != nil {
			return sw.files, err
		}
	}
	figs := []figure{weeklyFigure(stats)}
	for i := range stats {
		figs = append(figs, batchFigures(i, &stats[i])...)
	}
	err := sw.saveFigures(figs, formats)
	return sw.files, err
}

// statsWriter writes the files of [writeStatsFiles] whose names start
// with only into dir, and lists the paths written.
type statsWriter struct {
	dir   string
	only  string
	files []string
}

// write creates the file name with f, unless the name is not one to
// write.
func (sw *statsWriter) write(name string, f func(io.Writer) error) error {
	if !strings.HasPrefix(name, sw.only) {
		return nil
	}
	path := filepath.Join(sw.dir, name)
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	err = f(fh)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		sw.files = append(sw.files, path)
	}
	return err
}

// saveFigures saves each figure to write in every format.
func (sw *statsWriter) saveFigures(figs []figure, formats []string) error {
	for _, fg := range figs {
		if !strings.HasPrefix(fg.name, sw.only) {
			continue
		}
		for _, ext := range formats {
			path := filepath.Join(sw.dir, fg.name+"."+ext)
			if err := fg.chart.Save(path); err != nil {
				return err
			}
			sw.files = append(sw.files, path)
		}
	}
	return nil
}

// writeWeeklyCSV writes fig01-weekly.csv: the jobs submitted per week of
// each workload.
func writeWeeklyCSV(w io.Writer, stats []WorkloadStats) error {
	fmt.Fprintln(w, "workload,week,jobs")
	for _, st := range stats {
		for k, n := range st.Weekly {
			fmt.Fprintf(w, "%q,%d,%d\n", st.Name, k, n)
		}
	}
	return nil
}

// writeBatchesCSV writes fig02-batches.csv: per batch of each workload,
// the runtime's mean and CV, overall and per class, and the class shares.
func writeBatchesCSV(w io.Writer, stats []WorkloadStats) error {
	fmt.Fprintln(w, "workload,batch,start,runtime_mean,runtime_cv,class1_mean,class1_cv,class2_mean,class2_cv,class3_mean,class3_cv,class4_mean,class4_cv,share1,share2,share3,share4")
	for _, st := range stats {
		for k, b := range st.Batches {
			fmt.Fprintf(w, "%q,%d,%d,%g,%g", st.Name, k, b.Start, b.Runtime.Mean, b.Runtime.CV)
			for c := range 4 {
				fmt.Fprintf(w, ",%s,%s", csvNum(b.Class[c].Mean), csvNum(b.Class[c].CV))
			}
			for c := range 4 {
				fmt.Fprintf(w, ",%g", b.Share[c])
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}

// weeklyFigure is Fig. 1: the jobs submitted per week, one line per
// workload.
func weeklyFigure(stats []WorkloadStats) figure {
	weekly := &plot.Lines{Title: "Jobs per week (Lawson & Smirni Fig. 1)", XLabel: "week", YLabel: "jobs submitted"}
	for _, st := range stats {
		xy := plot.XY{Name: st.Name}
		for k, n := range st.Weekly {
			xy.X = append(xy.X, float64(k))
			xy.Y = append(xy.Y, float64(n))
		}
		weekly.Series = append(weekly.Series, xy)
	}
	return figure{name: "fig01-jobs-per-week", chart: weekly}
}

// batchSeriesNames are the lines of the Fig. 2 charts: all jobs, then
// the four classes.
var batchSeriesNames = []string{"all", "class 1", "class 2", "class 3", "class 4"}

// batchFigures are the three Fig. 2 charts of st, the i-th workload, over
// its batches: mean runtime, runtime CV and class shares (none without
// batches).
func batchFigures(i int, st *WorkloadStats) []figure {
	if len(st.Batches) == 0 {
		return nil
	}
	names := batchSeriesNames
	means, cvs := map[string]func(*BatchStats) float64{}, map[string]func(*BatchStats) float64{}
	for k, n := range names {
		means[n], cvs[n] = batchRuntime(k-1, false), batchRuntime(k-1, true)
	}
	shares := map[string]func(*BatchStats) float64{}
	for c := range 4 {
		shares[names[c+1]] = func(b *BatchStats) float64 { return b.Share[c] }
	}
	slugName := fmt.Sprintf("%d-%s", i, slug(st.Name))
	return []figure{
		{name: "fig02-runtime-mean-" + slugName, chart: withLog(batchLines(st, "mean runtime per batch (Fig. 2)", "mean runtime (s)", means, names))},
		{name: "fig02-runtime-cv-" + slugName, chart: batchLines(st, "runtime CV per batch (Fig. 2)", "CV of runtime", cvs, names)},
		{name: "fig02-class-share-" + slugName, chart: batchLines(st, "class shares per batch (Fig. 2)", "fraction of the batch's jobs", shares, names[1:])},
	}
}

// batchLines is a chart of st's batches against the submit time (days)
// of each batch's first job, with a line per name valued by series[name].
func batchLines(st *WorkloadStats, title, ylabel string, series map[string]func(*BatchStats) float64, names []string) *plot.Lines {
	l := &plot.Lines{Title: st.Name + "\n" + title, XLabel: "submit time of the batch's first job (days)", YLabel: ylabel}
	for _, n := range names {
		xy := plot.XY{Name: n}
		for k := range st.Batches {
			b := &st.Batches[k]
			xy.X = append(xy.X, float64(b.Start)/86400)
			xy.Y = append(xy.Y, series[n](b))
		}
		l.Series = append(l.Series, xy)
	}
	return l
}

// batchRuntime returns the value of a batch's runtime mean (or, with cv,
// CV) for class c, or over all its jobs for c < 0.
func batchRuntime(c int, cv bool) func(*BatchStats) float64 {
	return func(b *BatchStats) float64 {
		if c < 0 {
			if cv {
				return b.Runtime.CV
			}
			return b.Runtime.Mean
		}
		if cv {
			return b.Class[c].CV
		}
		return b.Class[c].Mean
	}
}

func withLog(l *plot.Lines) *plot.Lines { l.AutoLog = true; return l }

func csvNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprint(v)
}
