package lsf_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// knowledge is one of the four knowledge cases.
type knowledge struct{ demand, speedup bool }

var cases = []knowledge{{false, false}, {true, false}, {false, true}, {true, true}}

func genWorkload(t testing.TB, seed uint64, gap float64, horizon sim.Time) *workload.Workload {
	g := workload.NewParsons1997()
	g.MeanInterarrival = gap
	g.Seed = seed
	g.Horizon = horizon
	w, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// checkInvariants verifies a run from its segments, independently of the
// policy's bookkeeping.
func checkInvariants(d lsf.Discipline, cfg lsf.Config, jobs []sim.Job, res *sim.Result) error {
	var errs []error
	add := func(format string, a ...any) {
		if len(errs) < 10 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	// Capacity: processors never held by two jobs; sum <= machine.
	type pt struct {
		at    sim.Time
		delta int
	}
	var pts []pt
	owner := map[[2]int64]int{} // (processor, time) checked via sweep below
	_ = owner
	perJob := make([][]sim.Segment, len(res.Tasks))
	for _, s := range res.Segments {
		pts = append(pts, pt{s.Start, s.Set.Len()}, pt{s.End, -s.Set.Len()})
		perJob[s.Task] = append(perJob[s.Task], s)
	}
	sort.Slice(pts, func(a, b int) bool {
		if pts[a].at != pts[b].at {
			return pts[a].at < pts[b].at
		}
		return pts[a].delta < pts[b].delta
	})
	used := 0
	for _, p := range pts {
		used += p.delta
		if used > res.Procs {
			add("%d processors in use at %d", used, p.at)
			break
		}
	}
	for i := range res.Tasks {
		t := &res.Tasks[i]
		e := t.Elastic
		segs := perJob[i]
		served := 0.0
		var lastK int
		var sets []sim.ProcSet
		sizes := map[int]bool{}
		pieces := 0
		for j, s := range segs {
			k := s.Set.Len()
			if k%e.Unit != 0 || k < e.Min || k > e.Max {
				add("job %d: allocation %d outside [%d, %d] or not a multiple of %d", t.ID, k, e.Min, e.Max, e.Unit)
			}
			if (d == lsf.RTC || d == lsf.Preempt || d == lsf.Mig) && k != jobs[i].Procs {
				add("job %d: rigid discipline gave %d processors, desired %d", t.ID, k, jobs[i].Procs)
			}
			if s.Working {
				served += float64(s.End-s.Start) * e.Speedup(k)
				lastK = k
				pieces++
				// Never preempt a protected job: a working segment that
				// ends before the job does lasts at least min_run.
				preempted := (t.State != sim.Done || s.End != t.End) && !(s.End == res.End && t.State != sim.Done)
				if d.Preemptive() && preempted && s.End-s.Start < cfg.MinRun {
					add("job %d preempted after %d s of work at %d, min_run %d", t.ID, s.End-s.Start, s.End, cfg.MinRun)
				}
			}
			if j == 0 || !sameSet(sets[len(sets)-1], s.Set) {
				sets = append(sets, s.Set)
			}
			sizes[k] = true
		}
		if t.State == sim.Done {
			if served < e.Work-1e-6 || served >= e.Work+e.Speedup(lastK)+1e-6 {
				add("job %d: served %v, demand %v (last speedup %v)", t.ID, served, e.Work, e.Speedup(lastK))
			}
			// Each (re)start's delay is DispatchDelay plus a draw in
			// [0, DispatchRandom].
			starts := sim.Time(1 + t.Flex.Checkpoints)
			want := sim.Time(t.Flex.Checkpoints)*cfg.CheckpointCost + starts*cfg.DispatchDelay
			if t.OverheadTime < want || t.OverheadTime > want+starts*cfg.DispatchRandom {
				add("job %d: overhead %d, want %d plus at most %d", t.ID, t.OverheadTime, want, starts*cfg.DispatchRandom)
			}
		} else if served > e.Work {
			add("unfinished job %d served %v > demand %v", t.ID, served, e.Work)
		}
		switch d {
		case lsf.RTC, lsf.RTCAD, lsf.RTCADSubset:
			if pieces > 1 {
				add("job %d ran in %d pieces under run to completion", t.ID, pieces)
			}
		case lsf.Preempt, lsf.PreemptAD:
			if len(sets) > 1 {
				add("job %d moved between processor sets under simple preemption", t.ID)
			}
		case lsf.Mig, lsf.MigAD, lsf.MigADSubset:
			if len(sizes) > 1 {
				add("job %d changed size under migratable preemption: %v", t.ID, sizes)
			}
		}
	}
	// At most max_jobs_per_proc jobs (running or suspended) per processor:
	// under simple preemption a job is on its set from first start to end.
	if d == lsf.Preempt || d == lsf.PreemptAD {
		type ev struct {
			at  sim.Time
			d   int
			set sim.ProcSet
		}
		var evs []ev
		for i := range res.Tasks {
			if segs := perJob[i]; len(segs) > 0 {
				end := res.End
				if res.Tasks[i].State == sim.Done {
					end = res.Tasks[i].End
				}
				evs = append(evs, ev{segs[0].Start, 1, segs[0].Set}, ev{end, -1, segs[0].Set})
			}
		}
		sort.Slice(evs, func(a, b int) bool {
			if evs[a].at != evs[b].at {
				return evs[a].at < evs[b].at
			}
			return evs[a].d < evs[b].d
		})
		count := make([]int, res.Procs)
		for _, e := range evs {
			bad := false
			e.set.Each(func(p int) {
				count[p] += e.d
				if count[p] > cfg.MaxJobsPerProc {
					bad = true
				}
			})
			if bad {
				add("more than %d jobs on a processor at %d", cfg.MaxJobsPerProc, e.at)
				break
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%v", errs)
	}
	return nil
}

func sameSet(a, b sim.ProcSet) bool { return a.Contains(b) && b.Contains(a) }

// TestInvariants runs every discipline in every knowledge case on generated
// workloads (a heavier load than the paper's, a horizon cut, dispatch
// delays) and checks the invariants.
func TestInvariants(t *testing.T) {
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, d := range lsf.Disciplines() {
		for _, kc := range cases {
			for _, delay := range [][2]sim.Time{{0, 0}, {30, 0}, {0, 30}} {
				t.Run(fmt.Sprintf("%s/demand=%v/speedup=%v/delay=%d/random=%d", d, kc.demand, kc.speedup, delay[0], delay[1]), func(t *testing.T) {
					for _, seed := range seeds {
						w := genWorkload(t, seed, 150, 100000)
						cfg := lsf.DefaultConfig(d)
						cfg.KnowDemand, cfg.KnowSpeedup = kc.demand, kc.speedup
						cfg.DispatchDelay, cfg.DispatchRandom, cfg.Seed = delay[0], delay[1], seed
						p, err := lsf.New(cfg)
						if err != nil {
							t.Fatal(err)
						}
						res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true, CheckEvery: 13, Horizon: 100000})
						if err != nil {
							t.Fatal(err)
						}
						if err := checkInvariants(d, cfg, w.Jobs, res); err != nil {
							t.Fatalf("seed %d: %v", seed, err)
						}
					}
				})
			}
		}
	}
}

// TestSpeedupAloneIsNoKnowledge: for disciplines that never hand out
// leftover processors, knowing speedups alone changes nothing.
func TestSpeedupAloneIsNoKnowledge(t *testing.T) {
	w := genWorkload(t, 5, 200, 0)
	for _, d := range []lsf.Discipline{lsf.RTC, lsf.Preempt, lsf.Mig} {
		var outs [2]string
		for i, ks := range []bool{false, true} {
			cfg := lsf.DefaultConfig(d)
			cfg.KnowSpeedup = ks
			p, _ := lsf.New(cfg)
			res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			b.WriteString(segments(res))
			for _, tk := range res.Tasks {
				fmt.Fprintf(&b, "%d %d %d %+v\n", tk.ID, tk.FirstStart, tk.End, tk.Flex)
			}
			outs[i] = b.String()
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: know_speedup alone changed the schedule", d)
		}
	}
}

// TestDeterministic: two runs give identical schedules.
func TestDeterministic(t *testing.T) {
	w := genWorkload(t, 9, 200, 0)
	for _, d := range lsf.Disciplines() {
		var outs [2]string
		for i := range outs {
			cfg := lsf.DefaultConfig(d)
			cfg.KnowDemand = true
			p, _ := lsf.New(cfg)
			res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true})
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = segments(res)
		}
		if outs[0] != outs[1] || math.IsNaN(0) {
			t.Errorf("%s: two runs differ", d)
		}
	}
}

