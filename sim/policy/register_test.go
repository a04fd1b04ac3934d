package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// TestRegister: a registered policy is looked up, validated and built as
// a built-in one; a repeated name, a missing Build and a bad default are
// refused.
func TestRegister(t *testing.T) {
	if err := policy.Register(policy.Entry{Name: "easy", Build: func(policy.Values, policy.Env) (sim.Policy, error) { return backfill.NewEASY(), nil }}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("repeated name: %v", err)
	}
	if err := policy.Register(policy.Entry{Name: "nobuild"}); err == nil {
		t.Error("no Build: accepted")
	}
	if err := policy.Register(policy.Entry{Name: "baddefault", Params: []policy.Param{{Name: "k", Kind: policy.Int, Default: "x"}},
		Build: func(policy.Values, policy.Env) (sim.Policy, error) { return backfill.NewFCFS(), nil }}); err == nil {
		t.Error("bad default: accepted")
	}
	err := policy.Register(policy.Entry{
		Name: "test-registered-fcfs", Family: "test", Doc: "FCFS under another name",
		Params: []policy.Param{{Name: "k", Kind: policy.Int, Default: int64(1), Min: 1, Max: 9}},
		Build:  func(policy.Values, policy.Env) (sim.Policy, error) { return backfill.NewFCFS(), nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.New("test-registered-fcfs", map[string]any{"k": 3}, policy.Env{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 2}, {ID: 2, Runtime: 1, Estimate: 1, Procs: 1}}
	res, err := sim.Run(context.Background(), 2, jobs, p, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks[1].FirstStart != 5 {
		t.Errorf("job 2 starts at %d, want 5", res.Tasks[1].FirstStart)
	}
	if _, err := policy.New("test-registered-fcfs", map[string]any{"k": 10}, policy.Env{Procs: 2}); err == nil {
		t.Error("k=10 accepted")
	}
}
