package preempt

import (
	"math"

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
// suspended from the next instant on), and every kept bound is dropped
// (the jobs are due at once) when a job has begun a run segment since, or
// when the free unclaimed processors exceed the least number a kept bound
// assumed. The first is checked at the end of each pass (a job that begins
// to run between passes, at the end of a resume overhead, cannot be
// suspended before the next instant), the second at the start and at the
// end of each pass. Under the formula reading of TSS a running job whose
// limit is below SF times its priority never counts, and one that counts
// may leave the candidates later: the bound stays a lower bound. With
// [SSConfig.HoldRemembered] the candidates depend on the suspended jobs;
// there a pass examines, as before, the Waiting jobs that fit or whose
// priority reaches SF times the lowest running priority.
type waitBounds struct {
	on bool
	at []sim.Time // by task index: the bound (0: due)
	// ref is the least number of free unclaimed processors a kept bound
	// assumed (math.MaxInt: none kept).
	ref int
}

func (w *waitBounds) init(n int, on bool) {
	w.on = on
	w.at = make([]sim.Time, n)
	w.ref = math.MaxInt
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
// come, against the jobs running at the end of the pass. Every kept bound
// is dropped first when a job was listed as running since the previous
// time or the free unclaimed processors grew past what the kept bounds
// assumed.
func (p *SS) updateWaitBounds(now sim.Time) {
	w := &p.wb
	p.syncRunning(now)
	avail := p.avail()
	if p.rl.added || avail > w.ref {
		w.dropAll(p.waitq)
		p.rl.added = false
	}
	end := p.rl.jobs
	for _, t := range p.waitq {
		if t.State != sim.Waiting || p.pending[t.Index] || w.at[t.Index] > now {
			continue
		}
		w.at[t.Index] = p.waitBound(t, now, avail, end)
		w.ref = min(w.ref, avail)
	}
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
		x := p.cfg.SuspensionFactor * p.rl.key[r.Index]
		if p.limit != nil {
			if p.guard {
				if p.protected(r, p.rl.key[r.Index]) {
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
