package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// MetricValue returns the named metric of an aggregate; name is one of
// sweep.TableMetrics. ok is false for an unknown name.
func MetricValue(a metrics.Aggregate, name string) (v float64, ok bool) {
	switch name {
	case "bsd_mean":
		return a.BSD.Mean, true
	case "bsd_max":
		return a.BSD.Max, true
	case "turnaround_mean":
		return a.Turnaround.Mean, true
	case "turnaround_max":
		return a.Turnaround.Max, true
	case "wait_mean":
		return a.Wait.Mean, true
	case "wait_max":
		return a.Wait.Max, true
	case "slowdown_mean":
		return a.Slowdown.Mean, true
	case "slowdown_max":
		return a.Slowdown.Max, true
	case "count":
		return float64(a.Count), true
	}
	return 0, false
}

// metricTitles are the human names of the table metrics.
var metricTitles = map[string]string{
	"bsd_mean":        "mean bounded slowdown",
	"bsd_max":         "max bounded slowdown",
	"turnaround_mean": "mean turnaround time (s)",
	"turnaround_max":  "max turnaround time (s)",
	"wait_mean":       "mean wait time (s)",
	"wait_max":        "max wait time (s)",
	"slowdown_mean":   "mean slowdown",
	"slowdown_max":    "max slowdown",
	"count":           "number of jobs",
}

// tableScheme returns the scheme and metric the tables use.
func (o *outputs) tableScheme() (*metrics.Scheme, string, error) {
	t := o.spec.Outputs.Tables
	metric := t.Metric
	if metric == "" {
		metric = sweep.DefaultTableMetric
	}
	if _, ok := metricTitles[metric]; !ok {
		return nil, "", fmt.Errorf("unknown table metric %q", metric)
	}
	name := t.Scheme
	if name == "" {
		name = sweep.DefaultScheme
		if len(o.spec.Categories) > 0 {
			name = o.spec.Categories[0]
		}
	}
	s, err := metrics.LookupScheme(name)
	return s, metric, err
}

