package readings

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// FileName is the name of a paper's readings file in its specs folder.
const FileName = "readings.yaml"

// DefaultID names the row of the specs as committed in a readings table;
// no reading may take it.
const DefaultID = "default"

// Limits of the format.
const (
	// MaxID bounds a reading's id in bytes (it names a folder and is
	// appended to the sweep names).
	MaxID = 32
	// MaxSummary bounds a reading's summary in bytes.
	MaxSummary = 200
	// MaxSize bounds a readings file in bytes.
	MaxSize = 1 << 20
)

var (
	idRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	paperRE = regexp.MustCompile(`^[a-z0-9_-]+$`)
)

// File is a paper's readings file, specs/<paper>/readings.yaml: the
// alternative readings of the paper worth comparing, each as parameter
// overrides on the paper's specs.
type File struct {
	// Paper is the paper's key, the name of the folder under specs/.
	Paper string
	// Path is where the file was read from ("" when parsed from bytes).
	Path string
	// Readings are in file order.
	Readings []Reading
}

// Reading is one alternative reading of the paper.
type Reading struct {
	// ID is unique in the file ([a-z0-9][a-z0-9_-]*, at most [MaxID]
	// bytes, not [DefaultID]).
	ID string
	// Summary says in one line what the reading changes.
	Summary string
	// Text is the paper's words the reading rests on, at most one
	// sentence ("" when none).
	Text string
	// Set are the overrides, applied in order.
	Set []Override
	// Line is the line of the reading's entry; path its key path.
	Line int
	path string
}

// Override sets policy parameters on the policy entries of the paper's
// specs it matches: every entry whose policy name is one of Policies,
// narrowed to the entries labelled one of Labels when given, in the
// figure groups Groups (every group of the paper when empty).
type Override struct {
	Policies []string
	Labels   []string
	Groups   []string
	// Params are the parameters set, in file order; each replaces the
	// entry's parameter of that name or adds it.
	Params []Param
	path   string
}

// Param is one parameter an override sets: a value or a list of values,
// written into the spec as given.
type Param struct {
	Name string
	// Value is the YAML value as written in the readings file.
	Value *yaml.Node
	path  string
}

// Text returns the value as written, in YAML flow style ("true",
// "[1, 2]").
func (p *Param) Text() string {
	if p.Value.Kind == yaml.ScalarNode {
		return p.Value.Value
	}
	var vals []string
	for _, c := range p.Value.Content {
		vals = append(vals, c.Value)
	}
	return "[" + strings.Join(vals, ", ") + "]"
}

// Group is one figure group of the paper and its loaded spec.
type Group struct {
	Name string
	Spec *sweep.Spec
}

// Options tune [Parse].
type Options struct {
	// Paper, when set, must equal the file's paper key.
	Paper string
	// Groups are the paper's figure groups with their specs. When not
	// nil, every group an override names must be one of them, every
	// override must match a policy entry of its groups, and each reading
	// is applied to every spec, which must then parse (so a parameter
	// the policy does not have, or a bad value, is reported at the
	// override that sets it).
	Groups []Group
}

// Load reads and parses a readings file; the paper must be the name of
// the file's folder.
func Load(path string, opts Options) (*File, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() > MaxSize {
		return nil, fmt.Errorf("read readings %s: %d bytes, want at most %d", path, fi.Size(), MaxSize)
	}
	if opts.Paper == "" {
		opts.Paper = filepath.Base(filepath.Dir(path))
	}
	f, err := yamlnode.ParseFile(path, "readings", func(data []byte) (*File, error) { return Parse(data, opts) })
	if f != nil {
		f.Path = path
	}
	return f, err
}

// Parse parses and validates a readings file; it reports every problem at
// once in a [*yamlerr.ValidationError], each with its key path and line.
func Parse(data []byte, opts Options) (*File, error) {
	p := &parser{opts: opts, f: &File{}, lines: map[string]int{}}
	p.w = yamlnode.Collect(p.lines, &p.errs, true, describe)
	p.parse(data)
	if len(p.errs) == 0 && opts.Groups != nil {
		for i := range p.f.Readings {
			p.check(&p.f.Readings[i])
		}
	}
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *yamlerr.FieldError) int { return a.Line - b.Line })
		return nil, &yamlerr.ValidationError{Problems: p.errs, Invalid: ErrInvalid}
	}
	return p.f, nil
}

type parser struct {
	opts  Options
	f     *File
	errs  []*yamlerr.FieldError
	lines map[string]int
	w     yamlnode.Walker
}

func (p *parser) add(path string, n *yaml.Node, err error) { p.w.Add(path, n, err) }

