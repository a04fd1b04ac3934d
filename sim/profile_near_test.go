package sim

import (
	"math/rand/v2"
	"testing"
)

// randomProfile returns a profile of 64 processors with n random
// reservations in [0, 1000).
func randomProfile(rng *rand.Rand, n int) *Profile {
	p := NewProfile(64, 0)
	for range n {
		procs, dur := 1+rng.IntN(16), Time(1+rng.IntN(100))
		_ = p.Reserve(p.EarliestStart(Time(rng.IntN(900)), procs, dur), dur, procs)
	}
	return p
}

// TestProfile_indexNear checks the search from a hint against index, for
// hints before, at and after the answer.
func TestProfile_indexNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		p := randomProfile(rng, 1+rng.IntN(60))
		for range 50 {
			at := Time(rng.IntN(1200))
			h := rng.IntN(len(p.times)+4) - 2
			if got, want := p.indexNear(h, at), p.index(at); got != want {
				t.Fatalf("trial %d: indexNear(%d, %d) = %d, index = %d (profile %v)", trial, h, at, got, want, p)
			}
		}
	}
}

// TestProfile_slide checks that sliding a reservation earlier gives the
// profile of releasing it and reserving it again, overlapping or not.
func TestProfile_slide(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 5000 {
		p := randomProfile(rng, rng.IntN(40))
		procs, dur := 1+rng.IntN(32), Time(rng.IntN(150))
		rv := Reservation{Start: p.EarliestStart(Time(50+rng.IntN(900)), procs, dur), Dur: dur, Procs: procs}
		_ = p.Reserve(rv.Start, rv.Dur, rv.Procs)
		at := p.earliestWithout(0, &rv)
		if at == rv.Start {
			at = max(0, rv.Start-Time(rng.IntN(3)))
			if !p.Fits(at, min(rv.Dur, rv.Start-at), rv.Procs) {
				continue
			}
		}
		want := p.Clone()
		_ = want.Release(rv.Start, rv.Dur, rv.Procs)
		if err := want.Reserve(at, rv.Dur, rv.Procs); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		p.slide(&Compaction{}, &rv, at, rng.IntN(p.Len()))
		if p.String() != want.String() {
			t.Fatalf("trial %d: sliding %+v to %d gives %v, want %v", trial, rv, at, p, want)
		}
		if err := p.Check(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
}
