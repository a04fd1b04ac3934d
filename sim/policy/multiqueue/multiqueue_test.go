package multiqueue_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/multiqueue"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

var traceFiles = map[string]string{
	"ctc": "CTC-SP2-1996-3.1-cln.swf.gz", "kth": "KTH-SP2-1996-2.1-cln.swf.gz",
	"sdsc": "SDSC-SP2-1998-4.2-cln.swf.gz", "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
}

var traceNames = []string{"ctc", "kth", "sdsc", "sdsc-par"}

var (
	tracesMu sync.Mutex
	traces   = map[string]*workload.Trace{}
)

// load reads a shipped trace once per test binary and builds a workload.
func load(t testing.TB, name string, est workload.EstimateModel, skip, count int) *workload.Workload {
	t.Helper()
	tracesMu.Lock()
	tr, ok := traces[name]
	if !ok {
		var err error
		tr, err = workload.Read(filepath.Join("..", "..", "..", "traces", traceFiles[name]), 0)
		if err != nil {
			tracesMu.Unlock()
			t.Fatal(err)
		}
		traces[name] = tr
	}
	tracesMu.Unlock()
	wl, err := tr.Build(workload.Options{Estimates: est, Skip: skip, Count: count})
	if err != nil {
		t.Fatal(err)
	}
	return wl
}

func run(t testing.TB, wl *workload.Workload, p sim.Policy, opts sim.Options) *sim.Result {
	t.Helper()
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func newPolicy(t testing.TB, cfg multiqueue.Config) *multiqueue.Policy {
	t.Helper()
	p, err := multiqueue.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sameStarts fails at the first job whose start differs.
func sameStarts(t *testing.T, a, b *sim.Result, what string) {
	t.Helper()
	for i := range a.Tasks {
		if a.Tasks[i].FirstStart != b.Tasks[i].FirstStart {
			t.Fatalf("%s: job %d starts at %d and at %d", what, a.Tasks[i].ID, a.Tasks[i].FirstStart, b.Tasks[i].FirstStart)
		}
	}
}

// TestOneQueueIsEASY: with every bound above all estimates there is one
// queue, one pivot, and the schedule is EASY's, start for start, on all
// four whole traces.
func TestOneQueueIsEASY(t *testing.T) {
	count := 0
	if testing.Short() {
		count = 3000
	}
	for _, name := range traceNames {
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			t.Run(fmt.Sprintf("%s/%v", name, est), func(t *testing.T) {
				wl := load(t, name, est, 0, count)
				cfg := multiqueue.DefaultConfig()
				cfg.ClassBounds = [3]sim.Time{1e9, 1e9, 1e9}
				cfg.SelfCheck = true
				mq := newPolicy(t, cfg)
				a := run(t, wl, mq, sim.Options{})
				if err := mq.Err(); err != nil {
					t.Fatalf("self-check: %v", err)
				}
				b := run(t, wl, backfill.NewEASY(), sim.Options{})
				sameStarts(t, a, b, "multiqueue (one queue) vs easy")
			})
		}
	}
}

// TestZeroDelayIsNoDelay: initial_delay 0 schedules exactly like delay off.
func TestZeroDelayIsNoDelay(t *testing.T) {
	count := 5000
	if testing.Short() {
		count = 1500
	}
	for _, name := range traceNames {
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			t.Run(fmt.Sprintf("%s/%v", name, est), func(t *testing.T) {
				wl := load(t, name, est, 2000, count)
				off := multiqueue.DefaultConfig()
				zero := off
				zero.Delay, zero.InitialDelay = true, 0
				a := run(t, wl, newPolicy(t, off), sim.Options{})
				b := run(t, wl, newPolicy(t, zero), sim.Options{})
				sameStarts(t, a, b, "delay off vs initial_delay 0")
			})
		}
	}
}

