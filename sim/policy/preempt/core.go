package preempt

import (
	"errors"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/internal/runmap"
)

// ErrInvalidConfig is wrapped by the errors of [SSConfig.Validate],
// [ISConfig.Validate] and [Overhead.Validate]; they name the field and the
// value received.
var ErrInvalidConfig = errors.New("invalid preemption policy configuration")

// xfactor returns a job's suspension priority: (wait + estimate) /
// estimate, where wait is all the time since submission the job did not
// work (queued, suspended, in overhead). It grows while the job does not
// run and stays constant while it runs.
func xfactor(t *sim.Task, now sim.Time) float64 {
	wait := now - t.Submit - t.WorkDone(now)
	return float64(wait+t.Estimate) / float64(t.Estimate)
}

// claim is a job that suspended others and waits for their suspension
// overheads to end, at time at, before it starts (or resumes) on set.
type claim struct {
	t   *sim.Task
	set sim.ProcSet
	at  sim.Time
}

// core is what SS and IS share: the machine, the overhead of each job, the
// claims and the placement of new jobs. Claimed processors are kept from
// every other job until their claimant starts; without overhead a claim is
// always met at once.
type core struct {
	m       *sim.Machine
	over    []sim.Time // suspend/resume overhead by task index; nil: none
	claims  []claim
	claimed sim.ProcSet // union of the claims' sets
	pending []bool      // by task index: the job has a claim
	// held is the union of the processors remembered by suspended jobs
	// (Suspending or Suspended); heldN counts them by processor.
	held  sim.ProcSet
	heldN []int32
	// rem lists the suspended jobs (Suspending or Suspended), in the
	// order they were suspended, when keepRem is set (only SS's
	// hold_remembered reads it; removing a job costs the list's length).
	rem     []*sim.Task
	keepRem bool
	// availN is scratch for avail, which runs at every pass; availS
	// for availScratch and pickN for pick, which run at every start.
	availN, availS, pickN sim.ProcSet
	// owner is, by processor, the index of the job last given it (-1:
	// none yet). The job holds it still if it is Running, Resuming or
	// Suspending and its set has the processor (see holderOf): processors
	// change hands only when the policy starts or resumes a job, which
	// records it here, and when a job lets go of them, which the check
	// catches.
	owner []int32
	// sparse is set on a machine over denseIndexMax processors: owners
	// and heldRuns replace owner and heldN, kept as runs.
	sparse   bool
	owners   runmap.Map
	heldRuns runmap.Map
	// changes counts the times a job was given processors or suspended,
	// and (counted by the policy) ended or ended an overhead: a list of the
	// running jobs need only be brought up to date when it has moved.
	changes uint64
}

// init readies the core for a run.
func (c *core) init(m *sim.Machine, o Overhead) {
	c.m = m
	c.held = sim.NewProcSet(m.Size())
	c.pending = make([]bool, m.NumTasks())
	c.claimed = sim.NewProcSet(m.Size())
	c.sparse = m.Size() > denseIndexMax
	if c.sparse {
		c.heldN, c.owner = nil, nil
		c.owners.Reset(-1)
		c.heldRuns.Reset(0)
	} else {
		c.heldN = make([]int32, m.Size())
		c.owner = make([]int32, m.Size())
		for i := range c.owner {
			c.owner[i] = -1
		}
	}
	c.claims = c.claims[:0]
	c.changes++
	clear(c.rem)
	c.rem = c.rem[:0]
	c.over = nil
	if o.Enabled() {
		c.over = make([]sim.Time, m.NumTasks())
		for i := range c.over {
			c.over[i] = o.Cost(m.Task(i).ID)
		}
	}
}

// overhead returns the suspend/resume overhead of t.
func (c *core) overhead(t *sim.Task) sim.Time {
	if c.over == nil {
		return 0
	}
	return c.over[t.Index]
}

// Finish implements [sim.Policy].
func (c *core) Finish(*sim.Task) {}

// Timer implements [sim.Policy]: a timer only makes the routine run.
func (c *core) Timer(int) {}

// availSet returns the free processors nobody has claimed (a new set).
func (c *core) availSet() sim.ProcSet {
	s := c.m.FreeSet().Clone()
	if len(c.claims) > 0 {
		s.Subtract(c.claimed)
	}
	return s
}

