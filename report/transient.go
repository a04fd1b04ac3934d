package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/results"
)

// KindTransient draws, per workload, Lawson and Smirni's slowdown ratio R
// of every setting against the baseline per batch of consecutive jobs in
// submit order, against the submit time of the batch's first job (their
// Fig. 6, footnotes 3 and 5). It reads jobs.parquet and needs
// [PlotOptions.Baseline]; the metric is slowdown_mean (default) or
// bsd_mean.
const KindTransient = "transient"

// DefaultBatch is the batch size of [KindTransient] figures.
const DefaultBatch = 1000

// transientColumns maps the metrics a transient figure can use to their
// jobs.parquet column.
var transientColumns = map[string]string{"slowdown_mean": "slowdown", "bsd_mean": "bsd"}

// TransientSeries is the per-batch R of one setting on one workload.
type TransientSeries struct {
	Workload Workload
	Setting  string
	// Start is the submit time (s) of each batch's first job and R the
	// batch's ratio; Batches without a value are left out.
	Start []float64
	R     []float64
}

// Transient computes, for every workload and every setting but the
// baseline, R = (s1 - sm) / min(s1, sm) per batch of batch consecutive
// jobs in submit order (the final partial batch dropped), s the batch's
// mean of the metric (slowdown_mean or bsd_mean), s1 the baseline's.
// Replications are averaged per batch.
func (s *Sweep) Transient(metric, baseline string, batch int, where []Filter) ([]TransientSeries, error) {
	if metric == "" {
		metric = "slowdown_mean"
	}
	col, ok := transientColumns[metric]
	if !ok {
		return nil, fmt.Errorf("transient figures use slowdown_mean or bsd_mean, not %q", metric)
	}
	if baseline == "" {
		return nil, fmt.Errorf("transient figures need a baseline setting (--baseline)")
	}
	if batch <= 0 {
		batch = DefaultBatch
	}
	c, err := Collate(s.Summary, s.Tasks, CollateOptions{Metric: metric, Where: where})
	if err != nil {
		return nil, err
	}
	base, err := c.FindSetting(baseline)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	sums, err := s.batchMeans(col, batch, s.taskPairs(c, where))
	if err != nil {
		return nil, err
	}
	out := transientRatios(c, base, sums)
	if len(out) == 0 {
		return nil, fmt.Errorf("no transient series: no workload has both the baseline %q and another setting", baseline)
	}
	return out, nil
}

// pairKey is a (workload, setting) pair by its indices in a collation.
type pairKey [2]int

// taskPairs maps the index of each task of c that succeeded and matches
// where to its (workload, setting) pair in c.
func (s *Sweep) taskPairs(c *Collation, where []Filter) map[int]pairKey {
	of := map[int]pairKey{}
	for i := range s.Tasks {
		tc := &s.Tasks[i].TaskCols
		if s.Tasks[i].Error != "" || !matchFilters(where, tc) {
			continue
		}
		wi := slices.Index(c.Workloads, WorkloadOf(tc))
		st := SettingOf(tc)
		si := slices.IndexFunc(c.Settings, func(x Setting) bool {
			return x.Policy == st.Policy && x.Label == st.Label && x.Params == st.Params
		})
		if wi >= 0 && si >= 0 {
			of[tc.TaskIndex] = pairKey{wi, si}
		}
	}
	return of
}

// batchSums accumulates the batch means of one (workload, setting) over
// its replications: per batch, the sum of the replications' means, the
// submit time of its first job and the number of replications.
type batchSums struct {
	sum, start []float64
	n          []int
}

// add adds one replication: submit times and the metric's values of its
// jobs in submit order, cut into batches of batch jobs (the final partial
// batch and batches beyond the first replication's dropped).
func (a *batchSums) add(submit, values []float64, batch int) {
	nb := len(submit) / batch
	for b := 0; b < nb && b < len(a.sum); b++ {
		m := 0.0
		for _, v := range values[b*batch : (b+1)*batch] {
			m += v
		}
		a.sum[b] += m / float64(batch)
		a.start[b] = submit[b*batch]
		a.n[b]++
	}
}

// mean is the mean over replications of batch k.
func (a *batchSums) mean(k int) float64 { return a.sum[k] / float64(a.n[k]) }

