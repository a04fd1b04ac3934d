package sweep

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// MaxStringLength bounds every string value of a spec (name, description,
// labels, trace paths): 4 KiB. The spec travels in every output file's
// metadata; a larger value is reported as a problem.
const MaxStringLength = 4096

// MaxSpecSize bounds the size of a spec file: 1 MiB.
const MaxSpecSize = 1 << 20

// Canonical returns the spec re-serialised from its parsed YAML, without
// comments, in the same key order: what the outputs' metadata record
// (a comment such as "# token=..." never leaves the spec file). Anchors
// and aliases are kept as written.
func (s *Spec) Canonical() []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(s.Raw, &doc); err != nil {
		return nil // cannot happen for a parsed spec
	}
	stripComments(&doc)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil
	}
	if err := enc.Close(); err != nil {
		return nil // the end of the stream was not written: no canonical form
	}
	return b.Bytes()
}

func stripComments(n *yaml.Node) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		stripComments(c)
	}
}
