package specs_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
)

// TestKettimuthu2005_PaperLimits: the limits tss_paper_limits gives TSS
// (preempt.PaperBaseline) are the numbers of the paper's Tables 4 (CTC,
// 430 processors) and 5 (SDSC, 128), as the paper's claims file states
// them: every ss16 cell of both tables, no cell missing, no other value.
// The claims file is the source; sim keeps its own table because it
// imports nothing of the farm, and this test ties the two.
func TestKettimuthu2005_PaperLimits(t *testing.T) {
	f := claimsFiles(t)["kettimuthu2005"]
	if f == nil {
		t.Fatal("no kettimuthu2005 claims file")
	}
	tables := map[string]struct {
		trace string
		procs int
	}{"Table 4": {"ctc", 430}, "Table 5": {"sdsc", 128}}
	for fig, tb := range tables {
		limits, err := preempt.PaperBaseline(tb.procs)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, c := range f.Claims {
			s := c.Select
			if c.Figure != fig || c.Kind != claims.KindValue || s.Scheme != "ss16" || s.Category == "" || s.Category == "all" || !c.Expected.IsTarget {
				continue
			}
			if !hasFilter(s.Where, "trace", tb.trace) {
				t.Errorf("%s: a %s cell not on %s", c.ID, fig, tb.trace)
				continue
			}
			want, ok := limits[s.Category]
			switch {
			case !ok:
				t.Errorf("%s: category %q has no paper limit for %d processors", c.ID, s.Category, tb.procs)
			case want != c.Expected.Target:
				t.Errorf("%s: tss_paper_limits uses %v for %s on %d processors, the paper's %s has %v", c.ID, want, s.Category, tb.procs, fig, c.Expected.Target)
			}
			seen[s.Category] = true
		}
		for cat := range limits {
			if !seen[cat] {
				t.Errorf("%s: no claim states the paper's %s cell that tss_paper_limits uses (%v)", fig, cat, limits[cat])
			}
		}
	}
}

func hasFilter(where []claims.Filter, key, value string) bool {
	for _, w := range where {
		if w.Key == key && len(w.Values) == 1 && w.Values[0] == value {
			return true
		}
	}
	return false
}
