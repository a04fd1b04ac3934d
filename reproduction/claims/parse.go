package claims

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// File is a paper's claims file, specs/<paper>/claims.yaml.
type File struct {
	// Paper is the paper's key, the name of the folder under specs/.
	Paper string
	// Path is where the file was read from ("" when parsed from bytes).
	Path string
	// Defaults is the selection every claim's select starts from.
	Defaults Selection
	// Claims are in file order, each one expanded by its each.
	Claims []Claim
	// Headlines are the paper's headline results.
	Headlines []Headline
}

// Options tune [Parse].
type Options struct {
	// Groups are the paper's figure groups; when not nil, every
	// selection's group must be one of them.
	Groups []string
	// Paper, when set, must equal the file's paper key.
	Paper string
}

// MaxQuote bounds a quote's length in bytes (about one long sentence).
const MaxQuote = 400

// FileName is the name of a paper's claims file in its specs folder.
const FileName = "claims.yaml"

var (
	idRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	paperRE = regexp.MustCompile(`^[a-z0-9_-]+$`)
	keyRE   = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
)

// Load reads and parses a claims file; the paper must be the name of the
// file's folder.
func Load(path string, opts Options) (*File, error) {
	if opts.Paper == "" {
		opts.Paper = filepath.Base(filepath.Dir(path))
	}
	f, err := yamlnode.ParseFile(path, "claims", func(data []byte) (*File, error) { return Parse(data, opts) })
	if f != nil {
		f.Path = path
	}
	return f, err
}

// Parse parses and validates a claims file; it reports every problem at
// once in a [*yamlerr.ValidationError], each with its key path and line.
func Parse(data []byte, opts Options) (*File, error) {
	p := &parser{opts: opts, f: &File{}, lines: map[string]int{}}
	p.w = yamlnode.Collect(p.lines, &p.errs, true, describe)
	p.parse(data)
	if len(p.errs) > 0 {
		return nil, &yamlerr.ValidationError{Problems: p.errs, Invalid: ErrInvalid}
	}
	return p.f, nil
}

type parser struct {
	opts  Options
	f     *File
	errs  []*yamlerr.FieldError
	lines map[string]int
	w     yamlnode.Walker // the walker the parser shares with the spec and readings parsers
}

// add records a problem at path. Its line is n's, or else the line of the
// closest enclosing key path seen while parsing.
func (p *parser) add(path string, n *yaml.Node, err error) { p.w.Add(path, n, err) }

// describe names a node's shape for error messages.
func describe(n *yaml.Node) string { return yamlnode.Describe(n) }

// mapping calls f for every key of a mapping node in order, reporting
// non-mappings, non-string keys and duplicate keys.
func (p *parser) mapping(n *yaml.Node, path string, f func(key string, v *yaml.Node, path string)) {
	p.w.Mapping(n, path, f)
}

// list returns the items of a sequence node (aliases resolved), reporting
// a node that is not a list.
func (p *parser) list(n *yaml.Node, path string) []*yaml.Node { return p.w.List(n, path) }

func isScalar(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null"
}

// text returns a scalar's text (any scalar: numbers and booleans as
// written).
func (p *parser) text(n *yaml.Node, path string) (string, bool) {
	n = yamlnode.Resolve(n)
	if !isScalar(n) {
		p.add(path, n, problem(yamlerr.ErrType, "must be a single value, got %s", describe(n)))
		return "", false
	}
	return n.Value, true
}

func (p *parser) str(n *yaml.Node, path string) (string, bool) { return p.w.Str(n, path) }

func (p *parser) nonEmpty(n *yaml.Node, path string) (string, bool) { return p.w.NonEmpty(n, path) }

func (p *parser) number(n *yaml.Node, path string) (float64, bool) { return p.w.Number(n, path) }

// name reads a non-empty string that must match re, reporting "%q rule"
// when it does not; ok is false only when there is no string (a
// mismatched one is still returned, as the claim's value).
func (p *parser) name(n *yaml.Node, path string, re *regexp.Regexp, rule string) (string, bool) {
	s, ok := p.nonEmpty(n, path)
	if ok && !re.MatchString(s) {
		p.add(path, n, problem(yamlerr.ErrValue, "%q %s", s, rule))
	}
	return s, ok
}

func (p *parser) boolean(n *yaml.Node, path string) (bool, bool) {
	n = yamlnode.Resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, true
		}
	}
	p.add(path, n, problem(yamlerr.ErrType, "must be true or false, got %s", describe(n)))
	return false, false
}

// values returns a scalar or a non-empty list of scalars as text.
func (p *parser) values(n *yaml.Node, path string) []string {
	n = yamlnode.Resolve(n)
	if n != nil && n.Kind == yaml.SequenceNode {
		if len(n.Content) == 0 {
			p.add(path, n, problem(yamlerr.ErrRequired, "must not be an empty list"))
			return nil
		}
		var out []string
		for i, c := range n.Content {
			if v, ok := p.text(c, fmt.Sprintf("%s[%d]", path, i)); ok {
				out = append(out, v)
			}
		}
		return out
	}
	if v, ok := p.text(n, path); ok {
		return []string{v}
	}
	return nil
}

