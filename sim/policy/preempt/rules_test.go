package preempt

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// rulesWorkload is one of the workloads the Kettimuthu et al. specs run:
// the first jobs of a trace on the paper's machine size, with an estimate
// model and an arrival-scaling load (0: none).
type rulesWorkload struct {
	name, file string
	procs      int
	est        workload.EstimateModel
	load       float64
}

// rulesJobs returns the number of jobs the rule checks replay: the specs'
// 5000, or 1500 in -short mode.
func rulesJobs() int {
	if testing.Short() {
		return 1500
	}
	return 5000
}

// build builds the workload of w with the first n jobs.
func (w rulesWorkload) build(t *testing.T, n int) *workload.Workload {
	t.Helper()
	opts := workload.Options{Estimates: w.est, Count: n}
	if w.load > 0 {
		opts.Load, opts.LoadMode = w.load, workload.LoadArrival
	}
	return loadTraceOpts(t, w.file, w.procs, opts)
}

const (
	rulesCTC  = "CTC-SP2-1996-3.1-cln.swf.gz"
	rulesSDSC = "SDSC-SP2-1998-4.2-cln.swf.gz"
)

// ruleViolation is an idle job that, after a pass of the routine, could
// still act by the documented rules.
type ruleViolation struct {
	job  int
	kind string
	now  sim.Time
}

// ssRuleCheck runs the SS routine and, after every pass, recomputes from
// the machine's state, independently of the policy's own bookkeeping,
// whether an idle job could still act by the rules of the package
// documentation under the pseudocode scan ([SSConfig.StopScan]): a waiting
// job that fits in the free processors; a waiting job that could suspend
// running jobs by the scan (ascending priority, priority at least SF times
// the candidate's, width at most WidthRatio times its own, not protected
// by TSS, stopping at the first that fails); a suspended job whose
// processors are all free; a suspended job that could suspend every job
// on its processors (each running, not (re)started at this instant, of
// priority at most 1/SF of its own and not protected). A job examined
// early in a pass does not see processors a later suspension of the same
// pass frees, so such a case may last one pass; one still there at the
// next pass is a persisting violation.
type ssRuleCheck struct {
	*SS
	prev      map[ruleViolation]bool // the last pass's violations, by job and kind (now zero)
	passes    int
	transient int
	persist   []ruleViolation
}

