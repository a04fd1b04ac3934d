// Command lsfsensitivity is a measuring tool for the LSF disciplines of
// Parsons and Sevcik (1997), kept outside the test suite because it
// checks nothing: it runs disciplines on the parsons1997 workload of
// generator seeds 1..-reps (the paper's defaults, 200 measured jobs,
// arrivals to 259200 s) and prints, per discipline and knowledge case,
// the mean MRT and makespan of the measured jobs, the mean makespan lower
// bound, the mean largest queue (pending + stopped) and largest pending
// queue (never started jobs), unfinished measured jobs per run, and each
// run's makespan in thousands of seconds. The claims' reasons in
// specs/parsons1997 quote its figures. A negative time flag keeps the
// discipline's default. For example:
//
//	go run ./internal/experiments/lsfsensitivity -reps 30 -cases none -disc lsf-rtc,lsf-mig
//
// -per-run prints per run: makespan, largest queue, the measured jobs'
// rigid load (sum of desired times T(desired) over 128 times the last
// measured arrival) and the longest wait of a measured job with its
// desired size; -show-unfinished the measured jobs each run leaves
// unfinished.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

type options struct {
	disc, cases, scan, preemptDemand, estimate string
	reps                                       int
	gap, ratio                                 float64
	quantum, minRun, delay, ckpt, interval     int64
	showUnfinished, perRun                     bool
}

type knowledge struct{ demand, speedup bool }

var allCases = []knowledge{{false, false}, {true, false}, {false, true}, {true, true}}

func main() {
	var o options
	flag.StringVar(&o.disc, "disc", "", "disciplines, comma-separated (default: all ten)")
	flag.IntVar(&o.reps, "reps", 10, "workloads (generator seeds 1..reps)")
	flag.Float64Var(&o.gap, "gap", 300, "mean_interarrival, s")
	flag.StringVar(&o.cases, "cases", "all", "knowledge cases: all or none (only the no-knowledge case)")
	flag.Float64Var(&o.ratio, "demand-ratio", 0, "lsf-preempt's demand_ratio (0: the discipline's)")
	flag.StringVar(&o.scan, "scan", "", "lsf-rtc's and lsf-preempt's scan, e.g. in_order (default: first_fit)")
	flag.Int64Var(&o.interval, "interval", -1, "decision_interval, s")
	flag.StringVar(&o.preemptDemand, "preempt-demand", "", "lsf-preempt's criterion (2) with demand knowledge, e.g. total (default: remaining)")
	flag.Int64Var(&o.quantum, "quantum", -1, "quantum, s")
	flag.Int64Var(&o.minRun, "min-run", -1, "min_run, s")
	flag.Int64Var(&o.ckpt, "ckpt", -1, "checkpoint_cost, s")
	flag.Int64Var(&o.delay, "delay", -1, "dispatch_delay, s")
	flag.StringVar(&o.estimate, "estimate", "", "remaining demand with demand knowledge only, e.g. working_time (default: processor_seconds)")
	flag.BoolVar(&o.showUnfinished, "show-unfinished", false, "print the measured jobs each run leaves unfinished")
	flag.BoolVar(&o.perRun, "per-run", false, "print figures of each run")
	flag.Parse()
	if err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "lsfsensitivity:", err)
		os.Exit(1)
	}
}

func run(w0 io.Writer, o options) error {
	if o.reps < 1 || o.gap <= 0 {
		return fmt.Errorf("-reps must be >= 1 and -gap > 0")
	}
	reps, gap, ratio := o.reps, o.gap, o.ratio
	discs := lsf.Disciplines()
	if o.disc != "" {
		discs = nil
		for _, name := range strings.Split(o.disc, ",") {
			i := slices.IndexFunc(lsf.Disciplines(), func(d lsf.Discipline) bool { return d.String() == name })
			if i < 0 {
				return fmt.Errorf("-disc: no discipline %q", name)
			}
			discs = append(discs, lsf.Disciplines()[i])
		}
	}
	kcs := allCases
	switch o.cases {
	case "none":
		kcs = allCases[:1]
	case "all":
	default:
		return fmt.Errorf("-cases: %q is neither all nor none", o.cases)
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
					return err
				}
				cfg := lsf.DefaultConfig(d)
				cfg.KnowDemand, cfg.KnowSpeedup = kc.demand, kc.speedup
				if ratio > 0 {
					cfg.DemandRatio = ratio
				}
				if o.scan != "" {
					cfg.Scan = lsf.Scan(o.scan)
				}
				if o.preemptDemand != "" {
					cfg.PreemptDemand = lsf.PreemptDemand(o.preemptDemand)
				}
				if o.quantum >= 0 {
					cfg.Quantum = sim.Time(o.quantum)
				}
				if o.minRun >= 0 {
					cfg.MinRun = sim.Time(o.minRun)
				}
				if o.delay >= 0 {
					cfg.DispatchDelay = sim.Time(o.delay)
				}
				if o.ckpt >= 0 {
					cfg.CheckpointCost = sim.Time(o.ckpt)
				}
				if o.estimate != "" {
					cfg.Estimate = lsf.Estimate(o.estimate)
				}
				if o.interval >= 0 {
					cfg.DecisionInterval = sim.Time(o.interval)
				}
				p, err := lsf.New(cfg)
				if err != nil {
					return err
				}
				res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{Horizon: g.Horizon})
				if err != nil {
					return err
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
						if o.showUnfinished {
							fmt.Fprintf(w0, "seed %d: job %d unfinished: submit %d, D %.0f, f %v, min %d, desired %d, served %.0f, %d checkpoints\n",
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
				if o.perRun {
					fmt.Fprintf(w0, "seed %d: makespan %.0f, largest queue %d, rigid load %.2f, longest wait %d (desired %d)\n",
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
			fmt.Fprintf(w0, "%-17s demand=%-5v speedup=%-5v MRT %6.0f  makespan %6.0f  bound %6.0f  queue %5.1f  pending %5.1f  unfinished/run %.2f  makespans (ks) %s\n",
				d, kc.demand, kc.speedup, mrt/r, mk/r, lb/r, queue/r, pending/r, unfinished/r, strings.Join(runs, " "))
		}
	}
	return nil
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