func oneOf[T ~string](v T, valid []T) bool { return slices.Contains(valid, v) }

func joinStrings[T ~string](vs []T) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return strings.Join(out, ", ")
}

func (p *parser) parse(data []byte) {
	root, ok := p.w.DecodeRoot(data, "must be a single YAML document", "claims file")
	if !ok {
		return
	}
	p.lines[""] = root.Line // a missing top-level key points at the mapping
	var havePaper, haveClaims bool
	var claimNodes, headNodes []*yaml.Node
	p.mapping(root, "", func(key string, v *yaml.Node, path string) {
		switch key {
		case "paper":
			havePaper = true
			if s, ok := p.nonEmpty(v, path); ok {
				switch {
				case !paperRE.MatchString(s):
					p.add(path, v, problem(yamlerr.ErrValue, "%q must match [a-z0-9_-]+", s))
				case p.opts.Paper != "" && s != p.opts.Paper:
					p.add(path, v, problem(yamlerr.ErrValue, "%q is not the folder's name %q", s, p.opts.Paper))
				}
				p.f.Paper = s
			}
		case "defaults":
			p.f.Defaults = p.selection(v, path)
			if p.f.Defaults.Baseline != nil {
				p.add(path+".baseline", v, problem(yamlerr.ErrValue, "a baseline belongs to the select, a or b of an order or monotonic claim, not to the defaults"))
				p.f.Defaults.Baseline = nil
			}
		case "claims":
			haveClaims = true
			claimNodes = p.list(v, path)
			if v.Kind == yaml.SequenceNode && len(claimNodes) == 0 {
				p.add(path, v, problem(yamlerr.ErrRequired, "must not be empty"))
			}
		case "headlines":
			headNodes = p.list(v, path)
		default:
			p.add(path, v, problem(yamlerr.ErrUnknownKey, "unknown key (valid: paper, defaults, claims, headlines)"))
		}
	})
	if !havePaper {
		p.add("paper", nil, problem(yamlerr.ErrRequired, "missing"))
	}
	if !haveClaims {
		p.add("claims", nil, problem(yamlerr.ErrRequired, "missing"))
	}
	ids := map[string]string{}
	for i, n := range claimNodes {
		path := fmt.Sprintf("claims[%d]", i)
		for _, c := range p.claim(n, path) {
			if prev, dup := ids[c.ID]; dup {
				p.add(path+".id", nil, problem(yamlerr.ErrValue, "id %q is already used at %s", c.ID, prev))
				continue
			}
			ids[c.ID] = path
			p.f.Claims = append(p.f.Claims, c)
		}
	}
	p.headlines(headNodes)
}

var claimKeys = []string{"id", "figure", "quote", "kind", "must", "reason", "select", "a", "b", "form", "op", "factor",
	"along", "values", "direction", "spearman", "expected", "grade", "each", "pairwise", "single_run",
	"word", "class", "departure"}

// each is one key of a claim's each with its values.
type each struct {
	key    string
	values []string
}

// claimInput is what the key pass of a claim finds besides the Claim's
// own fields: its selections before the defaults and overlays, which
// keys it has, its grade (parsed once the kind is known) and its each.
type claimInput struct {
	sel, a, b Selection
	have      map[string]bool
	grade     *yaml.Node
	gradePath string
	eachs     []each
}

// claim parses one claim and returns it expanded by its each.
func (p *parser) claim(n *yaml.Node, path string) []Claim {
	c := Claim{Line: n.Line, Factor: 1}
	nErrs := len(p.errs)
	in := claimInput{have: map[string]bool{}}
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		in.have[key] = true
		p.claimKey(&c, &in, key, v, kp)
	})
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for _, req := range []struct {
		key string
		ok  bool
	}{{"id", c.ID != ""}, {"figure", c.Figure != ""}, {"quote", c.Quote != ""}, {"kind", c.Kind != ""}} {
		if !req.ok && p.lines[path+"."+req.key] == 0 {
			p.add(path+"."+req.key, n, problem(yamlerr.ErrRequired, "missing"))
		}
	}
	if in.grade != nil {
		c.Grade = p.grade(in.grade, in.gradePath, c.Kind)
	}
	c.Select = p.f.Defaults.overlay(in.sel)
	c.Source = c.ID
	p.kindRules(&c, &in, path, n)
	if len(p.errs) > nErrs {
		return nil
	}
	// Check the selections now that defaults, overlays and each are applied.
	expanded := expand(c, in.eachs)
	for _, ec := range expanded {
		for _, s := range selectionsOf(&ec) {
			p.checkSelection(s.s, path+"."+s.name, n, &ec)
		}
		p.checkAlongCategories(&ec, path, n)
		if len(p.errs) > nErrs {
			return nil // one report per claim, not one per expansion
		}
	}
	return expanded
}

// claimKey reads the value v of one key of a claim into c or in.
func (p *parser) claimKey(c *Claim, in *claimInput, key string, v *yaml.Node, kp string) {
	read, ok := claimKeyReaders[key]
	if !ok {
		p.add(kp, v, problem(yamlerr.ErrUnknownKey, "unknown key (valid: %s)", strings.Join(claimKeys, ", ")))
		return
	}
	read(p, c, in, v, kp)
}

