package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Confidence is the confidence level of the intervals across
// replications ([metrics.Confidence]).
const Confidence = metrics.Confidence

// Interval is a mean with its confidence half-width ([metrics.Interval]).
type Interval = metrics.Interval

// MeanInterval returns the mean of vals (NaNs left out) and its
// [Confidence] interval's half-width ([metrics.MeanInterval]).
func MeanInterval(vals []float64) Interval { return metrics.MeanInterval(vals) }

// TQuantile returns the p-quantile of Student's t distribution with df
// degrees of freedom ([metrics.TQuantile]).
func TQuantile(p float64, df int) float64 { return metrics.TQuantile(p, df) }

// repValues holds, per (workload, setting) of a collation and per
// category (grid order, then the overall one), the metric's value in
// each replication, by replication index (NaN for an empty category).
type repValues map[[2]int]map[int][]float64

// replications gathers the per-replication values of c's metric from the
// summary rows that pass where; the utilization of each replication is
// under category index -1.
func (s *Sweep) replications(c *Collation, where []Filter) repValues {
	out := repValues{}
	ncat := len(c.Scheme.Rows)*len(c.Scheme.Cols) + 1
	pairOf := func(tc *results.TaskCols) ([2]int, bool) {
		wi := slices.Index(c.Workloads, WorkloadOf(tc))
		st := SettingOf(tc)
		si := slices.IndexFunc(c.Settings, func(x Setting) bool {
			return x.Policy == st.Policy && x.Label == st.Label && x.Params == st.Params
		})
		return [2]int{wi, si}, wi >= 0 && si >= 0 && matchFilters(where, tc)
	}
	// The overall count of each task, for metrics that are shares.
	total := map[string]int{}
	for i := range s.Summary {
		if r := &s.Summary[i]; r.Scheme == c.Scheme.Name && r.Row < 0 {
			total[r.TaskID] = r.Aggregate.Count
		}
	}
	for i := range s.Summary {
		r := &s.Summary[i]
		if r.Scheme != c.Scheme.Name {
			continue
		}
		pk, ok := pairOf(&r.TaskCols)
		if !ok {
			continue
		}
		if out[pk] == nil {
			out[pk] = map[int][]float64{}
		}
		k := ncat - 1
		if r.Row >= 0 {
			k = r.Row*len(c.Scheme.Cols) + r.Col
		}
		v := c.Metric.Value(&r.Aggregate, total[r.TaskID])
		if r.Aggregate.Count == 0 && !c.Metric.Counts {
			v = math.NaN()
		}
		out[pk][k] = setAt(out[pk][k], r.Replication, v)
	}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if pk, ok := pairOf(&t.TaskCols); ok && t.Error == "" {
			if out[pk] == nil {
				out[pk] = map[int][]float64{}
			}
			out[pk][-1] = setAt(out[pk][-1], t.Replication, t.Stats.Utilization)
		}
	}
	return out
}

// setAt sets vals[i] = v, growing vals with NaNs.
func setAt(vals []float64, i int, v float64) []float64 {
	for len(vals) <= i {
		vals = append(vals, math.NaN())
	}
	vals[i] = v
	return vals
}

// PairedDifference returns the interval of the differences a[i] - b[i]
// over the replications both have ([metrics.PairedDifference]).
func PairedDifference(a, b []float64) Interval { return metrics.PairedDifference(a, b) }

// WriteConfidence writes, per workload, the metric of opts per setting and
// category as the mean across replications with its 95% confidence
// half-width (Student's t); with opts.Baseline, each other setting's
// paired difference from the baseline (setting - baseline, replication by
// replication) with its interval and whether the interval excludes 0.
func (s *Sweep) WriteConfidence(w io.Writer, opts TableOptions) error {
	metric, scheme := s.withDefaults(opts.Metric, opts.Scheme)
	c, err := Collate(s.Summary, s.Tasks, CollateOptions{Metric: metric, Scheme: scheme, Where: opts.Where})
	if err != nil {
		return err
	}
	if c.Metric.Max {
		return fmt.Errorf("metric %s is a maximum: replications combine by their maximum, not a mean with an interval", c.Metric.Name)
	}
	base := -1
	if opts.Baseline != "" {
		if base, err = c.FindSetting(opts.Baseline); err != nil {
			return fmt.Errorf("--baseline: %w", err)
		}
	}
	reps := s.replications(c, opts.Where)
	ncat := len(c.Scheme.Rows)*len(c.Scheme.Cols) + 1
	cats := make([]string, ncat)
	for k := range ncat - 1 {
		cats[k] = c.Scheme.Label(k/len(c.Scheme.Cols), k%len(c.Scheme.Cols))
	}
	cats[ncat-1] = metrics.Overall
	var b strings.Builder
	fmt.Fprintf(&b, "# %s by %s category: mean across replications ± 95%% confidence half-width (Student's t)\n", c.Metric.Title, c.Scheme.Name)
	if base >= 0 {
		fmt.Fprintf(&b, "\nPaired differences from %s (setting - baseline, replication by replication): mean ± 95%% half-width; * where the interval excludes 0.\n", c.Settings[base].Name)
	}
	for wi, wl := range c.Workloads {
		fmt.Fprintf(&b, "\n## %s\n\n| category |", wl)
		var cols []int
		for si, st := range c.Settings {
			if reps[[2]int{wi, si}] != nil && si != base {
				cols = append(cols, si)
				fmt.Fprintf(&b, " %s |", st.Name)
			}
		}
		b.WriteString(" n |\n|---|")
		for range cols {
			b.WriteString("---:|")
		}
		b.WriteString("---:|\n")
		for k, cat := range cats {
			fmt.Fprintf(&b, "| %s |", cat)
			n := 0
			for _, si := range cols {
				vals := reps[[2]int{wi, si}][k]
				var iv Interval
				if base >= 0 {
					iv = PairedDifference(vals, reps[[2]int{wi, base}][k])
				} else {
					iv = MeanInterval(vals)
				}
				n = max(n, iv.N)
				fmt.Fprintf(&b, " %s |", intervalText(iv, c.Metric.Format, base >= 0))
			}
			fmt.Fprintf(&b, " %d |\n", n)
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// intervalText writes an interval as "mean ± half" in format (a "*"
// after a difference whose interval excludes 0); "-" for no value.
func intervalText(iv Interval, format string, diff bool) string {
	switch {
	case iv.N == 0:
		return "-"
	case math.IsNaN(iv.Half):
		return fmt.Sprintf(format, iv.Mean) + " (n=1)"
	}
	t := fmt.Sprintf(format+" ± "+format, iv.Mean, iv.Half)
	if diff && iv.Excludes0() {
		t += " *"
	}
	return t
}
