package backfill

import (
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// runningEnds is the availability profile EASY plans with, kept as what
// it is: the running jobs' planned ends. EASY's profile holds only the
// running jobs, each from now to its planned end (its start plus its
// estimate or prediction), and the head's reservation for the length of
// a pass. From now on, then, the free processors never decrease: they
// are those free now plus those of the jobs whose planned ends have
// passed. The head's shadow time is the first planned end at which
// enough are free, what is free at that time follows from the same walk,
// and the head's reservation need not be made at all: what is left at
// the shadow time is what is free then less the head's processors.
//
// Starting a job adds its planned end, a completion removes it and a
// correction moves it: a binary search and a copy of the distinct ends
// (one per running job at most), where a [sim.Profile] adds to every step
// the job spans. A job whose planned end has passed while it still runs
// (a prediction's correction not yet made, see EASY.flush and
// EASY.catchUp) counts as free from that end, as a profile advanced past
// its place would count it.
//
// With link, each end also lists its jobs, so that the profile is also
// the list of the running jobs by planned end: with predictions a
// running job's next correction comes at its planned end, and the jobs
// whose planned ends have passed are those whose corrections are due
// (takeEnded; see correctionAlarm).
//
// What the machine has free now (the processors no running job holds) is
// the machine's count; the methods that need it take it.
type runningEnds struct {
	// steps[lo:] are the distinct planned ends, increasing, each with the
	// processors it frees. An end is taken out or put in by moving the
	// steps on the shorter side of it: the ends at or before now, which
	// corrections move, are at the front.
	steps []endStep
	lo    int
	// planned holds, by task index, the end each job in it was added
	// with.
	planned []sim.Time
	// With link (see EASY's correctionAlarm), each step also lists its
	// jobs: next and prev link them, by task index, as task index + 1 (0
	// ends the list). An int32 holds it, as it holds a step's processors
	// (at most sim.MaxProcs): a run's jobs, each hundreds of bytes, are
	// far fewer than 2^31.
	link       bool
	next, prev []int32
}

// endStep is a planned end, the processors it frees and, with link, the
// first of its jobs (task index + 1).
type endStep struct {
	end  sim.Time
	free int32
	jobs int32
}

// reset empties r for a run of n jobs, with link or not.
func (r *runningEnds) reset(n int, link bool) {
	clear(r.steps)
	r.steps, r.lo = r.steps[:0], 0
	r.planned = slices.Grow(r.planned[:0], n)[:n]
	r.link = link
	if link {
		r.next = slices.Grow(r.next[:0], n)[:n]
		r.prev = slices.Grow(r.prev[:0], n)[:n]
	}
}

// search returns the place of end in steps: the first i >= lo with
// steps[i].end >= end. (Written out: slices.BinarySearchFunc with a
// comparison function made whole EASY runs 1.5-2.5% slower.)
func (r *runningEnds) search(end sim.Time) int {
	lo, hi := r.lo, len(r.steps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.steps[m].end < end {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// add records that t, which just started, runs until end.
func (r *runningEnds) add(t *sim.Task, end sim.Time) {
	r.planned[t.Index] = end
	i := r.search(end)
	if i < len(r.steps) && r.steps[i].end == end {
		r.steps[i].free += int32(t.Procs)
		if r.link {
			r.linkTo(&r.steps[i], t.Index)
		}
		return
	}
	s := endStep{end, int32(t.Procs), 0}
	if r.link {
		r.linkTo(&s, t.Index)
	}
	if r.lo > 0 && i-r.lo < len(r.steps)-i {
		copy(r.steps[r.lo-1:i-1], r.steps[r.lo:i])
		r.lo--
		r.steps[i-1] = s
		return
	}
	r.steps = slices.Insert(r.steps, i, s)
}

// linkTo puts job i first in the jobs of s.
func (r *runningEnds) linkTo(s *endStep, i int) {
	j := int32(i) + 1
	r.next[i], r.prev[i] = s.jobs, 0
	if s.jobs != 0 {
		r.prev[s.jobs-1] = j
	}
	s.jobs = j
}

// remove takes t, which was added, out.
func (r *runningEnds) remove(t *sim.Task) {
	i := r.search(r.planned[t.Index])
	if r.link {
		k := t.Index
		if p := r.prev[k]; p != 0 {
			r.next[p-1] = r.next[k]
		} else {
			r.steps[i].jobs = r.next[k]
		}
		if n := r.next[k]; n != 0 {
			r.prev[n-1] = r.prev[k]
		}
	}
	if r.steps[i].free -= int32(t.Procs); r.steps[i].free > 0 {
		return
	}
	if i-r.lo < len(r.steps)-1-i {
		copy(r.steps[r.lo+1:i+1], r.steps[r.lo:i])
		r.dropFirst()
		return
	}
	r.steps = slices.Delete(r.steps, i, i+1)
}

// dropFirst takes the first step out.
func (r *runningEnds) dropFirst() {
	r.steps[r.lo] = endStep{}
	r.lo++
	if n := len(r.steps); r.lo == n {
		r.steps, r.lo = r.steps[:0], 0
	} else if r.lo > 64 && r.lo > n/2 {
		// Most of the slice is before the steps: move them down.
		k := copy(r.steps, r.steps[r.lo:])
		clear(r.steps[k:])
		r.steps, r.lo = r.steps[:k], 0
	}
}

// endedBy reports whether a planned end is at or before now.
func (r *runningEnds) endedBy(now sim.Time) bool {
	return r.lo < len(r.steps) && r.steps[r.lo].end <= now
}

// takeEnded takes out the jobs whose planned ends are at or before now,
// appends their task indices to dst and returns it. r must link.
func (r *runningEnds) takeEnded(now sim.Time, dst []int) []int {
	for r.endedBy(now) {
		for j := r.steps[r.lo].jobs; j != 0; j = r.next[j-1] {
			dst = append(dst, int(j-1))
		}
		r.dropFirst()
	}
	return dst
}

// move changes the planned end of t, which was added, to end.
func (r *runningEnds) move(t *sim.Task, end sim.Time) {
	if r.planned[t.Index] != end {
		r.remove(t)
		r.add(t, end)
	}
}

// freeNow returns the processors free at now, given those the machine
// has free (free), and the place of the first planned end after now.
func (r *runningEnds) freeNow(now sim.Time, free int) (int, int) {
	i := r.lo
	for ; i < len(r.steps) && r.steps[i].end <= now; i++ {
		free += int(r.steps[i].free)
	}
	return free, i
}

// shadow returns the earliest time from now on at which procs processors
// (at most the machine's size) are free, what is free then, and what is
// free now, given what the machine has free (free): what
// [sim.Profile.EarliestStart] and [sim.Profile.FreeAt] give on the
// profile of the running jobs, for any duration (the free processors
// never decrease).
func (r *runningEnds) shadow(now sim.Time, free, procs int) (at sim.Time, atShadow, atNow int) {
	free, i := r.freeNow(now, free)
	if free >= procs {
		return now, free, free
	}
	atNow = free
	for ; i < len(r.steps); i++ {
		if free += int(r.steps[i].free); free >= procs {
			return r.steps[i].end, free, atNow
		}
	}
	// Unreachable: every job in it has ended by its last planned end,
	// and procs fits the machine.
	return sim.Never, free, atNow
}

// freeAt returns what is free at now and at t >= now, given what the
// machine has free (free).
func (r *runningEnds) freeAt(now, t sim.Time, free int) (atNow, atT int) {
	free, i := r.freeNow(now, free)
	atNow = free
	for ; i < len(r.steps) && r.steps[i].end <= t; i++ {
		free += int(r.steps[i].free)
	}
	return atNow, free
}
