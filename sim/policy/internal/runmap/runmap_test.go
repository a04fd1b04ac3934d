package runmap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMap_Model checks Map against an array with a value per processor:
// random range updates (set and add), every value read back, the runs
// reported by Update, and the runs kept sorted, disjoint and free of the
// default value; Reset maps every processor to the new default.
func TestMap_Model(t *testing.T) {
	const n = 200
	rng := rand.New(rand.NewPCG(1, 2))
	var m Map
	for trial := range 200 {
		def := int32(trial%2) - 1 // -1 (owners) or 0 (counts)
		m.Reset(def)
		if m.Default() != def || len(m.Runs()) != 0 {
			t.Fatalf("trial %d: after Reset(%d): default %d, runs %v", trial, def, m.Default(), m.Runs())
		}
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
			want := slices.Clone(model)
			for i := lo; i < hi; i++ {
				want[i] = f(model[i])
			}
			next := lo
			m.Update(lo, hi, f, func(a, b, v int32) {
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
				if got := m.At(i); got != model[i] {
					t.Fatalf("trial %d step %d: processor %d has %d, want %d (runs %v)", trial, step, i, got, model[i], m.Runs())
				}
			}
			for k, x := range m.Runs() {
				if x.Lo >= x.Hi || x.V == def || k > 0 && m.Runs()[k-1].Hi > x.Lo {
					t.Fatalf("trial %d step %d: bad runs %v", trial, step, m.Runs())
				}
				for i := x.Lo; i < x.Hi; i++ {
					if model[i] != x.V {
						t.Fatalf("trial %d step %d: run %v holds processor %d of value %d", trial, step, x, i, model[i])
					}
				}
			}
		}
	}
}

// TestMap_LargeMachine checks that a map over 2^20 processors costs its
// runs: a thousand jobs' counts on 2^20 processors keep at most two runs
// per update and read back at the ends of each run.
func TestMap_LargeMachine(t *testing.T) {
	const procs = 1 << 20
	var m Map
	inc := func(v int32) int32 { return v + 1 }
	for k := range 1000 {
		lo := int32(k * (procs / 1000))
		m.Update(lo, lo+procs/1000, inc, nil)
	}
	if got := len(m.Runs()); got > 2*1000 {
		t.Fatalf("%d runs for 1000 updates", got)
	}
	if m.At(0) != 1 || m.At(procs-1) != 0 || m.At(1000*(procs/1000)-1) != 1 {
		t.Fatalf("values %d %d %d, want 1 0 1", m.At(0), m.At(procs-1), m.At(1000*(procs/1000)-1))
	}
}
