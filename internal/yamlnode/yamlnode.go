// Package yamlnode reads one YAML document into a node tree for the
// project's validating parsers (sweep specs, claims and readings files),
// which report problems by key path and line and so work on nodes, not
// structs; it locates syntax errors ([ErrorLine]) and gives the parsers
// one walker of documents, mappings, lists and scalars ([Walker], made
// by [Collect]) and [ParseFile]. The problems it reports are those of
// package yamlerr (the format's errors, [yamlerr.FieldError],
// [yamlerr.ValidationError]), shared by every parser.
package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrMultipleDocuments is returned by [Decode] for input with more than
// one YAML document.
var ErrMultipleDocuments = errors.New("more than one YAML document")

// maxAliasDepth bounds [Resolve]'s walk along chains of aliases.
const maxAliasDepth = 100

// Resolve follows aliases to the node they name (at most 100 steps).
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasDepth; i++ {
		n = n.Alias
	}
	return n
}

// Decode decodes exactly one YAML document and returns its root node,
// aliases resolved; it returns nil, nil for an empty or null document.
// Syntax errors are the YAML decoder's; a decoder panic comes back as an
// error ("yaml: ..."), so no input crashes the process.
func Decode(data []byte) (root *yaml.Node, err error) {
	defer func() {
		// The YAML decoder has panicked on malformed input in the past.
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, ErrMultipleDocuments
	}
	n := Resolve(&doc)
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, nil
		}
		n = Resolve(n.Content[0])
	}
	if n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null") {
		return nil, nil
	}
	return n, nil
}

// lineRE finds the line in a YAML decoder error ("yaml: line 3: ...").
var lineRE = regexp.MustCompile(`\bline (\d+)\b`)

// ErrorLine returns the 1-based line of the error [Decode] returned for
// data, or 0 if it cannot tell. It takes the line from the decoder's
// message when it has one. Some errors carry none: for a second document
// it is where that document starts, for a control character the line of
// the first character YAML does not allow, and otherwise the last line of
// the shortest run of whole leading lines of data that fails with the
// same error (found by bisection).
func ErrorLine(data []byte, err error) int {
	if err == nil {
		return 0
	}
	if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if errors.Is(err, ErrMultipleDocuments) {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		var doc, extra yaml.Node
		if dec.Decode(&doc) == nil && dec.Decode(&extra) == nil && extra.Line > 0 {
			return extra.Line
		}
	}
	if strings.Contains(err.Error(), "control characters are not allowed") {
		line := 1
		for _, r := range string(data) {
			if !printable(r) {
				return line
			}
			if r == '\n' {
				line++
			}
		}
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	same := func(k int) bool {
		_, e := Decode(bytes.Join(lines[:k], nil))
		return e != nil && e.Error() == err.Error()
	}
	k := sort.Search(len(lines), func(i int) bool { return same(i + 1) })
	if k < len(lines) && same(k+1) {
		return k + 1
	}
	return 0
}

// printable reports whether YAML allows character r in a document (YAML
// 1.2, section 5.1, as the decoder checks it).
func printable(r rune) bool {
	switch {
	case r == 0x09 || r == 0x0A || r == 0x0D || r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}