// TestDispatchRandom: the random dispatch delays are drawn from the seed
// (the same seed gives the same schedule, another seed another one), stay
// within [0, DispatchRandom], and vary; DispatchRandom 0 leaves the
// schedule as without it, whatever the seed.
func TestDispatchRandom(t *testing.T) {
	w := genWorkload(t, 4, 150, 0)
	runWith := func(d lsf.Discipline, random sim.Time, seed uint64) *sim.Result {
		cfg := lsf.DefaultConfig(d)
		cfg.DispatchRandom, cfg.Seed = random, seed
		p, err := lsf.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Segments: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, d := range []lsf.Discipline{lsf.RTC, lsf.Preempt, lsf.Mig, lsf.MallAD} {
		a, b, c := runWith(d, 30, 7), runWith(d, 30, 7), runWith(d, 30, 8)
		if segments(a) != segments(b) {
			t.Errorf("%s: the same seed gave two schedules", d)
		}
		if segments(a) == segments(c) {
			t.Errorf("%s: seeds 7 and 8 gave the same schedule", d)
		}
		if segments(runWith(d, 0, 7)) != segments(runWith(d, 0, 8)) {
			t.Errorf("%s: without random delays the seed changed the schedule", d)
		}
		// Every idle segment before work is a dispatch delay (checkpoints
		// idle after work): under lsf-rtc and lsf-preempt each job's
		// first segment is its delay when the draw is not 0.
		seen := map[sim.Time]bool{}
		for i := range a.Tasks {
			tk := &a.Tasks[i]
			if tk.OverheadTime < 0 || (d == lsf.RTC || d == lsf.Preempt) && tk.OverheadTime > 30 {
				t.Errorf("%s: job %d overhead %d outside [0, 30]", d, tk.ID, tk.OverheadTime)
			}
			if d == lsf.RTC {
				seen[tk.OverheadTime] = true
			}
		}
		if d == lsf.RTC && len(seen) < 20 {
			t.Errorf("lsf-rtc: only %d distinct delays over %d jobs", len(seen), len(a.Tasks))
		}
	}
	if _, err := lsf.New(lsf.Config{Discipline: lsf.RTC, Quantum: 60, AcquiredRatio: 0.5, DemandRatio: 0.9, MaxJobsPerProc: 5, Delta: 5, DispatchRandom: -1}); err == nil {
		t.Error("dispatch_delay_random -1 accepted")
	}
}
