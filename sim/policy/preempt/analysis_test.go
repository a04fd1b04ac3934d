package preempt

import (
	"context"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

// TestSS_TwoJobs is the analysis of section 4.1: two jobs of the same
// length L, each needing the whole machine, are submitted together to an
// idle machine. T1 starts; T2's priority (t+L)/L reaches s (the suspension
// factor) and it suspends T1; the roles swap and the n-th suspension needs
// a priority of s^n, while the waiting job's priority can only reach 2
// when the running one completes. So a factor of 2^(1/(n+1)) allows at
// most n suspensions: none for s = 2 (or more), one for s = sqrt(2), and
// with s = 1 the jobs alternate at every run of the preemption routine.
func TestSS_TwoJobs(t *testing.T) {
	const L = 100_000
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: L, Estimate: L, Procs: 16},
		{ID: 2, Submit: 0, Runtime: L, Estimate: L, Procs: 16},
	}
	tests := []struct {
		name string
		sf   float64
		want int // suspensions; -1: alternate at every interval
	}{
		{"sf=1", 1, -1},
		{"sf=2^(1/4)", math.Pow(2, 1.0/4), 3},
		{"sf=2^(1/3)", math.Pow(2, 1.0/3), 2},
		{"sf=sqrt(2)", math.Sqrt2, 1},
		{"sf=1.9", 1.9, 1},
		{"sf=2", 2, 0},
		{"sf=5", 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultSSConfig()
			cfg.SuspensionFactor = tt.sf
			p, err := NewSS(cfg, 16, jobs)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), 16, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(jobs, res); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			got := res.Tasks[0].Suspensions + res.Tasks[1].Suspensions
			if last := max(res.Tasks[0].End, res.Tasks[1].End); last != 2*L {
				t.Errorf("last job ended at %d, want %d (the machine never idles)", last, 2*L)
			}
			if tt.want >= 0 {
				if got != tt.want {
					t.Errorf("suspensions = %d, want %d", got, tt.want)
				}
				return
			}
			// Alternation: consecutive segments belong to different jobs
			// and none is longer than the interval.
			for i, s := range res.Segments {
				if s.End-s.Start > DefaultInterval {
					t.Fatalf("segment %d of job %d lasts %d s, longer than the interval", i, s.Task, s.End-s.Start)
				}
				if i > 0 && res.Segments[i-1].Task == s.Task {
					t.Fatalf("segments %d and %d both belong to job %d", i-1, i, s.Task)
				}
			}
			if least := 2*L/int(DefaultInterval) - 2; got < least {
				t.Errorf("suspensions = %d, want at least %d", got, least)
			}
		})
	}
}
