package report_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sweep"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureSpec is a small real sweep: three backfilling settings on the
// first 300 CTC jobs (machine of 430 processors, user estimates) at two
// load factors. The backfilling policies are settled, so the golden
// tables do not move when preemptive policies are tuned. est2 gives both
// well and badly estimated jobs.
const fixtureSpec = `
name: report-fixture
description: three backfilling settings on 300 CTC jobs at two load factors
workloads:
  - trace: ctc
    count: 300
    procs: 430
    estimates: trace
    load: [1, 1.5]
policies:
  - name: easy
    label: NS
  - name: fcfs
    label: FCFS
  - name: conservative
    label: CONS
categories: [ss16, ss4, est2]
outputs:
  tables: {metric: bsd_mean, scheme: ss16}
`

// failedTask is the task of the fixture that is made to fail: CONS at
// load 1.5.
const failedTask = 5

// fixtureDir is the fixture sweep's output directory, written once by
// TestMain.
var fixtureDir string

func TestMain(m *testing.M) {
	flag.Parse()
	tmp, err := os.MkdirTemp("", "report-fixture-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtureDir = filepath.Join(tmp, "out")
	if err := writeFixture(fixtureDir); err != nil {
		fmt.Fprintln(os.Stderr, "fixture:", err)
		os.RemoveAll(tmp)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// writeFixture runs the fixture sweep in this process and writes its
// outputs into dir, with task failedTask replaced by a failure.
func writeFixture(dir string) error {
	spec, err := sweep.Parse([]byte(fixtureSpec), "testdata")
	if err != nil {
		return err
	}
	tasks, err := spec.Tasks()
	if err != nil {
		return err
	}
	res, err := runnertest.Run(context.Background(), spec, tasks)
	if err != nil {
		return err
	}
	for i, r := range res {
		if i == failedTask {
			r = &results.TaskResult{TaskID: r.TaskID, Index: i, Err: "simulate: invented failure\nwith a second line"}
			res[i] = r
		}
		r.Worker = "test"
	}
	return results.WriteOutputs(dir, spec, tasks, res, "test", results.WithTables(report.Tables))
}

// checkGolden compares got with testdata/<path>, or rewrites it with
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", path), got, *update)
}
