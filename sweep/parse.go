package sweep

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// parser walks the YAML node tree, fills the spec and collects problems.
type parser struct {
	spec       *Spec
	errs       []*yamlerr.FieldError
	traceCache map[string]traceRef // trace as written -> resolved
	lines      map[string]int      // key path -> line of its value
	w          yamlnode.Walker     // shared with the claims and readings parsers
	// per-entry resolved values used by expand
	wl []workloadAxes
	pl []policyAxes
}

// add records a problem at path. Its line is n's, or else the line of the
// closest enclosing key path seen while parsing.
func (p *parser) add(path string, n *yaml.Node, err error) { p.w.Add(path, n, err) }

// enumValue reads a string value that parse accepts. A value it rejects
// is reported as an unknown what, naming the valid values.
func enumValue[T fmt.Stringer](p *parser, it item, what string, parse func(string) (T, error), valid ...T) (string, bool) {
	str, ok := p.str(it.n, it.path)
	if !ok {
		return "", false
	}
	if _, err := parse(str); err != nil {
		names := make([]string, len(valid))
		for i, v := range valid {
			names[i] = v.String()
		}
		p.add(it.path, it.n, problem(yamlerr.ErrValue, "unknown %s %q (valid: %s)", what, str, strings.Join(names, ", ")))
		return "", false
	}
	return str, true
}

// line records the line of the value at path.
func (p *parser) line(path string, n *yaml.Node) { p.w.Line(path, n) }

var nameRE = regexp.MustCompile(`^[a-z0-9_-]+$`)

func (p *parser) parse(data []byte) {
	root, ok := p.w.DecodeRoot(data, "spec must be a single YAML document", "spec")
	if !ok {
		return
	}
	s := p.spec
	s.Replications = DefaultReplications
	s.Seed = DefaultSeed
	var haveName, haveWorkloads, havePolicies bool
	var outputs *yaml.Node
	var outputsPath string
	p.mapping(root, "", func(key string, v *yaml.Node, path string) {
		switch key {
		case "name":
			haveName = true
			p.name(v, path)
		case "description":
			if str, ok := p.str(v, path); ok && p.printable(v, path, str, "a description is written as it is into tables.md and the outputs' metadata", true) {
				s.Description = str
			}
		case "workloads":
			haveWorkloads = true
			for i, w := range p.list(v, path, true) {
				p.workload(w, fmt.Sprintf("%s[%d]", path, i))
			}
		case "policies":
			havePolicies = true
			for i, e := range p.list(v, path, true) {
				p.policy(e, fmt.Sprintf("%s[%d]", path, i))
			}
		case "replications":
			if n, ok := p.integer(v, path); ok {
				if n < 1 || n > MaxReplications {
					p.add(path, v, problem(yamlerr.ErrValue, "must be in 1..%d, got %d", MaxReplications, n))
				} else {
					s.Replications = int(n)
				}
			}
		case "seed":
			if u, ok := p.unsigned(v, path); ok {
				s.Seed = u
			}
		case "categories":
			p.categories(v, path)
		case "outputs":
			outputs, outputsPath = v, path
		case "time_limit":
			if str, ok := p.str(v, path); ok {
				d, err := time.ParseDuration(str)
				switch {
				case err != nil:
					p.add(path, v, problem(yamlerr.ErrValue, "%q is not a duration (write for example 90m or 2h)", str))
				case d < time.Second || d > MaxTimeLimit:
					p.add(path, v, problem(yamlerr.ErrValue, "%v, want 1s to %v", d, MaxTimeLimit))
				default:
					s.TimeLimit = d
				}
			}
		default:
			p.add(path, v, yamlerr.ErrUnknownKey)
		}
	})
	if !haveName {
		p.add("name", nil, yamlerr.ErrRequired)
	}
	if !haveWorkloads {
		p.add("workloads", nil, yamlerr.ErrRequired)
	}
	if !havePolicies {
		p.add("policies", nil, yamlerr.ErrRequired)
	}
	if len(s.Categories) == 0 {
		s.Categories = []string{DefaultScheme}
	}
	// The tables need a grid: the first scheme that has a fixed one (the
	// user scheme's categories are made per task).
	s.Outputs.Tables = TableOutput{Metric: DefaultTableMetric}
	for _, c := range s.Categories {
		if sc, err := metrics.LookupScheme(c); err == nil && !sc.PerTask() {
			s.Outputs.Tables.Scheme = c
			break
		}
	}
	if s.Outputs.Tables.Scheme == "" && len(s.Categories) > 0 {
		p.add("categories", nil, problem(yamlerr.ErrValue, "%s has one category per user of each task, no fixed grid for the tables: list a scheme with a grid beside it, e.g. [%s, %s]",
			s.Categories[0], DefaultScheme, s.Categories[0]))
	}
	if outputs != nil {
		p.outputs(outputs, outputsPath)
	}
	p.checkLabels()
}

