package backfill_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// traceNames are the four shipped traces the comparisons run on, in order.
var traceNames = []string{"ctc", "sdsc", "kth", "sdsc-par"}

var traceFiles = map[string]string{
	"ctc": "CTC-SP2-1996-3.1-cln.swf.gz", "sdsc": "SDSC-SP2-1998-4.2-cln.swf.gz",
	"kth": "KTH-SP2-1996-2.1-cln.swf.gz", "sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
}

// readTrace reads the shipped trace called name (one of traceNames).
func readTrace(t *testing.T, name string) *workload.Trace {
	t.Helper()
	tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", traceFiles[name]), 0)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// sameStarts runs fast and other on wl and fails at the first job whose
// first start differs; what names other in the message. It returns fast's
// result.
func sameStarts(t *testing.T, wl *workload.Workload, fast, other sim.Policy, what string) *sim.Result {
	t.Helper()
	a, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, fast, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, other, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Tasks {
		if a.Tasks[i].FirstStart != b.Tasks[i].FirstStart {
			t.Fatalf("job %d starts at %d, %s at %d", a.Tasks[i].ID, a.Tasks[i].FirstStart, what, b.Tasks[i].FirstStart)
		}
	}
	return a
}
