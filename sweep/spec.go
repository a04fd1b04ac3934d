package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// Defaults and limits of the spec format.
const (
	// DefaultReplications is the number of replications when the spec
	// gives none.
	DefaultReplications = 1
	// MaxReplications is the largest number of replications.
	MaxReplications = 10000
	// DefaultSeed is the base seed when the spec gives none.
	DefaultSeed = 1
	// DefaultEstimates is the estimate model when a workload gives none.
	DefaultEstimates = "trace"
	// DefaultLoad is the load factor when a workload gives none
	// (1: the trace's own load).
	DefaultLoad = 1.0
	// DefaultLoadMode is the load transform when a workload gives none.
	DefaultLoadMode = "arrival"
	// DefaultScheme is the category scheme when the spec gives none.
	DefaultScheme = "ss16"
	// DefaultTableMetric is the metric of the tables when the spec gives none.
	DefaultTableMetric = "bsd_mean"
	// DefaultSeriesStep is the step of outputs.timeseries when the spec
	// gives none: one hour.
	DefaultSeriesStep = 3600
	// MaxTasks is the largest number of tasks a spec may expand to.
	MaxTasks = 100000
	// MaxNameLength is the longest sweep name.
	MaxNameLength = 64
	// MaxTimeLimit is the largest time_limit of a spec.
	MaxTimeLimit = 30 * 24 * time.Hour
)

// TableMetrics returns the metric names a spec's outputs.tables.metric may
// take, in a fixed order: the per-category aggregates of package metrics.
func TableMetrics() []string {
	return []string{
		"bsd_mean", "bsd_max",
		"turnaround_mean", "turnaround_max",
		"wait_mean", "wait_max",
		"slowdown_mean", "slowdown_max",
		"count",
	}
}

// Spec is a parsed and validated sweep spec. Build it with [Load] or
// [Parse]; a Spec that those returned is valid and expands without error.
// A Spec must not be modified after parsing.
type Spec struct {
	// Name names the sweep ([a-z0-9_-]+, at most [MaxNameLength] bytes).
	Name string
	// Description is free text ("" when not given).
	Description string
	// Hash is the hex sha256 of Raw.
	Hash string
	// Raw holds the spec's bytes as read.
	Raw []byte
	// BaseDir is the directory relative trace paths are resolved from
	// (the spec file's directory for [Load]).
	BaseDir string
	// Workloads are the workload entries in spec order.
	Workloads []WorkloadSpec
	// Policies are the policy entries in spec order.
	Policies []PolicySpec
	// Replications is the number of replications (>= 1; default
	// [DefaultReplications]).
	Replications int
	// Seed is the base seed (default [DefaultSeed]).
	Seed uint64
	// Categories are the category scheme names to label and aggregate by
	// (default [DefaultScheme]).
	Categories []string
	// Outputs configures the outputs.
	Outputs Outputs
	// TimeLimit bounds each task's run on a worker (time_limit in the
	// spec, a Go duration such as "2h"; 0: the worker's
	// --task-time-limit). It is not part of a task's identity.
	TimeLimit time.Duration

	tasks  []Task
	traces []TraceFile
	// policyFiles are the external policies' files.
	policyFiles []TraceFile
}

// WorkloadSpec is one workload entry: each field lists the values of one
// axis of the entry's grid (a scalar in the spec is a one-value list).
type WorkloadSpec struct {
	// Trace holds the traces as written: shipped names or file paths.
	Trace []string
	// Procs are machine sizes (0: the trace header's; default 0).
	Procs []int
	// Skip and Count choose subsets (defaults 0; Count 0: all jobs).
	Skip, Count []int
	// Estimates are estimate models: "trace" or "accurate" (default
	// [DefaultEstimates]).
	Estimates []string
	// Load are load factors (default [DefaultLoad]).
	Load []float64
	// LoadMode are load transforms: "arrival" or "duplicate" (default
	// [DefaultLoadMode]).
	LoadMode []string
	// Sigma and RangeFactor make the workload moldable (Srinivasan et
	// al. 2003): Downey's variance of parallelism (>= 0) and the range
	// factor (>= 1). Both or neither; none: rigid.
	Sigma, RangeFactor []float64
	// Synthetic is the synthetic workload's name (instead of Trace).
	Synthetic string
	// Gen are the generator's keys and their values (each an axis named
	// "gen.<key>").
	Gen map[string][]float64
	// Zip lists groups of axis names whose values move together.
	Zip [][]string
}

// PolicySpec is one policy entry.
type PolicySpec struct {
	// Name is a registered policy name.
	Name string
	// Label is the display name in outputs (default Name); labels are
	// unique in a spec.
	Label string
	// Params are the parameter axes in spec order.
	Params []ParamAxis
	// Zip lists groups of parameter names whose values move together.
	Zip [][]string
}