// mapping calls f for every key of a mapping node in order, reporting
// non-mappings, non-string keys and duplicate keys.
func (p *parser) mapping(n *yaml.Node, path string, f func(key string, v *yaml.Node, path string)) {
	p.w.Mapping(n, path, f)
}

func joinPath(path, key string) string { return yamlnode.JoinPath(path, key) }

// describe names a node's shape for error messages as
// [yamlnode.Describe] does, except that a scalar other than a string or
// null is given as written (2, true), unquoted.
func describe(n *yaml.Node) string {
	if r := yamlnode.Resolve(n); r != nil && r.Kind == yaml.ScalarNode {
		if tag := r.ShortTag(); tag != "!!str" && tag != "!!null" {
			return r.Value
		}
	}
	return yamlnode.Describe(n)
}

// list returns the items of a sequence node (aliases resolved); nonEmpty
// reports an empty list.
func (p *parser) list(n *yaml.Node, path string, nonEmpty bool) []*yaml.Node {
	out := p.w.List(n, path)
	if out != nil && nonEmpty && len(out) == 0 {
		p.add(path, n, problem(yamlerr.ErrRequired, "must not be empty"))
	}
	return out
}

// item is one value of a scalar-or-list field with its own path.
type item struct {
	n    *yaml.Node
	path string
}

// scalars returns the values of a field that is a scalar or a non-empty
// list of scalars; list items get an [i] suffix on their path.
func (p *parser) scalars(n *yaml.Node, path string) []item {
	n = yamlnode.Resolve(n)
	if n != nil && n.Kind == yaml.SequenceNode {
		if len(n.Content) == 0 {
			p.add(path, n, problem(yamlerr.ErrRequired, "must not be an empty list"))
			return nil
		}
		var out []item
		for i, c := range n.Content {
			c = yamlnode.Resolve(c)
			ip := fmt.Sprintf("%s[%d]", path, i)
			p.line(ip, c)
			if c == nil || c.Kind != yaml.ScalarNode || c.ShortTag() == "!!null" {
				p.add(ip, c, problem(yamlerr.ErrType, "must be a single value, got %s", describe(c)))
				continue
			}
			out = append(out, item{c, ip})
		}
		return out
	}
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		p.add(path, n, problem(yamlerr.ErrType, "must be a value or a list of values, got %s", describe(n)))
		return nil
	}
	return []item{{n, path}}
}

// str reads a string scalar of at most MaxStringLength bytes.
func (p *parser) str(n *yaml.Node, path string) (string, bool) {
	n = yamlnode.Resolve(n)
	if _, ok := p.w.Str(n, path); !ok {
		return "", false
	}
	if len(n.Value) > MaxStringLength {
		p.add(path, n, problem(yamlerr.ErrValue, "%d bytes, want at most %d", len(n.Value), MaxStringLength))
		return "", false
	}
	return n.Value, true
}

func (p *parser) number(n *yaml.Node, path string) (float64, bool) { return p.w.Number(n, path) }

func (p *parser) integer(n *yaml.Node, path string) (int64, bool) {
	n = yamlnode.Resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			var v int64
			if err := n.Decode(&v); err == nil {
				return v, true
			}
		case "!!float":
			var f float64
			if err := n.Decode(&f); err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
				return int64(f), true
			}
		}
	}
	p.add(path, n, problem(yamlerr.ErrType, "must be a whole number, got %s", describe(n)))
	return 0, false
}

func (p *parser) unsigned(n *yaml.Node, path string) (uint64, bool) {
	n = yamlnode.Resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		var v uint64
		if err := n.Decode(&v); err == nil {
			return v, true
		}
	}
	p.add(path, n, problem(yamlerr.ErrType, "must be a whole number in 0..%d, got %s", uint64(math.MaxUint64), describe(n)))
	return 0, false
}

