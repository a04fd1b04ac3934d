package claims_test

import (
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// badSeeds are malformed claims files for the fuzzer to start from, beside
// the good and bad examples of testdata/parse:
// wrong shapes at every level, aliases, duplicate keys, bad numbers and
// expectations, each lists that do not fit, count claims whose values or
// expectation do not fit, baselines where they do not belong (defaults,
// one side of an order, nested, empty, not a mapping) and forms without
// one, tabs and control bytes.
var badSeeds = []string{
	"",
	"\n# only a comment\n",
	"- a\n- b\n",
	"paper: x\n",
	"paper: x\nclaims: not a list\n",
	"paper: x\nclaims:\n  - 3\n  - [a, b]\n",
	"paper: p\npaper: q\nclaims: []\n",
	"paper: \"\\x00\"\nclaims: []\n",
	"paper:\tx\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, word: better, class: result, select: {group: g1, metric: m}, a: {setting: A}, b: {setting: B}, op: <}\nheadlines:\n  - {id: h, text: t, claims: [a]}\n  - {id: i, text: t, claims: [a, a]}\n  - {id: j, text: t, claims: [a]}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, word: much_better, class: setup, factor: 2, select: {group: g1, metric: m}, a: {}, b: {}, op: <}\nheadlines: [{id: h, claims: [b]}, x, {id: h, text: [t], claims: a, more: 1}]\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: ratio, word: number, class: result, single_run: true, pairwise: true, departure: '', select: {group: g1, metric: m}, a: {}, b: {}, expected: 2}\nheadlines: []\n",
	"a: &a [*a]\n",
	"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\npaper: x\nclaims: *b\n",
	"paper: x\ndefaults: &d {group: g1, metric: bsd_mean}\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: *d, expected: 1, select: *d}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: 1e999}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: .nan, grade: {agree: -1%, partly: .inf}}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: \"3..1\"}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: ratio, select: {group: g1, metric: m}, a: {setting: A}, b: [B], expected: \"0.5..\"}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: monotonic, select: {group: g1, metric: m}, along: load, values: [], direction: increasing, spearman: 0}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, select: {group: g1, metric: m}, a: {}, b: {}, op: \"<>\", factor: nan}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: invariant, select: {group: g1, metric: m, where: {trace: {x: 1}}}, expected: \"== 0\"}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: 1, each: {trace: [], category: [a, a]}}\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: 1}\n",
	"paper: x\nclaims:\n  - id: a\n    figure: F\n    quote: \"One sentence. Two sentences.\"\n    kind: value\n    select:\n      group: g1\n      metric: m\n      agg: [mean]\n    expected: 1\n    must: 1\n",
	"paper: x\nclaims:\n  - id: a\n    figure: F\n   quote: bad indent\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, single_run: true, select: {group: g1, metric: m, reps: min}, a: {}, b: {}, op: <, grade: {agree: 1}}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, single_run: [true], select: {group: g1, metric: m}, expected: \"> 1\", grade: {}}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m}, expected: 1, reason: {x: 1}}\n\x01",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: count, select: {group: g1, metric: m, scheme: ss16}, a: {setting: A}, b: {setting: B}, op: <, along: category, values: [VS Seq, VS Seq, X], expected: \"> 5\"}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: count, select: {group: g1, metric: m}, a: {}, b: {}, op: <=, along: where, values: x, expected: 2.5, direction: up, form: sym}\n",
	"paper: x\ndefaults: {group: g1, metric: m, baseline: {setting: B}}\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, a: {setting: A, baseline: {setting: B}}, b: {setting: C}, form: pct, op: <}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: order, select: {group: g1, metric: m, baseline: {setting: B, baseline: {setting: C}}}, a: {setting: A}, b: {setting: D}, form: pct, op: \">=\", factor: 0.8}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: monotonic, select: {group: g1, metric: m, setting: A, baseline: {}}, form: ratio, along: load, direction: decreasing}\n  - {id: b, figure: F, quote: q, kind: monotonic, select: {group: g1, metric: m}, form: pct, along: load, direction: increasing}\n",
	"paper: x\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, select: {group: g1, metric: m, baseline: [B]}, expected: 1, grade: {agree: 1}}\n  - {id: b, figure: F, quote: q, kind: ratio, select: {group: g1, metric: m}, a: {baseline: {setting: B, setting: C, colour: x}}, b: {}, expected: 1}\n",
}

// FuzzParse feeds arbitrary bytes to the parser, seeded with the example
// files (good and bad) and badSeeds (the papers' own files, tens of
// kilobytes, would make every mutation slow; the specs tests validate
// them): it must
// never panic; it either fails with a ValidationError whose every problem
// has a message, wraps one of the package's sentinel errors and names its
// line (and, below the top level, its key path), or returns claims that
// satisfy the format's rules (ids unique and non-empty, a known kind,
// selections with a group and an expectation text), and parsing the same
// bytes again gives the same claims.
func FuzzParse(f *testing.F) {
	for _, data := range readExamples(f) {
		f.Add(data)
	}
	for _, s := range badSeeds {
		f.Add([]byte(s))
	}
	sentinels := []error{yamlerr.ErrSyntax, yamlerr.ErrUnknownKey, yamlerr.ErrDuplicateKey, yamlerr.ErrRequired, yamlerr.ErrType, yamlerr.ErrValue}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := claims.Parse(data, claims.Options{})
		if err != nil {
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error %T without problems: %v", err, err)
			}
			if !errors.Is(err, claims.ErrInvalid) {
				t.Fatalf("error does not match ErrInvalid: %v", err)
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
				// Every problem names its line, except a file with no YAML
				// content.
				empty := p.Path == "" && errors.Is(p, yamlerr.ErrRequired)
				if p.Line <= 0 && !empty {
					t.Fatalf("problem %q has no line", p)
				}
				if p.Path == "" && !empty && !errors.Is(p, yamlerr.ErrSyntax) && !errors.Is(p, yamlerr.ErrType) {
					t.Fatalf("problem %q has no key path", p)
				}
				if n := yamlnode.Lines(data); p.Line > n {
					t.Fatalf("problem %q: line %d past the end of a %d-line file", p, p.Line, n)
				}
			}
			return
		}
		ids := map[string]bool{}
		for i := range file.Claims {
			c := &file.Claims[i]
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("claim %d: empty or repeated id %q", i, c.ID)
			}
			ids[c.ID] = true
			known := false
			for _, k := range claims.Kinds {
				known = known || k == c.Kind
			}
			if !known {
				t.Fatalf("claim %s: kind %q", c.ID, c.Kind)
			}
			for _, g := range c.Groups() {
				if g == "" {
					t.Fatalf("claim %s: a selection without a group", c.ID)
				}
			}
			if c.ExpectedText() == "" {
				t.Fatalf("claim %s: no expectation text", c.ID)
			}
			// Only an order claim (on both sides or neither) and a
			// monotonic claim have baselines, and then a form.
			switch {
			case c.Kind == claims.KindOrder && (c.A.Baseline == nil) != (c.B.Baseline == nil):
				t.Fatalf("claim %s: an order with a baseline on one side only", c.ID)
			case c.Kind != claims.KindOrder && (c.A.Baseline != nil || c.B.Baseline != nil):
				t.Fatalf("claim %s: a %s claim with a baseline on a or b", c.ID, c.Kind)
			case c.Kind != claims.KindMonotonic && c.Kind != claims.KindOrder && c.Select.Baseline != nil:
				t.Fatalf("claim %s: a %s claim with a baseline", c.ID, c.Kind)
			case (c.A.Baseline != nil || c.Select.Baseline != nil) && c.Form == "":
				t.Fatalf("claim %s: a baseline without a form", c.ID)
			}
		}
		again, err := claims.Parse(data, claims.Options{})
		if err != nil || len(again.Claims) != len(file.Claims) {
			t.Fatalf("second parse differs: %v", err)
		}
		for i := range again.Claims {
			if again.Claims[i].ID != file.Claims[i].ID || again.Claims[i].ExpectedText() != file.Claims[i].ExpectedText() ||
				again.Claims[i].A.String() != file.Claims[i].A.String() || again.Claims[i].Select.String() != file.Claims[i].Select.String() {
				t.Fatalf("second parse differs at claim %d", i)
			}
		}
	})
}
