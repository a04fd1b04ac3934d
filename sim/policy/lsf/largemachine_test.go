package lsf_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestLargeMachine runs every discipline on Parsons and Sevcik's workload
// on the paper's 128 processors in units of 8 and on 2^20 processors in
// units of 65,536 (the same 16 units, 8192 times wider), every job with
// a sequential fraction of 1 so that its run time does not depend on its
// width. The disciplines place jobs by units, so every job must start,
// end and be suspended as on the small machine, on 8192 times the
// processors, and the memory a run allocates must follow the jobs, not
// the machine: with a job count per processor (an int each, made at Init
// and counted processor by processor at every decision) every discipline
// allocated 8 MB more on 2^20 processors than on 128, and LSF-PREEMPT-AD
// took 151 s of CPU there on the default workload.
func TestLargeMachine(t *testing.T) {
	const scale = 8192
	gen := func(procs int) *workload.Workload {
		g := workload.NewParsons1997()
		g.Procs, g.Unit, g.MeanInterarrival, g.Seed = procs, procs/16, 450, 1
		g.GoodSeq, g.PoorSeq = 1, 1
		w, err := g.Generate()
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	small, large := gen(128), gen(128*scale)
	for _, d := range lsf.Disciplines() {
		t.Run(d.String(), func(t *testing.T) {
			run := func(w *workload.Workload) (*sim.Result, uint64) {
				p, err := lsf.New(lsf.DefaultConfig(d))
				if err != nil {
					t.Fatal(err)
				}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{CheckEvery: 200})
				if err != nil {
					t.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				return res, after.TotalAlloc - before.TotalAlloc
			}
			a, allocSmall := run(small)
			b, allocLarge := run(large)
			susp := 0
			for i := range a.Tasks {
				x, y := &a.Tasks[i], &b.Tasks[i]
				if x.ID != y.ID || x.FirstStart != y.FirstStart || x.End != y.End || y.Procs != x.Procs*scale || x.Suspensions != y.Suspensions {
					t.Fatalf("job %d: start %d end %d on %d processors (%d suspensions), on 2^20 processors start %d end %d on %d (%d)",
						x.ID, x.FirstStart, x.End, x.Procs, x.Suspensions, y.FirstStart, y.End, y.Procs, y.Suspensions)
				}
				susp += x.Suspensions
			}
			if (d == lsf.Preempt || d == lsf.PreemptAD) && susp == 0 {
				t.Fatal("no job was suspended: the counts were not exercised")
			}
			t.Logf("%s: %d jobs, allocated %.2f MB on 128 processors, %.2f MB on 2^20", d, len(a.Tasks), float64(allocSmall)/(1<<20), float64(allocLarge)/(1<<20))
			// The run's own records differ by the sets' representation
			// (bitsets of 128 processors, runs on 2^20); a tenth and
			// 1 MB allow for that, not for 8 bytes per processor.
			if limit := allocSmall + allocSmall/10 + 1<<20; allocLarge > limit {
				t.Errorf("the run allocated %.1f MB on 2^20 processors, %.1f MB on 128: want at most %.1f MB",
					float64(allocLarge)/(1<<20), float64(allocSmall)/(1<<20), float64(limit)/(1<<20))
			}
		})
	}
}