// Schedule implements [sim.Policy]: the SS pass, then the check.
func (p *ssRuleCheck) Schedule() {
	p.SS.Schedule()
	p.passes++
	now := p.m.Now()
	free := p.m.FreeSet()
	pr := func(r *sim.Task) float64 { return xfactor(r, now) }
	var run []*sim.Task
	for _, r := range p.m.Active() {
		if r.State == sim.Running && r.Since < now {
			run = append(run, r)
		}
	}
	slices.SortFunc(run, func(a, b *sim.Task) int {
		if c := cmp.Compare(pr(a), pr(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.FirstStart, b.FirstStart); c != 0 {
			return c
		}
		return a.Index - b.Index
	})
	protected := func(r *sim.Task) bool { return p.limit != nil && p.guard && pr(r) > p.limit[r.Index] }
	sf := p.cfg.SuspensionFactor
	cur := map[ruleViolation]bool{}
	flag := func(t *sim.Task, kind string) {
		k := ruleViolation{job: t.Index, kind: kind}
		cur[k] = true
		if p.prev[k] {
			p.persist = append(p.persist, ruleViolation{t.Index, kind, now})
		} else {
			p.transient++
		}
	}
	for i := 0; i < p.m.NumTasks(); i++ {
		t := p.m.Task(i)
		if t.Submit > now {
			break
		}
		tau := pr(t)
		switch t.State {
		case sim.Waiting:
			if t.Procs <= free.Len() {
				flag(t, "fits")
				continue
			}
			avail := free.Len()
			for _, r := range run {
				if avail >= t.Procs || tau < sf*pr(r) || float64(r.Procs) > p.cfg.WidthRatio*float64(t.Procs) || protected(r) {
					break
				}
				avail += r.Procs
			}
			if avail >= t.Procs {
				flag(t, "could suspend")
			}
		case sim.Suspended:
			if free.Contains(t.Set) {
				flag(t, "could resume")
				continue
			}
			may := true
			for _, h := range p.m.Active() {
				if h != t && h.Set.Overlaps(t.Set) &&
					(h.State != sim.Running || h.Since == now || tau < sf*pr(h) || protected(h)) {
					may = false
					break
				}
			}
			if may {
				flag(t, "could re-enter")
			}
		}
	}
	p.prev = cur
}

// TestSS_RulesHoldAfterEveryPass replays the SS and TSS runs of the
// Kettimuthu et al. specs (pseudocode scan, SF 2, TSS limits from the EASY
// run of the workload, readings.yaml's tss_easy_limits;
// accurate estimates as in Figs 15-18, the traces' estimates as in Figs
// 19-30, arrival scaling 1.6 on CTC and 1.3 on SDSC as in Figs 35-44) and
// fails if, after a pass of the routine, an idle job could still act by
// the documented rules and still could after the next pass (see
// ssRuleCheck). It checks the schedule's invariants as well, and that the
// runs suspend jobs at all.
func TestSS_RulesHoldAfterEveryPass(t *testing.T) {
	n := rulesJobs()
	for _, tc := range []struct {
		w   rulesWorkload
		tss bool
	}{
		{rulesWorkload{"ctc430/ss", rulesCTC, 430, workload.EstimateAccurate, 0}, false},
		{rulesWorkload{"ctc430/tss", rulesCTC, 430, workload.EstimateAccurate, 0}, true},
		{rulesWorkload{"sdsc128/ss", rulesSDSC, 128, workload.EstimateAccurate, 0}, false},
		{rulesWorkload{"sdsc128/tss", rulesSDSC, 128, workload.EstimateAccurate, 0}, true},
		{rulesWorkload{"ctc430/tss/trace", rulesCTC, 430, workload.EstimateTrace, 0}, true},
		{rulesWorkload{"sdsc128/tss/trace", rulesSDSC, 128, workload.EstimateTrace, 0}, true},
		{rulesWorkload{"ctc430/tss/load1.6", rulesCTC, 430, workload.EstimateAccurate, 1.6}, true},
		{rulesWorkload{"sdsc128/tss/load1.3", rulesSDSC, 128, workload.EstimateAccurate, 1.3}, true},
	} {
		t.Run(tc.w.name, func(t *testing.T) {
			t.Parallel()
			wl := tc.w.build(t, n)
			cfg := DefaultSSConfig()
			cfg.StopScan, cfg.Tunable = true, tc.tss
			ss, err := NewSS(cfg, wl.Procs, wl.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			c := &ssRuleCheck{SS: ss}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, c, sim.Options{Segments: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(wl.Jobs, res); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			reportRuleViolations(t, c.persist, c.passes, res)
			t.Logf("%d passes, %d one-pass cases", c.passes, c.transient)
		})
	}
}

// isRuleCheck runs the IS routine and, after every pass, recomputes from
// the machine's state whether an idle job not committed to processors
// could still act by the documented rules of IS with
// [ISConfig.ResumePreempt]: a job that never ran and fits in the free
// processors, or would fit if every job that may be suspended (running
// past its immediate timeslice, not (re)started at this instant) were; a
// suspended job whose processors are all free; a suspended job whose
// instantaneous xfactor exceeds ResumeFactor times that of every job on its
// processors, each running and past the protection of
// [ISConfig.ReclaimHold] (see reclaimableByRule). IS has no pass-order exception: every case
// is a violation.
type isRuleCheck struct {
	*IS
	passes int
	found  []ruleViolation
}

// Schedule implements [sim.Policy]: the IS pass, then the check.
func (p *isRuleCheck) Schedule() {
	p.IS.Schedule()
	p.passes++
	now := p.m.Now()
	free := p.m.FreeSet()
	eligible := 0
	for _, r := range p.m.Active() {
		if r.State == sim.Running && r.Since < now && r.WorkDone(now) >= p.cfg.Timeslice {
			eligible += r.Procs
		}
	}
	flag := func(t *sim.Task, kind string) { p.found = append(p.found, ruleViolation{t.Index, kind, now}) }
	for i := 0; i < p.m.NumTasks(); i++ {
		t := p.m.Task(i)
		if t.Submit > now {
			break
		}
		if p.pending[t.Index] {
			continue
		}
		switch t.State {
		case sim.Waiting:
			if t.Procs <= free.Len() {
				flag(t, "fits")
			} else if t.Procs <= free.Len()+eligible {
				flag(t, "could be served")
			}
		case sim.Suspended:
			if free.Contains(t.Set) {
				flag(t, "could resume")
				continue
			}
			x := instXfactor(t, now)
			may := true
			for _, h := range p.m.Active() {
				if h != t && h.Set.Overlaps(t.Set) &&
					(h.State != sim.Running || !reclaimableByRule(p.cfg, h, now) || p.cfg.ResumeFactor*instXfactor(h, now) >= x) {
					may = false
					break
				}
			}
			if may {
				flag(t, "could reclaim")
			}
		}
	}
}

// TestIS_RulesHoldAfterEveryPass replays the IS runs of the Kettimuthu et
// al. specs (resume_preempt, resume factor 2; the traces' estimates as in
// Figs 19-30, arrival scaling 1.6 on CTC and 1.3 on SDSC as in Figs 35-44;
// two of them with [ReclaimHoldFirst] as well) and fails if, after any pass of the routine, an idle job could still act
// by the documented rules (see isRuleCheck). It checks the schedule's
// invariants as well, and that the runs suspend jobs at all.
func TestIS_RulesHoldAfterEveryPass(t *testing.T) {
	n := rulesJobs()
	for _, tc := range []struct {
		w    rulesWorkload
		hold ReclaimHold
	}{
		{rulesWorkload{"ctc430/trace", rulesCTC, 430, workload.EstimateTrace, 0}, ""},
		{rulesWorkload{"sdsc128/trace", rulesSDSC, 128, workload.EstimateTrace, 0}, ""},
		{rulesWorkload{"ctc430/load1.6", rulesCTC, 430, workload.EstimateAccurate, 1.6}, ""},
		{rulesWorkload{"sdsc128/load1.3", rulesSDSC, 128, workload.EstimateAccurate, 1.3}, ""},
		{rulesWorkload{"ctc430/trace/first", rulesCTC, 430, workload.EstimateTrace, 0}, ReclaimHoldFirst},
		{rulesWorkload{"sdsc128/load1.3/first", rulesSDSC, 128, workload.EstimateAccurate, 1.3}, ReclaimHoldFirst},
	} {
		t.Run(tc.w.name, func(t *testing.T) {
			t.Parallel()
			wl := tc.w.build(t, n)
			cfg := DefaultISConfig()
			cfg.ResumePreempt, cfg.ResumeFactor, cfg.ReclaimHold = true, 2, tc.hold
			is, err := NewIS(cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := &isRuleCheck{IS: is}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, c, sim.Options{Segments: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := simcheck.Check(wl.Jobs, res); err != nil {
				t.Fatalf("invariants: %v", err)
			}
			reportRuleViolations(t, c.found, c.passes, res)
		})
	}
}

// reportRuleViolations fails the test with the first violations found, or
// if the run suspended no job (the check would prove little).
func reportRuleViolations(t *testing.T, found []ruleViolation, passes int, res *sim.Result) {
	t.Helper()
	susp := 0
	for i := range res.Tasks {
		susp += res.Tasks[i].Suspensions
	}
	if susp == 0 {
		t.Errorf("no suspensions: the check proves little")
	}
	if len(found) > 0 {
		var ex string
		for _, v := range found[:min(len(found), 5)] {
			ex += fmt.Sprintf("\n  job %d %s at %d", res.Tasks[v.job].ID, v.kind, v.now)
		}
		t.Errorf("%d violations in %d passes; first:%s", len(found), passes, ex)
	}
	t.Logf("%d passes, %d suspensions", passes, susp)
}

// reclaimableByRule reports whether, by the documented rule, a Suspended
// job may take its processors back from running job h at now (if its
// instantaneous xfactor is high enough): h has run a timeslice since it
// last (re)started or, under [ReclaimHoldFirst], it has done a timeslice
// of work in all and did not (re)start at now.
func reclaimableByRule(cfg ISConfig, h *sim.Task, now sim.Time) bool {
	if cfg.ReclaimHold == ReclaimHoldFirst {
		return h.Since < now && h.WorkDone(now) >= cfg.Timeslice
	}
	return now-h.SegStart >= cfg.Timeslice
}