// claimKeyReader reads the value v (at key path kp) of one key of a claim
// into c or in, reporting a bad value.
type claimKeyReader func(p *parser, c *Claim, in *claimInput, v *yaml.Node, kp string)

// claimKeyReaders are the readers of the keys of a claim (claimKeys).
var claimKeyReaders = map[string]claimKeyReader{
	"id": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.name(v, kp, idRE, "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'"); ok {
			c.ID = s
		}
	},
	"figure": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.nonEmpty(v, kp); ok {
			c.Figure = s
		}
	},
	"quote": (*parser).readQuote,
	"kind": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if k, ok := choice(p, v, kp, "kind", Kinds); ok {
			c.Kind = k
		}
	},
	"must": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) { c.Must, _ = p.boolean(v, kp) },
	"reason": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.nonEmpty(v, kp); ok {
			c.Reason = strings.Join(strings.Fields(s), " ")
		}
	},
	"select": func(p *parser, _ *Claim, in *claimInput, v *yaml.Node, kp string) { in.sel = p.selection(v, kp) },
	"a":      func(p *parser, _ *Claim, in *claimInput, v *yaml.Node, kp string) { in.a = p.selection(v, kp) },
	"b":      func(p *parser, _ *Claim, in *claimInput, v *yaml.Node, kp string) { in.b = p.selection(v, kp) },
	"form": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := choice(p, v, kp, "form", forms); ok {
			c.Form = s
		}
	},
	"op": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := choice(p, v, kp, "op", []string{"<", "<=", ">", ">="}); ok {
			c.Op = s
		}
	},
	"pairwise":   func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) { c.Pairwise, _ = p.boolean(v, kp) },
	"single_run": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) { c.SingleRun, _ = p.boolean(v, kp) },
	"factor": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if f, ok := p.number(v, kp); ok {
			if f <= 0 {
				p.add(kp, v, problem(yamlerr.ErrValue, "must be > 0, got %v", f))
			}
			c.Factor = f
		}
	},
	"along": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.name(v, kp, keyRE, "is not a column or parameter name"); ok {
			c.Along = s
		}
	},
	"values": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		c.Values = p.values(v, kp)
		if len(c.Values) == 1 {
			p.add(kp, v, problem(yamlerr.ErrValue, "a trend needs at least two points"))
		}
	},
	"direction": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.str(v, kp); ok {
			if s != "increasing" && s != "decreasing" {
				p.add(kp, v, problem(yamlerr.ErrValue, "%q: want increasing or decreasing", s))
			}
			c.Direction = s
		}
	},
	"spearman": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if f, ok := p.number(v, kp); ok {
			if f <= 0 || f > 1 {
				p.add(kp, v, problem(yamlerr.ErrValue, "must be in (0, 1], got %v", f))
			}
			c.Spearman = f
		}
	},
	"expected": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.text(v, kp); ok {
			e, err := ParseExpect(s)
			if err != nil {
				p.add(kp, v, problem(yamlerr.ErrValue, "%v", err))
			}
			c.Expected = e
		}
	},
	"grade": func(_ *parser, _ *Claim, in *claimInput, v *yaml.Node, kp string) { in.grade, in.gradePath = v, kp },
	"each":  func(p *parser, _ *Claim, in *claimInput, v *yaml.Node, kp string) { in.eachs = p.eachs(v, kp) },
	"word": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := choice(p, v, kp, "word", wordNames()); ok {
			c.Word = s
		}
	},
	"class": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := choice(p, v, kp, "class", Classes); ok {
			c.Class = s
		}
	},
	"departure": func(p *parser, c *Claim, _ *claimInput, v *yaml.Node, kp string) {
		if s, ok := p.nonEmpty(v, kp); ok {
			c.Departure = strings.Join(strings.Fields(s), " ")
		}
	},
}

// readQuote reads a claim's quote: at most [MaxQuote] bytes and one
// sentence, its white space collapsed.
func (p *parser) readQuote(c *Claim, _ *claimInput, v *yaml.Node, kp string) {
	s, ok := p.nonEmpty(v, kp)
	if !ok {
		return
	}
	if len(s) > MaxQuote {
		p.add(kp, v, problem(yamlerr.ErrValue, "%d bytes; a quote is at most one sentence (%d bytes)", len(s), MaxQuote))
	} else if i := secondSentence(s); i >= 0 {
		p.add(kp, v, problem(yamlerr.ErrValue, "more than one sentence (the second starts at %q); quote one", clip(s[i:], 30)))
	}
	c.Quote = strings.Join(strings.Fields(s), " ")
}

// choice reads a string that should be one of valid; another value is
// reported as an unknown what and still returned.
func choice[T ~string](p *parser, v *yaml.Node, kp, what string, valid []T) (T, bool) {
	s, ok := p.str(v, kp)
	if ok && !oneOf(T(s), valid) {
		p.add(kp, v, problem(yamlerr.ErrValue, "unknown %s %q (valid: %s)", what, s, joinStrings(valid)))
	}
	return T(s), ok
}