// zip parses a list of zip groups: lists of at least two distinct axis
// names, each in valid, none in two groups.
func (p *parser) zip(n *yaml.Node, path string, valid []string) [][]string {
	var out [][]string
	used := map[string]string{}
	for i, g := range p.list(n, path, false) {
		gp := fmt.Sprintf("%s[%d]", path, i)
		names := p.list(g, gp, false)
		if g != nil && g.Kind == yaml.SequenceNode && len(names) < 2 {
			p.add(gp, g, problem(ErrZip, "a zip group needs at least two names, got %d", len(names)))
			continue
		}
		var group []string
		ok := true
		for j, nn := range names {
			np := fmt.Sprintf("%s[%d]", gp, j)
			name, isStr := p.str(nn, np)
			if !isStr {
				ok = false
				continue
			}
			switch {
			case !slices.Contains(valid, name):
				v := "none"
				if len(valid) > 0 {
					v = strings.Join(valid, ", ")
				}
				p.add(np, nn, problem(ErrZip, "%q is not an axis of this entry (valid: %s)", name, v))
				ok = false
			case used[name] != "":
				p.add(np, nn, problem(ErrZip, "%q is already zipped at %s", name, used[name]))
				ok = false
			default:
				used[name] = np
				group = append(group, name)
			}
		}
		if ok && len(group) >= 2 {
			out = append(out, group)
		}
	}
	return out
}

func (p *parser) outputs(n *yaml.Node, path string) {
	s := p.spec
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "tables":
			p.mapping(v, kp, func(key string, v *yaml.Node, kp string) {
				switch key {
				case "metric":
					if str, ok := p.str(v, kp); ok {
						if !slices.Contains(TableMetrics(), str) {
							p.add(kp, v, problem(yamlerr.ErrValue, "unknown metric %q (valid: %s)", str, strings.Join(TableMetrics(), ", ")))
						} else {
							s.Outputs.Tables.Metric = str
						}
					}
				case "scheme":
					if str, ok := p.str(v, kp); ok {
						if sc, err := metrics.LookupScheme(str); !slices.Contains(s.Categories, str) || err != nil {
							p.add(kp, v, problem(yamlerr.ErrValue, "scheme %q is not in categories (%s)", str, strings.Join(s.Categories, ", ")))
						} else if sc.PerTask() {
							p.add(kp, v, problem(yamlerr.ErrValue, "scheme %q has one category per user of each task, no fixed grid for the tables", str))
						} else {
							s.Outputs.Tables.Scheme = str
						}
					}
				default:
					p.add(kp, v, yamlerr.ErrUnknownKey)
				}
			})
		case "timeseries":
			p.timeseries(v, kp)
		default:
			p.add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
}

// timeseries reads outputs.timeseries: a mapping with an optional step
// in seconds (default [DefaultSeriesStep]).
func (p *parser) timeseries(n *yaml.Node, path string) {
	s := p.spec
	s.Outputs.Timeseries.Step = DefaultSeriesStep
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "step":
			step, ok := p.integer(v, kp)
			switch {
			case !ok:
			case step < int64(sim.MinSeriesStep) || step > maxSeriesStep:
				p.add(kp, v, problem(yamlerr.ErrValue, "%d seconds, want %d to %d", step, sim.MinSeriesStep, maxSeriesStep))
			default:
				s.Outputs.Timeseries.Step = step
			}
		default:
			p.add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
}

// maxSeriesStep bounds outputs.timeseries.step: a year.
const maxSeriesStep = 366 * 24 * 3600

// workloadKeys are the axis keys of a workload entry, in expansion order.
var workloadKeys = []string{"trace", "procs", "skip", "count", "estimates", "load_mode", "load", "sigma", "range_factor"}

// workloadAxes is a workload entry ready for expansion: per axis, the
// values as Workload setters, plus the paths of its values for errors.
type workloadAxes struct {
	path  string
	axes  []axis
	zip   [][]string
	valid bool
}

// axis is one axis of a grid: its name and, per value, a function that
// applies it and the value's key path.
type axis struct {
	name  string
	set   []func(*point)
	paths []string
}

