package sim

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveProfile is the reference model: free processors per second.
type naiveProfile struct {
	size int
	free []int // free[t] for t in [0, horizon)
}

func newNaive(size, horizon int) *naiveProfile {
	n := &naiveProfile{size: size, free: make([]int, horizon)}
	for i := range n.free {
		n.free[i] = size
	}
	return n
}

func (n *naiveProfile) earliest(from Time, procs int, dur Time) Time {
	for s := int(from); s < len(n.free); s++ {
		ok := true
		for t := s; t < s+int(dur); t++ {
			if t < len(n.free) && n.free[t] < procs {
				ok = false
				break
			}
		}
		if ok {
			return Time(s)
		}
	}
	return Time(len(n.free))
}

func (n *naiveProfile) add(start, dur Time, d int) {
	for t := start; t < start+dur && int(t) < len(n.free); t++ {
		n.free[t] += d
	}
}

// TestProfile_AgainstNaive compares the profile with a per-second array
// after random reservations and releases.
func TestProfile_AgainstNaive(t *testing.T) {
	const size, horizon = 16, 400
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		p := NewProfile(size, 0)
		n := newNaive(size, horizon+200)
		type resv struct {
			start, dur Time
			procs      int
		}
		var held []resv
		for step := 0; step < 60; step++ {
			if len(held) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(held))
				r := held[k]
				held = append(held[:k], held[k+1:]...)
				if err := p.Release(r.start, r.dur, r.procs); err != nil {
					t.Fatalf("round %d: release: %v", round, err)
				}
				n.add(r.start, r.dur, r.procs)
			} else {
				from := Time(rng.IntN(100))
				procs := 1 + rng.IntN(size)
				dur := Time(1 + rng.IntN(50))
				got := p.EarliestStart(from, procs, dur)
				want := n.earliest(from, procs, dur)
				if got != want {
					t.Fatalf("round %d: EarliestStart(%d, %d, %d) = %d, want %d in %v", round, from, procs, dur, got, want, p)
				}
				if int(got)+int(dur) > horizon {
					continue
				}
				if err := p.Reserve(got, dur, procs); err != nil {
					t.Fatalf("round %d: reserve at earliest start: %v", round, err)
				}
				n.add(got, dur, -procs)
				held = append(held, resv{got, dur, procs})
			}
			if err := p.Check(); err != nil {
				t.Fatalf("round %d: %v: %v", round, err, p)
			}
			for x := 0; x < 5; x++ {
				at := Time(rng.IntN(horizon))
				if got, want := p.FreeAt(at), n.free[at]; got != want {
					t.Fatalf("round %d: FreeAt(%d) = %d, want %d in %v", round, at, got, want, p)
				}
				end := at + Time(1+rng.IntN(40))
				want := size
				for s := at; s < end; s++ {
					want = min(want, n.free[s])
				}
				if got := p.MinFree(at, end); got != want {
					t.Fatalf("round %d: MinFree(%d,%d) = %d, want %d", round, at, end, got, want)
				}
			}
		}
		for _, r := range held {
			if err := p.Release(r.start, r.dur, r.procs); err != nil {
				t.Fatal(err)
			}
		}
		if p.Len() != 1 || p.FreeAt(0) != size {
			t.Fatalf("round %d: not empty after releasing everything: %v", round, p)
		}
	}
}