// eachs reads a claim's each: the values that each selection field or
// column named takes.
func (p *parser) eachs(n *yaml.Node, path string) []each {
	var out []each
	p.mapping(n, path, func(key string, v *yaml.Node, ep string) {
		if !keyRE.MatchString(key) {
			p.add(ep, v, problem(yamlerr.ErrValue, "%q is not a selection field or column name", key))
			return
		}
		switch key {
		case "table", "agg", "reps", "where", "per", "batch", "over", "across":
			p.add(ep, v, problem(yamlerr.ErrValue, "each cannot vary %s", key))
			return
		}
		vs := p.values(v, ep)
		if len(vs) > 0 {
			out = append(out, each{key, vs})
		}
	})
	return out
}

// kindRules reports the keys that a claim of c's kind needs and lacks or
// must not have, and sets what follows from the kind (a and b overlaid
// on the selection, the default form).
func (p *parser) kindRules(c *Claim, in *claimInput, path string, n *yaml.Node) {
	k := kindCheck{p: p, c: c, in: in, path: path, n: n}
	k.sides()
	k.otherKindsKeys()
	k.singleRun()
	k.expectation()
	k.baselines()
	k.checkWord()
}

// kindCheck checks the keys of claim c (at path, node n) against its
// kind.
type kindCheck struct {
	p    *parser
	c    *Claim
	in   *claimInput
	path string
	n    *yaml.Node
}

// forbid reports key, when the claim has it, as not used by its kind
// (why says more, after the kind).
func (k *kindCheck) forbid(key string, have bool, why string) {
	if have {
		k.p.add(k.path+"."+key, k.n, problem(yamlerr.ErrValue, "not used by %s claim%s", article(k.c.Kind), why))
	}
}

// need reports key as missing when the claim has no (valid) value for it.
func (k *kindCheck) need(key string, have bool) {
	// A key that is present but bad has been reported already.
	if !have && k.p.lines[k.path+"."+key] == 0 {
		k.p.add(k.path+"."+key, k.n, problem(yamlerr.ErrRequired, "%s claim needs %s", article(k.c.Kind), key))
	}
}

// sides checks a, b and their form and order against the kind: a value,
// trend or invariant reads one selection, a ratio, order or count two
// (overlaid on the selection).
func (k *kindCheck) sides() {
	c, in := k.c, k.in
	switch c.Kind {
	case KindValue, KindMonotonic, KindInvariant:
		k.forbid("a", in.have["a"], " (a and b are for ratio and order claims)")
		k.forbid("b", in.have["b"], " (a and b are for ratio and order claims)")
		if c.Kind != KindMonotonic {
			k.forbid("form", in.have["form"], "")
		}
		k.forbid("op", in.have["op"], "")
		k.forbid("factor", in.have["factor"], "")
		if !in.have["select"] && isZero(k.p.f.Defaults) {
			k.need("select", false)
		}
	case KindRatio, KindOrder, KindCount:
		k.need("a", in.have["a"])
		k.need("b", in.have["b"])
		c.A, c.B = c.Select.overlay(in.a), c.Select.overlay(in.b)
	}
}

// otherKindsKeys reports the keys of other kinds: pairwise (ratios),
// along and values (trends and counts), direction and spearman (trends)
// and single_run (values).
func (k *kindCheck) otherKindsKeys() {
	kind, have := k.c.Kind, k.in.have
	if kind != KindRatio {
		k.forbid("pairwise", have["pairwise"], " (it compares a ratio's two sides batch by batch)")
	}
	if kind != KindMonotonic && kind != KindCount {
		k.forbid("along", have["along"], "")
		k.forbid("values", have["values"], "")
	}
	if kind != KindMonotonic {
		k.forbid("direction", have["direction"], "")
		k.forbid("spearman", have["spearman"], "")
	}
	switch {
	case kind == KindRatio && k.c.Pairwise:
		k.forbid("single_run", have["single_run"], " that is pairwise (single_run pairs the sides replication by replication)")
	case kind != KindValue && kind != KindRatio:
		k.forbid("single_run", have["single_run"], " (trends compare our means; single_run places one number, or a ratio of two numbers of one run, of the paper among our replications)")
	}
}

// singleRun reports a grade or reps on a single-run claim, which neither
// uses.
func (k *kindCheck) singleRun() {
	c, in := k.c, k.in
	if !c.SingleRun {
		return
	}
	if in.grade != nil {
		k.p.add(in.gradePath, in.grade, problem(yamlerr.ErrValue, "not used with single_run (the paper's value is graded by where it falls among our replications, not by a tolerance)"))
	}
	if c.Select.Reps != "" {
		k.p.add(k.path+".select.reps", k.n, problem(yamlerr.ErrValue, "not used with single_run (it compares the paper's value with every replication's, not with their %s)", c.Select.Reps))
	}
}

