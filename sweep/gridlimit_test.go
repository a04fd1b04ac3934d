package sweep_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
)

// values returns the YAML list [1, 2, ..., n].
func values(n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprint(i + 1)
	}
	return "[" + strings.Join(vs, ", ") + "]"
}

// TestParse_EntryTooLarge checks that one workload or policy entry whose
// own grid has more than MaxTasks points is reported at the entry, before
// the spec's total is computed.
func TestParse_EntryTooLarge(t *testing.T) {
	tests := []struct {
		name, givenSpec, expected string
	}{
		{"Workloads", strings.Replace(ok, "count: 5", fmt.Sprintf("count: %s\n    skip: %s\n    procs: %s", values(47), values(47), values(47)), 1),
			"workloads[0]: expands to more than 100000 workloads"},
		{"Settings", strings.Replace(ok, "name: easy", "name: ss", 1) + fmt.Sprintf("    params: {suspension_factor: %s, interval: %s, width_ratio: %s, tss_limit: %s}\n", values(18), values(18), values(18), values(18)),
			"policies[0]: expands to more than 100000 parameter settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sweep.Parse([]byte(tt.givenSpec), testdata)
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tt.expected)
			}
			if got := err.Error(); got != tt.expected {
				t.Errorf("Parse error:\n got %q\nwant %q", got, tt.expected)
			}
			if !errors.Is(err, sweep.ErrTooManyTasks) {
				t.Errorf("errors.Is(%v, ErrTooManyTasks) = false", err)
			}
		})
	}
}
