package sim

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompaction_AgainstCompress runs random conservative-like schedules
// (reservations at their earliest start, jobs that end before their
// estimate, new arrivals) and compresses every one both with
// Profile.Compress and with Profile.CompressWith, in start order and in
// arrival order (Carry): the starts and the profiles must be the same
// after every compression. Small machines and many rounds make the
// Compaction's rarer paths (the run ending at a start, a scan that finds
// nothing and the memo it leaves, runs that enter after a memo) common.
func TestCompaction_AgainstCompress(t *testing.T) {
	type job struct {
		id  int
		r   Reservation
		end Time // when it really ends, once started
	}
	for _, arrival := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(11, 12))
		for trial := range 300 {
			size := 8 + rng.IntN(25)
			full, fast := NewProfile(size, 0), NewProfile(size, 0)
			c := &Compaction{Carry: arrival}
			var wait, run []*job // waiting in both copies share starts
			ids := 0
			arrive := func(now Time) {
				procs, dur := 1+rng.IntN(size), Time(1+rng.IntN(60))
				at := full.EarliestStart(now, procs, dur)
				if at2 := fast.EarliestStart(now, procs, dur); at2 != at {
					t.Fatalf("trial %d: profiles differ: %v and %v", trial, full, fast)
				}
				_ = full.Reserve(at, dur, procs)
				_ = fast.Reserve(at, dur, procs)
				ids++
				wait = append(wait, &job{id: ids, r: Reservation{Start: at, Dur: dur, Procs: procs}})
			}
			for range 10 + rng.IntN(30) {
				arrive(0)
			}
			now := Time(0)
			for round := range 40 {
				now += Time(1 + rng.IntN(15))
				full.Advance(now)
				fast.Advance(now)
				// Start the jobs whose time has come; each runs for part
				// of its estimate.
				rest := wait[:0]
				for _, j := range wait {
					if j.r.Start <= now {
						j.end = j.r.Start + Time(rng.IntN(int(j.r.Dur)+1))
						run = append(run, j)
						continue
					}
					rest = append(rest, j)
				}
				wait = rest
				// End the jobs that are done, early ones giving back the
				// rest of their estimate.
				still := run[:0]
				for _, j := range run {
					if j.end > now {
						still = append(still, j)
						continue
					}
					if e := j.r.Start + j.r.Dur; e > now {
						_ = full.Release(now, e-now, j.r.Procs)
						_ = fast.Release(now, e-now, j.r.Procs)
						c.Released(now, e-now, j.r.Procs)
					}
				}
				run = still
				if arrival {
					slices.SortFunc(wait, func(a, b *job) int { return cmp.Compare(a.id, b.id) })
				} else {
					slices.SortFunc(wait, func(a, b *job) int {
						return cmp.Or(cmp.Compare(a.r.Start, b.r.Start), cmp.Compare(a.id, b.id))
					})
				}
				a := make([]Reservation, len(wait))
				b := make([]Reservation, len(wait))
				for i, j := range wait {
					a[i], b[i] = j.r, j.r
				}
				full.Compress(now, len(a), func(i int) *Reservation { return &a[i] })
				fast.CompressWith(c, now, len(b), func(i int) *Reservation { return &b[i] })
				for i := range a {
					if a[i].Start != b[i].Start {
						t.Fatalf("arrival order %v, trial %d, round %d: reservation %d (%+v before) at %d, with the Compaction at %d", arrival, trial, round, wait[i].id, wait[i].r, a[i].Start, b[i].Start)
					}
					wait[i].r = a[i]
				}
				if full.String() != fast.String() {
					t.Fatalf("arrival order %v, trial %d, round %d: profiles %v and %v", arrival, trial, round, full, fast)
				}
				for range rng.IntN(4) {
					arrive(now)
				}
			}
		}
	}
}
