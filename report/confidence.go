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
// replications.
const Confidence = 0.95

// Interval is the mean of N values with the half-width of its
// [Confidence] interval, Student's t with N - 1 degrees of freedom:
// Half = t(0.975, N-1) s / sqrt(N), s the sample standard deviation.
// Half is NaN for fewer than 2 values.
type Interval struct {
	N          int
	Mean, Half float64
}

// Excludes0 reports whether the interval lies wholly above or below 0.
func (iv Interval) Excludes0() bool {
	return !math.IsNaN(iv.Half) && (iv.Mean-iv.Half > 0 || iv.Mean+iv.Half < 0)
}

// MeanInterval returns the mean of vals (NaNs left out) and its
// [Confidence] interval's half-width.
func MeanInterval(vals []float64) Interval {
	var iv Interval
	var sum float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			iv.N++
			sum += v
		}
	}
	iv.Mean, iv.Half = math.NaN(), math.NaN()
	if iv.N == 0 {
		return iv
	}
	iv.Mean = sum / float64(iv.N)
	if iv.N < 2 {
		return iv
	}
	var ss float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			ss += (v - iv.Mean) * (v - iv.Mean)
		}
	}
	sd := math.Sqrt(ss / float64(iv.N-1))
	iv.Half = TQuantile(1-(1-Confidence)/2, iv.N-1) * sd / math.Sqrt(float64(iv.N))
	return iv
}

// TQuantile returns the p-quantile (0 < p < 1) of Student's t
// distribution with df >= 1 degrees of freedom, by bisection on its CDF
// (the regularized incomplete beta function) to 1e-12.
func TQuantile(p float64, df int) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -TQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < p {
		hi *= 2
	}
	for hi-lo > 1e-12*math.Max(1, hi) {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is Student's t CDF at t >= 0: 1 - I_x(df/2, 1/2) / 2 with x =
// df / (df + t^2).
func tCDF(t float64, df int) float64 {
	v := float64(df)
	return 1 - 0.5*betaInc(v/2, 0.5, v/(v+t*t))
}

// betaInc is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Lentz's method).
func betaInc(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - betaInc(b, a, 1-x)
	}
	const tiny = 1e-300
	f, c, d := 1.0, 1.0, 0.0
	for i := 0; i <= 400; i++ {
		m := float64(i / 2)
		var num float64
		switch {
		case i == 0:
			num = 1
		case i%2 == 0:
			num = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		default:
			num = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		}
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		d = 1 / d
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		cd := c * d
		f *= cd
		if math.Abs(1-cd) < 1e-15 {
			break
		}
	}
	return front * (f - 1) / a
}

// repValues holds, per (workload, setting) of a collation and per
// category (grid order, then the overall one), the metric's value in
// each replication, by replication index (NaN for an empty category).
type repValues map[[2]int]map[int][]float64

// replications gathers the per-replication values of c's metric from the
// summary rows that pass where; the utilization of each replication is
// under category index -1.
func (s *Sweep) replications(c *results.Collation, where []results.Filter) repValues {
	out := repValues{}
	ncat := len(c.Scheme.Rows)*len(c.Scheme.Cols) + 1
	pairOf := func(tc *results.TaskCols) ([2]int, bool) {
		wi := slices.Index(c.Workloads, results.WorkloadOf(tc))
		st := results.SettingOf(tc)
		si := slices.IndexFunc(c.Settings, func(x results.Setting) bool {
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
// over the replications both have (paired: replication i of every setting
// ran on the same jobs).
func PairedDifference(a, b []float64) Interval {
	var d []float64
	for i := range min(len(a), len(b)) {
		if !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			d = append(d, a[i]-b[i])
		}
	}
	return MeanInterval(d)
}

// WriteConfidence writes, per workload, the metric of opts per setting and
// category as the mean across replications with its 95% confidence
// half-width (Student's t); with opts.Baseline, each other setting's
// paired difference from the baseline (setting - baseline, replication by
// replication) with its interval and whether the interval excludes 0.
func (s *Sweep) WriteConfidence(w io.Writer, opts results.TableOptions) error {
	metric, scheme := s.withDefaults(opts.Metric, opts.Scheme)
	c, err := results.Collate(s.Summary, s.Tasks, results.CollateOptions{Metric: metric, Scheme: scheme, Where: opts.Where})
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
