package sweep

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// commandItems reads the command parameter of an external policy at
// path (files: the files parameter, a list of file names, read the same
// way). It is a string, split into the program and its arguments as a
// shell would split it, without running one (external.SplitCommand); a
// list, one argument per item (command: [python3, easy.py]); or, to
// sweep over commands, a list of such lists. Each value is
// returned as an item whose node holds the command as one string
// (external.JoinCommand of its arguments), so its identity is the same
// however it was written.
func (p *parser) commandItems(n *yaml.Node, path string, files bool) []item {
	n = yamlnode.Resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return p.scalars(n, path)
	}
	if len(n.Content) == 0 {
		p.add(path, n, problem(yamlerr.ErrRequired, "must not be an empty list"))
		return nil
	}
	first := yamlnode.Resolve(n.Content[0])
	if first == nil || first.Kind != yaml.SequenceNode {
		// One command, as a list of its arguments.
		if it, ok := p.commandArgs(n, path, files); ok {
			return []item{it}
		}
		return nil
	}
	// An axis of commands, each a list of arguments.
	var out []item
	for i, c := range n.Content {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.line(ip, c)
		if rc := yamlnode.Resolve(c); rc == nil || rc.Kind != yaml.SequenceNode {
			p.add(ip, c, problem(yamlerr.ErrType, "must be a list of arguments like the other commands of the list, got %s", describe(c)))
			continue
		}
		if it, ok := p.commandArgs(c, ip, files); ok {
			out = append(out, it)
		}
	}
	return out
}

// commandArgs reads one command given as a list of arguments (files: a
// list of file names).
func (p *parser) commandArgs(n *yaml.Node, path string, files bool) (item, bool) {
	n = yamlnode.Resolve(n)
	args := make([]string, 0, len(n.Content))
	ok := true
	for i, c := range n.Content {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.line(ip, c)
		c = yamlnode.Resolve(c)
		if c == nil || c.Kind != yaml.ScalarNode || c.ShortTag() == "!!null" {
			p.add(ip, c, problem(yamlerr.ErrType, "must be one argument (a string), got %s", describe(c)))
			ok = false
			continue
		}
		if files && c.Value == "" {
			p.add(ip, c, problem(yamlerr.ErrValue, "an empty file name"))
			ok = false
			continue
		}
		if i == 0 && !files && strings.ContainsAny(c.Value, " \t") {
			p.add(ip, c, problem(yamlerr.ErrValue, "program %q holds a space: a list gives the program and its arguments one per item (command: [python3, policy.py]); to sweep over commands, give a list of such lists", c.Value))
			ok = false
			continue
		}
		args = append(args, c.Value)
	}
	if !ok {
		return item{}, false
	}
	if err := external.CheckArgs(args); err != nil {
		p.add(path, n, problem(yamlerr.ErrValue, "%v", err))
		return item{}, false
	}
	joined := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: external.JoinCommand(args), Line: n.Line, Column: n.Column}
	return item{joined, path}, true
}
