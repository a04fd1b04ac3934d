package readings

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// Apply returns the spec of the figure group with the reading's overrides
// applied: in every policy entry an override matches, each parameter it
// sets replaces the entry's parameter of that name or is added. The spec
// is renamed <name>-<reading id>, so the reading's run is recorded apart
// from the default's; labels, workloads and everything else are as
// committed, so the claims select the same rows and a task whose policy
// parameters the reading does not change has the same task ID (its result
// comes from the cache). changed is false, and s itself is returned, when
// no override applies to the group.
func (r *Reading) Apply(group string, s *sweep.Spec) (out *sweep.Spec, changed bool, err error) {
	a, err := r.apply(group, s.Raw)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s, group %s: %w", r.ID, group, err)
	}
	if !a.changed {
		return s, false, nil
	}
	out, err = sweep.Parse(a.data, s.BaseDir)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s, group %s: %w", r.ID, group, err)
	}
	return out, true, nil
}

// applied is the outcome of applying a reading to a spec's text.
type applied struct {
	data    []byte
	changed bool
	// matched counts the policy entries each override matched; hits
	// holds the policy names and labels of each that matched an entry
	// ([hit]).
	matched []int
	hits    map[string]bool
	// origin maps a key path of the new spec ("policies[2].params.x") to
	// the override parameter that set it.
	origin map[string]*Param
	// dup lists parameters set twice on one entry.
	dup []dupParam
	// entries describes the spec's policy entries ("ss \"SS SF=2\"").
	entries []string
}

type dupParam struct {
	p     *Param
	entry string
}

// apply applies the reading to a spec's YAML text.
func (r *Reading) apply(group string, raw []byte) (*applied, error) {
	root, err := yamlnode.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode spec: %w", err)
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, errors.New("spec is not a mapping")
	}
	a := &applied{matched: make([]int, len(r.Set)), hits: map[string]bool{}, origin: map[string]*Param{}}
	var policies, name *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "policies":
			policies = yamlnode.Resolve(root.Content[i+1])
		case "name":
			name = yamlnode.Resolve(root.Content[i+1])
		}
	}
	if policies == nil || policies.Kind != yaml.SequenceNode {
		return nil, errors.New("spec has no list of policies")
	}
	for ei, en := range policies.Content {
		entry := yamlnode.Resolve(en)
		if entry == nil || entry.Kind != yaml.MappingNode {
			continue
		}
		pname, label := scalarAt(entry, "name"), scalarAt(entry, "label")
		if label == "" {
			label = pname
		}
		a.entries = append(a.entries, fmt.Sprintf("%s %q", pname, label))
		var params *yaml.Node // the entry's own copy, made on first use
		for k := range r.Set {
			o := &r.Set[k]
			if !slices.Contains(o.Policies, pname) || (len(o.Labels) > 0 && !slices.Contains(o.Labels, label)) || (len(o.Groups) > 0 && !slices.Contains(o.Groups, group)) {
				continue
			}
			a.matched[k]++
			a.hits[hit(k, "policy", pname)] = true
			a.hits[hit(k, "label", label)] = true
			if params == nil {
				params = ownParams(entry)
			}
			for j := range o.Params {
				prm := &o.Params[j]
				path := fmt.Sprintf("policies[%d].params.%s", ei, prm.Name)
				if prev, ok := a.origin[path]; ok && prev != prm {
					a.dup = append(a.dup, dupParam{prm, fmt.Sprintf("%s %q", pname, label)})
				}
				a.origin[path] = prm
				setKey(params, prm.Name, cloneNode(prm.Value))
				a.changed = true
			}
		}
	}
	if !a.changed {
		return a, nil
	}
	if name != nil && name.Kind == yaml.ScalarNode {
		name.Value += "-" + r.ID
	}
	a.data, err = yaml.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("encode spec: %w", err)
	}
	return a, nil
}

// hit is the key of [applied.hits]: override k's policy name or label.
func hit(k int, what, name string) string { return fmt.Sprintf("%d\x00%s\x00%s", k, what, name) }

// scalarAt returns the value of a mapping's scalar key, or "".
func scalarAt(m *yaml.Node, key string) string {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			if v := yamlnode.Resolve(m.Content[i+1]); v != nil && v.Kind == yaml.ScalarNode {
				return v.Value
			}
		}
	}
	return ""
}

// ownParams returns the entry's params mapping as a node of the entry's
// own (a copy, so a mapping shared through an alias is left alone),
// adding an empty one when the entry has none.
func ownParams(entry *yaml.Node) *yaml.Node {
	for i := 0; i+1 < len(entry.Content); i += 2 {
		if entry.Content[i].Value == "params" {
			v := yamlnode.Resolve(entry.Content[i+1])
			cp := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			if v != nil && v.Kind == yaml.MappingNode {
				cp.Style = v.Style
				cp.Content = slices.Clone(v.Content)
			}
			entry.Content[i+1] = cp
			return cp
		}
	}
	cp := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	entry.Content = append(entry.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "params"}, cp)
	return cp
}