func TestProfile_Reserve(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		p := NewProfile(10, 0)
		if err := p.Reserve(5, 10, 4); err != nil {
			t.Fatal(err)
		}
		if err := p.Reserve(0, 5, 10); err != nil {
			t.Fatal(err)
		}
		if got, want := p.String(), "[0:0 5:6 15:10]"; got != want {
			t.Errorf("String()=%v, want %v", got, want)
		}
	})
	t.Run("ErrProfile", func(t *testing.T) {
		p := NewProfile(10, 0)
		_ = p.Reserve(0, 10, 8)
		before := p.String()
		if err := p.Reserve(5, 10, 3); !errors.Is(err, ErrProfile) {
			t.Fatalf("Reserve over capacity: err=%v, want ErrProfile", err)
		}
		if err := p.Release(20, 5, 1); !errors.Is(err, ErrProfile) {
			t.Fatalf("Release of nothing: err=%v, want ErrProfile", err)
		}
		if p.String() != before {
			t.Errorf("failed change altered the profile: %v, was %v", p, before)
		}
	})
	t.Run("Advance", func(t *testing.T) {
		p := NewProfile(10, 0)
		_ = p.Reserve(0, 10, 3)
		_ = p.Reserve(10, 10, 5)
		p.Advance(12)
		if got, want := p.String(), "[12:5 20:10]"; got != want {
			t.Errorf("String()=%v, want %v", got, want)
		}
		if got := p.EarliestStart(0, 6, 3); got != 20 {
			t.Errorf("EarliestStart before origin = %d, want 20", got)
		}
	})
	t.Run("TooWide", func(t *testing.T) {
		if got := NewProfile(4, 0).EarliestStart(0, 5, 1); got != Never {
			t.Errorf("EarliestStart for 5 of 4 = %d, want Never", got)
		}
	})
}

// BenchmarkProfile_Mix is a realistic mix: a queue of 200 reservations
// being re-placed (the conservative compression pattern).
func BenchmarkProfile_Mix(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	type r struct {
		dur   Time
		procs int
	}
	jobs := make([]r, 200)
	for i := range jobs {
		jobs[i] = r{Time(60 + rng.IntN(36000)), 1 + rng.IntN(64)}
	}
	p := NewProfile(338, 0)
	starts := make([]Time, len(jobs))
	for i, j := range jobs {
		starts[i] = p.EarliestStart(0, j.procs, j.dur)
		_ = p.Reserve(starts[i], j.dur, j.procs)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		i := n % len(jobs)
		j := jobs[i]
		_ = p.Release(starts[i], j.dur, j.procs)
		starts[i] = p.EarliestStart(0, j.procs, j.dur)
		_ = p.Reserve(starts[i], j.dur, j.procs)
	}
}

// TestProfile_Compress: the compress scenario of the backfill golden
// files, on the profile alone. A whole-machine job reserved until 100 ends
// at 50; the reservations A (6 procs at 100), B (4 at 100) and C (6 at
// 140) move to 50, 50 and 90.
func TestProfile_Compress(t *testing.T) {
	p := NewProfile(10, 0)
	_ = p.Reserve(0, 100, 10)
	rs := []Reservation{{Start: 100, Dur: 40, Procs: 6}, {Start: 100, Dur: 20, Procs: 4}, {Start: 140, Dur: 30, Procs: 6}}
	for _, r := range rs {
		if err := p.Reserve(r.Start, r.Dur, r.Procs); err != nil {
			t.Fatal(err)
		}
	}
	p.Advance(50)
	_ = p.Release(50, 50, 10)
	if !p.Compress(50, len(rs), func(i int) *Reservation { return &rs[i] }) {
		t.Fatal("Compress reported no move")
	}
	for i, want := range []Time{50, 50, 90} {
		if rs[i].Start != want {
			t.Errorf("reservation %d at %d, want %d", i, rs[i].Start, want)
		}
	}
	if got, want := p.String(), "[50:0 70:4 120:10]"; got != want {
		t.Errorf("profile %v, want %v", got, want)
	}
	if p.Compress(50, len(rs), func(i int) *Reservation { return &rs[i] }) {
		t.Error("a second Compress moved something")
	}
}