// ParamAxis is one parameter of a policy entry and its values as decoded
// from YAML (a scalar in the spec is a one-value list).
type ParamAxis struct {
	// Name is the parameter's name.
	Name string
	// Values are the values in spec order: int, float64, bool or string.
	Values []any
}

// Outputs configures what is written besides the Parquet files.
type Outputs struct {
	// Tables configures tables.md and tables.csv.
	Tables TableOutput
	// Timeseries, when its Step is set, asks for timeseries.parquet.
	Timeseries TimeseriesOutput
}

// TimeseriesOutput asks for each task's time series (the machine's state
// every Step seconds of simulated time, see sim.Sample).
type TimeseriesOutput struct {
	// Step is the series' step in seconds: 0 (the default) writes no
	// series; outputs.timeseries without a step is [DefaultSeriesStep].
	// At least sim.MinSeriesStep.
	Step int64
}

// TableOutput chooses the metric and category scheme of the tables.
type TableOutput struct {
	// Metric is one of [TableMetrics] (default [DefaultTableMetric]).
	Metric string
	// Scheme is one of the spec's categories (default: the first).
	Scheme string
}

// TraceFile is a trace file a sweep uses.
type TraceFile struct {
	// Name is the file's base name without .gz and .swf.
	Name string
	// Path is the file's absolute path on this machine.
	Path string
	// SHA256 is the hex sha256 of the file's bytes.
	SHA256 string
}

// Load reads and parses the spec file at path; relative trace paths are
// resolved from the file's directory. A spec with problems gives a
// [*yamlerr.ValidationError] naming the file.
func Load(path string) (*Spec, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() > MaxSpecSize {
		return nil, fmt.Errorf("read spec %s: %d bytes, want at most %d", path, fi.Size(), MaxSpecSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	s, err := Parse(data, filepath.Dir(path))
	if err != nil {
		if ve, ok := err.(*yamlerr.ValidationError); ok {
			ve.File = path
		}
		return nil, err
	}
	return s, nil
}

// Parse parses and validates a spec and expands it; baseDir is where
// relative trace paths are resolved from and where the search for the
// shipped traces/ directory starts. Every problem is reported in one
// [*yamlerr.ValidationError], each with its key path.
func Parse(data []byte, baseDir string) (*Spec, error) {
	sum := sha256.Sum256(data)
	s := &Spec{
		Hash:    hex.EncodeToString(sum[:]),
		Raw:     slices.Clone(data),
		BaseDir: baseDir,
	}
	p := &parser{spec: s, traceCache: map[string]traceRef{}, lines: map[string]int{}}
	p.w = yamlnode.Collect(p.lines, &p.errs, false, describe)
	p.parse(data)
	p.expand()
	if len(p.errs) > 0 {
		// Report in the order of the spec; problems without a line (about
		// the whole spec) come first.
		slices.SortStableFunc(p.errs, func(a, b *yamlerr.FieldError) int { return a.Line - b.Line })
		return nil, &yamlerr.ValidationError{Problems: p.errs, Invalid: ErrInvalidSpec}
	}
	return s, nil
}

// Tasks returns the spec's tasks in expansion order, with Index 0..n-1 and
// IDs filled in. The slice and the tasks, each with a point of its own
// ([Task.Clone]), are the caller's. The error
// is always nil for a Spec returned by [Load] or [Parse].
func (s *Spec) Tasks() ([]Task, error) {
	if s.tasks == nil {
		return nil, fmt.Errorf("expand spec %q: spec was not built by Parse", s.Name)
	}
	out := make([]Task, len(s.tasks))
	for i, t := range s.tasks {
		out[i] = t.Clone()
	}
	return out, nil
}

// SharedTasks returns the spec's own tasks, as [Spec.Tasks] does but
// without a copy: the slice and everything it holds belong to the spec and
// must not be modified. A sweep of many tasks (up to [MaxTasks]) would
// otherwise hold its task list twice, in the spec and in the copy; the
// tasks of a grid point share their [TaskPoint].
func (s *Spec) SharedTasks() ([]Task, error) {
	if s.tasks == nil {
		return nil, fmt.Errorf("expand spec %q: spec was not built by Parse", s.Name)
	}
	return s.tasks, nil
}

// Traces returns every trace file the tasks use, once each, in order of
// first use.
func (s *Spec) Traces() []TraceFile { return slices.Clone(s.traces) }

// PolicyFiles returns the files of the spec's external policies (name,
// local path, sha256), each once.
func (s *Spec) PolicyFiles() []TraceFile { return slices.Clone(s.policyFiles) }

func (s *Spec) addPolicyFiles(files []TraceFile) {
	for _, f := range files {
		if !slices.ContainsFunc(s.policyFiles, func(g TraceFile) bool { return g.SHA256 == f.SHA256 }) {
			s.policyFiles = append(s.policyFiles, f)
		}
	}
}
