// Package report makes the tables and figures of a sweep from its output
// directory (the folder with jobs.parquet, summary.parquet and
// tasks.parquet): the per-category tables laid out like the papers'
// tables ([Sweep.Tables], [Sweep.WriteTables]) and PNG or SVG figures ([Plots]).
//
// The tables are laid out here, not in package results, which defines
// the formats only. [Collate] groups summary rows by [Workload] (the
// jobs: trace, machine, subset, estimates, load) and [Setting] (policy,
// label and parameters) and combines the replications of each pair:
// means by their mean, maxima by their maximum, job counts by their
// mean. [BuildTables] lays the result out as the papers' tables: one
// scheme grid per setting, or one table per workload with a row per
// category and a column per setting, optionally compared with a
// baseline setting; [WriteMarkdown] and [WriteTablesCSV] write them.
// [Tables] is the hook through which [results.StreamOutputs] writes
// tables.md and tables.csv when a sweep ends; they are made by the same
// code from the same rows ([SweepTables]) as the tables made here from
// the Parquet files, so the two are equal. The metrics are
// [metrics.Metrics].
//
// Defaults come from the sweep's spec, which every Parquet file carries
// in its metadata: the metric and scheme of its outputs.tables, else the
// mean bounded slowdown and the spec's first category scheme.
//
// Reading summary.parquet and tasks.parquet costs a few milliseconds per
// thousand tasks. jobs.parquet is read only for transient figures, and
// then only its task_index, submit and metric columns.
package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Sweep is the content of a sweep's output directory that tables and
// figures need.
type Sweep struct {
	// Dir is the output directory.
	Dir string
	// Name and Description are the sweep's (from the spec in the files'
	// metadata).
	Name, Description string
	// Metric and Scheme are the spec's outputs.tables choice ("" when the
	// spec leaves them out).
	Metric, Scheme string
	// Summary and Tasks are the rows of summary.parquet and tasks.parquet.
	Summary []results.SummaryRow
	Tasks   []results.TaskRow
}

// specDefaults is the part of a spec the defaults come from.
type specDefaults struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Outputs     struct {
		Tables struct {
			Metric string `yaml:"metric"`
			Scheme string `yaml:"scheme"`
		} `yaml:"tables"`
	} `yaml:"outputs"`
}

// Load reads the summary and task rows of the sweep in dir.
func Load(dir string) (*Sweep, error) {
	sum := filepath.Join(dir, results.SummaryFile)
	if _, err := os.Stat(sum); err != nil {
		return nil, fmt.Errorf("%s is not a sweep's output directory: %w", dir, err)
	}
	s := &Sweep{Dir: dir}
	var err error
	if s.Summary, err = results.ReadSummary(sum); err != nil {
		return nil, err
	}
	if s.Tasks, err = results.ReadTasks(filepath.Join(dir, results.TasksFile)); err != nil {
		return nil, err
	}
	md, err := results.ReadMetadata(sum)
	if err != nil {
		return nil, err
	}
	s.Name = md[results.MetaSweep]
	var d specDefaults
	if yaml.Unmarshal([]byte(md[results.MetaSpec]), &d) == nil {
		s.Description = d.Description
		s.Metric, s.Scheme = d.Outputs.Tables.Metric, d.Outputs.Tables.Scheme
	}
	if s.Name == "" {
		s.Name = d.Name
	}
	return s, nil
}

// withDefaults fills the metric and scheme the caller left out from the
// spec.
func (s *Sweep) withDefaults(metric, scheme string) (string, string) {
	if metric == "" {
		metric = s.Metric
	}
	if scheme == "" {
		scheme = s.Scheme
	}
	return metric, scheme
}

// Tables builds the sweep's tables (see [BuildTables]); a metric
// or scheme left out of opts is the spec's.
func (s *Sweep) Tables(opts TableOptions) ([]Table, error) {
	opts.Metric, opts.Scheme = s.withDefaults(opts.Metric, opts.Scheme)
	return BuildTables(s.Summary, s.Tasks, opts)
}

// Title returns the heading of the tables made with opts, for example
// "ctc-test: mean bounded slowdown by ss16 category, compared with NS".
func (s *Sweep) Title(opts TableOptions) (string, error) {
	metric, scheme := s.withDefaults(opts.Metric, opts.Scheme)
	c, err := Collate(s.Summary, s.Tasks, CollateOptions{Metric: metric, Scheme: scheme, Where: opts.Where})
	if err != nil {
		return "", err
	}
	t := fmt.Sprintf("%s: %s by %s category", s.Name, c.Metric.Title, c.Scheme.Name)
	if len(opts.Where) > 0 {
		t += ", where " + whereText(opts.Where)
	}
	if opts.Baseline != "" {
		bi, err := c.FindSetting(opts.Baseline)
		if err != nil {
			return "", fmt.Errorf("baseline: %w", err)
		}
		t += fmt.Sprintf(", compared with %s (%s)", c.Settings[bi].Name, CompareWord(opts.Compare))
	}
	return t, nil
}

// whereText describes filters: "trace=ctc and load=1|1.2".
func whereText(fs []Filter) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, " and ")
}

// WriteMarkdown writes the tables made with opts as a Markdown document:
// the title (see [Sweep.Title]), the scheme's description, then one
// section per workload.
func (s *Sweep) WriteMarkdown(w io.Writer, opts TableOptions) error {
	tables, err := s.Tables(opts)
	if err != nil {
		return err
	}
	title, err := s.Title(opts)
	if err != nil {
		return err
	}
	_, scheme := s.withDefaults(opts.Metric, opts.Scheme)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	if s.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", metrics.EscapeCell(s.Description))
	}
	if sc := schemeOf(tables, scheme); sc != nil {
		fmt.Fprintf(&b, "Scheme %s: %s. \"-\" marks an empty category.\n\n", sc.Name, sc.Doc)
	}
	if err := WriteMarkdown(&b, tables, 2); err != nil {
		return err
	}
	_, err = io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// schemeOf returns the scheme of the tables' values (or the named one).
func schemeOf(tables []Table, name string) *metrics.Scheme {
	for _, t := range tables {
		if len(t.Values) > 0 {
			name = t.Values[0].Scheme
			break
		}
	}
	s, err := metrics.LookupScheme(name)
	if err != nil {
		return nil
	}
	return s
}

// WriteTables writes the tables made with opts to prefix.md (Markdown,
// see [Sweep.WriteMarkdown]) and prefix.csv (long form, see
// [WriteTablesCSV]) and returns the two paths.
func (s *Sweep) WriteTables(prefix string, opts TableOptions) ([]string, error) {
	tables, err := s.Tables(opts)
	if err != nil {
		return nil, err
	}
	md, csv := prefix+".md", prefix+".csv"
	if err := atomicfile.Write(md, func(w io.Writer) error { return s.WriteMarkdown(w, opts) }); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(csv, func(w io.Writer) error { return WriteTablesCSV(w, tables) }); err != nil {
		return nil, err
	}
	return []string{md, csv}, nil
}
