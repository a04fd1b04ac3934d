package sweep_test

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
)

// TestSpec_Canonical: the canonical spec has no comments, parses to the
// same tasks, and long strings are problems of the spec.
func TestSpec_Canonical(t *testing.T) {
	raw := "# token=SECRET1\nname: canon # token=SECRET2\nworkloads:\n  - trace: ../tiny.swf\n    # token=SECRET3\n    load: [1, 2]\npolicies: [{name: easy}]\n"
	s, err := sweep.Parse([]byte(raw), specDir)
	if err != nil {
		t.Fatal(err)
	}
	c := string(s.Canonical())
	if strings.Contains(c, "SECRET") || strings.Contains(c, "#") {
		t.Errorf("Canonical() keeps comments:\n%s", c)
	}
	again, err := sweep.Parse([]byte(c), specDir)
	if err != nil {
		t.Fatalf("Parse(Canonical())=%v\n%s", err, c)
	}
	a, _ := s.Tasks()
	b, _ := again.Tasks()
	if len(a) != len(b) || a[0].ID != b[0].ID || a[1].ID != b[1].ID {
		t.Errorf("canonical spec expands to other tasks")
	}
	long := "name: long\ndescription: " + strings.Repeat("x", sweep.MaxStringLength+1) + "\nworkloads: [{trace: ../tiny.swf}]\npolicies: [{name: easy}]\n"
	if _, err := sweep.Parse([]byte(long), specDir); err == nil || !strings.Contains(err.Error(), "description: 4097 bytes, want at most 4096") {
		t.Errorf("Parse(50 MB description)=%v, want a problem", err)
	}
}