// point is one grid point under construction.
type point struct {
	w      Workload
	trace  traceRef
	params map[string]any
}

// name reads the spec's name.
func (p *parser) name(v *yaml.Node, path string) {
	str, ok := p.str(v, path)
	if !ok {
		return
	}
	switch {
	case str == "":
		p.add(path, v, problem(yamlerr.ErrRequired, "must not be empty"))
	case len(str) > MaxNameLength:
		p.add(path, v, problem(yamlerr.ErrValue, "longer than %d bytes", MaxNameLength))
	case !nameRE.MatchString(str):
		p.add(path, v, problem(yamlerr.ErrValue, "%q must match [a-z0-9_-]+", str))
	}
	p.spec.Name = str
}

// categories reads the spec's category schemes, each known and listed once.
func (p *parser) categories(v *yaml.Node, path string) {
	s := p.spec
	s.Categories = nil
	for _, c := range p.scalars(v, path) {
		str, ok := p.str(c.n, c.path)
		if !ok {
			continue
		}
		if _, err := metrics.LookupScheme(str); err != nil {
			p.add(c.path, c.n, problem(yamlerr.ErrValue, "%v", err))
			continue
		}
		if slices.Contains(s.Categories, str) {
			p.add(c.path, c.n, problem(yamlerr.ErrValue, "scheme %q listed twice", str))
			continue
		}
		s.Categories = append(s.Categories, str)
	}
}

// workload reads the workload entry at path: its WorkloadSpec and its axes
// for expansion.
func (p *parser) workload(n *yaml.Node, path string) {
	p.line(path, n)
	wa := workloadAxes{path: path, valid: true}
	ws := WorkloadSpec{}
	nerr := len(p.errs)
	found := map[string]*yaml.Node{}
	var zipNode *yaml.Node
	var zipPath string
	var genNode *yaml.Node
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		if key == "zip" {
			zipNode, zipPath = v, kp
			return
		}
		if key == "gen" {
			genNode = v
			return
		}
		if key == "synthetic" {
			found[key] = v
			return
		}
		if !slices.Contains(workloadKeys, key) {
			p.add(kp, v, yamlerr.ErrUnknownKey)
			return
		}
		found[key] = v
	})
	if n = yamlnode.Resolve(n); n == nil || n.Kind != yaml.MappingNode {
		p.wl = append(p.wl, workloadAxes{valid: false})
		return
	}
	wa.axes = append(wa.axes, p.workloadSource(n, path, found, genNode, &ws)...)
	if (found["sigma"] == nil) != (found["range_factor"] == nil) {
		have, miss := "sigma", "range_factor"
		if found["sigma"] == nil {
			have, miss = miss, have
		}
		p.add(joinPath(path, miss), n, problem(yamlerr.ErrRequired, "a moldable workload needs both sigma and range_factor; %s is given without it", have))
	}
	for _, key := range workloadKeys {
		if v := found[key]; v != nil {
			wa.axes = append(wa.axes, p.workloadAxis(key, v, joinPath(path, key), &ws))
		}
	}
	if zipNode != nil {
		wa.zip = p.zipAxes(wa.axes, zipNode, zipPath)
		ws.Zip = wa.zip
	}
	wa.valid = len(p.errs) == nerr
	p.spec.Workloads = append(p.spec.Workloads, ws)
	p.wl = append(p.wl, wa)
}

