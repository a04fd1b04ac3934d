package metrics

import (
	"fmt"
	"io"
	"strings"
)

// Metric picks one figure of an [Aggregate]. [Metrics] is the one list of
// metrics that tables, figures and the CLI offer.
type Metric struct {
	// Name is the metric's key, e.g. "bsd_mean"; for the per-category
	// aggregates it is also the summary.parquet column.
	Name string
	// Title is the human name, with the unit in parentheses, e.g.
	// "mean turnaround time (s)".
	Title string
	// Value returns the metric of an aggregate; total is the job count of
	// the overall aggregate (for shares).
	Value func(a *Aggregate, total int) float64
	// Format is the fmt verb for a value in a table, e.g. "%.2f".
	Format string
	// Max is true for a maximum: values of several runs combine by their
	// maximum, not their mean.
	Max bool
	// Counts is true for a metric that counts jobs: it is 0, not
	// undefined, for an empty category.
	Counts bool
}

// Metrics lists the metrics tables and figures can show, in a fixed order.
var Metrics = []Metric{
	{Name: "bsd_mean", Title: "mean bounded slowdown", Format: "%.2f",
		Value: func(a *Aggregate, _ int) float64 { return a.BSD.Mean }},
	{Name: "bsd_max", Title: "max bounded slowdown", Format: "%.2f", Max: true,
		Value: func(a *Aggregate, _ int) float64 { return a.BSD.Max }},
	{Name: "turnaround_mean", Title: "mean turnaround time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Turnaround.Mean }},
	{Name: "turnaround_max", Title: "max turnaround time (s)", Format: "%.0f", Max: true,
		Value: func(a *Aggregate, _ int) float64 { return a.Turnaround.Max }},
	{Name: "wait_mean", Title: "mean wait time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Wait.Mean }},
	{Name: "wait_max", Title: "max wait time (s)", Format: "%.0f", Max: true,
		Value: func(a *Aggregate, _ int) float64 { return a.Wait.Max }},
	{Name: "slowdown_mean", Title: "mean slowdown", Format: "%.2f",
		Value: func(a *Aggregate, _ int) float64 { return a.Slowdown.Mean }},
	{Name: "slowdown_max", Title: "max slowdown", Format: "%.2f", Max: true,
		Value: func(a *Aggregate, _ int) float64 { return a.Slowdown.Max }},
	{Name: "bsd_p50", Title: "median bounded slowdown", Format: "%.2f",
		Value: func(a *Aggregate, _ int) float64 { return a.BSD.P50 }},
	{Name: "bsd_p90", Title: "90th percentile of bounded slowdown", Format: "%.2f",
		Value: func(a *Aggregate, _ int) float64 { return a.BSD.P90 }},
	{Name: "bsd_p99", Title: "99th percentile of bounded slowdown", Format: "%.2f",
		Value: func(a *Aggregate, _ int) float64 { return a.BSD.P99 }},
	{Name: "turnaround_p50", Title: "median turnaround time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Turnaround.P50 }},
	{Name: "turnaround_p90", Title: "90th percentile of turnaround time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Turnaround.P90 }},
	{Name: "turnaround_p99", Title: "99th percentile of turnaround time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Turnaround.P99 }},
	{Name: "wait_p50", Title: "median wait time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Wait.P50 }},
	{Name: "wait_p90", Title: "90th percentile of wait time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Wait.P90 }},
	{Name: "wait_p99", Title: "99th percentile of wait time (s)", Format: "%.0f",
		Value: func(a *Aggregate, _ int) float64 { return a.Wait.P99 }},
	{Name: "count", Title: "number of jobs", Format: "%.0f", Counts: true,
		Value: func(a *Aggregate, _ int) float64 { return float64(a.Count) }},
	{Name: "share", Title: "share of jobs (%)", Format: "%.1f", Counts: true,
		Value: func(a *Aggregate, total int) float64 {
			if total == 0 {
				return 0
			}
			return 100 * float64(a.Count) / float64(total)
		}},
}

// MetricNames returns the names of [Metrics] in order.
func MetricNames() []string {
	out := make([]string, len(Metrics))
	for i := range Metrics {
		out[i] = Metrics[i].Name
	}
	return out
}

// LookupMetric returns the metric called name or an error listing the valid names.
func LookupMetric(name string) (*Metric, error) {
	for i := range Metrics {
		if Metrics[i].Name == name {
			return &Metrics[i], nil
		}
	}
	return nil, fmt.Errorf("unknown metric %q (valid: %s)", name, strings.Join(MetricNames(), ", "))
}

// GridText lays out one text per category of scheme s like the papers'
// tables: a header row (the axes' titles, then the column names), then one
// row per row of the grid starting with its name. cell gives the text of
// grid cell (row, col). A scheme made per task ([Scheme.For] of the user
// scheme) is laid out one category per line instead.
func GridText(s *Scheme, cell func(row, col int) string) [][]string {
	corner := s.RowTitle
	if s.ColTitle != "" {
		if corner != "" {
			corner += ` \ `
		}
		corner += s.ColTitle
	}
	if s.list {
		// One category per line (the user scheme's).
		out := [][]string{{s.ColTitle, s.Rows[0]}}
		for j, c := range s.Cols {
			out = append(out, []string{c, cell(0, j)})
		}
		return out
	}
	out := [][]string{append([]string{corner}, s.Cols...)}
	for i, r := range s.Rows {
		line := []string{r}
		for j := range s.Cols {
			line = append(line, cell(i, j))
		}
		out = append(out, line)
	}
	return out
}

// WriteTable writes rows as a Markdown table: the first row is the
// header. The first column is left-aligned; another column is
// right-aligned when one of its cells below the header starts like a
// number, or when it holds no text but "-" (an empty value). "|" in a cell
// is escaped and line breaks become spaces.
func WriteTable(w io.Writer, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	var b strings.Builder
	line := func(cells []string) {
		b.WriteByte('|')
		for _, c := range cells {
			b.WriteByte(' ')
			b.WriteString(EscapeCell(c))
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	line(rows[0])
	b.WriteString("|---|")
	for j := 1; j < len(rows[0]); j++ {
		numeric, text, dash := false, false, false
		for _, r := range rows[1:] {
			switch {
			case j >= len(r) || r[j] == "":
			case r[j] == "-":
				dash = true
			case looksNumeric(r[j]):
				numeric = true
			default:
				text = true
			}
		}
		right := numeric || dash && !text
		if right {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteByte('\n')
	for _, r := range rows[1:] {
		line(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// looksNumeric reports whether s starts like a number.
func looksNumeric(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if c == '-' || c == '+' || c == '.' {
		if len(s) == 1 {
			return false
		}
		c = s[1]
	}
	return c >= '0' && c <= '9' || c == '.'
}

// EscapeCell makes text safe inside a Markdown table cell.
func EscapeCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteGrid writes aggregates of scheme s (as returned by [Summarize]) as
// a Markdown table laid out by [GridText]: one row per runtime class, one
// column per width class. Empty categories print as "-" (as 0 for a
// metric that counts jobs).
func WriteGrid(w io.Writer, s *Scheme, aggs []Aggregate, m *Metric) error {
	total := 0
	for i := range aggs {
		if aggs[i].Category == Overall {
			total = aggs[i].Count
		}
	}
	return WriteTable(w, GridText(s, func(i, j int) string {
		a := &aggs[i*len(s.Cols)+j]
		if a.Count == 0 && !m.Counts {
			return "-"
		}
		return fmt.Sprintf(m.Format, m.Value(a, total))
	}))
}
