// Package yamlnode reads one YAML document into a node tree for the
// project's validating parsers (sweep specs, claims files), which report
// problems by key path and line and so work on nodes, not structs.
package yamlnode

import (
	"bytes"
	"errors"
	"fmt"
	"io"

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