// workloadSource checks where a workload entry's jobs come from (trace, or
// synthetic with its gen keys) and returns the axes of a synthetic
// workload, adding them to ws.
func (p *parser) workloadSource(n *yaml.Node, path string, found map[string]*yaml.Node, genNode *yaml.Node, ws *WorkloadSpec) []axis {
	var axes []axis
	switch {
	case found["synthetic"] != nil:
		kp := joinPath(path, "synthetic")
		if found["trace"] != nil {
			p.add(joinPath(path, "trace"), found["trace"], problem(yamlerr.ErrValue, "a workload has either trace or synthetic, not both"))
		}
		if name, ok := p.str(found["synthetic"], kp); ok {
			if !slices.Contains(workload.Synthetics(), name) {
				p.add(kp, found["synthetic"], problem(yamlerr.ErrValue, "unknown synthetic workload %q (valid: %s)", name, strings.Join(workload.Synthetics(), ", ")))
			} else {
				ws.Synthetic = name
				axes = append(axes, axis{name: "synthetic", paths: []string{kp},
					set: []func(*point){func(pt *point) { pt.w.Synthetic, pt.w.Trace = name, name }}})
			}
		}
		if genNode != nil {
			ws.Gen = map[string][]float64{}
			p.mapping(genNode, joinPath(path, "gen"), func(key string, v *yaml.Node, kp string) {
				ax := axis{name: "gen." + key}
				for _, it := range p.scalars(v, kp) {
					f, ok := p.number(it.n, it.path)
					if !ok {
						continue
					}
					ws.Gen[key] = append(ws.Gen[key], f)
					ax.paths = append(ax.paths, it.path)
					ax.set = append(ax.set, func(pt *point) {
						if pt.w.Gen == nil {
							pt.w.Gen = map[string]float64{}
						}
						pt.w.Gen[key] = f
					})
				}
				axes = append(axes, ax)
			})
		}
	case genNode != nil:
		p.add(joinPath(path, "gen"), genNode, problem(yamlerr.ErrValue, "gen: needs synthetic:"))
	case found["trace"] == nil:
		p.add(joinPath(path, "trace"), n, yamlerr.ErrRequired)
	}
	return axes
}

// workloadAxis reads the values of the axis key of a workload entry at kp,
// adding them to ws.
func (p *parser) workloadAxis(key string, v *yaml.Node, kp string, ws *WorkloadSpec) axis {
	ax := axis{name: key}
	for _, it := range p.scalars(v, kp) {
		ax.paths = append(ax.paths, it.path)
		if set := p.workloadValue(key, it, ws); set != nil {
			ax.set = append(ax.set, set)
		}
	}
	return ax
}

// workloadValue checks one value of the axis key of a workload entry and
// adds it to ws. It returns the value's setter, or nil when the value is
// reported as a problem.
func (p *parser) workloadValue(key string, it item, ws *WorkloadSpec) func(*point) {
	if read, ok := workloadValueReaders[key]; ok {
		return read(p, it, ws)
	}
	return nil
}

// workloadValueReader checks one value of a workload axis and adds it to
// ws, returning its setter (nil when it is reported as a problem).
type workloadValueReader func(p *parser, it item, ws *WorkloadSpec) func(*point)

// workloadValueReaders are the readers of the workload axes.
var workloadValueReaders = map[string]workloadValueReader{
	"trace": (*parser).traceValue,
	"procs": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		iv, ok := p.intValue(it, workload.MaxMachine)
		if !ok {
			return nil
		}
		ws.Procs = append(ws.Procs, iv)
		return func(pt *point) { pt.w.Procs = iv }
	},
	"skip": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		iv, ok := p.intValue(it, workload.MaxValue)
		if !ok {
			return nil
		}
		ws.Skip = append(ws.Skip, iv)
		return func(pt *point) { pt.w.Skip = iv }
	},
	"count": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		iv, ok := p.intValue(it, workload.MaxValue)
		if !ok {
			return nil
		}
		ws.Count = append(ws.Count, iv)
		return func(pt *point) { pt.w.Count = iv }
	},
	"estimates": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		str, ok := enumValue(p, it, "estimate model", workload.ParseEstimateModel, workload.EstimateTrace, workload.EstimateAccurate, workload.EstimateDouble, workload.EstimatePredicted)
		if !ok {
			return nil
		}
		ws.Estimates = append(ws.Estimates, str)
		return func(pt *point) { pt.w.Estimates = str }
	},
	"load_mode": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		str, ok := enumValue(p, it, "load mode", workload.ParseLoadMode, workload.LoadArrival, workload.LoadDuplicate)
		if !ok {
			return nil
		}
		ws.LoadMode = append(ws.LoadMode, str)
		return func(pt *point) { pt.w.LoadMode = str }
	},
	"load": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		f, ok := p.number(it.n, it.path)
		if !ok {
			return nil
		}
		if f < workload.MinLoad || f > workload.MaxLoad {
			p.add(it.path, it.n, problem(yamlerr.ErrValue, "must be in %v..%v, got %v", workload.MinLoad, workload.MaxLoad, f))
			return nil
		}
		ws.Load = append(ws.Load, f)
		return func(pt *point) { pt.w.Load = f }
	},
	"sigma": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		f, ok := p.atLeast(it, 0)
		if !ok {
			return nil
		}
		ws.Sigma = append(ws.Sigma, f)
		return func(pt *point) { pt.w.Sigma = &f }
	},
	"range_factor": func(p *parser, it item, ws *WorkloadSpec) func(*point) {
		f, ok := p.atLeast(it, 1)
		if !ok {
			return nil
		}
		ws.RangeFactor = append(ws.RangeFactor, f)
		return func(pt *point) { pt.w.RangeFactor = &f }
	},
}

