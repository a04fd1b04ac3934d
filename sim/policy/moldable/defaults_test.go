package moldable_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/moldable"
)

// TestDefaults_IssueReadings: the defaults are the readings the package
// doc lists as the interpretations: fair share weighs est_work and
// reservations are recomputed every pass, both in [moldable.DefaultConfig]
// and in the registered parameters of every moldable policy.
func TestDefaults_IssueReadings(t *testing.T) {
	c := moldable.DefaultConfig()
	if c.Weights != moldable.EstWork {
		t.Errorf("DefaultConfig().Weights = %v, want EstWork", c.Weights)
	}
	if c.KeepReservations {
		t.Error("DefaultConfig().KeepReservations = true, want false")
	}
	want := map[string]any{"weights": "est_work", "keep_reservations": false}
	for _, name := range []string{"moldable-submit", "moldable-schedule", "moldable-combined"} {
		e, err := policy.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, p := range e.Params {
			w, ok := want[p.Name]
			if !ok {
				continue
			}
			seen++
			if p.Default != w {
				t.Errorf("%s: %s defaults to %v, want %v", name, p.Name, p.Default, w)
			}
		}
		if seen == 0 {
			t.Errorf("%s has neither weights nor keep_reservations", name)
		}
	}
}
