package preempt

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// holdProbe wraps SS and, before each pass, finds the Waiting jobs that
// would fit in the free processors but may not take enough of them under
// HoldRemembered, and why.
type holdProbe struct {
	*SS
	prev    sim.Time
	blocked []int // Waiting jobs blocked at the last pass
	// job-seconds blocked, by reason of the first blocking suspended job
	width, prio, both float64
	// job-seconds blocked where the job would end, by its estimate,
	// before every blocking suspended job could resume
	bfOK     float64
	perJob   []sim.Time // blocked seconds by task index
	reasons  []int8     // by task index, at the last pass: 1 width, 2 prio, 3 both; +4 backfill would help
	nofit    []sim.Time // by task index: seconds waiting without fitting by count
	nofitL   []int      // jobs not fitting at the last pass
	eligS    []sim.Time // by task index: seconds not fitting, priority >= SF*lowest
	eligL    []int
	victHeld []sim.Time // by task index: eligible seconds where victims' processors held by hold rule made the difference
	vhL      []int
}

func (p *holdProbe) Schedule() {
	now := p.m.Now()
	dt := float64(now - p.prev)
	for _, i := range p.blocked {
		p.perJob[i] += now - p.prev
		r := p.reasons[i]
		switch r & 3 {
		case 1:
			p.width += dt
		case 2:
			p.prio += dt
		case 3:
			p.both += dt
		}
		if r&4 != 0 {
			p.bfOK += dt
		}
	}
	for _, i := range p.nofitL {
		p.nofit[i] += now - p.prev
	}
	for _, i := range p.eligL {
		p.eligS[i] += now - p.prev
	}
	for _, i := range p.vhL {
		p.victHeld[i] += now - p.prev
	}
	p.nofitL, p.eligL, p.vhL = p.nofitL[:0], p.eligL[:0], p.vhL[:0]
	p.prev = now
	p.blocked = p.blocked[:0]
	p.launchReady()
	p.rankRunning(now)
	a := p.availSet()
	for i := 0; i < p.m.NumTasks(); i++ {
		t := p.m.Task(i)
		if t.State != sim.Waiting || t.Submit > now || p.pending[i] {
			continue
		}
		tau := xfactor(t, now)
		if t.Procs > a.Len() {
			p.nofitL = append(p.nofitL, i)
			if tau >= p.cfg.SuspensionFactor*p.lowest() {
				p.eligL = append(p.eligL, i)
				_, _, base := p.freeFor(t, tau)
				with, without := base, a.Len()
				for _, r := range p.ranked() {
					if r.State != sim.Running || tau < p.cfg.SuspensionFactor*p.SS.prio[r.Index] ||
						float64(r.Procs) > p.cfg.WidthRatio*float64(t.Procs) || !p.may(tau, r) {
						continue
					}
					without += r.Procs
					if p.mayTake(t, tau, r.Set) {
						with += r.Procs
					}
				}
				if with < t.Procs && without >= t.Procs {
					p.vhL = append(p.vhL, i)
				}
			}
			continue
		}
		_, _, n := p.freeFor(t, tau)
		if n >= t.Procs {
			continue
		}
		var r int8
		bf := true
		for _, s := range p.rem {
			if !s.Set.Overlaps(a) || p.mayPass(t, tau, s, now) {
				continue
			}
			x := xfactor(s, now)
			if float64(s.Procs) > p.cfg.WidthRatio*float64(t.Procs) {
				r |= 1
			}
			if tau < p.cfg.SuspensionFactor*x {
				r |= 2
			}
			if now+t.Estimate > p.resumeBound(s, now) {
				bf = false
			}
		}
		if bf {
			r |= 4
		}
		p.reasons[i] = r
		p.blocked = append(p.blocked, i)
	}
	p.SS.Schedule()
	// Count the time to the next pass only for the jobs this pass left
	// waiting: a job found held back may still start in the pass.
	waiting := func(i int) bool { return p.m.Task(i).State == sim.Waiting }
	p.blocked = slices.DeleteFunc(p.blocked, func(i int) bool { return !waiting(i) })
	p.nofitL = slices.DeleteFunc(p.nofitL, func(i int) bool { return !waiting(i) })
	p.eligL = slices.DeleteFunc(p.eligL, func(i int) bool { return !waiting(i) })
	p.vhL = slices.DeleteFunc(p.vhL, func(i int) bool { return !waiting(i) })
}

