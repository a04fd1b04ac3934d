// Package runnertest runs a sweep in the test's own process, without a
// farm: every task one after the other through runner.Execute, and the
// sweep's outputs written as the coordinator writes them. Only tests
// import it. It sits beside runner, above runner, results and sweep,
// so no import runs upward.
package runnertest

import (
	"context"
	"fmt"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
)

// SmallSpec is a small real sweep for tests of the outputs: 300 CTC jobs,
// three policies, one with a parameter grid, two category schemes.
const SmallSpec = `
name: results-test
description: a small real sweep for the results tests
workloads:
  - trace: ctc
    skip: 2000
    count: 300
    estimates: trace
    load: [1, 1.2]
policies:
  - name: fcfs
  - name: easy
  - name: ss
    params:
      suspension_factor: [2, 5]
      overhead: true
categories: [ss16, ss4]
`

// Run runs tasks of spec in order, each on the spec's file of its trace
// ("" for a synthetic workload), and returns their results.
func Run(ctx context.Context, spec *sweep.Spec, tasks []sweep.Task) ([]*results.TaskResult, error) {
	paths := map[string]string{}
	for _, tr := range spec.Traces() {
		paths[tr.SHA256] = tr.Path
	}
	res := make([]*results.TaskResult, len(tasks))
	for i := range tasks {
		r, err := runner.Execute(ctx, &tasks[i], paths[tasks[i].Workload.TraceSHA256])
		if err != nil {
			return nil, fmt.Errorf("task %d: %w", i, err)
		}
		res[i] = r
	}
	return res, nil
}

// Write parses the spec text (its relative paths from baseDir), runs
// every task with [Run] and writes the sweep's outputs into dir.
func Write(spec, baseDir, dir string) error {
	s, err := sweep.Parse([]byte(spec), baseDir)
	if err != nil {
		return err
	}
	tasks, err := s.Tasks()
	if err != nil {
		return err
	}
	res, err := Run(context.Background(), s, tasks)
	if err != nil {
		return err
	}
	return results.WriteOutputs(dir, s, tasks, res, "test", results.WithTables(report.Tables))
}
