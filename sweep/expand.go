package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// group is one dimension of a grid: a lone axis or a zip group, whose
// axes all have the same number of values.
type group []axis

// groups arranges axes into grid dimensions: a zip group takes the place
// of its first member in axes.
func groups(axes []axis, zip [][]string) []group {
	var out []group
	done := map[string]bool{}
	for _, ax := range axes {
		if done[ax.name] {
			continue
		}
		g := group{ax}
		done[ax.name] = true
		for _, z := range zip {
			if !slices.Contains(z, ax.name) {
				continue
			}
			for _, other := range axes {
				if other.name != ax.name && slices.Contains(z, other.name) {
					g = append(g, other)
					done[other.name] = true
				}
			}
		}
		out = append(out, g)
	}
	return out
}

// size returns the number of points of a grid, saturating at limit+1.
func size(gs []group, limit int) int {
	n := 1
	for _, g := range gs {
		n = mulSat(n, len(g[0].set), limit)
	}
	return n
}

func mulSat(a, b, limit int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > (limit+1)/b {
		return limit + 1
	}
	return min(a*b, limit+1)
}

// points enumerates a grid, the last dimension varying fastest, calling f
// with the setters and value paths of each point.
func points(gs []group, f func(set []func(*point), paths map[string]string)) {
	idx := make([]int, len(gs))
	for _, g := range gs {
		if len(g[0].set) == 0 {
			return
		}
	}
	for {
		var set []func(*point)
		paths := map[string]string{}
		for d, g := range gs {
			for _, ax := range g {
				set = append(set, ax.set[idx[d]])
				paths[ax.name] = ax.paths[idx[d]]
			}
		}
		f(set, paths)
		d := len(gs) - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < len(gs[d][0].set) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// eachPoint enumerates the grid of an entry's axes (a zip group is one
// dimension), calling f with each point, built by applying its values to
// fresh(), and the key paths of those values. An entry whose grid has more
// than MaxTasks points is reported at path, as expanding to more than
// MaxTasks what, and enumerates nothing.
func (p *parser) eachPoint(axes []axis, zip [][]string, path, what string, fresh func() *point, f func(pt *point, paths map[string]string)) {
	gs := groups(axes, zip)
	if size(gs, MaxTasks) > MaxTasks {
		p.add(path, nil, problem(ErrTooManyTasks, "expands to more than %d %s", MaxTasks, what))
		return
	}
	points(gs, func(set []func(*point), paths map[string]string) {
		pt := fresh()
		for _, apply := range set {
			apply(pt)
		}
		f(pt, paths)
	})
}

// wpoint is one expanded workload.
type wpoint struct {
	w     Workload
	trace traceRef
	path  string
}

// ppoint is one expanded policy setting.
type ppoint struct {
	name, label string
	values      policy.Values
	path        string
	moldable    bool         // the policy needs a moldable workload
	elastic     bool         // the policy needs elastic jobs
	predicts    bool         // the policy can plan with runtime predictions
	files       []PolicyFile // an external policy's files
	command     []string     // an external policy's program and arguments
}

// expand checks every grid point and builds the tasks and trace list.
func (p *parser) expand() {
	s := p.spec
	seen := map[string]bool{} // deduplicates repeated per-point problems
	addOnce := func(path string, err error) {
		k := path + "\x00" + err.Error()
		if !seen[k] {
			seen[k] = true
			p.add(path, nil, err)
		}
	}

	// Enumerate the grids of the entries that parsed cleanly, even when
	// others did not, so per-point problems are reported too.
	var wps []wpoint
	for _, wa := range p.wl {
		if !wa.valid {
			continue
		}
		fresh := func() *point {
			return &point{w: Workload{Estimates: DefaultEstimates, Load: DefaultLoad, LoadMode: DefaultLoadMode}}
		}
		p.eachPoint(wa.axes, wa.zip, wa.path, "workloads", fresh, func(pt *point, paths map[string]string) {
			if err := checkWorkload(pt, paths, wa.path, addOnce); err == nil {
				wps = append(wps, wpoint{w: pt.w, trace: pt.trace, path: wa.path})
			}
		})
	}
	var pps []ppoint
	for i, pa := range p.pl {
		if !pa.valid {
			continue
		}
		ps := s.Policies[i]
		fresh := func() *point { return &point{params: map[string]any{}} }
		p.eachPoint(pa.axes, pa.zip, pa.path, "parameter settings", fresh, func(pt *point, paths map[string]string) {
			vals, err := pa.entry.Check(pt.params)
			if err != nil {
				crossParamErrors(err, pa.path, paths, addOnce)
				return
			}
			var files []PolicyFile
			var command []string
			if ps.Name == policy.ExternalName {
				var local []TraceFile
				if vals, command, files, local, err = externalPoint(s.BaseDir, vals); err != nil {
					addOnce(pa.path, problem(yamlerr.ErrValue, "%v", err))
					return
				}
				s.addPolicyFiles(local)
			}
			pps = append(pps, ppoint{name: ps.Name, label: ps.Label, values: vals, path: pa.path, moldable: pa.entry.Moldable, elastic: pa.entry.Elastic, predicts: pa.entry.Predicts, files: files, command: command})
		})
	}
	for _, wp := range wps {
		for _, pp := range pps {
			if pp.moldable && !wp.w.Moldable() {
				addOnce(pp.path, problem(yamlerr.ErrValue, "policy %s needs a moldable workload, but %s has no sigma and range_factor", pp.name, wp.path))
			}
			if pp.elastic && wp.w.Synthetic != workload.SyntheticParsons1997 {
				addOnce(pp.path, problem(yamlerr.ErrValue, "policy %s needs elastic jobs (workload synthetic: %s), but %s has rigid jobs", pp.name, workload.SyntheticParsons1997, wp.path))
			}
			if !pp.predicts && wp.w.Estimates == workload.EstimatePredicted.String() {
				addOnce(pp.path, problem(yamlerr.ErrValue, "policy %s makes no runtime predictions, but %s has estimates: predicted", pp.name, wp.path))
			}
		}
	}
	if len(p.errs) > 0 {
		return
	}
	total := mulSat(mulSat(len(wps), len(pps), MaxTasks), s.Replications, MaxTasks)
	if total > MaxTasks {
		p.add("", nil, problem(ErrTooManyTasks, "the spec expands to more than %d tasks (%d workloads x %d policy settings x %d replications)", MaxTasks, len(wps), len(pps), s.Replications))
		return
	}
	p.makeTasks(wps, pps, total)
}

// makeTasks builds the spec's tasks (total of them, at most MaxTasks) and
// trace list from the expanded workloads and policy settings, reporting
// tasks that repeat an earlier one.
func (p *parser) makeTasks(wps []wpoint, pps []ppoint, total int) {
	s := p.spec
	ids := make(map[string]int, total) // task ID -> index of its task
	tasks := make([]Task, 0, total)
	// Every task has the same schemes: one slice for all, and the tasks
	// of a grid point share their point (Spec.Tasks gives each caller
	// copies).
	schemes := slices.Clone(s.Categories)
	traceSeen := map[string]bool{}
	var dups int
	for _, wp := range wps {
		if wp.w.Synthetic == "" && !traceSeen[wp.trace.SHA256] {
			traceSeen[wp.trace.SHA256] = true
			s.traces = append(s.traces, TraceFile(wp.trace))
		}
		for _, pp := range pps {
			point := &TaskPoint{
				Sweep:       s.Name,
				Workload:    wp.w,
				Policy:      pp.name,
				Label:       pp.label,
				Params:      pp.values,
				Schemes:     schemes,
				SimVersion:  sim.Version,
				SeriesStep:  s.Outputs.Timeseries.Step,
				TimeLimit:   s.TimeLimit,
				PolicyFiles: pp.files,
				Command:     pp.command,
			}
			for rep := range s.Replications {
				t := Task{
					TaskPoint:   point,
					Index:       len(tasks),
					Replication: rep,
					Seed:        DeriveSeed(s.Seed, wp.w, rep),
				}
				t.ID = t.ComputeID()
				if o, ok := ids[t.ID]; ok {
					if dups++; dups <= 5 {
						p.add(pp.path, nil, problem(ErrDuplicateTask, "task %d (%s) is the same task as task %d (%s); remove repeated values or entries", t.Index, t.Describe(), o, tasks[o].Describe()))
					}
					continue
				}
				ids[t.ID] = t.Index
				tasks = append(tasks, t)
			}
		}
	}
	if dups > 5 {
		p.add("", nil, problem(ErrDuplicateTask, "%d more duplicate tasks", dups-5))
	}
	if len(p.errs) == 0 {
		s.tasks = tasks
	}
}

// checkSynthetic checks a synthetic workload's keys; problems name the
// key path of the value (workloads[0].gen.demand_cv).
func checkSynthetic(w Workload, at func(string) string, add func(string, error)) error {
	gen := make(map[string]any, len(w.Gen))
	for k, v := range w.Gen {
		gen[k] = v
	}
	var err error
	if w.Synthetic == workload.SyntheticLublin {
		_, err = workload.ParseLublin(w.Procs, w.Load, gen)
	} else {
		_, err = workload.ParseParsons1997(w.Procs, w.Load, gen)
	}
	if err == nil {
		return nil
	}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	for _, e := range list {
		var ge *workload.GenError
		if errors.As(e, &ge) {
			add(at(ge.Key), problem(yamlerr.ErrValue, "%s", ge.Msg))
		} else {
			add(at("synthetic"), problem(yamlerr.ErrValue, "%v", e))
		}
	}
	return err
}

// checkWorkload checks one workload grid point against the workload
// package's rules and the trace's number of jobs.
func checkWorkload(pt *point, paths map[string]string, entry string, add func(string, error)) error {
	at := func(key string) string {
		if p, ok := paths[key]; ok {
			return p
		}
		return joinPath(entry, key)
	}
	w := pt.w
	est, err1 := workload.ParseEstimateModel(w.Estimates)
	mode, err2 := workload.ParseLoadMode(w.LoadMode)
	if err := errors.Join(err1, err2); err != nil {
		add(entry, err) // unreachable: values were checked when parsed
		return err
	}
	if mode == workload.LoadDuplicate && w.Load < 1 {
		err := problem(yamlerr.ErrValue, "must be >= 1 with load_mode duplicate (copies can only add load), got %v", w.Load)
		add(at("load"), err)
		return err
	}
	if w.Synthetic != "" {
		return checkSynthetic(w, at, add)
	}
	opts := workload.Options{Procs: w.Procs, Estimates: est, Skip: w.Skip, Count: w.Count, Load: w.Load, LoadMode: mode, Moldable: w.Moldability()}
	if err := opts.Validate(); err != nil {
		err = problem(yamlerr.ErrValue, "%v", err)
		add(entry, err)
		return err
	}
	n, machine, err := traceJobs(pt.trace, w.Procs)
	if err != nil {
		err = problem(ErrUnknownTrace, "%v", err)
		add(at("trace"), err)
		return err
	}
	if w.Skip >= n || w.Count > n-w.Skip {
		want := "at least 1 job"
		key := "skip"
		if w.Count > 0 {
			want = fmt.Sprintf("%d jobs", w.Count)
			key = "count"
		}
		err := problem(yamlerr.ErrValue, "skip %d then %s: trace %s has only %d valid jobs on %d processors", w.Skip, want, pt.trace.Name, n, machine)
		add(at(key), err)
		return err
	}
	return nil
}

// Describe returns a short human description of a task: trace, subset,
// estimates, load, policy label and parameters, replication.
func (t *Task) Describe() string {
	var b strings.Builder
	w := t.Workload
	b.WriteString(w.Trace)
	if w.Procs > 0 {
		fmt.Fprintf(&b, " procs=%d", w.Procs)
	}
	if w.Skip > 0 || w.Count > 0 {
		fmt.Fprintf(&b, " jobs=%d+%d", w.Skip, w.Count)
	}
	fmt.Fprintf(&b, " estimates=%s load=%v", w.Estimates, w.Load)
	if w.LoadMode != DefaultLoadMode {
		fmt.Fprintf(&b, "/%s", w.LoadMode)
	}
	b.WriteString(", ")
	b.WriteString(t.Name())
	if ps := t.ParamString(); ps != "" {
		fmt.Fprintf(&b, " %s", ps)
	}
	fmt.Fprintf(&b, ", rep %d", t.Replication)
	return b.String()
}

// Name returns the task's policy label, or its policy name when it has
// no label.
func (t *Task) Name() string {
	if t.Label != "" {
		return t.Label
	}
	return t.Policy
}

// ParamString returns the task's parameters as sorted name=value pairs
// joined by commas ("" when the policy has none), each value in its
// canonical text (policy.FormatValue): the params column and the tables
// show this text.
func (t *Task) ParamString() string { return t.Params.Canonical() }

// crossParamErrors reports the errors of a grid point's parameter check:
// a constraint between parameters ([policy.ParamError]) at the key path of
// the value it names (e.g. "policies[1].params.class_bound_2"), anything
// else at the entry's params.
func crossParamErrors(err error, entry string, paths map[string]string, add func(string, error)) {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var pe *policy.ParamError
		if !errors.As(e, &pe) {
			add(joinPath(entry, "params"), e)
			continue
		}
		at, ok := paths[pe.Param]
		if !ok {
			at = joinPath(joinPath(entry, "params"), pe.Param)
		}
		add(at, problem(policy.ErrBadParam, "%s", pe.Msg))
	}
}
