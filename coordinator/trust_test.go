package coordinator_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// TestCoordinator_Run_refusesOtherSimVersion runs a sweep on a worker
// whose first three results claim another simulator version (as from a
// worker that does not check): the coordinator refuses them, naming the
// worker, runs those tasks again, records only right results and ends
// with the clean run's outputs; a second run reuses every cached result.
func TestCoordinator_Run_refusesOtherSimVersion(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	want := cleanRun(t, spec)
	ns := MustStartServer(t)
	var bad atomic.Int32
	StartWorker(t, ns, worker.WithName("w-evil"), worker.WithExecute(func(ctx context.Context, task *sweep.Task, path string) (*results.TaskResult, error) {
		res, err := runner.Execute(ctx, task, path)
		if err == nil && bad.Add(1) <= 3 {
			res.SimVersion = "0.14.0-evil"
		}
		return res, err
	}))
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	var say bytes.Buffer
	rep, err := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out), coordinator.WithProgress(&say)).Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Refused != 3 {
		t.Errorf("refused %d results, want 3", rep.Refused)
	}
	if got := say.String(); strings.Count(got, "refused the result of task") != 3 || !strings.Contains(got, "from worker w-evil") || !strings.Contains(got, "simulator version 0.14.0-evil") {
		t.Errorf("the refusals are not reported with the worker and the version:\n%s", got)
	}
	sameOutputs(t, out, want)
	tasks, _ := spec.Tasks()
	for _, task := range tasks {
		p, err := st.Provenance(task.ID)
		if err != nil || p.SimVersion != task.SimVersion || p.Worker != "w-evil" || p.Build == "" {
			t.Errorf("task %d: provenance %+v, %v", task.Index, p, err)
		}
	}
	rep, err = coordinator.New(st, nil, coordinator.WithOutDir(out), coordinator.WithForce(false)).Run(context.Background(), spec)
	if err != nil || rep.Cached != len(tasks) {
		t.Fatalf("second run: %v, %d of %d cached", err, rep.Cached, len(tasks))
	}
}

// TestCoordinator_Run_cacheOfOtherSimVersion checks that cached results
// recorded for another (or no) simulator version are not reused.
func TestCoordinator_Run_cacheOfOtherSimVersion(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	for i, v := range []string{"0.14.0-evil", ""} {
		res, err := runner.Execute(context.Background(), &tasks[i], kthTrace(t))
		if err != nil {
			t.Fatal(err)
		}
		b, err := res.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RecordResult("old", tasks[i].ID, coordinator.TaskState{Index: i, SimVersion: v}, b); err != nil {
			t.Fatal(err)
		}
	}
	var say bytes.Buffer
	_, err = coordinator.New(st, nil, coordinator.WithOutDir(filepath.Join(dir, "out")), coordinator.WithProgress(&say)).Run(context.Background(), spec)
	if !errors.Is(err, coordinator.ErrNoConnection) {
		t.Fatalf("Run()=%v, want ErrNoConnection: the results of other versions must run again", err)
	}
	if got := say.String(); !strings.Contains(got, "2 cached results of another or an unknown simulator version are not reused") {
		t.Errorf("not said:\n%s", got)
	}
}
