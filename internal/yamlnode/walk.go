package yamlnode

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/yamlerr"
)

// Walker is what the validating parsers share to walk a node tree: it
// records the line of every key path it passes and reports each problem
// with its key path and line (the node's own, else that of the nearest
// enclosing key path seen).
type Walker struct {
	// Lines maps key paths ("claims[3].select") to their lines; "" may
	// hold the root's.
	Lines map[string]int
	// Report receives each problem: key path, line (0: unknown), error.
	Report func(path string, line int, err error)
	// Describe names a node's shape in messages ("a list", "null").
	Describe func(n *yaml.Node) string
	// lastLine is the number of lines of the text Decode read ([Lines];
	// 0: none): the YAML parser gives a node that ends the text, such as
	// the empty key of "?", the line after it.
	lastLine int
}

// Collect returns a Walker that records key path lines in lines and
// appends each problem to *errs as a [yamlerr.FieldError], with ownLine as its
// OwnLine; describe names nodes in messages.
func Collect(lines map[string]int, errs *[]*yamlerr.FieldError, ownLine bool, describe func(n *yaml.Node) string) Walker {
	return Walker{
		Lines: lines,
		Report: func(path string, line int, err error) {
			*errs = append(*errs, &yamlerr.FieldError{Path: path, Line: line, Err: err, OwnLine: ownLine})
		},
		Describe: describe,
	}
}

// Decode decodes exactly one YAML document with [Decode]. A syntax error
// is reported as an [yamlerr.ErrSyntax] problem of the whole file at its line,
// and a second document as one whose text is multiple; then Decode
// returns false.
func (w *Walker) Decode(data []byte, multiple string) (*yaml.Node, bool) {
	w.lastLine = Lines(data)
	n, err := Decode(data)
	if err == nil {
		return n, true
	}
	problem := yamlerr.Problem(yamlerr.ErrSyntax, "%v", err)
	if errors.Is(err, ErrMultipleDocuments) {
		problem = yamlerr.Problem(yamlerr.ErrSyntax, "%s", multiple)
	}
	w.Report("", ErrorLine(data, err), problem)
	return nil, false
}

// DecodeRoot decodes a file's one YAML document with [Walker.Decode] and
// checks that it is a mapping. It reports an empty document as "<what>
// is empty" ([yamlerr.ErrRequired]) and any other shape as [yamlerr.ErrType], both at the
// key path "", and then returns false.
func (w *Walker) DecodeRoot(data []byte, multiple, what string) (*yaml.Node, bool) {
	root, ok := w.Decode(data, multiple)
	switch {
	case !ok:
		return nil, false
	case root == nil:
		w.Add("", nil, yamlerr.Problem(yamlerr.ErrRequired, "%s is empty", what))
		return nil, false
	case root.Kind != yaml.MappingNode:
		w.Add("", root, yamlerr.Problem(yamlerr.ErrType, "must be a mapping, got %s", w.Describe(root)))
		return nil, false
	}
	return root, true
}

// Lines returns the number of lines of a YAML text as the YAML parser
// counts them in its messages and node positions: one more than its line
// breaks, which are "\r\n", "\r", "\n" and the Unicode NEL, LS and PS.
func Lines(data []byte) int {
	n := 1
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
			n++
		case data[i] == '\n':
			n++
		case bytes.HasPrefix(data[i:], nel), bytes.HasPrefix(data[i:], ls), bytes.HasPrefix(data[i:], ps):
			n++
		}
	}
	return n
}

// The Unicode line breaks YAML counts besides CR and LF, in UTF-8.
var (
	nel = []byte("\u0085")
	ls  = []byte("\u2028")
	ps  = []byte("\u2029")
)

// Add reports a problem at path; n (may be nil) gives its line.
func (w *Walker) Add(path string, n *yaml.Node, err error) {
	line := 0
	if n != nil {
		line = n.Line
	}
	for q := path; line == 0; q = ParentPath(q) {
		line = w.Lines[q]
		if q == "" {
			break
		}
	}
	if w.lastLine > 0 {
		line = min(line, w.lastLine)
	}
	w.Report(path, line, err)
}

// Line records the line of the value at path.
func (w *Walker) Line(path string, n *yaml.Node) {
	if n != nil && n.Line > 0 {
		w.Lines[path] = n.Line
	}
}

// Mapping calls f for every key of a mapping node in order, with the
// value (aliases resolved) and the key's path, recording each key's line;
// it reports a node that is not a mapping, keys that are not strings and
// repeated keys.
func (w *Walker) Mapping(n *yaml.Node, path string, f func(key string, v *yaml.Node, path string)) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		w.Add(path, n, yamlerr.Problem(yamlerr.ErrType, "must be a mapping, got %s", w.Describe(n)))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := Resolve(n.Content[i]), Resolve(n.Content[i+1])
		if k == nil || k.Kind != yaml.ScalarNode {
			w.Add(path, k, yamlerr.Problem(yamlerr.ErrType, "keys must be strings, got %s", w.Describe(k)))
			continue
		}
		kp := JoinPath(path, k.Value)
		w.Line(kp, k)
		if seen[k.Value] {
			w.Add(kp, k, yamlerr.ErrDuplicateKey)
			continue
		}
		seen[k.Value] = true
		f(k.Value, v, kp)
	}
}

// List returns the items of a sequence node, aliases resolved; it reports
// a node that is not a list and returns nil.
func (w *Walker) List(n *yaml.Node, path string) []*yaml.Node {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		w.Add(path, n, yamlerr.Problem(yamlerr.ErrType, "must be a list, got %s", w.Describe(n)))
		return nil
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		out[i] = Resolve(c)
	}
	return out
}

// Str returns the text of a string scalar (aliases resolved); it reports
// any other node.
func (w *Walker) Str(n *yaml.Node, path string) (string, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		w.Add(path, n, yamlerr.Problem(yamlerr.ErrType, "must be a string, got %s", w.Describe(n)))
		return "", false
	}
	return n.Value, true
}

// NonEmpty returns the text of a string scalar that is not blank; it
// reports any other node, a blank string as [yamlerr.ErrRequired].
func (w *Walker) NonEmpty(n *yaml.Node, path string) (string, bool) {
	s, ok := w.Str(n, path)
	if ok && strings.TrimSpace(s) == "" {
		w.Add(path, n, yamlerr.Problem(yamlerr.ErrRequired, "must not be empty"))
		return "", false
	}
	return s, ok
}

// Number returns the value of an int or float scalar that is finite; it
// reports any other node.
func (w *Walker) Number(n *yaml.Node, path string) (float64, bool) {
	n = Resolve(n)
	if n != nil && n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f, true
		}
	}
	w.Add(path, n, yamlerr.Problem(yamlerr.ErrType, "must be a finite number, got %s", w.Describe(n)))
	return 0, false
}

// ParentPath drops the last key or index of a key path.
func ParentPath(path string) string {
	i := strings.LastIndexAny(path, ".[")
	if i < 0 {
		return ""
	}
	return path[:i]
}

// JoinPath appends a key to a key path. An empty key is written "" so
// that the path still names it (a file of only `: x` or `&a :` has one).
func JoinPath(path, key string) string {
	if key == "" {
		key = `""`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// Describe names a node's shape for error messages: "nothing", "a
// mapping", "a list", "null", or a scalar's value quoted. It is the
// Describe of the claims and readings parsers; the spec parser quotes
// only strings.
func Describe(n *yaml.Node) string {
	n = Resolve(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "null"
		}
		return strconv.Quote(n.Value)
	}
	return "an unsupported node"
}
