package reproduction

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// Files of the papers' data, relative to the specs folder.
const (
	// PapersFile lists the papers in order.
	PapersFile = "papers.yaml"
	// PaperFile, in a paper's folder, lists its figure groups.
	PaperFile = "paper.yaml"
)

// ErrInvalid is matched by every invalid paper file's
// [*yamlerr.ValidationError]; its problems wrap the YAML format's errors
// ([yamlerr.ErrUnknownKey], ...), shared by every parser.
var ErrInvalid = errors.New("invalid paper file")

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)

// LoadPapers reads the papers of a specs folder (fsys): PapersFile's list,
// then each paper's PaperFile, into recipes in paper and file order. Spec
// paths are given relative to the repository root ("specs/<paper>/x.yaml").
// Every problem of a file is reported at once, with its file, line and
// key path.
func LoadPapers(fsys fs.FS) ([]Recipe, error) {
	data, err := fs.ReadFile(fsys, PapersFile)
	if err != nil {
		return nil, fmt.Errorf("read papers: %w", err)
	}
	papers, err := parsePapers(data)
	if err != nil {
		return nil, named(PapersFile, err)
	}
	var out []Recipe
	var errs []error
	for _, p := range papers {
		file := path.Join(p, PaperFile)
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			errs = append(errs, fmt.Errorf("read paper %s: %w", p, err))
			continue
		}
		rs, err := ParsePaper(p, data)
		if err != nil {
			errs = append(errs, named(file, err))
			continue
		}
		out = append(out, rs...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

func named(file string, err error) error {
	var v *yamlerr.ValidationError
	if errors.As(err, &v) {
		v.File = path.Join("specs", file)
	}
	return err
}

type paperParser struct {
	errs  []*yamlerr.FieldError
	lines map[string]int
	w     yamlnode.Walker
}

func newPaperParser() *paperParser {
	p := &paperParser{lines: map[string]int{}}
	p.w = yamlnode.Collect(p.lines, &p.errs, true, yamlnode.Describe)
	return p
}

func (p *paperParser) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(p.errs, func(a, b *yamlerr.FieldError) int { return a.Line - b.Line })
	return &yamlerr.ValidationError{Problems: p.errs, Invalid: ErrInvalid}
}

func parsePapers(data []byte) ([]string, error) {
	p := newPaperParser()
	var out []string
	root, ok := p.w.DecodeRoot(data, "must be a single YAML document", "papers file")
	if ok {
		seen := false
		p.w.Mapping(root, "", func(key string, v *yaml.Node, kp string) {
			if key != "papers" {
				p.w.Add(kp, v, yamlerr.ErrUnknownKey)
				return
			}
			seen = true
			for i, n := range p.w.List(v, kp) {
				ip := kp + "[" + strconv.Itoa(i) + "]"
				if s, ok := p.name(n, ip); ok {
					if slices.Contains(out, s) {
						p.w.Add(ip, n, yamlerr.Problem(yamlerr.ErrValue, "paper %s listed twice", s))
					}
					out = append(out, s)
				}
			}
		})
		if !seen {
			p.w.Add("papers", root, yamlerr.ErrRequired)
		}
	}
	return out, p.err()
}

func (p *paperParser) name(n *yaml.Node, kp string) (string, bool) {
	s, ok := p.w.NonEmpty(n, kp)
	if ok && !nameRE.MatchString(s) {
		p.w.Add(kp, n, yamlerr.Problem(yamlerr.ErrValue, "%q: a name is lower-case letters, digits, ., _ and -", s))
		return "", false
	}
	return s, ok
}

// ParsePaper parses the paper file of paper into its recipes.
func ParsePaper(paper string, data []byte) ([]Recipe, error) {
	p := newPaperParser()
	var out []Recipe
	root, ok := p.w.DecodeRoot(data, "must be a single YAML document", "paper file")
	if !ok {
		return nil, p.err()
	}
	seen := false
	var limits []LimitsTable
	p.w.Mapping(root, "", func(key string, v *yaml.Node, kp string) {
		if key == paperLimitsKey {
			limits = p.limitsTables(v, kp)
			return
		}
		if key != "groups" {
			p.w.Add(kp, v, yamlerr.ErrUnknownKey)
			return
		}
		seen = true
		items := p.w.List(v, kp)
		if items == nil {
			p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrRequired, "must list at least one figure group"))
		}
		for i, n := range items {
			r := p.group(paper, n, kp+"["+strconv.Itoa(i)+"]")
			for _, o := range out {
				if o.Name == r.Name && r.Name != "" {
					p.w.Add(kp+"["+strconv.Itoa(i)+"].name", n, yamlerr.Problem(yamlerr.ErrValue, "figure group %s named twice", r.Name))
				}
			}
			out = append(out, r)
		}
	})
	if !seen {
		p.w.Add("groups", root, yamlerr.ErrRequired)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].TSSLimits = limits
	}
	return out, nil
}