// setKey sets a mapping's key to v, replacing its value or appending it.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// cloneNode copies a value node (a scalar or a list of scalars, aliases
// resolved), without its comments and positions.
func cloneNode(n *yaml.Node) *yaml.Node {
	n = yamlnode.Resolve(n)
	cp := &yaml.Node{Kind: n.Kind, Tag: n.Tag, Value: n.Value, Style: n.Style}
	for _, c := range n.Content {
		cp.Content = append(cp.Content, cloneNode(c))
	}
	if cp.Kind == yaml.SequenceNode {
		cp.Style = yaml.FlowStyle
	}
	return cp
}

// paramPathRE finds the parameter a spec problem is about.
var paramPathRE = regexp.MustCompile(`^policies\[\d+\]\.params\.[^.\[]+`)

// check applies the reading to every group's spec and reports, at the
// override that causes it, every problem: an override that matches no
// policy entry, a parameter set twice on one entry, and every problem of
// a spec with the reading applied (a parameter the policy does not have,
// a bad value, a combination the policy rejects).
func (p *parser) check(r *Reading) {
	c := checked{matched: make([]int, len(r.Set)), hits: map[string]bool{}, entries: map[string][]string{}, reported: map[*Param]bool{}}
	for _, g := range p.opts.Groups {
		p.checkGroup(r, g, &c)
	}
	for k, n := range c.matched {
		p.checkMatch(&r.Set[k], k, n, &c)
	}
}

// checked gathers what a reading's overrides matched over every group.
type checked struct {
	matched  []int               // per override: the policy entries it matched
	hits     map[string]bool     // the policy names and labels that matched ([hit])
	entries  map[string][]string // per group: its policy entries
	reported map[*Param]bool     // parameters already reported as set twice
}

// checkGroup applies the reading to group g's spec, adds what it matched
// to c and reports the parameters it sets twice and every problem of the
// spec with the reading applied.
func (p *parser) checkGroup(r *Reading, g Group, c *checked) {
	a, err := r.apply(g.Name, g.Spec.Raw)
	if err != nil {
		p.add(r.path, nil, problem(ErrSpec, "group %s: %v", g.Name, err))
		return
	}
	c.entries[g.Name] = a.entries
	for k, n := range a.matched {
		c.matched[k] += n
	}
	for h := range a.hits {
		c.hits[h] = true
	}
	for _, d := range a.dup {
		if !c.reported[d.p] {
			c.reported[d.p] = true
			p.add(d.p.path, d.p.Value, problem(yamlerr.ErrValue, "group %s: entry %s: %s is set by another override of this reading too", g.Name, d.entry, d.p.Name))
		}
	}
	if !a.changed {
		return
	}
	_, err = sweep.Parse(a.data, g.Spec.BaseDir)
	var ve *yamlerr.ValidationError
	if !errors.As(err, &ve) {
		if err != nil {
			p.add(r.path, nil, problem(ErrSpec, "group %s: %v", g.Name, err))
		}
		return
	}
	for _, fe := range ve.Problems {
		if prm := a.origin[paramPathRE.FindString(fe.Path)]; prm != nil {
			p.add(prm.path, prm.Value, problem(ErrSpec, "group %s: %s: %v", g.Name, fe.Path, fe.Err))
			continue
		}
		p.add(r.path+".set", nil, problem(ErrSpec, "group %s: %v", g.Name, fe))
	}
}

// checkMatch reports override o (the k-th of its reading, which matched n
// policy entries over every group) when it matched none, naming the
// entries its groups have, or when one of its policy names or labels
// matched nothing its other conditions select.
func (p *parser) checkMatch(o *Override, k, n int, c *checked) {
	if n > 0 {
		// Each name of a list must match too.
		for _, name := range o.Policies {
			if !c.hits[hit(k, "policy", name)] {
				p.add(o.path+".policy", nil, problem(ErrNoMatch, "policy %s matches no entry the override's other conditions select", name))
			}
		}
		for _, name := range o.Labels {
			if !c.hits[hit(k, "label", name)] {
				p.add(o.path+".label", nil, problem(ErrNoMatch, "label %q matches no entry the override's other conditions select", name))
			}
		}
		return
	}
	groups := o.Groups
	if len(groups) == 0 {
		groups = groupNames(p.opts.Groups)
	}
	var have []string
	for _, g := range groups {
		for _, e := range c.entries[g] {
			if !slices.Contains(have, e) {
				have = append(have, e)
			}
		}
	}
	what := fmt.Sprintf("policy %s", strings.Join(o.Policies, " or "))
	if len(o.Labels) > 0 {
		what += fmt.Sprintf(" labelled %s", strings.Join(o.Labels, " or "))
	}
	p.add(o.path+".policy", nil, problem(ErrNoMatch, "no entry of %s in groups %s (entries: %s)", what, strings.Join(groups, ", "), strings.Join(have, ", ")))
}
