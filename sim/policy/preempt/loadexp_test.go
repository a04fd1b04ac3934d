package preempt

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// probe wraps SS and integrates, over time, the machine state left by
// each pass.
type probe struct {
	*SS
	lastArr   sim.Time
	prev      sim.Time
	snap      snap
	pre, post acc
	maxSusp   int
}

type snap struct {
	busy, free, freeHeld, susp, wait int
	// free processors while some idle job exists, and why suspended jobs
	// that remember a free processor did not resume
	blockPrio, blockNew, blockSusp, blockProt int
	hSusp, hLater, hResumed                   int // prio blockers: t's suspender, fresh started later, resumed job
}

type acc struct {
	dt                                        float64
	busy, free, freeHeld, susp, wait          float64
	freeIdle                                  float64 // free procs while jobs idle
	blockPrio, blockNew, blockSusp, blockProt float64
	hSusp, hLater, hResumed                   float64
}

func (a *acc) add(s snap, dt float64) {
	a.dt += dt
	a.busy += float64(s.busy) * dt
	a.free += float64(s.free) * dt
	a.freeHeld += float64(s.freeHeld) * dt
	a.susp += float64(s.susp) * dt
	a.wait += float64(s.wait) * dt
	if s.susp+s.wait > 0 {
		a.freeIdle += float64(s.free) * dt
	}
	a.blockPrio += float64(s.blockPrio) * dt
	a.blockNew += float64(s.blockNew) * dt
	a.blockSusp += float64(s.blockSusp) * dt
	a.blockProt += float64(s.blockProt) * dt
	a.hSusp += float64(s.hSusp) * dt
	a.hLater += float64(s.hLater) * dt
	a.hResumed += float64(s.hResumed) * dt
}

func (a *acc) String() string {
	d := a.dt
	return fmt.Sprintf("h=%.0f busy=%.0f free=%.0f freeIdle=%.0f freeHeld=%.0f susp=%.1f wait=%.1f | blocked susp: prio=%.1f new=%.1f resuming=%.1f prot=%.1f (holders: suspender=%.1f later-fresh=%.1f resumed=%.1f)",
		d/3600, a.busy/d, a.free/d, a.freeIdle/d, a.freeHeld/d, a.susp/d, a.wait/d, a.blockPrio/d, a.blockNew/d, a.blockSusp/d, a.blockProt/d, a.hSusp/d, a.hLater/d, a.hResumed/d)
}

func (p *probe) Schedule() {
	now := p.m.Now()
	dt := float64(now - p.prev)
	if p.prev < p.lastArr {
		p.pre.add(p.snap, dt)
	} else {
		p.post.add(p.snap, dt)
	}
	p.SS.Schedule()
	p.prev = now
	var s snap
	free := p.m.FreeSet()
	s.free = p.m.Free()
	h := free.Clone()
	h.Subtract(p.held)
	s.freeHeld = s.free - h.Len()
	for _, t := range p.m.Active() {
		switch t.State {
		case sim.Running:
			s.busy += t.Procs
		}
	}
	for i := 0; i < p.m.NumTasks(); i++ {
		t := p.m.Task(i)
		if t.State == sim.Waiting && t.Submit <= now {
			s.wait++
		}
		if t.State == sim.Suspended {
			s.susp++
		}
		if t.State != sim.Suspended || !t.Set.Overlaps(free) {
			continue
		}
		// Why is it not resumed? Look at the holders.
		tau := xfactor(t, now)
		var prio, nw, prot, other bool
		for _, r := range p.m.Active() {
			if r == t || !r.Set.Overlaps(t.Set) {
				continue
			}
			switch {
			case r.State != sim.Running:
				other = true
			case r.Since == now:
				nw = true
			case tau < p.cfg.SuspensionFactor*xfactor(r, now):
				prio = true
				switch {
				case r.Suspensions > 0:
					s.hResumed++
				case r.Since == t.Since:
					s.hSusp++
				default:
					s.hLater++
				}
			case p.protected(r, xfactor(r, now)):
				prot = true
			}
		}
		switch {
		case prio:
			s.blockPrio++
		case prot:
			s.blockProt++
		case nw:
			s.blockNew++
		case other:
			s.blockSusp++
		}
	}
	p.maxSusp = max(p.maxSusp, s.susp)
	p.snap = s
}