func (p *parser) mapping(n *yaml.Node, path string, f func(key string, v *yaml.Node, path string)) {
	p.w.Mapping(n, path, f)
}

func (p *parser) list(n *yaml.Node, path string) []*yaml.Node { return p.w.List(n, path) }

// describe names a node's shape for error messages.
func describe(n *yaml.Node) string { return yamlnode.Describe(n) }

// str reads a string scalar.
func (p *parser) str(n *yaml.Node, path string) (string, bool) { return p.w.Str(n, path) }

// nonEmpty reads a string scalar that must not be blank.
func (p *parser) nonEmpty(n *yaml.Node, path string) (string, bool) { return p.w.NonEmpty(n, path) }

func (p *parser) parse(data []byte) {
	if len(data) > MaxSize {
		p.add("", nil, problem(yamlerr.ErrValue, "%d bytes, want at most %d", len(data), MaxSize))
		return
	}
	root, ok := p.w.Decode(data, "must be a single YAML document")
	switch {
	case !ok:
		return
	case root == nil:
		p.add("", nil, problem(yamlerr.ErrRequired, "readings file is empty"))
		return
	}
	p.w.Line("", root)
	var havePaper, haveReadings bool
	p.mapping(root, "", func(key string, v *yaml.Node, path string) {
		switch key {
		case "paper":
			havePaper = true
			s, ok := p.str(v, path)
			switch {
			case !ok:
			case !paperRE.MatchString(s):
				p.add(path, v, problem(yamlerr.ErrValue, "%q: a paper key is lower-case letters, digits, _ and -", s))
			case p.opts.Paper != "" && s != p.opts.Paper:
				p.add(path, v, problem(yamlerr.ErrValue, "%q, but the file is in the folder of paper %q", s, p.opts.Paper))
			default:
				p.f.Paper = s
			}
		case "readings":
			haveReadings = true
			items := p.list(v, path)
			if v != nil && v.Kind == yaml.SequenceNode && len(items) == 0 {
				p.add(path, v, problem(yamlerr.ErrRequired, "must list at least one reading"))
			}
			ids := map[string]string{}
			for i, it := range items {
				rp := fmt.Sprintf("%s[%d]", path, i)
				r := p.reading(it, rp)
				if r.ID != "" {
					if prev, ok := ids[r.ID]; ok {
						p.add(rp+".id", nil, problem(yamlerr.ErrValue, "duplicate id %q (also %s)", r.ID, prev))
					}
					ids[r.ID] = rp
				}
				p.f.Readings = append(p.f.Readings, r)
			}
		default:
			p.add(path, v, yamlerr.ErrUnknownKey)
		}
	})
	if root.Kind == yaml.MappingNode {
		if !havePaper {
			p.add("paper", root, yamlerr.ErrRequired)
		}
		if !haveReadings {
			p.add("readings", root, yamlerr.ErrRequired)
		}
	}
}

func (p *parser) reading(n *yaml.Node, path string) Reading {
	r := Reading{path: path}
	if n != nil {
		r.Line = n.Line
	}
	p.w.Line(path, n)
	var haveID, haveSummary, haveSet bool
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "id":
			haveID = true
			s, ok := p.str(v, kp)
			switch {
			case !ok:
			case !idRE.MatchString(s) || len(s) > MaxID:
				p.add(kp, v, problem(yamlerr.ErrValue, "%q: an id is lower-case letters, digits, _ and - (starting with a letter or digit), at most %d bytes", s, MaxID))
			case s == DefaultID:
				p.add(kp, v, problem(yamlerr.ErrValue, "%q names the row of the specs as committed; choose another id", s))
			default:
				r.ID = s
			}
		case "summary":
			haveSummary = true
			if s, ok := p.nonEmpty(v, kp); ok {
				s = strings.Join(strings.Fields(s), " ")
				if len(s) > MaxSummary {
					p.add(kp, v, problem(yamlerr.ErrValue, "%d bytes, want at most %d (one line)", len(s), MaxSummary))
				}
				r.Summary = s
			}
		case "text":
			if s, ok := p.nonEmpty(v, kp); ok {
				if err := claims.OneSentence(s); err != nil {
					p.add(kp, v, problem(yamlerr.ErrValue, "%v", err))
				}
				r.Text = strings.Join(strings.Fields(s), " ")
			}
		case "set":
			haveSet = true
			items := p.list(v, kp)
			if v != nil && v.Kind == yaml.SequenceNode && len(items) == 0 {
				p.add(kp, v, problem(yamlerr.ErrRequired, "must list at least one override"))
			}
			for i, it := range items {
				r.Set = append(r.Set, p.override(it, fmt.Sprintf("%s[%d]", kp, i)))
			}
		default:
			p.add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	if n != nil && n.Kind == yaml.MappingNode {
		for _, k := range []struct {
			have bool
			key  string
		}{{haveID, "id"}, {haveSummary, "summary"}, {haveSet, "set"}} {
			if !k.have {
				p.add(path+"."+k.key, n, yamlerr.ErrRequired)
			}
		}
	}
	return r
}

