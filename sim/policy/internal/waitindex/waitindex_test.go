package waitindex

import (
	"math/rand/v2"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestNext compares Next with a scan of every held job under random
// adds, removes and monotone conditions (width at most a, or width at
// most b and estimate at most d), on sizes that are and are not powers
// of two.
func TestNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 64, 300} {
		tasks := make([]sim.Task, n)
		held := make([]bool, n)
		for i := range tasks {
			tasks[i].Index = i
			tasks[i].Procs = 1 + rng.IntN(64)
			tasks[i].Estimate = sim.Time(1 + rng.IntN(1000))
		}
		var x Index
		x.Reset(n)
		count := 0
		for step := 0; step < 4000; step++ {
			i := rng.IntN(n)
			if held[i] {
				x.Remove(&tasks[i])
				count--
			} else {
				x.Add(&tasks[i])
				count++
			}
			held[i] = !held[i]
			if x.Len() != count {
				t.Fatalf("n %d: Len %d, want %d", n, x.Len(), count)
			}
			a, b := int32(rng.IntN(40)), int32(rng.IntN(64))
			d := sim.Time(rng.IntN(1000))
			may := func(p int32, e sim.Time) bool { return p <= a || (p <= b && e <= d) }
			from := rng.IntN(n+2) - 1
			want, first := -1, -1
			for j := max(from, 0); j < n; j++ {
				if !held[j] {
					continue
				}
				if first < 0 {
					first = j
				}
				if may(int32(tasks[j].Procs), tasks[j].Estimate) {
					want = j
					break
				}
			}
			if got := x.Next(from, may); got != want {
				t.Fatalf("n %d step %d: Next(%d) = %d, want %d", n, step, from, got, want)
			}
			if got := x.First(from); got != first {
				t.Fatalf("n %d step %d: First(%d) = %d, want %d", n, step, from, got, first)
			}
		}
	}
}
