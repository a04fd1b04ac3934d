package sim_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// downeyRef is an independent transcription of Downey's model, written
// from the paper's definitions (fraction of time at parallelism A ± σ...),
// in the algebraic form of Downey 1997, eq. 1 and 2.
func downeyRef(n, a, s float64) float64 {
	if s <= 1 {
		switch {
		case n <= a:
			return a * n / (a + s/2*(n-1))
		case n < 2*a-1:
			return a * n / (s*(a-1.0/2) + n*(1-s/2))
		default:
			return a
		}
	}
	if n < a+a*s-s {
		return n * a * (s + 1) / (s*(n+a-1) + a)
	}
	return a
}

func TestDowneySpeedup_Golden(t *testing.T) {
	for _, c := range []struct{ k, a, s, want float64 }{
		{32, 64, .5, 28.543554},
		{96, 64, .5, 59.219277},
		{100, 64, 1, 56.387665},
		{100, 64, 2, 49.230769},
		{190, 64, 2, 64},
		{16, 128, 2, 14.840580},
	} {
		if got := sim.DowneySpeedup(c.k, c.a, c.s); math.Abs(got-c.want) > 5e-7 {
			t.Errorf("DowneySpeedup(%v; %v, %v) = %.7f, want %.6f", c.k, c.a, c.s, got, c.want)
		}
	}
}

func TestDowneySpeedup_Properties(t *testing.T) {
	for _, a := range []float64{1, 2, 3, 7.5, 16, 64, 128, 430} {
		for _, s := range []float64{0, 0.25, 0.5, 1, 1.5, 2, 4, 10} {
			if got := sim.DowneySpeedup(1, a, s); math.Abs(got-1) > 1e-12 {
				t.Errorf("S(1; %v, %v) = %v, want 1", a, s, got)
			}
			prev := 0.0
			for k := 1; k <= int(3*a)+2; k++ {
				got := sim.DowneySpeedup(float64(k), a, s)
				if ref := downeyRef(float64(k), a, s); math.Abs(got-ref) > 1e-9*a {
					t.Errorf("S(%d; %v, %v) = %v, reference %v", k, a, s, got, ref)
				}
				if got < prev-1e-12 {
					t.Errorf("S(%d; %v, %v) = %v < S(%d) = %v", k, a, s, got, k-1, prev)
				}
				if got > math.Min(float64(k), a)+1e-9 {
					t.Errorf("S(%d; %v, %v) = %v > min(k, A)", k, a, s, got)
				}
				if s == 0 && math.Abs(got-math.Min(float64(k), a)) > 1e-9 {
					t.Errorf("S(%d; %v, 0) = %v, want min(k, A)", k, a, got)
				}
				prev = got
			}
			// Continuity at the branch points.
			for _, x := range []float64{a, 2*a - 1, a + a*s - s} {
				if x < 1 {
					continue
				}
				lo, hi := sim.DowneySpeedup(x-1e-9, a, s), sim.DowneySpeedup(x+1e-9, a, s)
				if math.Abs(lo-hi) > 1e-9*a {
					t.Errorf("S(%v; %v, %v) jumps: %v to %v", x, a, s, lo, hi)
				}
			}
		}
		// The two branches agree at sigma = 1.
		for k := 1.0; k <= 3*a; k++ {
			low := a * k / (a + (k-1)/2)
			if k > a {
				low = a * k / ((a - 0.5) + k/2)
			}
			if k >= 2*a-1 {
				low = a
			}
			high := k * a * 2 / ((k + a - 1) + a)
			if k >= 2*a-1 {
				high = a
			}
			if math.Abs(low-high) > 1e-9*a {
				t.Errorf("sigma 1, k %v, A %v: low branch %v, high branch %v", k, a, low, high)
			}
		}
	}
}

func TestMoldable_TE(t *testing.T) {
	// A = 8, sigma 0: S(k) = min(k, 8); trace size 2, runtime 300, estimate 400.
	a, err := sim.NewMoldable(2, 300, 400, 1, 8, sim.Downey{A: 8, Sigma: 0})
	if err != nil {
		t.Fatal(err)
	}
	if a.Work != 600 || a.EstWork != 800 {
		t.Fatalf("Work, EstWork = %v, %v, want 600, 800", a.Work, a.EstWork)
	}
	for _, c := range []struct {
		k    int
		T, E sim.Time
	}{{1, 600, 800}, {2, 300, 400}, {3, 200, 267}, {7, 86, 115}, {8, 75, 100}} {
		if got := a.T(c.k); got != c.T {
			t.Errorf("T(%d) = %d, want %d", c.k, got, c.T)
		}
		if got := a.E(c.k); got != c.E {
			t.Errorf("E(%d) = %d, want %d", c.k, got, c.E)
		}
	}
	if _, err := sim.NewMoldable(2, 300, 400, 3, 8, sim.Downey{A: 8}); !errors.Is(err, sim.ErrMold) {
		t.Errorf("min above size: err = %v, want ErrMold", err)
	}
}

// TestMachine_Mold: a job is molded twice before it starts, to 4
// processors (runtime 150); molding a running or rigid job, or to a size
// out of range, is a policy error.
func TestMachine_Mold(t *testing.T) {
	mk := func() []sim.Job {
		a, err := sim.NewMoldable(2, 300, 300, 1, 8, sim.Downey{A: 8})
		if err != nil {
			t.Fatal(err)
		}
		return []sim.Job{{ID: 1, Runtime: 300, Estimate: 300, Procs: 2, Mold: a}, {ID: 2, Runtime: 10, Estimate: 10, Procs: 1}}
	}
	jobs := mk()
	res := run(t, 8, jobs, &funcPolicy{schedule: func(m *sim.Machine) {
		if m.Now() != 0 {
			return
		}
		t1 := m.Task(0)
		if err := m.Mold(t1, 8); err != nil {
			t.Fatal(err)
		}
		if err := m.Mold(t1, 4); err != nil {
			t.Fatal(err)
		}
		if err := m.Start(t1); err != nil {
			t.Fatal(err)
		}
		if err := m.Start(m.Task(1)); err != nil {
			t.Fatal(err)
		}
	}})
	if got := res.Tasks[0]; got.Procs != 4 || got.Runtime != 150 || got.End != 150 || got.Mold.BaseProcs != 2 {
		t.Errorf("job 1: procs %d runtime %d end %d, want 4, 150, 150", got.Procs, got.Runtime, got.End)
	}
	for _, c := range []struct {
		name string
		do   func(m *sim.Machine) error
	}{
		{"Running", func(m *sim.Machine) error {
			if err := m.Start(m.Task(0)); err != nil {
				return err
			}
			return m.Mold(m.Task(0), 4)
		}},
		{"Rigid", func(m *sim.Machine) error { return m.Mold(m.Task(1), 2) }},
		{"OutOfRange", func(m *sim.Machine) error { return m.Mold(m.Task(0), 9) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sim.Run(context.Background(), 8, mk(), &funcPolicy{schedule: func(m *sim.Machine) { _ = c.do(m) }}, sim.Options{})
			if !errors.Is(err, sim.ErrPolicy) {
				t.Errorf("err = %v, want ErrPolicy", err)
			}
		})
	}
}