// TestProfile_CompressRandom: after random early ends, compression never
// moves a reservation later and leaves exactly the profile rebuilt from
// the surviving blocks.
func TestProfile_CompressRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 300; round++ {
		const size = 12
		p := NewProfile(size, 0)
		var rs []Reservation
		for k := 0; k < 25; k++ {
			r := Reservation{Dur: Time(1 + rng.IntN(40)), Procs: 1 + rng.IntN(size)}
			r.Start = p.EarliestStart(0, r.Procs, r.Dur)
			_ = p.Reserve(r.Start, r.Dur, r.Procs)
			rs = append(rs, r)
		}
		// Some blocks end early: cut them short at random.
		now := Time(rng.IntN(30))
		p.Advance(now)
		var kept []Reservation
		for _, r := range rs {
			if r.Start <= now && r.Start+r.Dur > now && rng.IntN(2) == 0 {
				_ = p.Release(now, r.Start+r.Dur-now, r.Procs)
				continue
			}
			kept = append(kept, r)
		}
		slices.SortStableFunc(kept, func(a, b Reservation) int { return cmp.Compare(a.Start, b.Start) })
		old := slices.Clone(kept)
		p.Compress(now, len(kept), func(i int) *Reservation { return &kept[i] })
		want := NewProfile(size, now)
		for i, r := range kept {
			if r.Start > old[i].Start {
				t.Fatalf("round %d: reservation %d moved later, %d -> %d", round, i, old[i].Start, r.Start)
			}
			if err := want.Reserve(r.Start, r.Dur, r.Procs); err != nil {
				t.Fatalf("round %d: compressed blocks over-commit: %v", round, err)
			}
		}
		if err := p.Check(); err != nil {
			t.Fatal(err)
		}
		if p.String() != want.String() {
			t.Fatalf("round %d: profile %v, rebuilt %v", round, p, want)
		}
	}
}

// BenchmarkProfile_Compress re-places 200 reservations after a
// 64-processor job ended an hour early (the conservative pattern).
func BenchmarkProfile_Compress(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	base := NewProfile(338, 0)
	_ = base.Reserve(0, 7200, 64)
	rs := make([]Reservation, 200)
	for i := range rs {
		rs[i] = Reservation{Dur: Time(60 + rng.IntN(36000)), Procs: 1 + rng.IntN(64)}
		rs[i].Start = base.EarliestStart(0, rs[i].Procs, rs[i].Dur)
		_ = base.Reserve(rs[i].Start, rs[i].Dur, rs[i].Procs)
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		p := base.Clone()
		work := slices.Clone(rs)
		_ = p.Release(3600, 3600, 64)
		b.StartTimer()
		p.Compress(3600, len(work), func(i int) *Reservation { return &work[i] })
	}
}

func TestProfile_CopyFrom(t *testing.T) {
	q := NewProfile(10, 0)
	if err := q.Reserve(5, 10, 4); err != nil {
		t.Fatal(err)
	}
	p := NewProfile(3, 7)
	p.CopyFrom(q)
	if p.String() != q.String() || p.Size() != 10 {
		t.Fatalf("CopyFrom: %v (size %d), want %v", p, p.Size(), q)
	}
	if err := p.Reserve(0, 5, 10); err != nil {
		t.Fatal(err)
	}
	if q.String() != "[0:10 5:6 15:10]" {
		t.Errorf("changing the copy changed the original: %v", q)
	}
}

// TestProfile_earliestWithout checks, on random profiles, that the scan
// that counts a reservation's processors as free gives what releasing it
// and searching gives.
func TestProfile_earliestWithout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for it := 0; it < 3000; it++ {
		p := NewProfile(16, 0)
		var rs []Reservation
		for k := 0; k < 1+rng.IntN(12); k++ {
			procs, dur := 1+rng.IntN(16), Time(1+rng.IntN(50))
			at := p.EarliestStart(Time(rng.IntN(60)), procs, dur)
			if p.Reserve(at, dur, procs) == nil {
				rs = append(rs, Reservation{Start: at, Dur: dur, Procs: procs})
			}
		}
		rv := rs[rng.IntN(len(rs))]
		from := Time(rng.IntN(40))
		got := p.earliestWithout(from, &rv)
		q := p.Clone()
		if err := q.Release(rv.Start, rv.Dur, rv.Procs); err != nil {
			t.Fatal(err)
		}
		want := q.EarliestStart(from, rv.Procs, rv.Dur)
		if rv.Start <= from {
			want = rv.Start
		}
		if got != want {
			t.Fatalf("profile %v, reservation %+v from %d: earliestWithout = %d, want %d", p, rv, from, got, want)
		}
	}
}