// configs returns the parameter combinations the invariant test covers:
// every bool combination, three kinds of bounds (the defaults, one queue,
// empty middle queues) and two values of each number of the delay.
func configs() []multiqueue.Config {
	bounds := [][3]sim.Time{{100, 1000, 10000}, {1e9, 1e9, 1e9}, {300, 300, 300}}
	var out []multiqueue.Config
	for _, b := range bounds {
		c := multiqueue.DefaultConfig()
		c.ClassBounds = b
		out = append(out, c)
		for _, adaptive := range []bool{false, true} {
			for _, unit := range []bool{false, true} {
				for _, d1 := range []float64{0, 2500} {
					for _, batch := range []int{7, 100} {
						for _, thr := range []float64{0, 0.25} {
							c := c
							c.Delay, c.AdaptiveDelay, c.Delta1Unit = true, adaptive, unit
							c.InitialDelay, c.DelayBatch, c.DelayThreshold = d1, batch, thr
							out = append(out, c)
						}
					}
				}
			}
		}
	}
	return out
}

// TestInvariants runs every parameter combination on subsets of the four
// traces with accurate and trace estimates, with the self-check on, and
// checks the run with simcheck (capacity, work, no pivot after its
// promise, no promise moved later) and from the records: each job in its
// estimate's queue, no class-4 job before submit + delay, partition at
// start at least the job's width.
func TestInvariants(t *testing.T) {
	count := 800
	cfgs := configs()
	if testing.Short() {
		count = 300
	}
	for _, name := range traceNames {
		for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
			wl := load(t, name, est, 5000, count)
			for i, cfg := range cfgs {
				t.Run(fmt.Sprintf("%s/%v/%d", name, est, i), func(t *testing.T) {
					cfg.SelfCheck = true
					p := newPolicy(t, cfg)
					res := run(t, wl, p, sim.Options{Segments: true, CheckEvery: 1})
					if err := p.Err(); err != nil {
						t.Fatalf("%+v: self-check: %v", cfg, err)
					}
					if err := simcheck.Check(wl.Jobs, res); err != nil {
						t.Fatalf("%+v: %v", cfg, err)
					}
					checkRecords(t, cfg, res, p)
				})
			}
		}
	}
}

func checkRecords(t *testing.T, cfg multiqueue.Config, res *sim.Result, p *multiqueue.Policy) {
	t.Helper()
	recs := metrics.Records(res)
	st := metrics.Stats(res.Procs, recs)
	p.Annotate(recs, &st)
	delayed := 0
	for i, r := range recs {
		tk := &res.Tasks[i]
		want := 4
		for k := 2; k >= 0; k-- {
			if r.Estimate <= cfg.ClassBounds[k] {
				want = k + 1
			}
		}
		if r.MQ.Queue != want {
			t.Fatalf("job %d (estimate %d) in queue %d, want %d", r.JobID, r.Estimate, r.MQ.Queue, want)
		}
		if r.MQ.Queue < 4 && r.MQ.Delay != 0 || !cfg.Delay && r.MQ.Delay != 0 {
			t.Fatalf("job %d of queue %d delayed %d s", r.JobID, r.MQ.Queue, r.MQ.Delay)
		}
		if r.Start < r.Submit+r.MQ.Delay {
			t.Fatalf("job %d started at %d, before submit %d + delay %d", r.JobID, r.Start, r.Submit, r.MQ.Delay)
		}
		if r.MQ.PartitionAtStart < r.Procs || r.MQ.PartitionAtStart > res.Procs {
			t.Fatalf("job %d of width %d: partition at start %d", r.JobID, r.Procs, r.MQ.PartitionAtStart)
		}
		if tk.FirstStart != r.Start {
			t.Fatalf("record order differs from tasks")
		}
		if r.MQ.Delay > 0 {
			delayed++
		}
	}
	mq := st.MultiQueue
	sum := 0.0
	for _, m := range mq.PartitionMean {
		sum += m
	}
	if d := sum - float64(res.Procs); d > 1e-6 || d < -1e-6 {
		t.Fatalf("mean partitions add up to %v, machine has %d", sum, res.Procs)
	}
	if cfg.Delay && cfg.InitialDelay > 0 && delayed == 0 && mq.DelayMax > 0 {
		for _, r := range recs {
			if r.MQ.Queue == 4 {
				t.Fatalf("delay on, D_1 %v, class-4 jobs, none delayed", cfg.InitialDelay)
			}
		}
	}
}

// TestValidate rejects decreasing bounds.
func TestValidate(t *testing.T) {
	c := multiqueue.DefaultConfig()
	c.ClassBounds[1] = 50
	if _, err := multiqueue.New(c); err == nil {
		t.Fatal("bounds 100, 50, 10000 accepted")
	}
}
