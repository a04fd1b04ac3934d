package sweep_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
)

// TestParse_QoPSErrors: bad qops parameters are reported before any run,
// with their key path.
func TestParse_QoPSErrors(t *testing.T) {
	qops := strings.Replace(ok, "name: easy", "name: qops", 1)
	tests := []struct {
		name      string
		params    string
		expected  string
		withError error
	}{
		{"SlackBelowOne", "{slack: [0.5, 2]}", "policies[0].params.slack[0]: must be >= 1, got 0.5", policy.ErrBadParam},
		{"ToleranceBelowOne", "{tolerance: [1, 0.9]}", "policies[0].params.tolerance[1]: must be >= 1, got 0.9", policy.ErrBadParam},
		{"StringencyAboveOne", "{stringency: 1.2}", "policies[0].params.stringency: must be <= 1, got 1.2", policy.ErrBadParam},
		{"KFactorNotWhole", "{k_factor: 2.5}", "policies[0].params.k_factor: 2.5 is not a whole number", policy.ErrBadParam},
		{"RetryCountTooLarge", "{retry_count: 41}", "policies[0].params.retry_count: must be <= 40, got 41", policy.ErrBadParam},
		{"DeadlineFraction", "{deadline_fraction: [1, -0.2]}", "policies[0].params.deadline_fraction[1]: must be >= 0, got -0.2", policy.ErrBadParam},
		{"NodeadlineSlack", "{nodeadline_slack: 0}", "policies[0].params.nodeadline_slack: must be >= 1, got 0", policy.ErrBadParam},
		{"KillRestartNotBool", "{kill_restart: sometimes}", `policies[0].params.kill_restart: "sometimes" is not true or false`, policy.ErrBadParam},
		{"Unknown", "{tolerence: 2}", `policies[0].params.tolerence: unknown parameter of policy "qops"`, policy.ErrUnknownParam},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sweep.Parse([]byte(qops+"    params: "+tt.params+"\n"), testdata)
			if err == nil || !strings.Contains(err.Error(), tt.expected) {
				t.Fatalf("Parse() error = %v, want %q", err, tt.expected)
			}
			if !errors.Is(err, tt.withError) {
				t.Errorf("Parse() error = %v, want errors.Is %v", err, tt.withError)
			}
		})
	}
}
