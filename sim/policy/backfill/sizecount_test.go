package backfill

import (
	"math/rand/v2"
	"testing"
)

// TestSizeCount_Model checks the least waiting size against a count kept
// per size on a machine of 2^20 processors, through random arrivals and
// starts, and that the counter holds one entry per distinct size waiting
// rather than one per processor.
func TestSizeCount_Model(t *testing.T) {
	const max = 1 << 20
	rng := rand.New(rand.NewPCG(7, 11))
	var c sizeCount
	c.reset(max)
	if c.min != max+1 {
		t.Fatalf("empty counter: min %d, want %d", c.min, max+1)
	}
	model := map[int]int{}
	var waiting []int
	for step := range 20000 {
		if len(waiting) == 0 || rng.IntN(3) > 0 {
			size := 1 << rng.IntN(21) // 1 .. 2^20
			if rng.IntN(2) == 0 {
				size = 1 + rng.IntN(64)
			}
			c.add(size)
			model[size]++
			waiting = append(waiting, size)
		} else {
			i := rng.IntN(len(waiting))
			size := waiting[i]
			waiting[i] = waiting[len(waiting)-1]
			waiting = waiting[:len(waiting)-1]
			c.remove(size)
			if model[size]--; model[size] == 0 {
				delete(model, size)
			}
		}
		want := max + 1
		for size := range model {
			want = min(want, size)
		}
		if c.min != want {
			t.Fatalf("step %d: min %d, want %d", step, c.min, want)
		}
		if len(c.size) != len(model) || len(c.n) != len(model) {
			t.Fatalf("step %d: %d entries for %d distinct sizes", step, len(c.size), len(model))
		}
	}
	if cap(c.size) > 200 {
		t.Errorf("capacity %d for at most %d distinct sizes: memory follows the machine", cap(c.size), 21+64)
	}
}