func (p *paperParser) group(paper string, n *yaml.Node, gp string) Recipe {
	var r Recipe
	var group, spec string
	p.w.Mapping(n, gp, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "name":
			group, _ = p.name(v, kp)
		case "spec":
			if s, ok := p.w.NonEmpty(v, kp); ok {
				if !nameRE.MatchString(s) || path.Ext(s) != ".yaml" {
					p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrValue, "%q: a spec file of the paper's folder (name.yaml)", s))
				}
				spec = s
			}
		case "doc":
			r.Doc, _ = p.w.NonEmpty(v, kp)
		case "tables":
			for i, t := range p.w.List(v, kp) {
				r.Tables = append(r.Tables, p.table(t, kp+"["+strconv.Itoa(i)+"]"))
			}
		case "plots":
			for i, t := range p.w.List(v, kp) {
				r.Plots = append(r.Plots, p.plot(t, kp+"["+strconv.Itoa(i)+"]", false))
			}
		case "panels":
			for i, t := range p.w.List(v, kp) {
				ip := kp + "[" + strconv.Itoa(i) + "]"
				var pn report.Panel
				pn.Plot = p.plot(t, ip, true)
				p.w.Mapping(t, ip, func(key string, v *yaml.Node, kp string) {
					switch key {
					case "name":
						pn.Name, _ = p.name(v, kp)
					case "caption":
						pn.Caption, _ = p.w.NonEmpty(v, kp)
					}
				})
				for _, k := range []string{"name", "caption", "x", "series", "metric"} {
					if !has(t, k) {
						p.w.Add(ip+"."+k, t, yamlerr.ErrRequired)
					}
				}
				r.Panels = append(r.Panels, pn)
			}
		case "steps":
			for i, s := range p.w.List(v, kp) {
				ip := kp + "[" + strconv.Itoa(i) + "]"
				if k, ok := p.w.NonEmpty(s, ip); ok {
					st, found := steps[k]
					if !found {
						p.w.Add(ip, s, yamlerr.Problem(yamlerr.ErrValue, "%q is no registered step (%s)", k, stepKeys()))
						continue
					}
					r.Steps = append(r.Steps, st)
				}
			}
		default:
			p.w.Add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	for _, k := range []string{"name", "spec", "doc"} {
		if !has(n, k) {
			p.w.Add(gp+"."+k, n, yamlerr.ErrRequired)
		}
	}
	r.Name = paper + "/" + group
	r.Spec = path.Join("specs", paper, spec)
	return r
}

func stepKeys() string {
	keys := make([]string, 0, len(steps))
	for k := range steps {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}

// has reports whether a mapping node has key.
func has(n *yaml.Node, key string) bool {
	n = yamlnode.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return true // reported as the wrong shape elsewhere
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

func (p *paperParser) oneOf(v *yaml.Node, kp string, allowed ...string) string {
	s, ok := p.w.Str(v, kp)
	if ok && !slices.Contains(allowed, s) {
		p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrValue, "%q, want one of %v", s, allowed))
	}
	return s
}