// traceValue checks a trace name or path, resolves it and adds it to ws;
// its setter sets the trace with its name and digest.
func (p *parser) traceValue(it item, ws *WorkloadSpec) func(*point) {
	str, ok := p.str(it.n, it.path)
	if !ok {
		return nil
	}
	ws.Trace = append(ws.Trace, str)
	ref, err := p.resolveTrace(str)
	if err != nil {
		p.add(it.path, it.n, err)
		return nil
	}
	return func(pt *point) { pt.trace = ref; pt.w.Trace = ref.Name; pt.w.TraceSHA256 = ref.SHA256 }
}

// intValue reads an integer in 0..limit.
func (p *parser) intValue(it item, limit int64) (int, bool) {
	v, ok := p.integer(it.n, it.path)
	if !ok {
		return 0, false
	}
	if v < 0 || v > limit {
		p.add(it.path, it.n, problem(yamlerr.ErrValue, "must be in 0..%d, got %d", limit, v))
		return 0, false
	}
	return int(v), true
}

// atLeast reads a number of at least lo.
func (p *parser) atLeast(it item, lo float64) (float64, bool) {
	f, ok := p.number(it.n, it.path)
	if !ok {
		return 0, false
	}
	if f < lo {
		p.add(it.path, it.n, problem(yamlerr.ErrValue, "must be >= %v, got %v", lo, f))
		return 0, false
	}
	return f, true
}

// zipAxes reads an entry's zip groups of its axes and reports groups whose
// axes have different lengths.
func (p *parser) zipAxes(axes []axis, n *yaml.Node, path string) [][]string {
	var present []string
	for _, ax := range axes {
		present = append(present, ax.name)
	}
	zip := p.zip(n, path, present)
	p.checkZipLengths(axes, zip, path, n)
	return zip
}

// checkZipLengths reports zip groups whose axes have different lengths.
func (p *parser) checkZipLengths(axes []axis, zip [][]string, path string, n *yaml.Node) {
	for i, g := range zip {
		var lens []string
		first, same := -1, true
		for _, name := range g {
			for _, ax := range axes {
				if ax.name == name {
					lens = append(lens, fmt.Sprintf("%s has %d", name, len(ax.paths)))
					if first < 0 {
						first = len(ax.paths)
					} else if len(ax.paths) != first {
						same = false
					}
				}
			}
		}
		if !same {
			p.add(fmt.Sprintf("%s[%d]", path, i), n, problem(ErrZip, "zipped lists must have equal lengths: %s", strings.Join(lens, ", ")))
		}
	}
}

// policyAxes is a policy entry ready for expansion.
type policyAxes struct {
	path  string
	entry *policy.Entry
	axes  []axis
	zip   [][]string
	valid bool
}

// policy reads the policy entry at path: its PolicySpec and its parameter
// axes for expansion.
func (p *parser) policy(n *yaml.Node, path string) {
	p.line(path, n)
	pa := policyAxes{path: path}
	ps := PolicySpec{}
	nerr := len(p.errs)
	var haveName bool
	var params, zipNode *yaml.Node
	var paramsPath, zipPath string
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "name":
			haveName = true
			str, ok := p.str(v, kp)
			if !ok {
				return
			}
			ps.Name = str
			e, err := policy.Lookup(str)
			if err != nil {
				p.add(kp, v, err)
				return
			}
			pa.entry = e
		case "label":
			if str, ok := p.str(v, kp); ok {
				if str == "" {
					p.add(kp, v, problem(yamlerr.ErrRequired, "must not be empty"))
				}
				p.printable(v, kp, str, "a label is written as it is into tables.md, CSV and Parquet", false)
				ps.Label = str
			}
		case "params":
			params, paramsPath = v, kp
		case "zip":
			zipNode, zipPath = v, kp
		default:
			p.add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	if rn := yamlnode.Resolve(n); rn != nil && rn.Kind == yaml.MappingNode && !haveName {
		p.add(joinPath(path, "name"), n, yamlerr.ErrRequired)
	}
	if ps.Label == "" {
		ps.Label = ps.Name
	}
	if params != nil {
		p.policyParams(params, paramsPath, &pa, &ps)
	}
	if zipNode != nil {
		pa.zip = p.zipAxes(pa.axes, zipNode, zipPath)
		ps.Zip = pa.zip
	}
	pa.valid = len(p.errs) == nerr && pa.entry != nil
	p.spec.Policies = append(p.spec.Policies, ps)
	p.pl = append(p.pl, pa)
}

