package specs_test

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
)

// TestParsons1997_SingleRunUniform checks that the grading rule stated at
// the top of parsons1997's claims file is applied uniformly: every value
// claim is single_run (the paper ran each cell once) except the three
// exceptions the file names (the calibration target, the typical queue
// length, how often malleable jobs starve, the starvation that already
// asks about any run), and every Table 3 cell is one.
func TestParsons1997_SingleRunUniform(t *testing.T) {
	f := claimsFiles(t)["parsons1997"]
	if f == nil {
		t.Fatal("no parsons1997 claims file")
	}
	exceptions := []string{"calib-min-makespan", "mig-queue-rarely-above-5[", "mall-rarely-starves[", "full-knowledge-mig-ad-starves["}
	cells := 0
	for _, c := range f.Claims {
		excepted := false
		for _, e := range exceptions {
			excepted = excepted || c.ID == e || (strings.HasSuffix(e, "[") && strings.HasPrefix(c.ID, e))
		}
		if strings.HasPrefix(c.ID, "t3-") {
			cells++
		}
		switch {
		case c.Kind == claims.KindValue && !excepted && !c.SingleRun:
			t.Errorf("%s: a value claim on the paper's single run without single_run", c.ID)
		case excepted && c.SingleRun:
			t.Errorf("%s: named as an exception but single_run", c.ID)
		}
	}
	if cells != 80 {
		t.Errorf("%d Table 3 cells, want 80 (10 disciplines x 4 cases x MRT and makespan)", cells)
	}
}
