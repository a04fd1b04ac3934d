package metrics

import (
	"fmt"
	"io"
	"strings"
)

// Metric picks one figure of an [Aggregate].
type Metric struct {
	Name  string // e.g. "bsd_mean"
	Title string // e.g. "mean bounded slowdown"
	Value func(a *Aggregate, total int) float64
	// Format is the fmt verb for a value, e.g. "%.2f".
	Format string
}

// Metrics lists the metrics tables can show, in a fixed order.
var Metrics = []Metric{
	{"bsd_mean", "mean bounded slowdown", func(a *Aggregate, _ int) float64 { return a.BSD.Mean }, "%.2f"},
	{"bsd_max", "max bounded slowdown", func(a *Aggregate, _ int) float64 { return a.BSD.Max }, "%.2f"},
	{"turnaround_mean", "mean turnaround (s)", func(a *Aggregate, _ int) float64 { return a.Turnaround.Mean }, "%.0f"},
	{"turnaround_max", "max turnaround (s)", func(a *Aggregate, _ int) float64 { return a.Turnaround.Max }, "%.0f"},
	{"wait_mean", "mean wait (s)", func(a *Aggregate, _ int) float64 { return a.Wait.Mean }, "%.0f"},
	{"wait_max", "max wait (s)", func(a *Aggregate, _ int) float64 { return a.Wait.Max }, "%.0f"},
	{"slowdown_mean", "mean slowdown", func(a *Aggregate, _ int) float64 { return a.Slowdown.Mean }, "%.2f"},
	{"count", "jobs", func(a *Aggregate, _ int) float64 { return float64(a.Count) }, "%.0f"},
	{"share", "share of jobs (%)", func(a *Aggregate, total int) float64 {
		if total == 0 {
			return 0
		}
		return 100 * float64(a.Count) / float64(total)
	}, "%.0f"},
}

// LookupMetric returns the metric called name or an error listing the valid names.
func LookupMetric(name string) (*Metric, error) {
	var names []string
	for i := range Metrics {
		if Metrics[i].Name == name {
			return &Metrics[i], nil
		}
		names = append(names, Metrics[i].Name)
	}
	return nil, fmt.Errorf("unknown metric %q (valid: %s)", name, strings.Join(names, ", "))
}

// WriteGrid writes aggregates of scheme s (as returned by [Summarize]) as
// a Markdown table laid out like the papers' tables: one row per runtime
// class, one column per width class. Empty categories print as "-".
func WriteGrid(w io.Writer, s *Scheme, aggs []Aggregate, m *Metric) error {
	total := 0
	for i := range aggs {
		if aggs[i].Category == Overall {
			total = aggs[i].Count
		}
	}
	var b strings.Builder
	corner := s.RowTitle
	if s.ColTitle != "" {
		corner += " \\ " + s.ColTitle
	}
	b.WriteString("| " + corner + " |")
	for _, c := range s.Cols {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", len(s.Cols)))
	b.WriteByte('\n')
	for i, r := range s.Rows {
		b.WriteString("| " + r + " |")
		for j := range s.Cols {
			a := &aggs[i*len(s.Cols)+j]
			if a.Count == 0 {
				b.WriteString(" - |")
				continue
			}
			b.WriteString(" " + fmt.Sprintf(m.Format, m.Value(a, total)) + " |")
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
