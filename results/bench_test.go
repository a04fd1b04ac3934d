package results_test

import (
	"path/filepath"
	"testing"

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
		if err := results.WriteOutputs(dir, r.spec, r.tasks, r.res, "bench"); err != nil {
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