// expectation checks what the kind needs to grade: expected (with a
// tolerance for a target), op, along and direction, or a count's values;
// a ratio's form defaults to ratio.
func (k *kindCheck) expectation() {
	c, in, p, path, n := k.c, k.in, k.p, k.path, k.n
	switch c.Kind {
	case KindValue, KindRatio:
		k.need("expected", c.Expected.Set)
		if c.Expected.IsTarget && !c.Grade.Agree.Set && !c.SingleRun && (c.Departure != "" || (c.rule() != RuleAbout && c.rule() != RuleSimilar)) {
			p.add(path+".grade.agree", n, problem(yamlerr.ErrRequired, "a number as expected needs a tolerance (grade: {agree: 10%%, partly: 30%%})"))
		}
		if c.Kind == KindRatio && c.Form == "" {
			c.Form = "ratio"
		}
	case KindOrder:
		k.need("op", in.have["op"])
		k.forbid("expected", c.Expected.Set, " (it compares a with factor x b)")
	case KindMonotonic:
		k.need("along", in.have["along"])
		k.need("direction", in.have["direction"])
		k.forbid("expected", c.Expected.Set, " (it states a direction)")
		if c.Along == "category" && !in.have["values"] {
			p.add(path+".values", n, problem(yamlerr.ErrRequired, "a trend along category needs values: the categories in order"))
		}
	case KindInvariant:
		k.need("expected", c.Expected.Set)
		k.forbid("grade", in.grade != nil, " (an invariant holds exactly)")
	case KindCount:
		k.need("op", in.have["op"])
		k.need("along", in.have["along"])
		k.need("values", in.have["values"])
		k.need("expected", c.Expected.Set)
		k.forbid("form", in.have["form"], " (it counts where an order holds)")
		p.checkCount(c, path, n)
	}
}

// baselines checks the baselines of the claim's selections: only the
// sides of an order claim (both or neither) and the selection of a
// monotonic claim have one; form compares a selection with its baseline
// in those kinds, so it needs one, and defaults to ratio. Each problem
// is placed at the line of the key it names (or of its selection).
func (k *kindCheck) baselines() {
	c, in, p, path := k.c, k.in, k.p, k.path
	named := []struct {
		key string
		s   Selection
	}{{"select", in.sel}, {"a", in.a}, {"b", in.b}}
	var with []string
	for _, x := range named {
		if x.s.Baseline != nil {
			with = append(with, x.key)
		}
	}
	switch c.Kind {
	case KindOrder:
		switch {
		case c.A.Baseline != nil && c.B.Baseline == nil:
			p.add(path+".b.baseline", nil, problem(yamlerr.ErrRequired, "an order of two comparisons needs a baseline on both sides (a has one)"))
		case c.A.Baseline == nil && c.B.Baseline != nil:
			p.add(path+".a.baseline", nil, problem(yamlerr.ErrRequired, "an order of two comparisons needs a baseline on both sides (b has one)"))
		}
	case KindMonotonic:
	default:
		for _, w := range with {
			p.add(path+"."+w+".baseline", nil, problem(yamlerr.ErrValue, "not used by %s claim (a baseline is for the sides of order claims and the selection of monotonic claims)", article(c.Kind)))
		}
		return
	}
	if len(with) == 0 && in.have["form"] {
		p.add(path+".form", nil, problem(yamlerr.ErrRequired, "form compares a selection with its baseline: %s claim with form needs a baseline (%s)",
			article(c.Kind), map[Kind]string{KindOrder: "a.baseline and b.baseline", KindMonotonic: "select.baseline"}[c.Kind]))
	}
	if len(with) > 0 && c.Form == "" {
		c.Form = "ratio"
	}
}

// checkAlongCategories checks that every value of a trend or count along
// category is a category of the selection's scheme (checkSelection checks
// the first, as it checks any category).
func (p *parser) checkAlongCategories(c *Claim, path string, n *yaml.Node) {
	if c.Along != "category" || len(c.Values) < 2 {
		return
	}
	sc, err := metrics.LookupScheme(selectionsOf(c)[0].s.Scheme)
	if err != nil {
		return
	}
	for i, v := range c.Values[1:] {
		if !slices.Contains(sc.Labels(), v) {
			p.add(fmt.Sprintf("%s.values[%d]", path, i+1), n, problem(yamlerr.ErrValue, "%q is not a %s category (valid: %s)", v, sc.Name, strings.Join(sc.Labels(), ", ")))
		}
	}
}

// checkCount checks what a count claim counts: the key it varies, its
// values (distinct), and an expectation some count of them satisfies.
func (p *parser) checkCount(c *Claim, path string, n *yaml.Node) {
	switch c.Along {
	case "table", "agg", "reps", "where", "per", "batch", "over", "across":
		p.add(path+".along", n, problem(yamlerr.ErrValue, "a count cannot vary %s", c.Along))
	}
	for i, v := range c.Values {
		if slices.Contains(c.Values[:i], v) {
			p.add(fmt.Sprintf("%s.values[%d]", path, i), n, problem(yamlerr.ErrValue, "%q is listed twice", v))
		}
	}
	if !c.Expected.Set || len(c.Values) < 2 {
		return
	}
	for k := 0; k <= len(c.Values); k++ {
		if _, _, in := c.Expected.distance(float64(k)); in {
			return
		}
	}
	p.add(path+".expected", n, problem(yamlerr.ErrValue, "no count of the %d values satisfies %s", len(c.Values), c.Expected.Text))
}