// fmtValue formats a metric value for a Markdown table.
func fmtValue(metric string, v float64) string {
	if metric == "count" {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	if v >= 1e5 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// mdEscape makes text safe inside a Markdown table cell.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// mixKey identifies what a task's job mix depends on: the jobs, not the
// policy, and not the load factor when arrivals are only rescaled.
func mixKey(t *sweep.Task) string {
	w := t.Workload
	k := fmt.Sprintf("%s/%d/%d/%d/%s", w.TraceSHA256, w.Procs, w.Skip, w.Count, w.Estimates)
	if w.LoadMode == "duplicate" && w.Load != 1 {
		k += fmt.Sprintf("/%v/%d", w.Load, t.Seed)
	}
	return k
}

// mixTitle describes the workload of a job mix table.
func mixTitle(t *sweep.Task) string {
	w := t.Workload
	s := fmt.Sprintf("%s, jobs %d+%d, estimates %s", w.Trace, w.Skip, w.Count, w.Estimates)
	if w.Procs > 0 {
		s += fmt.Sprintf(", %d processors", w.Procs)
	}
	if w.LoadMode == "duplicate" && w.Load != 1 {
		s += fmt.Sprintf(", load %v duplicate, seed %d", w.Load, t.Seed)
	}
	return s
}

// writeTablesMD writes the tables as Markdown: an overall table with one
// line per task, then per workload the share of jobs per category, then
// per task the grid of the chosen metric per category.
func (o *outputs) writeTablesMD(w io.Writer) error {
	s, metric, err := o.tableScheme()
	if err != nil {
		return err
	}
	title := metricTitles[metric]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s by %s category\n\n", o.spec.Name, title, s.Name)
	if o.spec.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", mdEscape(o.spec.Description))
	}
	fmt.Fprintf(&b, "Scheme %s: %s.\n\n", s.Name, s.Doc)

	b.WriteString("## Overall\n\n")
	fmt.Fprintf(&b, "| task | trace | jobs | estimates | load | policy | params | rep | %s | utilization | makespan (s) |\n", metric)
	b.WriteString("|---:|---|---:|---|---:|---|---|---:|---:|---:|---:|\n")
	for i := range o.tasks {
		t, r := &o.tasks[i], o.res[i]
		load := strconv.FormatFloat(t.Workload.Load, 'g', -1, 64)
		if t.Workload.LoadMode != sweep.DefaultLoadMode {
			load += " " + t.Workload.LoadMode
		}
		fmt.Fprintf(&b, "| %d | %s | %d | %s | %s | %s | %s | %d |", t.Index, mdEscape(t.Workload.Trace), r.Stats.Jobs,
			t.Workload.Estimates, load, mdEscape(t.Name()), mdEscape(t.ParamString()), t.Replication)
		if r.Err != "" {
			fmt.Fprintf(&b, " failed: %s | | |\n", mdEscape(describeErr(r.Err)))
			continue
		}
		aggs := r.Summary(s)
		v, _ := MetricValue(aggs[len(aggs)-1], metric)
		fmt.Fprintf(&b, " %s | %.4f | %d |\n", fmtValue(metric, v), r.Stats.Utilization, r.Stats.Makespan)
	}

	b.WriteString("\n## Job mix\n\nShare of jobs per category (percent) of each distinct job set (scaling arrivals does not change it).\n")
	seen := map[string]bool{}
	for i := range o.tasks {
		t, r := &o.tasks[i], o.res[i]
		k := mixKey(t)
		if r.Err != "" || len(r.Jobs) == 0 || seen[k] {
			continue
		}
		seen[k] = true
		fmt.Fprintf(&b, "\n### %s\n\n", mdEscape(mixTitle(t)))
		aggs := r.Summary(s)
		total := float64(aggs[len(aggs)-1].Count)
		writeGrid(&b, s, aggs, func(a metrics.Aggregate) string {
			return strconv.FormatFloat(100*float64(a.Count)/total, 'f', 1, 64)
		})
	}

	fmt.Fprintf(&b, "\n## Per task\n\n%s per category; \"-\" marks an empty category.\n", capitalize(title))
	for i := range o.tasks {
		t, r := &o.tasks[i], o.res[i]
		fmt.Fprintf(&b, "\n### Task %d: %s\n\n", t.Index, mdEscape(t.Describe()))
		if r.Err != "" {
			fmt.Fprintf(&b, "Failed: %s\n", mdEscape(describeErr(r.Err)))
			continue
		}
		aggs := r.Summary(s)
		writeGrid(&b, s, aggs, func(a metrics.Aggregate) string {
			if a.Count == 0 {
				return "-"
			}
			v, _ := MetricValue(a, metric)
			return fmtValue(metric, v)
		})
		all := aggs[len(aggs)-1]
		v, _ := MetricValue(all, metric)
		fmt.Fprintf(&b, "\nOverall: %s over %d jobs.\n", fmtValue(metric, v), all.Count)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeGrid writes a scheme's grid of cell texts as a Markdown table.
func writeGrid(b *strings.Builder, s *metrics.Scheme, aggs []metrics.Aggregate, cell func(metrics.Aggregate) string) {
	corner := s.RowTitle
	if s.ColTitle != "" {
		if corner != "" {
			corner += ` \ `
		}
		corner += s.ColTitle
	}
	fmt.Fprintf(b, "| %s |", mdEscape(corner))
	for _, c := range s.Cols {
		fmt.Fprintf(b, " %s |", mdEscape(c))
	}
	b.WriteString("\n|---|")
	for range s.Cols {
		b.WriteString("---:|")
	}
	b.WriteByte('\n')
	for i, row := range s.Rows {
		fmt.Fprintf(b, "| %s |", mdEscape(row))
		for j := range s.Cols {
			fmt.Fprintf(b, " %s |", cell(aggs[i*len(s.Cols)+j]))
		}
		b.WriteByte('\n')
	}
}

// writeTablesCSV writes the tables in long form: one line per (task,
// category of the table scheme, including the overall row) with the job
// count, its share and the chosen metric.
func (o *outputs) writeTablesCSV(w io.Writer) error {
	s, metric, err := o.tableScheme()
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	head := []string{"task_index", "task_id", "trace", "estimates", "load", "load_mode", "skip", "count", "policy", "label", "params", "replication",
		"scheme", "category", "row", "col", "row_label", "col_label", "jobs", "share", metric, "error"}
	if err := cw.Write(head); err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := range o.tasks {
		t, r := &o.tasks[i], o.res[i]
		wl := t.Workload
		lead := []string{strconv.Itoa(t.Index), t.ID, wl.Trace, wl.Estimates, g(wl.Load), wl.LoadMode, strconv.Itoa(wl.Skip), strconv.Itoa(wl.Count),
			t.Policy, t.Name(), t.ParamString(), strconv.Itoa(t.Replication), s.Name}
		if r.Err != "" {
			if err := cw.Write(append(lead, "", "", "", "", "", "", "", "", r.Err)); err != nil {
				return err
			}
			continue
		}
		aggs := r.Summary(s)
		total := float64(aggs[len(aggs)-1].Count)
		for _, a := range aggs {
			rowLabel, colLabel := "", ""
			if a.Row >= 0 {
				rowLabel, colLabel = s.Rows[a.Row], s.Cols[a.Col]
			}
			v, _ := MetricValue(a, metric)
			val := g(v)
			if a.Count == 0 {
				val = ""
			}
			share := 0.0
			if total > 0 {
				share = float64(a.Count) / total
			}
			rec := append(append([]string(nil), lead...), a.Category, strconv.Itoa(a.Row), strconv.Itoa(a.Col), rowLabel, colLabel,
				strconv.Itoa(a.Count), g(share), val, "")
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