// checkHoldProbe checks the probe's accounting against the run's records
// (recs) and its run's schedule against plain SS's (plain).
func checkHoldProbe(t *testing.T, name string, p *holdProbe, recs, plain []metrics.Record) {
	t.Helper()
	var blocked float64
	for i, r := range recs {
		if r.Start != plain[i].Start || r.End != plain[i].End {
			t.Errorf("%s: job %d runs %d-%d under the probe, %d-%d under plain SS", name, i, r.Start, r.End, plain[i].Start, plain[i].End)
		}
		if p.perJob[i] < 0 || p.perJob[i]+p.nofit[i] > r.Wait {
			t.Errorf("%s: job %d blocked %d s and not fitting %d s but waited %d s", name, i, p.perJob[i], p.nofit[i], r.Wait)
		}
		if p.eligS[i] > p.nofit[i] || p.victHeld[i] > p.eligS[i] {
			t.Errorf("%s: job %d: eligible %d s of %d s not fitting, victims held %d s", name, i, p.eligS[i], p.nofit[i], p.victHeld[i])
		}
		blocked += float64(p.perJob[i])
	}
	if sum := p.width + p.prio + p.both; sum > blocked || p.bfOK > blocked {
		t.Errorf("%s: reasons %.0f s and backfill-safe %.0f s of %.0f blocked job-seconds", name, sum, p.bfOK, blocked)
	}
	if blocked == 0 {
		t.Errorf("%s: no job was ever held back by a remembered processor: the probe measures nothing", name)
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestHoldBlockExperiment runs SS with HoldRemembered (with and without
// HoldBackfill) under holdProbe and checks the probe: it leaves the
// schedule as plain SS makes it, a job is counted blocked or not fitting
// only while it waits (blocked plus not-fitting seconds at most its
// wait), priority-eligible seconds are not-fitting seconds and
// victims-held seconds eligible ones, and the reasons' job-seconds add up
// to at most the blocked seconds. By default on 2000 SDSC jobs at load
// 1.3; with LOADEXP set on 5000 jobs at loads 1.0 and 1.3, logging the
// blocked job-hours by reason, per category and for the 15 worst jobs
// (the figures package preempt's doc quotes).
func TestHoldBlockExperiment(t *testing.T) {
	full := os.Getenv("LOADEXP") != ""
	loads, count := []float64{1.3}, 2000
	if full {
		loads, count = []float64{1.0, 1.3}, 5000
	}
	sch, err := metrics.LookupScheme("ss16")
	if err != nil {
		t.Fatal(err)
	}
	for _, lf := range loads {
		wl := loadTraceOpts(t, "SDSC-SP2-1998-4.2-cln.swf.gz", 128, workload.Options{Estimates: workload.EstimateAccurate, Count: count, Load: lf, LoadMode: workload.LoadArrival})
		for _, bf := range []bool{false, true} {
			cfg := DefaultSSConfig()
			cfg.HoldRemembered, cfg.HoldBackfill = true, bf
			ss, err := NewSS(cfg, wl.Procs, wl.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			p := &holdProbe{SS: ss, perJob: make([]sim.Time, len(wl.Jobs)), reasons: make([]int8, len(wl.Jobs)), nofit: make([]sim.Time, len(wl.Jobs)), eligS: make([]sim.Time, len(wl.Jobs)), victHeld: make([]sim.Time, len(wl.Jobs))}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			recs := metrics.Records(res)
			plain, err := NewSS(cfg, wl.Procs, wl.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			pres, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, plain, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkHoldProbe(t, fmt.Sprintf("lf=%.1f backfill=%v", lf, bf), p, recs, metrics.Records(pres))
			if !full {
				continue
			}
			type agg struct {
				n, blk int
				sec    sim.Time
				wait   float64
			}
			cats := map[string]*agg{}
			var order []string
			for i, r := range recs {
				c := sch.Classify(&r)
				if cats[c] == nil {
					cats[c] = &agg{}
					order = append(order, c)
				}
				a := cats[c]
				a.n++
				a.wait += float64(r.Wait)
				if p.perJob[i] > 0 {
					a.blk++
					a.sec += p.perJob[i]
				}
			}
			slices.Sort(order)
			out := fmt.Sprintf("sdsc lf=%.1f backfill=%v: blocked job-hours: width only %.0f, prio only %.0f, both %.0f; of which backfill-safe %.0f\n",
				lf, bf, p.width/3600, p.prio/3600, p.both/3600, p.bfOK/3600)
			for _, c := range order {
				a := cats[c]
				out += fmt.Sprintf("  %-7s jobs %4d blocked %4d mean blocked %7.0f s  mean wait %7.0f s\n", c, a.n, a.blk, float64(a.sec)/float64(max(a.blk, 1)), a.wait/float64(a.n))
			}
			idx := make([]int, len(recs))
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return cmpF(recs[b].BSD, recs[a].BSD) })
			for _, i := range idx[:15] {
				r := recs[i]
				out += fmt.Sprintf("  job %5d %-7s procs %3d run %6d wait %7d bsd %6.1f | fit-but-held %6d nofit %6d (prio-eligible %6d, victims held %6d)\n",
					i, sch.Classify(&r), r.Procs, r.Runtime, r.Wait, r.BSD, p.perJob[i], p.nofit[i], p.eligS[i], p.victHeld[i])
			}
			t.Log(out)
		}
	}
}
