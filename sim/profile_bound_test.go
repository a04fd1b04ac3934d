package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompaction_bound compares the bound of released intervals on
// random profiles with its definition, level by level: for every
// processor count P, the longest run of steps with at least P free that
// overlaps one of the intervals, the earliest start and the latest end of
// such runs (found here by a walk over every maximal run at every level).
// It also checks the runs recorded for the memos: each one a rectangle of
// steps with at least its h free that overlaps an interval.
func TestCompaction_bound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 5000 {
		size := 1 + rng.IntN(20)
		p := NewProfile(size, Time(rng.IntN(10)))
		for k := rng.IntN(30); k > 0; k-- {
			s, d, procs := Time(rng.IntN(100)), Time(1+rng.IntN(40)), 1+rng.IntN(size)
			if p.Fits(s, d, procs) {
				_ = p.Reserve(s, d, procs)
			}
		}
		c := &Compaction{memoUpTo: Never}
		c.cur.reset()
		if trial%2 == 0 {
			c.cur.size(size) // arrays by level; steps on the odd trials
		}
		want := make([]level, size+2)
		for l := range want {
			want[l] = level{0, Never, 0}
		}
		wantMax := 0
		var spans [][2]Time
		for range 1 + rng.IntN(4) {
			a := Time(rng.IntN(120))
			e := a + Time(1+rng.IntN(50))
			p.bound(&c.cur, c, a, e, rng.IntN(p.Len()))
			a = max(a, p.Origin())
			if e <= a {
				continue
			}
			spans = append(spans, [2]Time{a, e})
			for l := 1; l <= size; l++ {
				for _, r := range naiveRuns(p, l) {
					if r.start < e && r.end > a {
						n := Never
						if r.end != Never {
							n = r.end - r.start
						}
						want[l] = level{max(want[l].len, n), min(want[l].first, r.start), max(want[l].last, r.end)}
						wantMax = max(wantMax, l)
					}
				}
			}
		}
		for l := 1; l <= size; l++ {
			var got level
			if l <= c.cur.max {
				got = level{c.cur.len.at(l), -c.cur.first.at(l), c.cur.last.at(l)}
			} else {
				got = level{0, Never, 0}
			}
			if got != want[l] {
				t.Fatalf("trial %d, profile %v: level %d: got %+v, want %+v", trial, p, l, got, want[l])
			}
		}
		if c.cur.max != wantMax {
			t.Fatalf("trial %d, profile %v: max %d, want %d", trial, p, c.cur.max, wantMax)
		}
		for _, r := range c.acts {
			if !slices.ContainsFunc(naiveRuns(p, r.h), func(m run) bool { return m.start <= r.start && r.end <= m.end }) {
				t.Fatalf("trial %d, profile %v: recorded run %+v is not under the profile", trial, p, r)
			}
			if !slices.ContainsFunc(spans, func(s [2]Time) bool { return r.start < s[1] && r.end > s[0] }) {
				t.Fatalf("trial %d, profile %v: recorded run %+v overlaps no interval of %v", trial, p, r, spans)
			}
		}
	}
}

// level is the bound of one processor count, as the test compares it.
type level struct{ len, first, last Time }

// naiveRuns returns the maximal runs of steps of p with at least l free.
func naiveRuns(p *Profile, l int) []run {
	var rs []run
	for i := 0; i < p.Len(); {
		if _, f := p.Step(i); f < l {
			i++
			continue
		}
		j := i
		for j < p.Len() {
			if _, f := p.Step(j); f < l {
				break
			}
			j++
		}
		start, _ := p.Step(i)
		end := Never
		if j < p.Len() {
			end, _ = p.Step(j)
		}
		rs = append(rs, run{h: l, n: end - start, start: start, end: end})
		i = j
	}
	return rs
}
