package lsf

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestPreempt_Reference runs lsf-preempt and lsf-preempt-ad on the queue
// index and with the plain routines (every job in the system collected
// and sorted at every decision) and compares the runs job for job and
// segment for segment: the four knowledge cases at the calibrated rate
// and 1.6 times it (where hundreds of jobs queue), the table3 workload
// with its horizon, and the other readings of the package doc.
func TestPreempt_Reference(t *testing.T) {
	tagged := 3000
	if testing.Short() {
		tagged = 800
	}
	type tweak struct {
		name string
		f    func(*Config)
	}
	tweaks := []tweak{{"defaults", func(*Config) {}}}
	for _, kd := range []bool{false, true} {
		for _, ks := range []bool{false, true} {
			if kd || ks {
				tweaks = append(tweaks, tweak{fmt.Sprintf("demand=%v,speedup=%v", kd, ks), func(c *Config) { c.KnowDemand, c.KnowSpeedup = kd, ks }})
			}
		}
	}
	tweaks = append(tweaks,
		tweak{"dispatch_delay=30", func(c *Config) { c.DispatchDelay = 30 }},
		tweak{"demand,speedup,dispatch_delay=30", func(c *Config) { c.KnowDemand, c.KnowSpeedup, c.DispatchDelay = true, true, 30 }},
		tweak{"in_order", func(c *Config) { c.Scan = ScanInOrder }},
		tweak{"demand,in_order", func(c *Config) { c.KnowDemand, c.Scan = true, ScanInOrder }},
		tweak{"one", func(c *Config) { c.Scan = ScanOne }},
		tweak{"demand,total", func(c *Config) { c.KnowDemand, c.PreemptDemand = true, DemandTotal }},
		tweak{"demand,clamped", func(c *Config) { c.KnowDemand, c.Estimate = true, EstimateClamped }},
		tweak{"demand,working_time", func(c *Config) { c.KnowDemand, c.Estimate = true, EstimateWorkingTime }},
		tweak{"demand,demand", func(c *Config) { c.KnowDemand, c.Estimate = true, EstimateDemand }},
		tweak{"decision_interval=5", func(c *Config) { c.DecisionInterval = 5 }},
		tweak{"max_jobs_per_proc=2", func(c *Config) { c.MaxJobsPerProc = 2 }},
		tweak{"min_run=0", func(c *Config) { c.MinRun = 0 }},
		tweak{"rtc_order", func(c *Config) { c.Fill = FillRTCOrder }},
		tweak{"demand,speedup,rtc_order", func(c *Config) { c.KnowDemand, c.KnowSpeedup, c.Fill = true, true, FillRTCOrder }},
		tweak{"demand,in_order,rtc_order", func(c *Config) { c.KnowDemand, c.Scan, c.Fill = true, ScanInOrder, FillRTCOrder }},
	)
	loads := []refLoad{
		{"calibrated", tagged, 1.0, 0, 1},
		{"calibrated/load1.6", tagged, 1.6, 0, 1},
		{"table3", workload.DefaultParsonsTagged, 1.0, workload.DefaultParsonsHorizon, 1997},
		{"table3/load1.6", workload.DefaultParsonsTagged, 1.6, workload.DefaultParsonsHorizon, 1997},
	}
	for _, l := range loads {
		wl := l.generate(t)
		for _, d := range []Discipline{Preempt, PreemptAD} {
			for _, tw := range tweaks {
				if l.name == "calibrated/load1.6" && testing.Short() && tw.name != "defaults" {
					continue
				}
				name := fmt.Sprintf("%s/%s/%s", l.name, d, tw.name)
				cfg := DefaultConfig(d)
				tw.f(&cfg)
				res := runFastAndPlain(t, name, cfg, wl)
				maxQueue := res[1].MaxQueue
				if err := sameRuns(res[0], res[1]); err != nil {
					t.Errorf("%s: index against plain: %v", name, err)
				}
				t.Logf("%s: %d jobs, largest queue %d", name, len(res[0].Tasks), maxQueue)
			}
		}
	}
}

// refLoad is a parsons1997 workload that the fast decisions are compared
// with the plain ones on.
type refLoad struct {
	name   string
	tagged int
	rate   float64
	horz   sim.Time
	seed   uint64
}

// generate draws l's workload at the calibrated mean gap of 300 s.
func (l refLoad) generate(t *testing.T) *workload.Workload {
	t.Helper()
	g := workload.NewParsons1997()
	g.MeanInterarrival, g.Load, g.Tagged, g.Horizon, g.Seed = 300, l.rate, l.tagged, l.horz, l.seed
	wl, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return wl
}

// runFastAndPlain runs cfg on wl with the fast decisions and with the
// plain ones (p.reference), keeping segments.
func runFastAndPlain(t *testing.T, name string, cfg Config, wl *workload.Workload) [2]*sim.Result {
	t.Helper()
	var res [2]*sim.Result
	for i := range res {
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p.reference = i == 1
		if res[i], err = sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return res
}

// sameRuns compares two runs job for job and segment for segment.
func sameRuns(a, b *sim.Result) error {
	if len(a.Tasks) != len(b.Tasks) || len(a.Segments) != len(b.Segments) {
		return fmt.Errorf("%d jobs, %d segments against %d, %d", len(a.Tasks), len(a.Segments), len(b.Tasks), len(b.Segments))
	}
	for i := range a.Tasks {
		x, y := &a.Tasks[i], &b.Tasks[i]
		if x.State != y.State || x.FirstStart != y.FirstStart || x.End != y.End || x.Procs != y.Procs ||
			x.Suspensions != y.Suspensions || x.SuspendedTime != y.SuspendedTime || x.Work != y.Work || x.Flex != y.Flex {
			return fmt.Errorf("job %d: start %d end %d procs %d suspensions %d flex %+v against start %d end %d procs %d suspensions %d flex %+v",
				x.ID, x.FirstStart, x.End, x.Procs, x.Suspensions, x.Flex, y.FirstStart, y.End, y.Procs, y.Suspensions, y.Flex)
		}
	}
	for i := range a.Segments {
		x, y := a.Segments[i], b.Segments[i]
		if x.Task != y.Task || x.Start != y.Start || x.End != y.End || x.Working != y.Working || !slices.Equal(setProcs(x.Set), setProcs(y.Set)) {
			return fmt.Errorf("segment %d: job %d [%d,%d) %v against job %d [%d,%d) %v",
				i, a.Tasks[x.Task].ID, x.Start, x.End, x.Set, b.Tasks[y.Task].ID, y.Start, y.End, y.Set)
		}
	}
	if a.End != b.End || a.MaxQueue != b.MaxQueue || a.Instants != b.Instants {
		return fmt.Errorf("end %d, largest queue %d, %d instants against %d, %d, %d", a.End, a.MaxQueue, a.Instants, b.End, b.MaxQueue, b.Instants)
	}
	return nil
}

// setProcs lists a set's processors.
func setProcs(s sim.ProcSet) []int {
	var out []int
	s.Each(func(i int) { out = append(out, i) })
	return out
}