// TestLoadExperiment runs NS (EASY) and the SS variants under probe and
// checks the probe: it leaves the schedule as plain SS makes it, and its
// time averages are consistent (busy plus free processors at most the
// machine, held and idle-free processors part of the free ones, suspended
// jobs blocked for a reason at most the suspended ones and at most the
// largest number suspended, a priority block having a holder). By default
// on 2000 SDSC jobs at load 1.3; with LOADEXP set on 5000 CTC and SDSC
// jobs at several loads, logging utilization, mean and largest bounded
// slowdown and suspensions (LOADEXP=2 adds the probe's averages before
// and after the last arrival).
func TestLoadExperiment(t *testing.T) {
	full := os.Getenv("LOADEXP") != ""
	type tr struct {
		name, file string
		procs      int
		loads      []float64
	}
	traces, count := []tr{{"sdsc128", "SDSC-SP2-1998-4.2-cln.swf.gz", 128, []float64{1.3}}}, 2000
	if full {
		traces, count = []tr{
			{"ctc430", "CTC-SP2-1996-3.1-cln.swf.gz", 430, []float64{1.0, 1.3, 1.6}},
			{"sdsc128", "SDSC-SP2-1998-4.2-cln.swf.gz", 128, []float64{1.0, 1.3}},
		}, 5000
	}
	for _, w := range traces {
		for _, lf := range w.loads {
			wl := loadTraceOpts(t, w.file, w.procs, workload.Options{Estimates: workload.EstimateAccurate, Count: count, Load: lf, LoadMode: workload.LoadArrival})
			var lastArr sim.Time
			for _, j := range wl.Jobs {
				lastArr = max(lastArr, j.Submit)
			}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, backfill.NewEASY(), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			report(t, w.name, lf, "ns", res, wl.Procs, nil)
			for _, v := range variants() {
				cfg := DefaultSSConfig()
				v.cfg(&cfg)
				ss, err := NewSS(cfg, wl.Procs, wl.Jobs)
				if err != nil {
					t.Fatal(err)
				}
				p := &probe{SS: ss, lastArr: lastArr}
				res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				plain, err := NewSS(cfg, wl.Procs, wl.Jobs)
				if err != nil {
					t.Fatal(err)
				}
				pres, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, plain, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				checkProbe(t, fmt.Sprintf("%s lf=%.1f %s", w.name, lf, v.name), p, wl.Procs, metrics.Records(res), metrics.Records(pres))
				report(t, w.name, lf, v.name, res, wl.Procs, p)
			}
		}
	}
}

// checkProbe checks p's time averages and that the run under p (recs)
// has plain SS's schedule (plain).
func checkProbe(t *testing.T, name string, p *probe, procs int, recs, plain []metrics.Record) {
	t.Helper()
	for i, r := range recs {
		if r.Start != plain[i].Start || r.End != plain[i].End || r.Suspensions != plain[i].Suspensions {
			t.Errorf("%s: job %d runs %d-%d (%d suspensions) under the probe, %d-%d (%d) under plain SS",
				name, i, r.Start, r.End, r.Suspensions, plain[i].Start, plain[i].End, plain[i].Suspensions)
			return
		}
	}
	const eps = 1e-6
	for _, a := range []*acc{&p.pre, &p.post} {
		if a.dt <= 0 {
			continue
		}
		d := a.dt
		blocked := (a.blockPrio + a.blockNew + a.blockSusp + a.blockProt) / d
		switch {
		case (a.busy+a.free)/d > float64(procs)+eps:
			t.Errorf("%s: busy %.1f + free %.1f processors on a machine of %d", name, a.busy/d, a.free/d, procs)
		case a.freeHeld > a.free+eps || a.freeIdle > a.free+eps:
			t.Errorf("%s: held %.1f or idle-free %.1f of %.1f free processors", name, a.freeHeld/d, a.freeIdle/d, a.free/d)
		case blocked > a.susp/d+eps || a.susp/d > float64(p.maxSusp)+eps:
			t.Errorf("%s: %.2f blocked of %.2f suspended jobs (largest %d)", name, blocked, a.susp/d, p.maxSusp)
		case a.hSusp+a.hLater+a.hResumed < a.blockPrio-eps:
			t.Errorf("%s: priority blocks %.2f with %.2f holders", name, a.blockPrio/d, (a.hSusp+a.hLater+a.hResumed)/d)
		}
	}
	if p.pre.dt <= 0 {
		t.Errorf("%s: the probe saw no time before the last arrival", name)
	}
}

type variant struct {
	name string
	cfg  func(*SSConfig)
}

