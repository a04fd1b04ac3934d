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

func TestHoldBlockExperiment(t *testing.T) {
	if os.Getenv("LOADEXP") == "" {
		t.Skip("LOADEXP not set")
	}
	sch, err := metrics.LookupScheme("ss16")
	if err != nil {
		t.Fatal(err)
	}
	for _, lf := range []float64{1.0, 1.3} {
		wl := loadTraceOpts(t, "SDSC-SP2-1998-4.2-cln.swf.gz", 128, workload.Options{Estimates: workload.EstimateAccurate, Count: 5000, Load: lf, LoadMode: workload.LoadArrival})
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
