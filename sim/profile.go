package sim

import (
	"errors"
	"fmt"
	"strings"
)

// ErrProfile is wrapped by errors of [Profile.Reserve] and [Profile.Release]
// when the change would leave fewer than 0 or more than size processors free.
var ErrProfile = errors.New("profile over- or under-committed")

// Profile is an availability profile: the number of free processors as a
// step function of time, from an origin (the current time) to infinity. It
// is the shared planning structure of the reservation-based policies
// (conservative, QoPS, multiqueue, moldable): running jobs and
// reservations are subtracted from it for their estimated durations.
// (EASY, which reads only its running jobs' planned ends from a profile,
// keeps just those.)
//
// It is stored as sorted breakpoints: free[i] processors are free from
// times[i] until times[i+1] (the last step lasts forever). Adjacent steps
// with equal values are merged, so its length is at most about twice the
// number of reservations in it. Costs, with k steps: FreeAt is O(log k);
// EarliestStart, Reserve and Release are O(log k + steps spanned) plus an
// O(k) slice insert when a new breakpoint is made.
//
// A Profile is not safe for concurrent use. Times before the origin are
// clamped to it; call [Profile.Advance] as time passes to drop the past.
type Profile struct {
	size  int
	times []Time
	free  []int
}

// NewProfile returns a profile of size free processors from origin on.
func NewProfile(size int, origin Time) *Profile {
	return &Profile{size: size, times: []Time{origin}, free: []int{size}}
}

// Size returns the machine size the profile was made for.
func (p *Profile) Size() int { return p.size }

// Origin returns the profile's first time.
func (p *Profile) Origin() Time { return p.times[0] }

// Len returns the number of steps.
func (p *Profile) Len() int { return len(p.times) }

// Reset empties the profile and sets its origin.
func (p *Profile) Reset(origin Time) {
	p.times = append(p.times[:0], origin)
	p.free = append(p.free[:0], p.size)
}

// Clone returns an independent copy (O(k)).
func (p *Profile) Clone() *Profile {
	return &Profile{size: p.size, times: append([]Time(nil), p.times...), free: append([]int(nil), p.free...)}
}

// index returns the step containing t (t >= origin; -1 before it): the
// largest i with times[i] <= t.
func (p *Profile) index(t Time) int {
	if t < p.times[0] {
		return -1
	}
	return p.search(0, len(p.times), t)
}