// policyParams reads a policy entry's params at path: per parameter, its
// values, each checked alone with the policy registry (constraints between
// parameters are checked per grid point in expand), as an axis of pa and
// a ParamAxis of ps.
func (p *parser) policyParams(n *yaml.Node, path string, pa *policyAxes, ps *PolicySpec) {
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		var items []item
		if pa.entry != nil && pa.entry.Name == policy.ExternalName && (key == "command" || key == "files") {
			items = p.commandItems(v, kp, key == "files") // a list is the program and its arguments, or the files
		} else {
			items = p.scalars(v, kp)
		}
		ax := axis{name: key}
		var values []any
		for _, it := range items {
			var raw any
			if err := it.n.Decode(&raw); err != nil {
				p.add(it.path, it.n, problem(yamlerr.ErrType, "%v", err))
				continue
			}
			ax.paths = append(ax.paths, it.path)
			values = append(values, raw)
			if pa.entry == nil {
				continue // unknown policy: reported already
			}
			// A value alone is checked here; constraints between
			// parameters (*policy.ParamError) are checked per grid
			// point in expand.
			var cross *policy.ParamError
			if _, err := pa.entry.Check(map[string]any{key: raw}); err != nil && !errors.As(err, &cross) {
				if errors.Is(err, policy.ErrUnknownParam) {
					p.add(kp, v, problem(policy.ErrUnknownParam, "%s", trimParamErr(err, key, nil)))
					break
				}
				p.add(it.path, it.n, problem(policy.ErrBadParam, "%s", trimParamErr(err, key, policy.ErrBadParam)))
				continue
			}
			ax.set = append(ax.set, func(pt *point) { pt.params[key] = raw })
		}
		ps.Params = append(ps.Params, ParamAxis{Name: key, Values: values})
		pa.axes = append(pa.axes, ax)
	})
}

// trimParamErr returns the registry's message for one parameter without
// the leading "name: " and, if given, the sentinel's text.
func trimParamErr(err error, name string, sentinel error) string {
	msg := strings.TrimPrefix(err.Error(), name+": ")
	if sentinel != nil {
		msg = strings.TrimPrefix(msg, sentinel.Error()+": ")
	}
	return msg
}

// printable reports free text holding a control character (C0, DEL or
// C1: ESC, NUL, BEL and the like), at its key path, and says whether
// there is none. With lines, a multi-line text's newlines, carriage
// returns and tabs are allowed. Such text is refused rather than escaped:
// the outputs would otherwise carry another text than the spec's (which
// the filters and the readings' labels match), and raw, it would drive
// terminals that print a table and break a CSV reader's rows. why says
// where the text goes.
func (p *parser) printable(v *yaml.Node, path, text, why string, lines bool) bool {
	for i, r := range text {
		if !unicode.IsControl(r) || lines && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		p.add(path, v, problem(yamlerr.ErrValue, "%q holds control character %U at byte %d (%s); use printable text", text, r, i, why))
		return false
	}
	return true
}

// checkLabels reports policy entries whose labels collide.
func (p *parser) checkLabels() {
	seen := map[string]int{}
	for i, ps := range p.spec.Policies {
		if ps.Label == "" {
			continue
		}
		if j, ok := seen[ps.Label]; ok {
			p.add(fmt.Sprintf("policies[%d].label", i), nil,
				problem(yamlerr.ErrValue, "label %q is already used by policies[%d]; give each entry of the same policy its own label", ps.Label, j))
			continue
		}
		seen[ps.Label] = i
	}
}
