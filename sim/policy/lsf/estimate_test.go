package lsf_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// keyProbe runs an LSF discipline and records, at every decision, the
// key of the first job as the discipline computes it.
type keyProbe struct {
	*lsf.Policy
	m    *sim.Machine
	keys map[sim.Time]float64
}

func (k *keyProbe) Init(m *sim.Machine) error { k.m = m; return k.Policy.Init(m) }

func (k *keyProbe) Schedule() {
	if t := k.m.Task(0); t.State != sim.Done {
		k.keys[k.m.Now()] = k.Policy.Key(t)
	}
	k.Policy.Schedule()
}

// TestEstimate checks the readings of the remaining demand with demand
// knowledge but no speedup knowledge on lsf-mig, 8 processors, unit 8
// (checkpoint 60 s, min_run 600 s). X: submit 0, D 4000, f = 1/7, so
// S(8) = 4 and it needs 1000 s; Y: submit 700, D 3000, f = 0 (375 s).
// At 700 X has worked 700 s on 8 processors (5600 processor-seconds, 2800
// s of work done), so its key is 4000 − 5600 = −1600 (processor_seconds),
// 0 (clamped), 4000 − 700 = 3300 (working_time, the default "") or 4000
// (demand); Y's is 3000. The first two keep X running to 1000, Y then runs
// [1000,1375); the other two checkpoint X [700,760), run Y [760,1135) and
// restart X with 1200 s of work left (300 s): [1135,1435).
func TestEstimate(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 8,
			Elastic: &sim.Elastic{Work: 4000, SeqFrac: 1.0 / 7, Min: 8, Max: 8, Unit: 8, Tagged: true}},
		{ID: 2, Submit: 700, Runtime: 375, Estimate: 375, Procs: 8,
			Elastic: &sim.Elastic{Work: 3000, SeqFrac: 0, Min: 8, Max: 8, Unit: 8, Tagged: true}},
	}
	keep := "1 [0,1000) 8 work\n2 [1000,1375) 8 work\n"
	swap := "1 [0,700) 8 work\n1 [700,760) 8 idle\n2 [760,1135) 8 work\n1 [1135,1435) 8 work\n"
	for _, tc := range []struct {
		est  lsf.Estimate
		key  float64 // X's key at 700
		want string
	}{
		{"", 3300, swap},
		{lsf.EstimateProcessorSeconds, -1600, keep},
		{lsf.EstimateClamped, 0, keep},
		{lsf.EstimateWorkingTime, 3300, swap},
		{lsf.EstimateDemand, 4000, swap},
	} {
		t.Run(fmt.Sprintf("%q", tc.est), func(t *testing.T) {
			cfg := lsf.DefaultConfig(lsf.Mig)
			cfg.KnowDemand, cfg.Estimate = true, tc.est
			p, err := lsf.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			probe := &keyProbe{Policy: p, keys: map[sim.Time]float64{}}
			res, err := sim.Run(context.Background(), 8, jobs, probe, sim.Options{Segments: true, CheckEvery: 1})
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := probe.keys[700]; !ok || abs(got-tc.key) > 1e-6 {
				t.Errorf("X's key at 700 = %v (decided: %v), want %v", got, ok, tc.key)
			}
			if got := byStart(segments(res)); got != tc.want {
				t.Errorf("segments:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestEstimate_SpeedupKnown checks that the estimate only applies without
// speedup knowledge: with both, X's key at 700 is its true remaining
// demand 4000 − 2800 = 1200 whatever the reading.
func TestEstimate_SpeedupKnown(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 8,
			Elastic: &sim.Elastic{Work: 4000, SeqFrac: 1.0 / 7, Min: 8, Max: 8, Unit: 8, Tagged: true}},
		{ID: 2, Submit: 700, Runtime: 375, Estimate: 375, Procs: 8,
			Elastic: &sim.Elastic{Work: 3000, SeqFrac: 0, Min: 8, Max: 8, Unit: 8, Tagged: true}},
	}
	for _, est := range lsf.Estimates {
		cfg := lsf.DefaultConfig(lsf.Mig)
		cfg.KnowDemand, cfg.KnowSpeedup, cfg.Estimate = true, true, est
		p, err := lsf.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		probe := &keyProbe{Policy: p, keys: map[sim.Time]float64{}}
		if _, err := sim.Run(context.Background(), 8, jobs, probe, sim.Options{}); err != nil {
			t.Fatal(err)
		}
		if got := probe.keys[700]; abs(got-1200) > 1e-6 {
			t.Errorf("%s: X's key at 700 = %v, want 1200", est, got)
		}
	}
}

// TestEstimate_Bad checks that an unknown reading is refused.
func TestEstimate_Bad(t *testing.T) {
	cfg := lsf.DefaultConfig(lsf.Mig)
	cfg.Estimate = "guess"
	if _, err := lsf.New(cfg); err == nil {
		t.Fatal("New accepted demand_estimate \"guess\"")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