// search returns the largest i in [lo, hi) with times[i] <= t, given
// times[lo] <= t and hi = len(times) or times[hi] > t (binary search).
func (p *Profile) search(lo, hi int, t Time) int {
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if p.times[m] <= t {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// FreeAt returns the free processors at time t.
func (p *Profile) FreeAt(t Time) int {
	if t <= p.times[0] {
		return p.free[0]
	}
	return p.free[p.index(t)]
}

// MinFree returns the least number of free processors in [start, end).
func (p *Profile) MinFree(start, end Time) int {
	start = max(start, p.times[0])
	i := p.index(start)
	m := p.free[i]
	for i++; i < len(p.times) && p.times[i] < end; i++ {
		m = min(m, p.free[i])
	}
	return m
}

// Fits reports whether procs processors are free during [start, start+dur).
func (p *Profile) Fits(start, dur Time, procs int) bool {
	return p.MinFree(start, start+dur) >= procs
}

// EarliestStart returns the earliest time >= from at which procs
// processors are free for dur seconds. It returns [Never] when procs
// exceeds the machine size.
func (p *Profile) EarliestStart(from Time, procs int, dur Time) Time {
	if procs > p.size {
		return Never
	}
	from = max(from, p.times[0])
	i := p.index(from)
	cand := from
	for ; i < len(p.times); i++ {
		if p.free[i] < procs {
			cand = Never
			continue
		}
		if cand == Never {
			cand = p.times[i]
		}
		// Steps from cand on are all wide enough so far; done when the
		// next narrow step (or the end) is at least dur away.
		if i+1 == len(p.times) || p.times[i+1]-cand >= dur {
			return cand
		}
	}
	return cand
}

// splitAt makes a breakpoint at t (> origin) and returns its index, given
// i = index(t).
func (p *Profile) splitAt(i int, t Time) int {
	if p.times[i] == t {
		return i
	}
	i++
	p.times = append(p.times, 0)
	p.free = append(p.free, 0)
	copy(p.times[i+1:], p.times[i:])
	copy(p.free[i+1:], p.free[i:])
	p.times[i] = t
	p.free[i] = p.free[i-1]
	return i
}

// add changes free processors by delta during [start, start+dur).
func (p *Profile) add(start, dur Time, delta int) error {
	end := start + dur
	start = max(start, p.times[0])
	if end <= start {
		return nil
	}
	return p.addAt(p.index(start), start, end, delta)
}

// addAt is add for [start, end) (start >= origin, end > start) given
// i = index(start).
func (p *Profile) addAt(i int, start, end Time, delta int) error {
	// Check first so that an error leaves the profile unchanged.
	j := i // then the first step at or after end
	for ; j < len(p.times) && p.times[j] < end; j++ {
		if f := p.free[j] + delta; f < 0 || f > p.size {
			return fmt.Errorf("%w: %+d processors during [%d,%d) meets %d free at %d", ErrProfile, delta, start, end, p.free[j], p.times[j])
		}
	}
	a := p.splitAt(i, start)
	if a != i {
		j++ // a breakpoint was made before step j
	}
	b := len(p.times)
	if end != Never {
		k := j - 1 // index(end)
		if j < len(p.times) && p.times[j] == end {
			k = j
		}
		b = p.splitAt(k, end)
	}
	for j := a; j < b; j++ {
		p.free[j] += delta
	}
	// Merge equal neighbours at both ends (inner steps were distinct before
	// and stay distinct after adding the same delta).
	if b < len(p.times) && p.free[b] == p.free[b-1] {
		p.removeAt(b)
	}
	if a > 0 && p.free[a] == p.free[a-1] {
		p.removeAt(a)
	}
	return nil
}

func (p *Profile) removeAt(i int) {
	p.times = append(p.times[:i], p.times[i+1:]...)
	p.free = append(p.free[:i], p.free[i+1:]...)
}

// Reserve takes procs processors during [start, start+dur). It returns an
// error wrapping [ErrProfile], leaving the profile unchanged, when fewer
// are free at some point.
func (p *Profile) Reserve(start, dur Time, procs int) error { return p.add(start, dur, -procs) }

// Release gives back procs processors during [start, start+dur), undoing
// a Reserve (or the part of it that is still in the future).
func (p *Profile) Release(start, dur Time, procs int) error { return p.add(start, dur, procs) }

// Reservation is a block of processors planned in a [Profile]: Procs
// processors from Start for Dur seconds.
type Reservation struct {
	Start, Dur Time
	Procs      int
}

// Compress moves n reservations earlier where the profile allows, taking
// them in index order (conservative backfilling passes them in order of
// start time or of arrival): each one starting after now is released and
// placed again at the earliest time >= now it fits, which is never later
// than before because its own old place is free again. r(i) gives
// reservation i; its Start is updated in place. Compress reports whether
// any start changed. Reservations starting at or before now are left
// alone.
//
// Cost: a reservation that moves is released and reserved again (O(k)
// each); one that does not (most of them) costs a scan of the profile
// from now to its start ([Profile.earliestWithout], which counts its own
// processors as free without releasing them) and no slice copies. A
// compression is O(n k) in the worst case: with a long queue and many
// early ends (trace estimates at high load) this scan dominates.
// [Profile.CompressWith] gives the same result and skips most of it.
func (p *Profile) Compress(now Time, n int, r func(i int) *Reservation) bool {
	moved := false
	for i := 0; i < n; i++ {
		rv := r(i)
		if rv.Start <= now {
			continue
		}
		at := p.earliestWithout(now, rv)
		if at == rv.Start {
			continue
		}
		// Neither can fail: rv is in the profile, and earliestWithout
		// found room for it at at with its own processors free.
		_ = p.Release(rv.Start, rv.Dur, rv.Procs)
		_ = p.Reserve(at, rv.Dur, rv.Procs)
		rv.Start = at
		moved = true
	}
	return moved
}

// earliestWithout returns the time EarliestStart(from, rv.Procs, rv.Dur)
// would return after releasing rv (which is in the profile), without
// releasing it: the earliest time >= from at which rv fits if rv's own
// processors were free during [rv.Start, rv.Start+rv.Dur). That time is
// never after rv.Start. For a time t before rv.Start, the part of the
// window [t, t+rv.Dur) from rv.Start on lies inside rv's own place, so
// only [t, rv.Start) needs rv.Procs free: the answer is the start of the
// first run of such steps that is rv.Dur long or reaches rv.Start.
func (p *Profile) earliestWithout(from Time, rv *Reservation) Time {
	return p.earliestWithin(from, Never, rv)
}

// Advance moves the origin to now, forgetting the past. now must not be
// before the origin.
func (p *Profile) Advance(now Time) {
	if now <= p.times[0] {
		return
	}
	i := p.index(now)
	if i > 0 {
		n := copy(p.times, p.times[i:])
		copy(p.free, p.free[i:])
		p.times = p.times[:n]
		p.free = p.free[:n]
	}
	p.times[0] = now
}

// Check verifies the profile's own invariants: increasing breakpoints,
// 0..size free, no two equal neighbours, all free at the end.
func (p *Profile) Check() error {
	if len(p.times) == 0 || len(p.times) != len(p.free) {
		return fmt.Errorf("profile: %d times, %d values", len(p.times), len(p.free))
	}
	for i := range p.times {
		if p.free[i] < 0 || p.free[i] > p.size {
			return fmt.Errorf("profile: %d free at %d (size %d)", p.free[i], p.times[i], p.size)
		}
		if i > 0 && p.times[i] <= p.times[i-1] {
			return fmt.Errorf("profile: time %d after %d", p.times[i], p.times[i-1])
		}
		if i > 0 && p.free[i] == p.free[i-1] {
			return fmt.Errorf("profile: equal steps at %d and %d", p.times[i-1], p.times[i])
		}
	}
	if last := p.free[len(p.free)-1]; last != p.size {
		return fmt.Errorf("profile: %d free at the end, want %d", last, p.size)
	}
	return nil
}

// String prints the steps as "t:free" pairs, for example "[0:10 5:6 9:10]".
func (p *Profile) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range p.times {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d:%d", p.times[i], p.free[i])
	}
	b.WriteByte(']')
	return b.String()
}