// abbreviations end with a period without ending a sentence.
var abbreviations = []string{"al.", "Fig.", "Figs.", "fig.", "e.g.", "i.e.", "vs.", "etc.", "Eq.", "No.", "Sec.", "approx.", "resp.", "cf.", "Dr.", "St."}

// sentenceBreakRE finds a sentence end followed by the start of another.
var sentenceBreakRE = regexp.MustCompile(`[.!?]["')]?\s+["'(]?[A-Z]`)

// secondSentence returns where a second sentence starts in s, or -1.
func secondSentence(s string) int {
	for _, loc := range sentenceBreakRE.FindAllStringIndex(s, -1) {
		word := s[:loc[0]+1]
		if k := strings.LastIndexAny(word, " \t\n("); k >= 0 {
			word = word[k+1:]
		}
		abbr := false
		for _, a := range abbreviations {
			abbr = abbr || word == a
		}
		// A single capital letter and a period is an initial ("A. Smith").
		if !abbr && !(len(word) == 2 && word[0] >= 'A' && word[0] <= 'Z') {
			return loc[1] - 1
		}
	}
	return -1
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// alongNoun names what runs along a key: a trend or a count.
func alongNoun(k Kind) string {
	if k == KindCount {
		return "count"
	}
	return "trend"
}

// article returns the kind with "a" or "an" before it.
func article(k Kind) string {
	if strings.ContainsAny(string(k)[:min(1, len(k))], "aeiou") {
		return "an " + string(k)
	}
	return "a " + string(k)
}

func isZero(s Selection) bool { return s.String() == "table=tasks" }

var selFields = []string{"group", "table", "metric", "scheme", "category", "setting", "per", "batch", "over", "across"}

func isSelField(k string) bool { return slices.Contains(selFields, k) }

// selectionsOf returns a claim's selections by name.
func selectionsOf(c *Claim) []struct {
	name string
	s    Selection
} {
	type ns = struct {
		name string
		s    Selection
	}
	out := []ns{{"select", c.Select}}
	if c.Kind == KindRatio || c.Kind == KindOrder || c.Kind == KindCount {
		out = []ns{{"a", c.A}, {"b", c.B}}
	}
	for _, x := range out {
		if x.s.Baseline != nil {
			out = append(out, ns{x.name + ".baseline", x.s.base()})
		}
	}
	return out
}

// expand returns one claim per combination of the each values, with the
// values set in every selection and appended to the id.
func expand(c Claim, eachs []each) []Claim {
	out := []Claim{c}
	for _, eh := range eachs {
		var next []Claim
		for _, base := range out {
			for _, v := range eh.values {
				x := base
				x.Values = slices.Clone(base.Values)
				set := func(s Selection) Selection {
					o := Selection{}
					switch eh.key {
					case "group":
						o.Group = v
					case "metric":
						o.Metric = v
					case "scheme":
						o.Scheme = v
					case "category":
						o.Category = v
					case "setting":
						o.Setting = v
					default:
						o.Where = []Filter{{Key: eh.key, Values: []string{v}}}
					}
					return s.overlay(o)
				}
				x.Select, x.A, x.B = set(x.Select), set(x.A), set(x.B)
				if strings.HasSuffix(x.ID, "]") {
					x.ID = strings.TrimSuffix(x.ID, "]") + "," + v + "]"
				} else {
					x.ID += "[" + v + "]"
				}
				next = append(next, x)
			}
		}
		out = next
	}
	return out
}

var selKeys = []string{"group", "table", "metric", "scheme", "category", "setting", "where", "agg", "reps", "per", "batch", "over", "across", "baseline"}

// The baseline's reader reads a selection itself, so it joins the
// readers here rather than in their table's initializer.
func init() { selKeyReaders["baseline"] = (*parser).readBaseline }

// selection parses a selection mapping (not yet checked for
// completeness: defaults and overlays come first).
func (p *parser) selection(n *yaml.Node, path string) Selection {
	var s Selection
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		read, ok := selKeyReaders[key]
		if !ok {
			p.add(kp, v, problem(yamlerr.ErrUnknownKey, "unknown key (valid: %s)", strings.Join(selKeys, ", ")))
			return
		}
		read(p, &s, v, kp)
	})
	return s
}

// selKeyReader reads the value v (at key path kp) of one key of a
// selection into s, reporting a bad value.
type selKeyReader func(p *parser, s *Selection, v *yaml.Node, kp string)

