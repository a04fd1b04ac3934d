package sim

import (
	"math/rand/v2"
	"testing"
)

// TestProfile_EarliestRun checks EarliestRun on random profiles against
// EarliestStart and against a brute-force longest run: the runs of steps
// with procs free are found one step at a time, counted from from.
func TestProfile_EarliestRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := range 300 {
		size := 1 + rng.IntN(64)
		p := NewProfile(size, 0)
		for range rng.IntN(40) {
			procs := 1 + rng.IntN(size)
			dur := Time(1 + rng.IntN(500))
			at := p.EarliestStart(Time(rng.IntN(2000)), procs, dur)
			if err := p.Reserve(at, dur, procs); err != nil {
				t.Fatal(err)
			}
		}
		for range 50 {
			from := Time(rng.IntN(2500))
			procs := 1 + rng.IntN(size)
			dur := Time(rng.IntN(600))
			at, longest := p.EarliestRun(from, procs, dur)
			if want := p.EarliestStart(from, procs, dur); at != want {
				t.Fatalf("trial %d: EarliestRun(%d, %d, %d) at %d, EarliestStart %d on %v", trial, from, procs, dur, at, want, p)
			}
			// Brute force: walk every second from from to at.
			var want Time
			run := Time(0)
			for x := max(from, p.Origin()); x < at; x++ {
				if p.FreeAt(x) >= procs {
					run++
					continue
				}
				want = max(want, run)
				run = 0
			}
			if longest != want {
				t.Fatalf("trial %d: EarliestRun(%d, %d, %d) longest %d, want %d on %v", trial, from, procs, dur, longest, want, p)
			}
			if longest >= dur && dur > 0 {
				t.Fatalf("trial %d: longest %d not below dur %d", trial, longest, dur)
			}
		}
	}
}
