package sweep

import (
	"slices"
	"time"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// Task is one simulation of a sweep: a workload, a policy with its
// parameter values, a replication. It travels as JSON; its ID is the hex
// sha256 of its canonical description ([Task.ComputeID]: everything below
// that can change the simulation's outcome, so not ID, Index, Sweep, Label
// or Schemes, and never a local file path), so the same task has the same
// ID in every sweep and the result cache can key on it.
//
// What the replications of one grid point have in common (the workload,
// the policy and its values, ...) is a [TaskPoint] they share: a task
// holds its own ID, index, replication and seed and a pointer to its
// point, whose fields read as the task's own (t.Workload, t.Policy). The
// tasks of a sweep of 100,000 tasks take 11 MB so, 40 MB with a copy of
// the point in each. Tasks that share a point must not change it: to
// change a task's point, [Task.Clone] it first. A task whose point is nil
// (the zero Task, or one decoded from JSON without its point's fields)
// must not be used.
type Task struct {
	// ID is the hex sha256 of the task's canonical description.
	ID string `json:"id"`
	// TaskPoint is what the task shares with the other replications of
	// its grid point.
	*TaskPoint
	// Index is the task's position in the spec's expansion; outputs are
	// written in this order.
	Index int `json:"index"`
	// Replication is 0..replications-1; Seed is derived from the spec's
	// base seed, the workload and the replication.
	Replication int    `json:"replication"`
	Seed        uint64 `json:"seed"`
}

// TaskPoint is what the tasks of one grid point (a workload and a policy
// setting) share: everything of a task but its ID, index, replication
// and seed.
type TaskPoint struct {
	// Sweep is the name of the sweep that made the task.
	Sweep string `json:"sweep"`
	// Workload says what jobs to simulate.
	Workload Workload `json:"workload"`
	// Policy is a registered policy name; Params its values as the
	// registry's Check typed and validated them when the spec was read
	// (float64, int64, bool or string by the parameter's kind). They
	// travel typed (see policy.Values' JSON: an int64 stays exact) and
	// are not validated again: the runner builds the policy from them.
	Policy string        `json:"policy"`
	Params policy.Values `json:"params"`
	// Label is the policy entry's display name in outputs (the policy
	// name unless the spec gives one). It is not part of the ID.
	Label string `json:"label,omitempty"`
	// Schemes are the category schemes to label and aggregate by.
	Schemes []string `json:"schemes"`
	// SimVersion is sim.Version when the task was made.
	SimVersion string `json:"sim_version"`
	// TimeLimit is the spec's time_limit (0: the worker's default). It
	// bounds the run, it does not change its result, so it is not part
	// of the ID.
	TimeLimit time.Duration `json:"time_limit,omitempty"`
	// SeriesStep is the step of the task's time series in seconds
	// (outputs.timeseries; 0: none). It is part of the ID only when set,
	// so the tasks of a spec without a series keep their IDs and a
	// cached result without a series never stands for one with it.
	SeriesStep int64 `json:"series_step,omitempty"`
	// PolicyFiles are the files of an external policy (its script first),
	// by name and sha256: part of the ID when present, so editing a
	// policy file changes the IDs of its tasks and of no others.
	PolicyFiles []PolicyFile `json:"policy_files,omitempty"`
	// Command is an external policy's program and arguments (nil for
	// other policies), split once when the spec was read and carried as a
	// list to the worker and the process start, which split nothing
	// again. Params["command"] holds the same command as one text
	// (external.JoinCommand), which is its canonical form, part of the
	// ID and the params column; Command is not part of the ID. Tasks of
	// one policy setting share the slice: read it, never modify it.
	Command []string `json:"command,omitempty"`
}

// Clone returns a copy of t with a point of its own: its parameters,
// schemes and policy files copied too, so changing them leaves t and the
// tasks that share its point as they are. A nil point stays nil.
func (t Task) Clone() Task {
	if t.TaskPoint == nil {
		return t
	}
	p := *t.TaskPoint
	p.Params = p.Params.Clone()
	p.Schemes = slices.Clone(p.Schemes)
	p.PolicyFiles = slices.Clone(p.PolicyFiles)
	t.TaskPoint = &p
	return t
}

// TaskKeys are the names of a task's own settings, besides its policy
// parameters, by which its rows are selected and told apart: the keys of
// a where filter of `schedfarm table` and `plot`, of the claims'
// selections, and of the tables' grouping. This is the one list; the
// packages that select rows read it rather than keep a copy.
var TaskKeys = []string{"trace", "policy", "label", "estimates", "load", "load_mode", "skip", "count", "replication", "procs", "sigma", "range_factor"}

// Workload identifies a workload: a trace by content and the transforms.
type Workload struct {
	// Trace is the trace's name (its file name without .swf/.swf.gz).
	Trace string `json:"trace"`
	// TraceSHA256 is the sha256 of the trace file's bytes as stored; the
	// worker fetches the file by it.
	TraceSHA256 string `json:"trace_sha256"`
	// Procs overrides the machine size (0: the trace header's).
	Procs int `json:"procs"`
	// Skip and Count choose a subset (Count 0: all jobs).
	Skip  int `json:"skip"`
	Count int `json:"count"`
	// Estimates is the estimate model: "trace" or "accurate".
	Estimates string `json:"estimates"`
	// Load is the load factor (1: unchanged); LoadMode "arrival" or "duplicate".
	Load     float64 `json:"load"`
	LoadMode string  `json:"load_mode"`
	// Sigma and RangeFactor, both set or both nil, make the workload
	// moldable (Downey variance and range factor); nil: rigid. Omitted
	// from the canonical JSON when nil, so rigid tasks keep their IDs.
	Sigma       *float64 `json:"sigma,omitempty"`
	RangeFactor *float64 `json:"range_factor,omitempty"`
	// Synthetic names a synthetic workload generator (workload.Synthetics)
	// used instead of a trace; Trace and TraceSHA256 are then empty and
	// Skip, Count and Estimates unused. Gen holds its keys (gen: in the
	// spec), all numbers.
	Synthetic string             `json:"synthetic,omitempty"`
	Gen       map[string]float64 `json:"gen,omitempty"`
}

// Moldable reports whether the workload is moldable.
func (w *Workload) Moldable() bool { return w.Sigma != nil && w.RangeFactor != nil }

// Moldability returns the workload package's moldability option: nil for
// a rigid workload.
func (w *Workload) Moldability() *workload.Moldability {
	if !w.Moldable() {
		return nil
	}
	return &workload.Moldability{Sigma: *w.Sigma, RangeFactor: *w.RangeFactor}
}
