package lsf_test

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestSensitivity is a measuring tool, not a check: with LSF_SENSITIVITY
// set it runs disciplines on the parsons1997 workload of generator seeds
// 1..REPS (the paper's defaults, 200 measured jobs, arrivals to 259200 s)
// and prints, per discipline and knowledge case, the mean MRT and
// makespan of the measured jobs, the mean makespan lower bound, the mean
// largest queue (pending + stopped) and largest pending queue (never
// started jobs), unfinished measured jobs per run, and each run's makespan
// in thousands of seconds. The claims' reasons in specs/parsons1997 quote
// its figures. Settings (environment):
//
//	LSF_SENSITIVITY=1   run it
//	DISC=lsf-rtc,...    disciplines (default: all ten)
//	REPS=10             workloads (generator seeds 1..REPS)
//	GAP=300             mean_interarrival, s
//	CASES=none          only the no-knowledge case (default: all four)
//	DEMAND_RATIO=0.1    lsf-preempt's demand_ratio (default: the discipline's)
//	SCAN=in_order       lsf-rtc's and lsf-preempt's scan (default: first_fit)
//	INTERVAL=5          decision_interval, s (default: the discipline's)
//	PREEMPT_DEMAND=total  lsf-preempt's criterion (2) with demand knowledge (default: remaining)
//	QUANTUM=600         quantum, s (default: the discipline's)
//	MINRUN=1200         min_run, s (default: the discipline's)
//	CKPT=0              checkpoint_cost, s (default: the discipline's)
//	DELAY=30            dispatch_delay, s (default: the discipline's)
//	ESTIMATE=working_time  remaining demand with demand knowledge only (default: processor_seconds)
//	SHOW_UNFINISHED=1   print the measured jobs each run leaves unfinished
//	PER_RUN=1           print per run: makespan, largest queue, the measured
//	                    jobs' rigid load (Σ desired·T(desired) over 128 times
//	                    the last measured arrival) and the longest wait of a
//	                    measured job with its desired size
//
// For example:
//
//	LSF_SENSITIVITY=1 REPS=30 CASES=none DISC=lsf-rtc,lsf-mig go test ./sim/policy/lsf -run Sensitivity -v
func TestSensitivity(t *testing.T) {
	if os.Getenv("LSF_SENSITIVITY") == "" {
		t.Skip("a measuring tool: set LSF_SENSITIVITY=1 to run it")
	}
	num := func(key string, def float64) float64 {
		v := os.Getenv(key)
		if v == "" {
			return def
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		return f
	}
	reps, gap, ratio := int(num("REPS", 10)), num("GAP", 300), num("DEMAND_RATIO", 0)
	discs := lsf.Disciplines()
	if v := os.Getenv("DISC"); v != "" {
		discs = nil
		for _, name := range strings.Split(v, ",") {
			i := slices.IndexFunc(lsf.Disciplines(), func(d lsf.Discipline) bool { return d.String() == name })
			if i < 0 {
				t.Fatalf("DISC: no discipline %q", name)
			}
			discs = append(discs, lsf.Disciplines()[i])
		}
	}
	kcs := cases
	if os.Getenv("CASES") == "none" {
		kcs = cases[:1]
	}
	for _, d := range discs {
		for _, kc := range kcs {
			var mrt, mk, lb, queue, pending, unfinished float64
			var runs []string
			for seed := 1; seed <= reps; seed++ {
				g := workload.NewParsons1997()
				g.MeanInterarrival, g.Seed = gap, uint64(seed)
				w, err := g.Generate()
				if err != nil {
					t.Fatal(err)
				}
				cfg := lsf.DefaultConfig(d)
				cfg.KnowDemand, cfg.KnowSpeedup = kc.demand, kc.speedup
				if ratio > 0 {
					cfg.DemandRatio = ratio
				}
				if v := os.Getenv("SCAN"); v != "" {
					cfg.Scan = lsf.Scan(v)
				}
				if v := os.Getenv("PREEMPT_DEMAND"); v != "" {
					cfg.PreemptDemand = lsf.PreemptDemand(v)
				}
				if v := os.Getenv("QUANTUM"); v != "" {
					cfg.Quantum = sim.Time(num("QUANTUM", 0))
				}
				if v := os.Getenv("MINRUN"); v != "" {
					cfg.MinRun = sim.Time(num("MINRUN", 0))
				}
				if v := os.Getenv("DELAY"); v != "" {
					cfg.DispatchDelay = sim.Time(num("DELAY", 0))
				}
				if v := os.Getenv("CKPT"); v != "" {
					cfg.CheckpointCost = sim.Time(num("CKPT", 0))
				}
				if v := os.Getenv("ESTIMATE"); v != "" {
					cfg.Estimate = lsf.Estimate(v)
				}
				if v := os.Getenv("INTERVAL"); v != "" {
					cfg.DecisionInterval = sim.Time(num("INTERVAL", 0))
				}
				p, err := lsf.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Horizon: g.Horizon})
				if err != nil {
					t.Fatal(err)
				}
				var sum, last, bound, rigid float64
				var lastSubmit, longest sim.Time
				longestDesired := 0
				n := 0
				for i := range res.Tasks {
					tk := &res.Tasks[i]
					if !tk.Elastic.Tagged {
						continue
					}
					end := tk.End
					if tk.State != sim.Done {
						end = res.End
						unfinished++
						if os.Getenv("SHOW_UNFINISHED") != "" {
							t.Logf("seed %d: job %d unfinished: submit %d, D %.0f, f %v, min %d, desired %d, served %.0f, %d checkpoints",
								seed, tk.ID, tk.Submit, tk.Elastic.Work, tk.Elastic.SeqFrac, tk.Elastic.Min, tk.Flex.Desired, tk.Flex.Served, tk.Flex.Checkpoints)
						}
					}
					n++
					rigid += float64(tk.Flex.Desired) * float64(tk.Elastic.Duration(tk.Elastic.Work, tk.Flex.Desired))
					lastSubmit = max(lastSubmit, tk.Submit)
					if wait := tk.FirstStart - tk.Submit; tk.FirstStart >= 0 && wait > longest {
						longest, longestDesired = wait, tk.Flex.Desired
					}
					sum += float64(end - tk.Submit)
					last = max(last, float64(end))
					bound = max(bound, float64(tk.Submit+tk.Elastic.Duration(tk.Elastic.Work, w.Procs)))
				}
				if os.Getenv("PER_RUN") != "" {
					t.Logf("seed %d: makespan %.0f, largest queue %d, rigid load %.2f, longest wait %d (desired %d)",
						seed, last, res.MaxQueue, rigid/(float64(w.Procs)*float64(max(lastSubmit, 1))), longest, longestDesired)
				}
				mrt += sum / float64(n)
				mk += last
				lb += bound
				queue += float64(res.MaxQueue)
				pending += float64(maxPending(res))
				runs = append(runs, fmt.Sprintf("%.0f", last/1000))
			}
			r := float64(reps)
			t.Logf("%-17s demand=%-5v speedup=%-5v MRT %6.0f  makespan %6.0f  bound %6.0f  queue %5.1f  pending %5.1f  unfinished/run %.2f  makespans (ks) %s",
				d, kc.demand, kc.speedup, mrt/r, mk/r, lb/r, queue/r, pending/r, unfinished/r, strings.Join(runs, " "))
		}
	}
}

// maxPending returns the largest number of jobs waiting at once that have
// never started (as the engine counts queues: after each instant).
func maxPending(res *sim.Result) int {
	type ev struct {
		at sim.Time
		d  int
	}
	var evs []ev
	for i := range res.Tasks {
		tk := &res.Tasks[i]
		end := tk.FirstStart
		if end < 0 {
			end = res.End + 1
		}
		if end > tk.Submit {
			evs = append(evs, ev{tk.Submit, 1}, ev{end, -1})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.d, b.d)
	})
	cur, most := 0, 0
	for _, e := range evs {
		cur += e.d
		most = max(most, cur)
	}
	return most
}
