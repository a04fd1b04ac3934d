package readings

import (
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// fuzzSeeds are readings files, good and malformed, for the fuzzer to
// start from: wrong shapes at every level, aliases, duplicate keys and
// ids, lists where names go, control bytes.
var fuzzSeeds = []string{
	"",
	"# only a comment\n",
	"\"\": 1\n",
	"?",
	"paper: p\r?",
	"\"\r0",
	"- a\n",
	"paper: p\n",
	"paper: p\nreadings: x\n",
	"paper: p\nreadings: []\n",
	"paper: p\npaper: q\nreadings: []\n",
	"paper: p\nreadings:\n  - {id: a, summary: s, set: [{policy: lsf-mig, params: {quantum: 60}}]}\n",
	"paper: p\nreadings:\n  - {id: a, summary: s, text: \"One. Two.\", set: [{policy: [x, x], label: [], groups: [g1, g1], params: {}}]}\n",
	"paper: p\nreadings:\n  - id: a\n    summary: s\n    set:\n      - policy: ss\n        label: SS SF=2\n        groups: [g1]\n        params: {defer_start: true, resume_factor: [1, 2]}\n",
	"paper: p\nreadings:\n  - &r {id: A, summary: \"\", set: *r}\n",
	"a: &a [*a]\n",
	"paper: p\nreadings:\n  - {id: default, summary: s, set: [{policy: x, params: {q: null}}]}\n  - {id: b, summary: s, set: [{policy: x, params: {q: [[1]]}}]}\n",
	"paper: p\nreadings:\n  - {id: a, summary: s, set: [{policy: x, params: {q: 1}}]}\n\x01",
	"paper:\tp\n",
}

// FuzzParse feeds arbitrary bytes to the parser (without specs, so only
// the file's own rules apply): it must never panic; it either fails with
// a yamlerr.ValidationError whose every problem has a message, wraps one of the
// package's sentinel errors and names its line (and, below the top
// level, its key path), or returns readings with unique, valid ids, a
// summary and overrides that each name a policy and set a parameter.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	sentinels := []error{yamlerr.ErrSyntax, yamlerr.ErrUnknownKey, yamlerr.ErrDuplicateKey, yamlerr.ErrRequired, yamlerr.ErrType, yamlerr.ErrValue}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, Options{})
		if err != nil {
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %T without problems or not ErrInvalid: %v", err, err)
			}
			for _, p := range ve.Problems {
				if p.Err == nil || p.Error() == "" {
					t.Fatalf("empty problem in %v", err)
				}
				known := false
				for _, s := range sentinels {
					known = known || errors.Is(p, s)
				}
				if !known {
					t.Fatalf("problem %q wraps no sentinel error", p)
				}
				empty := p.Path == "" && errors.Is(p, yamlerr.ErrRequired)
				if p.Line <= 0 && !empty {
					t.Fatalf("problem %q has no line", p)
				}
				// An empty key ("": 1) has the key path `""`.
				if p.Path == "" && !empty && !errors.Is(p, yamlerr.ErrSyntax) && !errors.Is(p, yamlerr.ErrType) && !errors.Is(p, yamlerr.ErrValue) {
					t.Fatalf("problem %q has no key path", p)
				}
				if n := yamlnode.Lines(data); p.Line > n {
					t.Fatalf("problem %q: line %d past the end of a %d-line file", p, p.Line, n)
				}
			}
			return
		}
		ids := map[string]bool{}
		for _, r := range file.Readings {
			if !idRE.MatchString(r.ID) || r.ID == DefaultID || ids[r.ID] || r.Summary == "" || len(r.Set) == 0 {
				t.Fatalf("reading %q: bad id, repeated, no summary or no overrides", r.ID)
			}
			ids[r.ID] = true
			for _, o := range r.Set {
				if len(o.Policies) == 0 || len(o.Params) == 0 {
					t.Fatalf("reading %s: override without policy or params", r.ID)
				}
			}
		}
		if file.Paper == "" || len(file.Readings) == 0 {
			t.Fatalf("parsed a file without paper or readings")
		}
	})
}