// availScratch returns the free processors nobody has claimed in a
// scratch set of the core, valid until its next call: for a caller that
// hands it to pick at once.
func (c *core) availScratch() sim.ProcSet {
	if len(c.claims) == 0 {
		c.availS.SetDiff(c.m.FreeSet(), sim.ProcSet{})
	} else {
		c.availS.SetDiff(c.m.FreeSet(), c.claimed)
	}
	return c.availS
}

// avail returns the number of free processors nobody has claimed.
func (c *core) avail() int {
	if len(c.claims) == 0 {
		return c.m.Free()
	}
	c.availN.SetDiff(c.m.FreeSet(), c.claimed)
	return c.availN.Len()
}

// canResume reports whether a Suspended job's own processors are free and
// unclaimed.
func (c *core) canResume(t *sim.Task) bool {
	return c.m.CanResume(t) && (len(c.claims) == 0 || !c.claimed.Overlaps(t.Set))
}

// start starts a Waiting job on free unclaimed processors (the caller
// checked that there are enough; see pick), or resumes a Suspended one
// whose processors are free.
func (c *core) start(t *sim.Task) {
	if t.State == sim.Suspended {
		c.resume(t)
		return
	}
	if set, ok := c.pick(c.availScratch(), t.Procs); ok {
		c.startOn(t, set)
	}
}

// startOn starts a Waiting job on set, free unclaimed processors.
func (c *core) startOn(t *sim.Task, set sim.ProcSet) {
	if c.m.StartOn(t, set) == nil {
		c.own(t)
	}
}

// own records that t holds the processors of its set.
func (c *core) own(t *sim.Task) {
	c.changes++
	if c.sparse {
		v := int32(t.Index)
		t.Set.EachRun(func(lo, hi int) {
			c.owners.Update(int32(lo), int32(hi), func(int32) int32 { return v }, nil)
		})
		return
	}
	t.Set.Each(func(i int) { c.owner[i] = int32(t.Index) })
}

// holdRuns adds delta to the count of suspended jobs remembering each
// processor of set on a sparse index, and keeps held the processors
// counted.
func (c *core) holdRuns(set sim.ProcSet, delta int32) {
	if delta > 0 {
		set.EachRun(func(lo, hi int) {
			c.heldRuns.Update(int32(lo), int32(hi), func(v int32) int32 { return v + delta }, nil)
		})
		c.held.Union(set)
		return
	}
	gone := sim.NewProcSet(c.m.Size())
	set.EachRun(func(lo, hi int) {
		c.heldRuns.Update(int32(lo), int32(hi), func(v int32) int32 { return v + delta }, func(lo, hi, v int32) {
			if v == 0 {
				gone.AddRange(int(lo), int(hi))
			}
		})
	})
	c.held.Subtract(gone)
}

// holderOf returns the job holding processor i, or nil when it is free.
func (c *core) holderOf(i int) *sim.Task {
	var o int32
	if c.sparse {
		o = c.owners.At(i)
	} else {
		o = c.owner[i]
	}
	if o < 0 {
		return nil
	}
	r := c.m.Task(int(o))
	switch r.State {
	case sim.Running, sim.Resuming, sim.Suspending:
		if r.Set.Has(i) {
			return r
		}
	}
	return nil
}

// pick takes n processors of a, preferring those no suspended job
// remembers, lowest-numbered first. It returns a new set; a may change.
func (c *core) pick(a sim.ProcSet, n int) (sim.ProcSet, bool) {
	clean := &c.pickN
	clean.SetDiff(a, c.held)
	k := clean.Len()
	if k >= n {
		return clean.TakeLowest(n)
	}
	if a.Len() < n {
		return sim.ProcSet{}, false
	}
	a.Subtract(*clean)
	rest, _ := a.TakeLowest(n - k)
	rest.Union(*clean)
	return rest, true
}

// suspend suspends a running job, with its overhead.
func (c *core) suspend(t *sim.Task) {
	if c.m.Suspend(t, c.overhead(t)) != nil {
		return
	}
	c.changes++
	if c.keepRem {
		c.rem = append(c.rem, t)
	}
	if c.sparse {
		c.holdRuns(t.Set, 1)
		return
	}
	t.Set.Each(func(i int) {
		if c.heldN[i] == 0 {
			c.held.Add(i)
		}
		c.heldN[i]++
	})
}

