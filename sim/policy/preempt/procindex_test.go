package preempt

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestSegMap_Model checks segMap against an array with a value per
// processor: random range updates (set and add), every value read back,
// the runs reported by update, and the runs kept sorted, disjoint and free
// of the default value.
func TestSegMap_Model(t *testing.T) {
	const n = 200
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		def := int32(trial%2) - 1 // -1 (owners) or 0 (counts)
		m := segMap{def: def}
		model := make([]int32, n)
		for i := range model {
			model[i] = def
		}
		for step := range 60 {
			lo := int32(rng.IntN(n))
			hi := lo + 1 + int32(rng.IntN(n-int(lo)))
			var f func(int32) int32
			if step%2 == 0 {
				v := int32(rng.IntN(4)) - 1
				f = func(int32) int32 { return v }
			} else {
				d := int32(rng.IntN(3)) - 1
				f = func(x int32) int32 { return x + d }
			}
			want := slicesClone(model)
			for i := lo; i < hi; i++ {
				want[i] = f(model[i])
			}
			next := lo
			m.update(lo, hi, f, func(a, b, v int32) {
				if a != next || b <= a || b > hi {
					t.Fatalf("trial %d step %d: run %d..%d reported after %d (range %d..%d)", trial, step, a, b, next, lo, hi)
				}
				for i := a; i < b; i++ {
					if want[i] != v {
						t.Fatalf("trial %d step %d: processor %d reported %d, want %d", trial, step, i, v, want[i])
					}
				}
				next = b
			})
			if next != hi {
				t.Fatalf("trial %d step %d: runs reported up to %d, want %d", trial, step, next, hi)
			}
			model = want
			for i := range model {
				if got := m.at(i); got != model[i] {
					t.Fatalf("trial %d step %d: processor %d has %d, want %d (runs %v)", trial, step, i, got, model[i], m.s)
				}
			}
			for k, x := range m.s {
				if x.lo >= x.hi || x.v == def || k > 0 && m.s[k-1].hi > x.lo {
					t.Fatalf("trial %d step %d: bad runs %v", trial, step, m.s)
				}
			}
		}
	}
}

func slicesClone(s []int32) []int32 { return append([]int32(nil), s...) }

// TestProcIndex_RunsSameSchedule runs SS, TSS (with hold_remembered and
// overhead) and IS on 3,000 CTC jobs with the processor index as arrays
// and as runs (denseIndexMax 0): every job must start, end and hold the
// same processors in both.
func TestProcIndex_RunsSameSchedule(t *testing.T) {
	wl := loadTrace(t, "CTC-SP2-1996-3.1-cln.swf.gz", 0, workload.EstimateAccurate, 0, 3000)
	tss := DefaultSSConfig()
	tss.Tunable, tss.HoldRemembered, tss.Overhead = true, true, DefaultOverhead(1)
	for _, c := range []struct {
		name string
		make func() (sim.Policy, error)
	}{
		{"ss", func() (sim.Policy, error) { return NewSS(DefaultSSConfig(), wl.Procs, wl.Jobs) }},
		{"tss-hold-overhead", func() (sim.Policy, error) { return NewSS(tss, wl.Procs, wl.Jobs) }},
		{"is", func() (sim.Policy, error) { return NewIS(DefaultISConfig()) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(dense int) *sim.Result {
				old := denseIndexMax
				denseIndexMax = dense
				defer func() { denseIndexMax = old }()
				p, err := c.make()
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{CheckEvery: 200})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			a, b := run(denseIndexMax), run(0)
			susp := 0
			for i := range a.Tasks {
				x, y := &a.Tasks[i], &b.Tasks[i]
				if x.ID != y.ID || x.FirstStart != y.FirstStart || x.End != y.End || x.Set.String() != y.Set.String() || x.Suspensions != y.Suspensions {
					t.Fatalf("job %d: arrays start %d end %d on %v (%d suspensions), runs start %d end %d on %v (%d)",
						x.ID, x.FirstStart, x.End, x.Set, x.Suspensions, y.FirstStart, y.End, y.Set, y.Suspensions)
				}
				susp += x.Suspensions
			}
			if susp == 0 {
				t.Fatal("no job was suspended: the index was not exercised")
			}
		})
	}
}
