package sim_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/traces"
)

// shippedJobs returns the first n jobs of a shipped trace and its machine
// size.
func shippedJobs(tb testing.TB, file string, n int) ([]sim.Job, int) {
	tb.Helper()
	f, err := traces.FS.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	tr, err := workload.Parse(f, file, 0)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := tr.Build(workload.Options{Count: n})
	if err != nil {
		tb.Fatal(err)
	}
	return w.Jobs, w.Procs
}

// TestLargeMachine runs EASY and conservative backfilling with 20,000 jobs
// on a machine of 2^20 processors with SDSC SP2 jobs whose
// widths are multiplied by 8192 (the trace's 128-processor machine times 8192 is 2^20). Neither
// policy looks at processor identities, so every job must start when it
// does on the trace's own machine. The engine checks its processor
// bookkeeping every 500 instants, and the memory the run allocates must
// follow the jobs, not the machine: with a bitset per job (128 KB each at
// 2^20 processors) the run allocated 2.5 GB for 20,000 jobs. Conservative's
// compaction keeps a memo per processor count (32 MB at 2^20 processors,
// once per run), which the limit allows for.
func TestLargeMachine(t *testing.T) {
	const scale = 8192
	jobs, procs := shippedJobs(t, "SDSC-SP2-1998-4.2-cln.swf.gz", 20000)
	if procs*scale != 1<<20 {
		t.Fatalf("SDSC SP2 has %d processors, want %d", procs, (1<<20)/scale)
	}
	wide := make([]sim.Job, len(jobs))
	for i, j := range jobs {
		j.Procs *= scale
		wide[i] = j
	}
	for _, c := range []struct {
		name  string
		jobs  int
		fixed uint64
	}{{"easy", 20000, 0}, {"conservative", 20000, 64 << 20}} {
		name, jobs, wide := c.name, jobs[:c.jobs], wide[:c.jobs]
		t.Run(name, func(t *testing.T) {
			newPolicy := func() sim.Policy {
				if name == "easy" {
					return backfill.NewEASY()
				}
				return backfill.NewConservative()
			}
			small, err := sim.Run(context.Background(), procs, jobs, newPolicy(), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			large, err := sim.Run(context.Background(), 1<<20, wide, newPolicy(), sim.Options{CheckEvery: 500})
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			for i := range small.Tasks {
				a, b := &small.Tasks[i], &large.Tasks[i]
				if a.ID != b.ID || a.FirstStart != b.FirstStart || a.End != b.End || b.Procs != a.Procs*scale {
					t.Fatalf("job %d: start %d end %d on %d processors, on 2^20 processors start %d end %d on %d",
						a.ID, a.FirstStart, a.End, a.Procs, b.FirstStart, b.End, b.Procs)
				}
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s on 2^20 processors: %d jobs, %d instants, %.1f MB allocated", name, len(large.Tasks), large.Instants, float64(alloc)/(1<<20))
			// Generous: the jobs' records and the policy's state, a few
			// KB per job.
			if limit := uint64(len(jobs))*8<<10 + c.fixed; alloc > limit {
				t.Errorf("the run allocated %d MB, want at most %d MB", alloc>>20, limit>>20)
			}
			runtime.KeepAlive(large)
		})
	}
}

// BenchmarkLargeMachine runs EASY and conservative backfilling on a machine of 1,048,576 processors
// with 100,000 jobs: the CTC SP2 trace's jobs (77,205) followed by its
// first ones again, shifted by the trace's span, with every width scaled
// from the trace's 338 processors to the machine (rounded down, at least 1).
// It reports the memory the run allocates (MB/op) and the live heap at
// its end (heap-MB).
func BenchmarkLargeMachine(b *testing.B) {
	const procs, n = 1 << 20, 100000
	src, size := shippedJobs(b, "CTC-SP2-1996-3.1-cln.swf.gz", 0)
	span := src[len(src)-1].Submit + 1
	jobs := make([]sim.Job, 0, n)
	for k := 0; len(jobs) < n; k++ {
		for _, j := range src[:min(len(src), n-len(jobs))] {
			j.ID += int64(k) * 1_000_000
			j.Origin = 0
			j.Submit += sim.Time(k) * span
			j.Procs = max(1, int(int64(j.Procs)*procs/int64(size)))
			jobs = append(jobs, j)
		}
	}
	for _, name := range []string{"easy", "conservative"} {
		b.Run(name, func(b *testing.B) {
			var alloc, heap uint64
			for range b.N {
				var p sim.Policy = backfill.NewEASY()
				if name == "conservative" {
					p = backfill.NewConservative()
				}
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{})
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				alloc += after.TotalAlloc - before.TotalAlloc
				heap = max(heap, after.HeapAlloc)
				if len(res.Tasks) != n {
					b.Fatalf("%d jobs, want %d", len(res.Tasks), n)
				}
			}
			b.ReportMetric(float64(alloc)/float64(b.N)/(1<<20), "MB/op")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}
