package sim

import (
	"context"
	"errors"
	"math"
	"testing"
)

func TestFloorTime(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want Time
	}{
		{0, 0}, {1.5, 1}, {-1.5, -2}, {-2, -2}, {1e300, MaxHorizon}, {math.Inf(1), MaxHorizon},
		{math.Inf(-1), -MaxHorizon}, {math.NaN(), MaxHorizon}, {9.3e18, MaxHorizon},
	} {
		if got := FloorTime(tt.f); got != tt.want {
			t.Errorf("FloorTime(%v)=%d, want %d", tt.f, got, tt.want)
		}
	}
}

// TestRun_ErrInput_Horizon checks that jobs whose times could overflow a
// schedule are rejected before the run.
func TestRun_ErrInput_Horizon(t *testing.T) {
	huge := []Job{{ID: 1, Submit: 0, Runtime: MaxJobTime + 1, Estimate: 1, Procs: 1}}
	if _, err := Run(context.Background(), 1, huge, nil, Options{}); !errors.Is(err, ErrInput) {
		t.Errorf("Run(runtime 2^53)=%v, want ErrInput", err)
	}
	var many []Job
	for i := range 300 {
		many = append(many, Job{ID: int64(i), Runtime: MaxJobTime, Estimate: MaxJobTime, Procs: 1})
	}
	if _, err := Run(context.Background(), 1, many, nil, Options{}); !errors.Is(err, ErrInput) {
		t.Errorf("Run(300 runtimes of 2^53)=%v, want ErrInput", err)
	}
}
