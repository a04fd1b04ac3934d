package results_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sweep"
)

// realSpec is a small real sweep: 300 CTC jobs, three policies, one with a
// parameter grid, two category schemes.
const realSpec = runnertest.SmallSpec

// run is a parsed spec with its tasks and their results.
type run struct {
	spec  *sweep.Spec
	tasks []sweep.Task
	res   []*results.TaskResult
}

// MustParse parses spec with traces resolved from this directory up.
func MustParse(tb testing.TB, spec string) (*sweep.Spec, []sweep.Task) {
	tb.Helper()
	s, err := sweep.Parse([]byte(spec), "testdata")
	if err != nil {
		tb.Fatalf("Parse: %v", err)
	}
	ts, err := s.Tasks()
	if err != nil {
		tb.Fatal(err)
	}
	return s, ts
}

// MustRun runs every task of spec in this process; worker names and wall
// times are set as a farm would set them.
func MustRun(tb testing.TB, spec string) *run {
	tb.Helper()
	s, ts := MustParse(tb, spec)
	res, err := runnertest.Run(context.Background(), s, ts)
	if err != nil {
		tb.Fatal(err)
	}
	for i, r := range res {
		r.Worker = fmt.Sprintf("worker-%d", i%2)
	}
	return &run{spec: s, tasks: ts, res: res}
}

// withWorkers returns copies of res as if run by other workers, slower.
func withWorkers(res []*results.TaskResult, worker string) []*results.TaskResult {
	out := make([]*results.TaskResult, len(res))
	for i, r := range res {
		c := *r
		c.Worker = worker
		c.WallTime = r.WallTime*3 + time.Millisecond
		out[i] = &c
	}
	return out
}
