package preempt

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// waitBounds keeps, for SS's Waiting jobs, the earliest time each could
// start or suspend running jobs (its bound), so that a pass looks only at
// the Waiting jobs whose bound has come.
//
// A Waiting job t that does not fit succeeds once its priority reaches SF
// times P, where P is the lowest priority at which the running jobs it may
// suspend (width rule and TSS; priority aside) hold enough processors to
// make room: the sum of their processors up to P, with the free unclaimed
// ones, reaches t's width. Its priority grows with time and a running
// job's is constant, so this time only moves later while no job starts
// running (a new candidate) and the free unclaimed processors do not grow.
// Every bound is therefore computed at the end of a pass against the jobs
// then running (including those started at this instant, which may be
// suspended from the next instant on) and is dropped (the job is due at
// once) when a job that was not running at the end of the previous pass
// is running (checked at the end of each pass: a job that starts between
// passes, at the end of a resume overhead, cannot be suspended before the
// next instant), or when the free unclaimed processors exceed the least
// number a kept bound assumed (checked at the start and at the end of each
// pass). Under the formula reading of TSS a running
// job whose limit is below SF times its priority never counts, and one that
// counts may leave the candidates later: the bound stays a lower bound.
// [SSConfig.HoldRemembered] makes the candidates depend on the suspended
// jobs; it keeps the plain rule (see [SS.Schedule]).
type waitBounds struct {
	on    bool
	at    []sim.Time // by task index: the bound (0: due)
	stamp []int32    // by task index: the last pass whose end found it running
	pass  int32
	// ref is the least number of free unclaimed processors a kept bound
	// assumed (math.MaxInt: none kept).
	ref int
	end []*sim.Task // scratch: running jobs at the end of a pass
}

func (w *waitBounds) init(n int, on bool) {
	w.on = on
	w.at = make([]sim.Time, n)
	w.stamp = make([]int32, n)
	w.pass = 1
	w.ref = math.MaxInt
	clear(w.end)
	w.end = w.end[:0]
}

// due reports whether Waiting job t must be examined at now.
func (w *waitBounds) due(t *sim.Task, now sim.Time) bool { return w.at[t.Index] <= now }

// dropAll makes every Waiting job of waitq due.
func (w *waitBounds) dropAll(waitq []*sim.Task) {
	for _, t := range waitq {
		w.at[t.Index] = 0
	}
	w.ref = math.MaxInt
}

// updateWaitBounds gives a bound to every idle Waiting job whose bound has
// come, against the jobs running at the end of the pass, and stamps those
// jobs. Every kept bound is dropped first when one of them was not running
// at the end of the previous pass or the free unclaimed processors grew
// past what the kept bounds assumed.
func (p *SS) updateWaitBounds(now sim.Time) {
	w := &p.wb
	end := w.end[:0]
	gained := false
	for _, r := range p.m.Active() {
		if r.State == sim.Running {
			gained = gained || w.stamp[r.Index] != w.pass-1
			w.stamp[r.Index] = w.pass
			end = append(end, r)
		}
	}
	w.pass++
	avail := p.avail()
	if gained || avail > w.ref {
		w.dropAll(p.waitq)
	}
	sorted := false
	for _, t := range p.waitq {
		if t.State != sim.Waiting || p.pending[t.Index] || w.at[t.Index] > now {
			continue
		}
		if !sorted {
			for _, r := range end {
				p.prio[r.Index] = xfactor(r, now)
			}
			slices.SortFunc(end, func(a, b *sim.Task) int { return cmp.Compare(p.prio[a.Index], p.prio[b.Index]) })
			sorted = true
		}
		w.at[t.Index] = p.waitBound(t, now, avail, end)
		w.ref = min(w.ref, avail)
	}
	clear(end)
	w.end = end[:0]
}

// waitBound returns a lower bound on the time Waiting job t could start or
// suspend jobs of end (the running jobs by ascending priority) with avail
// free unclaimed processors: never before now+1, sim.Never if the jobs it
// may suspend never make room.
func (p *SS) waitBound(t *sim.Task, now sim.Time, avail int, end []*sim.Task) sim.Time {
	need := t.Procs - avail
	if need <= 0 {
		return now + 1
	}
	width := p.cfg.WidthRatio * float64(t.Procs)
	for _, r := range end {
		if float64(r.Procs) > width {
			continue
		}
		x := p.cfg.SuspensionFactor * p.prio[r.Index]
		if p.limit != nil {
			if p.guard {
				if p.protected(r, p.prio[r.Index]) {
					continue
				}
			} else if x > p.limit[r.Index] {
				continue
			}
		}
		if need -= r.Procs; need <= 0 {
			// tau(y) = (y - submit + estimate)/estimate reaches x; one
			// second early is safe.
			y := t.Submit - t.Estimate + sim.FloorTime(x*float64(t.Estimate)) - 1
			return max(y, now+1)
		}
	}
	return sim.Never
}
