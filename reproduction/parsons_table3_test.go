package reproduction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParsonsTable3_FromClaims: the paper's column of Table 3 is read from
// the expected values of specs/parsons1997/claims.yaml: all 40 cells, the
// cells checked here against the paper's Table 3 by hand (plain ones,
// lower bounds with their unfinished jobs), and a claims file that lacks
// a cell is refused with the claim it wants.
func TestParsonsTable3_FromClaims(t *testing.T) {
	got, err := parsonsTable3("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(LSFDisciplines) {
		t.Fatalf("%d disciplines, want %d", len(got), len(LSFDisciplines))
	}
	for d, want := range map[string][4]string{
		"RTC":          {"5853/147951", "4040/140342", "5279/130361", "5627/143507"},
		"PREEMPT-AD":   {">2293/>219105 (2)", "1078/127204", "2207/172768", "821/111489"},
		"MIG-ADSUBSET": {"770/90789", "854/106065", "769/85828", ">1347/>193772 (1)"},
	} {
		if got[d] != want {
			t.Errorf("%s: %q, want %q", d, got[d], want)
		}
	}

	// A claims file without the MALL-AD cells.
	b, err := os.ReadFile(filepath.Join("..", "specs", "parsons1997", "claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, "specs", "parsons1997")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cut := strings.ReplaceAll(string(b), "id: t3-mall-ad-none-mrt", "id: t3-mall-ad-none-mrt-renamed")
	if err := os.WriteFile(filepath.Join(dir, "claims.yaml"), []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parsonsTable3(root); err == nil || !strings.Contains(err.Error(), "no claim t3-mall-ad-none-mrt ") {
		t.Errorf("a claims file without t3-mall-ad-none-mrt: err = %v", err)
	}
}