// resume resumes a Suspended job whose processors are free, with its
// overhead.
func (c *core) resume(t *sim.Task) {
	if c.m.Resume(t, c.overhead(t)) != nil {
		return
	}
	c.own(t)
	c.forget(t)
	if c.sparse {
		c.holdRuns(t.Set, -1)
		return
	}
	t.Set.Each(func(i int) {
		if c.heldN[i]--; c.heldN[i] == 0 {
			c.held.Remove(i)
		}
	})
}

// forget takes t, resumed, out of rem.
func (c *core) forget(t *sim.Task) {
	if !c.keepRem {
		return
	}
	if i := slices.Index(c.rem, t); i >= 0 {
		c.rem = slices.Delete(c.rem, i, i+1)
	}
}

// resumeOn resumes a Suspended job on set, free processors that need not
// be its own (it migrates), with its overhead.
func (c *core) resumeOn(t *sim.Task, set sim.ProcSet) {
	old := t.Set
	if c.m.ResumeOn(t, set, c.overhead(t)) != nil {
		return
	}
	c.own(t)
	c.forget(t)
	if c.sparse {
		c.holdRuns(old, -1)
		return
	}
	old.Each(func(i int) {
		if c.heldN[i]--; c.heldN[i] == 0 {
			c.held.Remove(i)
		}
	})
}

// claimSetFrom returns the processors a Waiting job takes after
// suspending victims: the lowest t.Procs of the victims' processors,
// topped up from a, a set of free unclaimed processors (a new set, which
// it changes; see pick). Call it before suspending the victims.
func (c *core) claimSetFrom(t *sim.Task, victims []*sim.Task, a sim.ProcSet) sim.ProcSet {
	u := sim.NewProcSet(c.m.Size())
	for _, v := range victims {
		u.Union(v.Set)
	}
	n := u.Len()
	if n >= t.Procs {
		s, _ := u.TakeLowest(t.Procs)
		return s
	}
	a.Subtract(u)
	fill, _ := c.pick(a, t.Procs-n)
	u.Union(fill)
	return u
}

// commit gives t the processors of set (its own set when t is Suspended),
// which victims, suspended at this instant, held: at once when they are
// all free, else as a claim met when the victims' suspension overheads
// end.
func (c *core) commit(t *sim.Task, set sim.ProcSet, victims []*sim.Task) {
	if c.m.FreeSet().Contains(set) {
		c.launch(t, set)
		return
	}
	at := c.m.Now()
	for _, v := range victims {
		at = max(at, c.m.Now()+c.overhead(v))
	}
	c.claims = append(c.claims, claim{t, set, at})
	c.claimed.Union(set)
	c.pending[t.Index] = true
}

func (c *core) launch(t *sim.Task, set sim.ProcSet) {
	if t.State == sim.Suspended {
		if set.Len() == t.Set.Len() && set.Contains(t.Set) {
			c.resume(t)
		} else {
			c.resumeOn(t, set)
		}
		return
	}
	c.startOn(t, set)
}

// launchReady starts the claimants whose processors are all free now.
func (c *core) launchReady() {
	if len(c.claims) == 0 {
		return
	}
	free := c.m.FreeSet()
	kept := c.claims[:0]
	for _, cl := range c.claims {
		if free.Contains(cl.set) {
			c.pending[cl.t.Index] = false
			c.launch(cl.t, cl.set)
			continue
		}
		kept = append(kept, cl)
	}
	clear(c.claims[len(kept):])
	c.claims = kept
	c.claimed.Subtract(c.claimed)
	for _, cl := range c.claims {
		c.claimed.Union(cl.set)
	}
}

// idle reports whether t is waiting for processors and not a claimant:
// Waiting, Suspended, or Suspending (about to be Suspended).
func (c *core) idle(t *sim.Task) bool {
	switch t.State {
	case sim.Waiting, sim.Suspended, sim.Suspending:
		return !c.pending[t.Index]
	}
	return false
}

// byIndex orders victims by job index, for a deterministic suspension order.
func byIndex(ts []*sim.Task) {
	slices.SortFunc(ts, func(a, b *sim.Task) int { return a.Index - b.Index })
}
