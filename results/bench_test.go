package results_test

import (
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
)

// benchSpec is the quickstart's shape: 12 tasks of 5000 CTC jobs.
const benchSpec = `
name: bench
workloads:
  - trace: ctc
    count: 5000
    estimates: accurate
    load: [1.0, 1.1, 1.2, 1.3]
policies: [{name: fcfs}, {name: easy}, {name: conservative}]
categories: [ss16, ss4]
`

func BenchmarkTaskResult_Marshal(b *testing.B) { benchMarshal(b, MustRun(b, benchSpec).res[1]) }

func BenchmarkUnmarshal(b *testing.B) { benchUnmarshal(b, MustRun(b, benchSpec).res[1]) }

// benchMarshal marshals r and reports the size of the result.
func benchMarshal(b *testing.B, r *results.TaskResult) {
	b.ReportAllocs()
	var n int
	for b.Loop() {
		buf, err := r.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		n = len(buf)
	}
	b.ReportMetric(float64(n), "bytes/result")
}

// benchUnmarshal decodes the marshalled r.
func benchUnmarshal(b *testing.B, r *results.TaskResult) {
	buf, err := r.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := results.Unmarshal(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteOutputs writes the outputs of 12 tasks x 5000 jobs.
func BenchmarkWriteOutputs(b *testing.B) {
	r := MustRun(b, benchSpec)
	dir := filepath.Join(b.TempDir(), "out")
	b.ReportAllocs()
	for b.Loop() {
		if err := results.WriteOutputs(dir, r.spec, r.tasks, r.res, "bench", results.WithTables(report.Tables)); err != nil {
			b.Fatal(err)
		}
	}
}

// smallSpec is one task of 10 CTC jobs: a result whose cost is the
// format's fixed part (header, schema, compression frame), as in a sweep
// of many trivial tasks.
const smallSpec = `
name: small
workloads:
  - trace: ctc
    count: 10
    estimates: accurate
policies: [{name: fcfs}]
`

// BenchmarkTaskResult_MarshalSmall marshals a result of 10 jobs.
func BenchmarkTaskResult_MarshalSmall(b *testing.B) { benchMarshal(b, MustRun(b, smallSpec).res[0]) }

// BenchmarkUnmarshalSmall decodes a result of 10 jobs.
func BenchmarkUnmarshalSmall(b *testing.B) { benchUnmarshal(b, MustRun(b, smallSpec).res[0]) }

// storedSpec is four tasks over the whole CTC trace (about 77,000 jobs
// each): the shape of a load sweep's tasks, whose outputs are written from
// stored results.
const storedSpec = `
name: stored
workloads:
  - trace: ctc
    estimates: [accurate, trace]
policies: [{name: fcfs}, {name: easy}]
`

// BenchmarkStreamOutputs_Stored writes the outputs of storedSpec's tasks
// from their marshalled results, decoding each when the writer asks for
// it and handing it over ([results.OwnResults]), as the coordinator does
// from its store: without a memory limit, and
// under the coordinator's default soft limit of 170 MiB (`schedfarm
// coordinator --memory-limit`), which makes the garbage collector run more
// often. Besides ns/op it reports cpu-s/Mrow, the process's CPU time (user
// + system) per million job rows, and B/row, the bytes allocated per job
// row. Figures are taken with -cpu 1.
func BenchmarkStreamOutputs_Stored(b *testing.B) {
	r := MustRun(b, storedSpec)
	stored := make([][]byte, len(r.res))
	rows := 0
	for i, res := range r.res {
		buf, err := res.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		stored[i] = buf
		rows += len(res.Jobs)
	}
	r.res = nil
	get := func(i int) (*results.TaskResult, error) { return results.Unmarshal(stored[i]) }
	for _, bc := range []struct {
		name  string
		limit int64
	}{{"limit=off", math.MaxInt64}, {"limit=170MiB", 170 << 20}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "out")
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(bc.limit))
			runtime.GC()
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			cpu := rusage.CPU()
			b.ResetTimer()
			for b.Loop() {
				if err := results.StreamOutputs(dir, r.spec, r.tasks, get, "bench", results.OwnResults(), results.WithTables(report.Tables)); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			cpu = rusage.CPU() - cpu
			runtime.ReadMemStats(&ms1)
			n := float64(b.N) * float64(rows)
			b.ReportMetric(cpu.Seconds()/n*1e6, "cpu-s/Mrow")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/n, "B/row")
			b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)/float64(b.N), "gc/op")
			b.ReportMetric(float64(ms0.HeapAlloc)/(1<<20), "MiB-base")
		})
	}
}