func (p *paperParser) table(n *yaml.Node, tp string) TableJob {
	var t TableJob
	p.w.Mapping(n, tp, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "name":
			t.Name, _ = p.name(v, kp)
		case "metric":
			t.Opts.Metric, _ = p.w.NonEmpty(v, kp)
		case "scheme":
			t.Opts.Scheme, _ = p.w.NonEmpty(v, kp)
		case "layout":
			t.Opts.Layout = p.oneOf(v, kp, report.LayoutGrid, report.LayoutWide)
		case "baseline":
			t.Opts.Baseline, _ = p.w.NonEmpty(v, kp)
		case "compare":
			t.Opts.Compare = p.oneOf(v, kp, report.CompareRatio, report.ComparePct, report.CompareR)
		case "where":
			t.Opts.Where = p.where(v, kp)
		default:
			p.w.Add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	if !has(n, "name") {
		p.w.Add(tp+".name", n, yamlerr.ErrRequired)
	}
	return t
}

// plot reads a plot; for a panel, its name and caption are the panel's
// and the kind defaults to param.
func (p *paperParser) plot(n *yaml.Node, pp string, panel bool) report.PlotOptions {
	var o report.PlotOptions
	p.w.Mapping(n, pp, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "kind":
			if panel {
				o.Kind = p.oneOf(v, kp, report.KindParam)
			} else {
				o.Kind = p.oneOf(v, kp, report.Kinds...)
			}
		case "metric":
			o.Metric, _ = p.w.NonEmpty(v, kp)
		case "scheme":
			o.Scheme, _ = p.w.NonEmpty(v, kp)
		case "baseline":
			o.Baseline, _ = p.w.NonEmpty(v, kp)
		case "compare":
			o.Compare = p.oneOf(v, kp, report.ComparePct, report.CompareR)
		case "batch":
			if f, ok := p.w.Number(v, kp); ok {
				if f < 1 || f != float64(int(f)) {
					p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrValue, "%v, want a whole number of jobs >= 1", f))
				}
				o.Batch = int(f)
			}
		case "yscale":
			o.Style.YScale = p.oneOf(v, kp, plot.ScaleAuto, plot.ScaleLog, plot.ScaleLinear)
		case "legend":
			o.Style.Legend = p.oneOf(v, kp, plot.LegendPositions...)
		case "x", "series":
			if !panel {
				p.w.Add(kp, v, yamlerr.ErrUnknownKey)
				return
			}
			s, _ := p.w.NonEmpty(v, kp)
			if key == "x" {
				o.X = s
			} else {
				o.Series = s
			}
		case "name", "caption":
			if !panel {
				p.w.Add(kp, v, yamlerr.ErrUnknownKey)
			}
		case "where":
			o.Where = p.where(v, kp)
		default:
			p.w.Add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	if panel && o.Kind == "" {
		o.Kind = report.KindParam
	}
	if !panel && !has(n, "kind") {
		p.w.Add(pp+".kind", n, yamlerr.ErrRequired)
	}
	return o
}

// where reads filters: a mapping of a task column to its kept values
// (one scalar or a list), in file order.
func (p *paperParser) where(n *yaml.Node, wp string) []report.Filter {
	var out []report.Filter
	p.w.Mapping(n, wp, func(key string, v *yaml.Node, kp string) {
		f := report.Filter{Key: key}
		items := []*yaml.Node{v}
		if yamlnode.Resolve(v).Kind == yaml.SequenceNode {
			items = p.w.List(v, kp)
		}
		for i, it := range items {
			it = yamlnode.Resolve(it)
			if it.Kind != yaml.ScalarNode || it.Tag == "!!null" {
				p.w.Add(kp+"["+strconv.Itoa(i)+"]", it, yamlerr.Problem(yamlerr.ErrType, "%s, want a value", yamlnode.Describe(it)))
				continue
			}
			f.Values = append(f.Values, it.Value)
		}
		if len(f.Values) == 0 {
			p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrRequired, "keeps no value"))
		}
		out = append(out, f)
	})
	return out
}
