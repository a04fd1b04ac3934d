package claims_test

import (
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/claims"
)

// FuzzParse feeds arbitrary bytes to the parser, seeded with the example
// files: it must never panic; it either fails with a ValidationError whose
// every problem has a message, or returns claims that satisfy the
// format's rules (ids unique and non-empty, a known kind, selections with
// a group and an expectation text), and parsing the same bytes again
// gives the same claims.
func FuzzParse(f *testing.F) {
	for _, data := range readExamples(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := claims.Parse(data, claims.Options{})
		if err != nil {
			var ve *claims.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error %T without problems: %v", err, err)
			}
			for _, p := range ve.Problems {
				if p.Err == nil || p.Error() == "" {
					t.Fatalf("empty problem in %v", err)
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