// selKeyReaders are the readers of the keys of a selection (selKeys).
var selKeyReaders = map[string]selKeyReader{
	"group": func(p *parser, s *Selection, v *yaml.Node, kp string) { p.selString(&s.Group, v, kp) },
	"table": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selChoice(&s.Table, v, kp, "table", []string{TableSummary, TableTasks, TableJobs})
	},
	"metric": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selString(&s.Metric, v, kp)
		if s.Metric != "" && !keyRE.MatchString(s.Metric) {
			p.add(kp, v, problem(yamlerr.ErrValue, "%q is not a column name", s.Metric))
		}
	},
	"scheme": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selString(&s.Scheme, v, kp)
		if s.Scheme != "" {
			if _, err := metrics.LookupScheme(s.Scheme); err != nil {
				p.add(kp, v, problem(yamlerr.ErrValue, "%v", err))
			}
		}
	},
	"category": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		if x, ok := p.text(v, kp); ok {
			s.Category = x
		}
	},
	"setting": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		if x, ok := p.text(v, kp); ok {
			s.Setting = x
		}
	},
	"agg": func(p *parser, s *Selection, v *yaml.Node, kp string) { p.selChoice(&s.Agg, v, kp, "agg", aggs) },
	"reps": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selChoice(&s.Reps, v, kp, "reps", []string{"mean", "max", "min", "cv"})
	},
	"per": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selChoice(&s.Per, v, kp, "per", []string{PerBatch, PerWeek})
	},
	"batch": (*parser).readBatch,
	"over":  func(p *parser, s *Selection, v *yaml.Node, kp string) { p.selChoice(&s.Over, v, kp, "over", overs) },
	"across": func(p *parser, s *Selection, v *yaml.Node, kp string) {
		p.selChoice(&s.Across, v, kp, "across", acrosses)
	},
	"where": (*parser).readWhere,
}

// selString reads a non-empty string into dst.
func (p *parser) selString(dst *string, v *yaml.Node, kp string) {
	if x, ok := p.nonEmpty(v, kp); ok {
		*dst = x
	}
}

// selChoice reads a non-empty string into dst and reports it as an
// unknown what when it is not one of valid.
func (p *parser) selChoice(dst *string, v *yaml.Node, kp, what string, valid []string) {
	p.selString(dst, v, kp)
	if *dst != "" && !oneOf(*dst, valid) {
		p.add(kp, v, problem(yamlerr.ErrValue, "unknown %s %q (valid: %s)", what, *dst, strings.Join(valid, ", ")))
	}
}

// readBatch reads a selection's batch: a whole number of jobs from 1 to
// 1e9.
func (p *parser) readBatch(s *Selection, v *yaml.Node, kp string) {
	if f, ok := p.number(v, kp); ok {
		if f < 1 || f != math.Trunc(f) || f > 1e9 {
			p.add(kp, v, problem(yamlerr.ErrValue, "a batch is a whole number of jobs >= 1, got %v", f))
		} else {
			s.Batch = int(f)
		}
	}
}

// readBaseline reads a selection's baseline: the selection fields that
// make the selection it is compared with, not empty and without a
// baseline of its own.
func (p *parser) readBaseline(s *Selection, v *yaml.Node, kp string) {
	b := p.selection(v, kp)
	if b.Baseline != nil {
		p.add(kp+".baseline", v, problem(yamlerr.ErrValue, "a baseline is compared with, not compared: it has no baseline of its own"))
		b.Baseline = nil
	}
	if yamlnode.Resolve(v) != nil && yamlnode.Resolve(v).Kind == yaml.MappingNode && b.words("") == "" {
		p.add(kp, v, problem(yamlerr.ErrRequired, "an empty baseline compares the selection with itself: set the fields that differ (setting: NS)"))
	}
	s.Baseline = &b
}

// readWhere reads a selection's where: a filter per column or parameter
// (param_ prefix dropped) that is not a selection field of its own.
func (p *parser) readWhere(s *Selection, v *yaml.Node, kp string) {
	p.mapping(v, kp, func(key string, v *yaml.Node, wp string) {
		k := strings.TrimPrefix(key, "param_")
		if !keyRE.MatchString(k) {
			p.add(wp, v, problem(yamlerr.ErrValue, "%q is not a column or parameter name", key))
			return
		}
		if isSelField(k) {
			p.add(wp, v, problem(yamlerr.ErrValue, "%s is a selection field: write it beside where", k))
			return
		}
		if vs := p.values(v, wp); len(vs) > 0 {
			s.Where = append(s.Where, Filter{Key: k, Values: vs})
		}
	})
}

// checkSelection checks a complete selection (after defaults, overlays
// and each).
func (p *parser) checkSelection(s Selection, path string, n *yaml.Node, c *Claim) {
	// A trend along category or setting sets it at each point.
	switch c.Along {
	case "category":
		if s.Category != "" {
			p.add(path+".category", n, problem(yamlerr.ErrValue, "a %s along category sets the category at each point; leave it out", alongNoun(c.Kind)))
		}
		s.Category = c.Values[0]
	case "setting", "label":
		s.Setting = "x"
	}
	if s.Group == "" {
		p.add(path+".group", n, problem(yamlerr.ErrRequired, "no group (the figure group to read, e.g. fig07-14)"))
	} else if p.opts.Groups != nil && !slices.Contains(p.opts.Groups, s.Group) {
		p.add(path+".group", n, problem(yamlerr.ErrValue, "unknown group %q (valid: %s)", s.Group, strings.Join(p.opts.Groups, ", ")))
	}
	p.checkTable(s, path, n)
	if s.Scheme != "" && s.Category != "" && s.Category != metrics.Overall {
		if sc, err := metrics.LookupScheme(s.Scheme); err == nil && !slices.Contains(sc.Labels(), s.Category) {
			p.add(path+".category", n, problem(yamlerr.ErrValue, "%q is not a %s category (valid: %s, %s)", s.Category, s.Scheme,
				strings.Join(sc.Labels(), ", "), metrics.Overall))
		}
	}
	if c.Kind == KindInvariant && s.Reps != "" {
		p.add(path+".reps", n, problem(yamlerr.ErrValue, "an invariant checks every replication; reps is not used"))
	}
	p.checkPer(s, path, n, c)
}

