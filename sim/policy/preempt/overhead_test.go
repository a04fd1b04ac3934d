package preempt

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

func TestOverhead_Cost(t *testing.T) {
	o := DefaultOverhead(42)
	sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	const n = 20000
	for id := int64(1); id <= n; id++ {
		mem := o.Memory(id)
		if mem < DefaultMemMin || mem >= DefaultMemMax {
			t.Fatalf("Memory(%d)=%v, want in [%v, %v)", id, mem, DefaultMemMin, DefaultMemMax)
		}
		if got, want := o.Cost(id), sim.Time(math.Ceil(mem/DefaultOverheadRate)); got != want {
			t.Fatalf("Cost(%d)=%d, want ceil(%v / 2)=%d", id, got, mem, want)
		}
		if o.Memory(id) != mem {
			t.Fatalf("Memory(%d) changed between calls", id)
		}
		sum += mem
		lo, hi = min(lo, mem), max(hi, mem)
	}
	// Uniform on [100, 1024]: mean 562, and both ends reached closely.
	if mean := sum / n; math.Abs(mean-562) > 10 {
		t.Errorf("mean memory %v MB, want about 562", mean)
	}
	if lo > 110 || hi < 1014 {
		t.Errorf("memory range [%v, %v], want close to [100, 1024]", lo, hi)
	}
	if DefaultOverhead(43).Memory(1) == o.Memory(1) && DefaultOverhead(43).Memory(2) == o.Memory(2) {
		t.Error("the seed does not change the draws")
	}
	if got := (Overhead{}).Cost(1); got != 0 {
		t.Errorf("zero Overhead: Cost=%d, want 0", got)
	}
	if got := (Overhead{Rate: 1000, MemMin: 1, MemMax: 1}).Cost(1); got != 1 {
		t.Errorf("tiny overhead: Cost=%d, want the 1 s minimum", got)
	}
}

func TestConfig_Validate(t *testing.T) {
	ss := func(f func(*SSConfig)) SSConfig { c := DefaultSSConfig(); f(&c); return c }
	tests := []struct {
		name      string
		validate  func() error
		withError bool
	}{
		{"OK/ss", DefaultSSConfig().Validate, false},
		{"OK/is", DefaultISConfig().Validate, false},
		{"OK/overhead", ss(func(c *SSConfig) { c.Overhead = DefaultOverhead(1) }).Validate, false},
		{"OK/width0", ss(func(c *SSConfig) { c.WidthRatio = 0 }).Validate, false},
		{"ErrInvalidConfig/sf", ss(func(c *SSConfig) { c.SuspensionFactor = 0.5 }).Validate, true},
		{"ErrInvalidConfig/sfNaN", ss(func(c *SSConfig) { c.SuspensionFactor = math.NaN() }).Validate, true},
		{"ErrInvalidConfig/width", ss(func(c *SSConfig) { c.WidthRatio = -1 }).Validate, true},
		{"ErrInvalidConfig/interval", ss(func(c *SSConfig) { c.Interval = 0 }).Validate, true},
		{"ErrInvalidConfig/tss", ss(func(c *SSConfig) { c.Tunable, c.TSSLimit = true, -1 }).Validate, true},
		{"ErrInvalidConfig/mem", ss(func(c *SSConfig) { c.Overhead = Overhead{Rate: 2, MemMin: 10, MemMax: 5} }).Validate, true},
		{"ErrInvalidConfig/rate", ss(func(c *SSConfig) { c.Overhead = Overhead{Rate: -2, MemMax: 5} }).Validate, true},
		{"ErrInvalidConfig/timeslice", ISConfig{}.Validate, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.validate()
			if tt.withError != (err != nil) || (err != nil && !errors.Is(err, ErrInvalidConfig)) {
				t.Errorf("Validate()=%v, want error wrapping ErrInvalidConfig: %v", err, tt.withError)
			}
		})
	}
	if _, err := NewSS(SSConfig{}, 4, nil); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewSS(zero config) error = %v, want ErrInvalidConfig", err)
	}
	if _, err := NewIS(ISConfig{}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("NewIS(zero config) error = %v, want ErrInvalidConfig", err)
	}
}

// TestSS_Overhead: a short whole-machine job suspends a long one (as in
// the scenario short-suspends-long), with suspension overhead. With o =
// the long job's overhead: job 2's priority reaches 2 at 200 and the
// routine runs at 240, so job 1 suspends at 240 and holds the machine,
// doing nothing, until 240+o; job 2 runs [240+o, 340+o); job 1 resumes at
// 340+o, is back at work at 340+2o and does its remaining 9760 s, ending
// at 10100+2o. Job 2 is never suspended, so its own overhead never shows.
func TestSS_Overhead(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 100, Estimate: 100, Procs: 4},
	}
	cfg := DefaultSSConfig()
	cfg.Overhead = DefaultOverhead(9)
	o := cfg.Overhead.Cost(1)
	p, err := NewSS(cfg, 4, jobs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := simcheck.Check(jobs, res); err != nil {
		t.Fatalf("invariants: %v", err)
	}
	j1, j2 := &res.Tasks[0], &res.Tasks[1]
	if j1.End != 10100+2*o || j1.Suspensions != 1 || j1.OverheadTime != 2*o || j1.SuspendedTime != 100 {
		t.Errorf("job 1: end %d suspensions %d overhead %d suspended %d, want %d 1 %d 100",
			j1.End, j1.Suspensions, j1.OverheadTime, j1.SuspendedTime, 10100+2*o, 2*o)
	}
	if j2.FirstStart != 240+o || j2.End != 340+o || j2.OverheadTime != 0 {
		t.Errorf("job 2: start %d end %d overhead %d, want %d %d 0", j2.FirstStart, j2.End, j2.OverheadTime, 240+o, 340+o)
	}
	idle := 0
	for _, s := range res.Segments {
		if !s.Working {
			idle += int(s.End - s.Start)
		}
	}
	if idle != int(2*o) {
		t.Errorf("overhead segments last %d s, want %d", idle, 2*o)
	}
}

// TestIS_Overhead: the same two jobs under IS with overhead. Job 1 is in
// its timeslice until 600, so job 2 suspends it at 600 and starts once
// job 1's suspension ends, at 600+o, until 700+o; job 1 resumes then and
// works again from 700+2o for its last 9400 s.
func TestIS_Overhead(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 4},
		{ID: 2, Submit: 100, Runtime: 100, Estimate: 100, Procs: 4},
	}
	cfg := DefaultISConfig()
	cfg.Overhead = DefaultOverhead(9)
	o := cfg.Overhead.Cost(1)
	res := runIS(t, 4, jobs, cfg, "IS")
	j1, j2 := &res.Tasks[0], &res.Tasks[1]
	if j1.End != 10100+2*o || j1.Suspensions != 1 || j1.OverheadTime != 2*o {
		t.Errorf("job 1: end %d suspensions %d overhead %d, want %d 1 %d", j1.End, j1.Suspensions, j1.OverheadTime, 10100+2*o, 2*o)
	}
	if j2.FirstStart != 600+o || j2.End != 700+o {
		t.Errorf("job 2: start %d end %d, want %d %d", j2.FirstStart, j2.End, 600+o, 700+o)
	}
}
