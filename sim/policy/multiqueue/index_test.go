package multiqueue_test

import (
	"fmt"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/multiqueue"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestIndexAgainstPlain runs the pass with the wait index and with the
// plain look at every waiting job on long stretches of all four traces,
// with the users' estimates at loads 1.0 and 1.6 (queues of hundreds to
// thousands of jobs), without and with the delay of extra-long jobs, and
// with the self-check on: every job must start at the same time, with
// the same queue, delay and partition.
func TestIndexAgainstPlain(t *testing.T) {
	count := 12000
	if testing.Short() {
		count = 3000
	}
	delayed := multiqueue.DefaultConfig()
	delayed.Delay = true
	cfgs := map[string]multiqueue.Config{"default": multiqueue.DefaultConfig(), "delay": delayed}
	for _, name := range traceNames {
		load(t, name, workload.EstimateTrace, 0, 1) // reads the trace once
		tracesMu.Lock()
		tr := traces[name]
		tracesMu.Unlock()
		for _, lf := range []float64{1, 1.6} {
			wl, err := tr.Build(workload.Options{Estimates: workload.EstimateTrace, Count: count, Load: lf})
			if err != nil {
				t.Fatal(err)
			}
			for cname, cfg := range cfgs {
				t.Run(fmt.Sprintf("%s/load%g/%s", name, lf, cname), func(t *testing.T) {
					cfg.SelfCheck = true
					fast, plain := newPolicy(t, cfg), newPolicy(t, cfg)
					multiqueue.PlainPass(plain)
					a := run(t, wl, fast, sim.Options{})
					b := run(t, wl, plain, sim.Options{})
					if err := fast.Err(); err != nil {
						t.Fatal(err)
					}
					sameStarts(t, a, b, "index, plain")
					ra, rb := make([]metrics.Record, len(a.Tasks)), make([]metrics.Record, len(b.Tasks))
					fast.Annotate(ra, nil)
					plain.Annotate(rb, nil)
					for i := range ra {
						if ra[i].MQ != rb[i].MQ {
							t.Fatalf("job %d: %+v, plain pass %+v", a.Tasks[i].ID, ra[i].MQ, rb[i].MQ)
						}
					}
					if lf > 1.5 && a.MaxQueue < 100 {
						t.Errorf("longest queue %d: too short to test the index", a.MaxQueue)
					}
				})
			}
		}
	}
}