// checkTable checks a complete selection's metric, scheme, category and
// agg against the table it reads.
func (p *parser) checkTable(s Selection, path string, n *yaml.Node) {
	t := s.table()
	if s.Metric == "" && s.Agg != "count" {
		p.add(path+".metric", n, problem(yamlerr.ErrRequired, "no metric (a column of %s.parquet)", t))
	}
	switch t {
	case TableSummary:
		if s.Scheme == "" {
			p.add(path+".scheme", n, problem(yamlerr.ErrRequired, "a summary selection needs a scheme"))
		}
		if s.Category == "" {
			p.add(path+".category", n, problem(yamlerr.ErrRequired, "a summary selection needs a category (or all)"))
		}
	case TableTasks:
		if s.Scheme != "" || s.Category != "" {
			p.add(path+".scheme", n, problem(yamlerr.ErrValue, "tasks.parquet has no categories: use table summary or jobs"))
		}
		if s.Metric == "share" {
			p.add(path+".metric", n, problem(yamlerr.ErrValue, "share is a summary metric"))
		}
	case TableJobs:
		if s.Agg == "" {
			p.add(path+".agg", n, problem(yamlerr.ErrRequired, "a jobs selection needs an agg (mean, max, min, sum, count)"))
		}
		if (s.Scheme == "") != (s.Category == "") {
			p.add(path+".category", n, problem(yamlerr.ErrRequired, "a jobs selection by category needs both scheme and category"))
		}
	}
}

// checkPer checks the per-batch and per-week keys of a complete
// selection.
func (p *parser) checkPer(s Selection, path string, n *yaml.Node, c *Claim) {
	if s.Per == "" {
		for _, k := range []struct {
			key string
			set bool
		}{{"over", s.Over != ""}, {"across", s.Across != ""}, {"batch", s.Batch != 0}} {
			if k.set {
				p.add(path+"."+k.key, n, problem(yamlerr.ErrValue, "%s combines per-batch or per-week values: it needs per", k.key))
			}
		}
		if c.Pairwise {
			p.add(path+".per", n, problem(yamlerr.ErrRequired, "a pairwise ratio compares per-batch or per-week values: it needs per"))
		}
		return
	}
	if s.table() != TableJobs {
		p.add(path+".table", n, problem(yamlerr.ErrValue, "per groups job rows: it needs table jobs"))
	}
	if s.Over == "" {
		p.add(path+".over", n, problem(yamlerr.ErrRequired, "a per-%s selection needs an over (%s)", s.Per, strings.Join(overs, ", ")))
	}
	if s.Batch != 0 && s.Per != PerBatch {
		p.add(path+".batch", n, problem(yamlerr.ErrValue, "batch is the size of per batch, not per %s", s.Per))
	}
	if c.Kind == KindMonotonic {
		p.add(path+".per", n, problem(yamlerr.ErrValue, "a trend reads one number per point: per is for value, ratio, order and invariant claims"))
	}
	if c.Pairwise {
		if s.Across != "" {
			p.add(path+".across", n, problem(yamlerr.ErrValue, "a pairwise ratio pairs one task of a with one of b: across is not used"))
		}
		if c.A.Per != c.B.Per || c.A.Over != c.B.Over || c.A.batch() != c.B.batch() {
			p.add(path+".per", n, problem(yamlerr.ErrValue, "a pairwise ratio needs the same per, batch and over on both sides"))
		}
	}
}

// grade parses a grade mapping.
func (p *parser) grade(n *yaml.Node, path string, kind Kind) Grade {
	var g Grade
	p.mapping(n, path, func(key string, v *yaml.Node, kp string) {
		switch key {
		case "agree", "partly":
			if kind == KindMonotonic && key == "partly" {
				if f, ok := p.number(v, kp); ok {
					if f < -1 || f > 1 {
						p.add(kp, v, problem(yamlerr.ErrValue, "a monotonic claim's partly is a Spearman correlation in [-1, 1], got %v", f))
					}
					g.PartlyRho, g.HasPartlyRho = f, true
				}
				return
			}
			s, ok := p.text(v, kp)
			if !ok {
				return
			}
			t, err := ParseTol(s)
			if err != nil {
				p.add(kp, v, problem(yamlerr.ErrValue, "%v", err))
				return
			}
			if key == "agree" {
				g.Agree = t
			} else {
				g.Partly = t
			}
		default:
			p.add(kp, v, problem(yamlerr.ErrUnknownKey, "unknown key (valid: agree, partly)"))
		}
	})
	if g.Agree.Set && g.Partly.Set && g.Agree.Relative == g.Partly.Relative && g.Partly.Value < g.Agree.Value {
		p.add(path+".partly", n, problem(yamlerr.ErrValue, "partly (%s) is tighter than agree (%s)", g.Partly, g.Agree))
	}
	return g
}