// variants lists the SS settings the experiments compare, each with the
// pseudocode scan (StopScan) that the Kettimuthu specs use.
func variants() []variant {
	vs := []variant{
		{"ss", func(*SSConfig) {}},
		{"tss", func(c *SSConfig) { c.Tunable = true }},
		{"ss+hold", func(c *SSConfig) { c.HoldRemembered = true }},
		{"tss+hold", func(c *SSConfig) { c.Tunable, c.HoldRemembered = true, true }},
		{"ss+hold+bf", func(c *SSConfig) { c.HoldRemembered, c.HoldBackfill = true, true }},
		{"tss+hold+bf", func(c *SSConfig) { c.Tunable, c.HoldRemembered, c.HoldBackfill = true, true, true }},
	}
	for i, v := range vs {
		set := v.cfg
		vs[i].cfg = func(c *SSConfig) {
			set(c)
			c.StopScan = true
		}
	}
	return vs
}

func report(t *testing.T, w string, lf float64, name string, res *sim.Result, procs int, p *probe) {
	recs := metrics.Records(res)
	st := metrics.Stats(procs, recs)
	var bsd, maxb float64
	for _, r := range recs {
		b := r.BSD
		bsd += b
		maxb = max(maxb, b)
	}
	line := fmt.Sprintf("RES %s lf=%.1f %-10s util=%.3f bsd=%.2f max=%.0f susp=%d", w, lf, name, st.Utilization, bsd/float64(len(recs)), maxb, st.Suspensions)
	if p != nil && os.Getenv("LOADEXP") == "2" {
		line += fmt.Sprintf("\n   pre  %s\n   post %s maxSusp=%d", &p.pre, &p.post, p.maxSusp)
	}
	if os.Getenv("LOADEXP") != "" {
		t.Log(line)
	}
}

// TestCategoryExperiment runs NS (EASY) and the SS variants on the first
// 5000 SDSC jobs (with LOADEXP set also CTC's) with accurate estimates
// and checks what package preempt's doc says of them: the hold of
// remembered processors raises SS's mean bounded slowdown on SDSC
// (HoldRemembered), and letting short jobs backfill past the hold
// (HoldBackfill) lowers it again; every run puts the same jobs in each
// ss16 category. With LOADEXP set it logs the mean bounded slowdown per
// category and policy.
func TestCategoryExperiment(t *testing.T) {
	full := os.Getenv("LOADEXP") != ""
	sch, err := metrics.LookupScheme("ss16")
	if err != nil {
		t.Fatal(err)
	}
	type tr struct {
		name, file string
		procs      int
	}
	traces := []tr{{"sdsc128", "SDSC-SP2-1998-4.2-cln.swf.gz", 128}}
	if full {
		traces = append([]tr{{"ctc430", "CTC-SP2-1996-3.1-cln.swf.gz", 430}}, traces...)
	}
	for _, w := range traces {
		wl := loadTraceOpts(t, w.file, w.procs, workload.Options{Estimates: workload.EstimateAccurate, Count: 5000})
		rows := map[string][]string{}
		counts := map[string]int{}
		overall := map[string]float64{}
		var order []string
		add := func(name string, res *sim.Result) {
			for _, a := range metrics.Summarize(sch, metrics.Records(res)) {
				if _, ok := rows[a.Category]; !ok {
					order = append(order, a.Category)
					counts[a.Category] = a.Count
				}
				if a.Count != counts[a.Category] {
					t.Errorf("%s %s: category %s has %d jobs, %d under NS", w.name, name, a.Category, a.Count, counts[a.Category])
				}
				if a.Row < 0 {
					overall[name] = a.BSD.Mean
				}
				rows[a.Category] = append(rows[a.Category], fmt.Sprintf("%7.2f", a.BSD.Mean))
			}
		}
		res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, backfill.NewEASY(), sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		add("ns", res)
		for _, v := range variants() {
			cfg := DefaultSSConfig()
			v.cfg(&cfg)
			ss, err := NewSS(cfg, wl.Procs, wl.Jobs)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, ss, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			add(v.name, res)
		}
		if w.name == "sdsc128" && !(overall["ss+hold"] > overall["ss"] && overall["ss+hold+bf"] < overall["ss+hold"]) {
			t.Errorf("%s mean bsd: ss %.2f, ss+hold %.2f, ss+hold+bf %.2f: the hold should raise it and backfilling past it lower it again",
				w.name, overall["ss"], overall["ss+hold"], overall["ss+hold+bf"])
		}
		if !full {
			continue
		}
		out := fmt.Sprintf("%s mean bsd: ns ss tss ss+hold tss+hold ss+hold+bf tss+hold+bf\n", w.name)
		for _, c := range order {
			out += fmt.Sprintf("%-8s %v\n", c, rows[c])
		}
		t.Log(out)
	}
}