func (p *parser) override(n *yaml.Node, path string) Override {
	o := Override{path: path}
	p.w.Line(path, n)
	var havePolicy, haveParams bool
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "policy":
			havePolicy = true
			o.Policies = p.names(v, kp, "policy")
		case "label":
			o.Labels = p.names(v, kp, "label")
		case "groups":
			for i, s := range p.names(v, kp, "group") {
				if p.opts.Groups != nil && !slices.ContainsFunc(p.opts.Groups, func(g Group) bool { return g.Name == s }) {
					p.add(fmt.Sprintf("%s[%d]", kp, i), nil, problem(yamlerr.ErrValue, "unknown group %q (valid: %s)", s, strings.Join(groupNames(p.opts.Groups), ", ")))
					continue
				}
				o.Groups = append(o.Groups, s)
			}
		case "params":
			haveParams = true
			rv := yamlnode.Resolve(v)
			if rv != nil && rv.Kind == yaml.MappingNode && len(rv.Content) == 0 {
				p.add(kp, v, problem(yamlerr.ErrRequired, "must set at least one parameter"))
			}
			p.mapping(v, kp, func(name string, pv *yaml.Node, pp string) {
				if !validValue(pv) {
					p.add(pp, pv, problem(yamlerr.ErrType, "must be a value or a non-empty list of values, got %s", describe(pv)))
					return
				}
				o.Params = append(o.Params, Param{Name: name, Value: pv, path: pp})
			})
		default:
			p.add(kp, v, yamlerr.ErrUnknownKey)
		}
	})
	if n != nil && n.Kind == yaml.MappingNode {
		if !havePolicy {
			p.add(path+".policy", n, yamlerr.ErrRequired)
		}
		if !haveParams {
			p.add(path+".params", n, yamlerr.ErrRequired)
		}
	}
	return o
}

// names reads a name or a non-empty list of distinct names.
func (p *parser) names(n *yaml.Node, path, what string) []string {
	if n != nil && n.Kind == yaml.ScalarNode {
		if s, ok := p.nonEmpty(n, path); ok {
			return []string{s}
		}
		return nil
	}
	items := p.list(n, path)
	if n != nil && n.Kind == yaml.SequenceNode && len(items) == 0 {
		p.add(path, n, problem(yamlerr.ErrRequired, "must name at least one %s", what))
	}
	var out []string
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		s, ok := p.nonEmpty(it, ip)
		if !ok {
			continue
		}
		if slices.Contains(out, s) {
			p.add(ip, it, problem(yamlerr.ErrValue, "%s %q listed twice", what, s))
			continue
		}
		p.w.Line(ip, it)
		out = append(out, s)
	}
	return out
}

// validValue reports whether n is a non-null scalar or a non-empty list of
// them: what a spec's params take.
func validValue(n *yaml.Node) bool {
	scalar := func(n *yaml.Node) bool {
		return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null"
	}
	if n == nil {
		return false
	}
	if n.Kind == yaml.SequenceNode {
		if len(n.Content) == 0 {
			return false
		}
		for _, c := range n.Content {
			if !scalar(yamlnode.Resolve(c)) {
				return false
			}
		}
		return true
	}
	return scalar(n)
}

func groupNames(groups []Group) []string {
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.Name
	}
	return out
}

// SetText returns the reading's overrides as one line, for the tables:
// `ss "SS SF=2" in fig07-14: defer_start=true; is: resume_factor=1`.
func (r *Reading) SetText() string {
	var parts []string
	for _, o := range r.Set {
		s := strings.Join(o.Policies, ", ")
		if len(o.Labels) > 0 {
			var q []string
			for _, l := range o.Labels {
				q = append(q, strconv.Quote(l))
			}
			s += " " + strings.Join(q, ", ")
		}
		if len(o.Groups) > 0 {
			s += " in " + strings.Join(o.Groups, ", ")
		}
		var ps []string
		for i := range o.Params {
			ps = append(ps, o.Params[i].Name+"="+o.Params[i].Text())
		}
		parts = append(parts, s+": "+strings.Join(ps, ", "))
	}
	return strings.Join(parts, "; ")
}