// batchMeans reads the submit times and column col of the jobs of the
// tasks in of from jobs.parquet and sums the batch means per pair.
func (s *Sweep) batchMeans(col string, batch int, of map[int]pairKey) (map[pairKey]*batchSums, error) {
	sums := map[pairKey]*batchSums{}
	err := results.ReadJobSeries(filepath.Join(s.Dir, results.JobsFile), []string{"submit", col}, func(task int, cols [][]float64) error {
		k, ok := of[task]
		if !ok {
			return nil
		}
		a := sums[k]
		if a == nil {
			nb := len(cols[0]) / batch
			a = &batchSums{sum: make([]float64, nb), start: make([]float64, nb), n: make([]int, nb)}
			sums[k] = a
		}
		a.add(cols[0], cols[1], batch)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// transientRatios makes the series of every workload with baseline
// results and every other setting with results on it, in collation
// order.
func transientRatios(c *Collation, base int, sums map[pairKey]*batchSums) []TransientSeries {
	var out []TransientSeries
	for wi, w := range c.Workloads {
		b := sums[pairKey{wi, base}]
		if b == nil {
			continue
		}
		for si, st := range c.Settings {
			a := sums[pairKey{wi, si}]
			if si == base || a == nil {
				continue
			}
			out = append(out, ratioSeries(w, st.Name, a, b))
		}
	}
	return out
}

// ratioSeries is R of setting a against baseline b per batch that both
// have (and whose R is a number), at the baseline batch's start.
func ratioSeries(w Workload, setting string, a, b *batchSums) TransientSeries {
	ts := TransientSeries{Workload: w, Setting: setting}
	for k := 0; k < len(a.sum) && k < len(b.sum); k++ {
		if a.n[k] == 0 || b.n[k] == 0 {
			continue
		}
		r := SlowdownRatio(b.mean(k), a.mean(k))
		if math.IsNaN(r) {
			continue
		}
		ts.Start = append(ts.Start, b.start[k])
		ts.R = append(ts.R, r)
	}
	return ts
}

// matchFilters reports whether tc passes every filter of fs.
func matchFilters(fs []Filter, tc *results.TaskCols) bool {
	for _, f := range fs {
		if !f.Match(tc) {
			return false
		}
	}
	return true
}

// transient makes one line chart per workload: R per batch against the
// batch's start, in days.
func (s *Sweep) transient(opts PlotOptions) ([]figure, error) {
	metric := opts.Metric
	if metric == "" {
		metric = "slowdown_mean"
	}
	batch := opts.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	series, err := s.Transient(metric, opts.Baseline, batch, opts.Where)
	if err != nil {
		return nil, err
	}
	var out []figure
	byWorkload := map[Workload]*plot.Lines{}
	var order []Workload
	for _, ts := range series {
		l := byWorkload[ts.Workload]
		if l == nil {
			what := fmt.Sprintf("R of %s per batch of %d jobs against %s", metric, batch, opts.Baseline)
			if len(opts.Where) > 0 {
				what += ", where " + whereText(opts.Where)
			}
			l = &plot.Lines{Title: ts.Workload.String() + "\n" + what,
				XLabel: "submit time of the batch's first job (days)", YLabel: "R = (s1 - sm) / min(s1, sm)"}
			byWorkload[ts.Workload] = l
			order = append(order, ts.Workload)
		}
		xy := plot.XY{Name: ts.Setting}
		for k := range ts.Start {
			xy.X = append(xy.X, ts.Start[k]/86400)
			xy.Y = append(xy.Y, ts.R[k])
		}
		l.Series = append(l.Series, xy)
	}
	for _, w := range order {
		name := fmt.Sprintf("%s-%s-b%d-%s", KindTransient, metric, batch, slug(workloadSlug(w)))
		out = append(out, figure{name: name, chart: byWorkload[w]})
	}
	return out, nil
}

// WriteTransientSummary writes, per series, the number of batches, how
// many have R > 0 and R < 0, the mean R of each group and the largest
// gain and loss, as a Markdown table.
func WriteTransientSummary(w io.Writer, series []TransientSeries) error {
	var b strings.Builder
	b.WriteString("| workload | setting | batches | R > 0 | R < 0 | mean R > 0 | mean R < 0 | max R | min R |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, ts := range series {
		var pos, neg int
		var sp, sn float64
		hi, lo := math.Inf(-1), math.Inf(1)
		for _, r := range ts.R {
			switch {
			case r > 0:
				pos++
				sp += r
			case r < 0:
				neg++
				sn += r
			}
			hi, lo = max(hi, r), min(lo, r)
		}
		mean := func(s float64, n int) string {
			if n == 0 {
				return "-"
			}
			return fmt.Sprintf("%+.3f", s/float64(n))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s | %s | %+.3f | %+.3f |\n",
			ts.Workload.String(), ts.Setting, len(ts.R), pos, neg, mean(sp, pos), mean(sn, neg), hi, lo)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
