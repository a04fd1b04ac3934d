package preempt

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestSS_DeferStart checks hand-derived schedules with a job that
// suspends every candidate it has starting at once and at the next pass.
// On 10 processors A (10 processors, 1000 s) starts at 0 with priority 1.
// B (5 processors, 20 s) arrives at 30; its xfactor (wait+20)/20 reaches
// SF x 1 = 2 at 50, the routine's next run is at 60, and A, its only
// candidate, is narrow enough for it (10 <= 2 x 5).
//   - At once: B suspends A and runs 60-80; A resumes at 80 and ends at
//     1020.
//   - DeferStart: B suspends A at 60 but does not start. No event comes
//     before the next multiple of the interval, so the machine idles
//     until 120, where B starts (its priority is above A's) and runs
//     120-140; A resumes at 140 and ends at 1080.
//   - DeferStart with C (1 processor, 30 s) arriving at 90: C's arrival
//     runs the routine, where B (first, by priority) and then C start;
//     B runs 90-110 and C 90-120. A cannot resume at B's end (C holds
//     one of its processors and A's priority, about 1.05, is below twice
//     C's 1), so it resumes at C's end, 120, and ends at 1060.
//
// B needs two of its candidates in the last case below: with D (5
// processors, 1000 s) in place of A's right half, B suspends both and,
// every candidate being needed, waits for the next pass as well; with a
// third running job E of 1 processor, a candidate ranked before them that
// B need not suspend, the loop reaches "schedule the idle job" and B
// starts at once.
func TestSS_DeferStart(t *testing.T) {
	a := sim.Job{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 10}
	b := sim.Job{ID: 2, Submit: 30, Runtime: 20, Estimate: 20, Procs: 5}
	c := sim.Job{ID: 3, Submit: 90, Runtime: 30, Estimate: 30, Procs: 1}
	now := DefaultSSConfig()
	later := now
	later.DeferStart = true
	checkSSSpans(t, "at once", now, 10, []sim.Job{a, b}, []span{{0, 1020}, {60, 80}}, 1)
	checkSSSpans(t, "defer", later, 10, []sim.Job{a, b}, []span{{0, 1080}, {120, 140}}, 1)
	checkSSSpans(t, "defer/arrival", later, 10, []sim.Job{a, b, c}, []span{{0, 1060}, {90, 110}, {90, 120}}, 1)

	// Two candidates, both needed: A and D of 5 processors each.
	a5 := sim.Job{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 5}
	d5 := sim.Job{ID: 4, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 5}
	b8 := sim.Job{ID: 2, Submit: 30, Runtime: 20, Estimate: 20, Procs: 8}
	checkSSSpans(t, "two/at once", now, 10, []sim.Job{a5, d5, b8}, []span{{0, 1020}, {0, 1020}, {60, 80}}, 2)
	checkSSSpans(t, "two/defer", later, 10, []sim.Job{a5, d5, b8}, []span{{0, 1080}, {0, 1080}, {120, 140}}, 2)

	// A third candidate, E, ranked first (lowest priority, by index on the
	// tie) but not needed once the two largest are suspended: B starts at
	// once on 11 processors.
	e := sim.Job{ID: 5, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 1}
	checkSSSpans(t, "three/defer", later, 11, []sim.Job{e, a5, d5, b8}, []span{{0, 1000}, {0, 1020}, {0, 1020}, {60, 80}}, 2)
}

// TestSS_DeferBackfill checks [SSConfig.DeferBackfill] on hand-derived
// schedules, against starting at once and at the next pass. On 10
// processors A (10 processors, 1000 s) starts at 0 with priority 1 and B
// (5 processors, 20 s, submitted at 30) suspends it at 60, as in
// TestSS_DeferStart; with DeferBackfill the pass after the routine starts
// B at 60, as at once.
//
// X (3 processors, 20 s, submitted at 20) is waiting too; at 60 its
// priority (40+20)/20 = 3 is above B's 2.5, so the routine examines it
// first, but A is too wide for it to suspend (10 > 2 x 3).
//   - At once: B starts at 60 and runs to 80; X, examined before B, waits
//     for the next event, B's end, where it starts before A (priority 4
//     against about 1.02) on 3 of A's processors: X 80-100, A resumes at
//     100 and ends at 1040.
//   - DeferStart: B suspends A and waits; no event comes before 120, where
//     X and B start: both 120-140, A 140-1080.
//   - DeferBackfill: the pass after the routine starts X (first by
//     priority) and B at 60: both 60-80, A resumes at 80 and ends at 1020.
func TestSS_DeferBackfill(t *testing.T) {
	a := sim.Job{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 10}
	b := sim.Job{ID: 2, Submit: 30, Runtime: 20, Estimate: 20, Procs: 5}
	x := sim.Job{ID: 3, Submit: 20, Runtime: 20, Estimate: 20, Procs: 3}
	now := DefaultSSConfig()
	later := now
	later.DeferStart = true
	fill := later
	fill.DeferBackfill = true
	checkSSSpans(t, "backfill", fill, 10, []sim.Job{a, b}, []span{{0, 1020}, {60, 80}}, 1)
	// Spans in submission order: A, X, B.
	checkSSSpans(t, "x/at once", now, 10, []sim.Job{a, x, b}, []span{{0, 1040}, {80, 100}, {60, 80}}, 1)
	checkSSSpans(t, "x/defer", later, 10, []sim.Job{a, x, b}, []span{{0, 1080}, {120, 140}, {120, 140}}, 1)
	checkSSSpans(t, "x/backfill", fill, 10, []sim.Job{a, x, b}, []span{{0, 1020}, {60, 80}, {60, 80}}, 1)

	// Without DeferStart it changes nothing.
	alone := now
	alone.DeferBackfill = true
	checkSSSpans(t, "x/alone", alone, 10, []sim.Job{a, x, b}, []span{{0, 1040}, {80, 100}, {60, 80}}, 1)
}

// TestSS_DeferBackfillReference compares the fast pass with the plain
// routine under [SSConfig.DeferBackfill] (see compareOptionOnTraces).
func TestSS_DeferBackfillReference(t *testing.T) {
	compareOptionOnTraces(t, func(c *SSConfig) { c.DeferStart, c.DeferBackfill = true, true })
}

// TestSS_DeferStartReference compares the fast pass with the plain
// routine under [SSConfig.DeferStart] (see compareOptionOnTraces).
func TestSS_DeferStartReference(t *testing.T) {
	compareOptionOnTraces(t, func(c *SSConfig) { c.DeferStart = true })
}
