package coordinator_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

func TestCoordinator_Run(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		spec := MustLoadSpec(t, dir, smallSpec)
		ns := MustStartServer(t)
		StartWorker(t, ns, worker.WithConcurrency(2))
		st := MustOpenStore(t, filepath.Join(dir, "state"))
		out := filepath.Join(dir, "out")
		var progress bytes.Buffer
		c := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out), coordinator.WithProgress(&progress))
		rep, err := c.Run(context.Background(), spec)
		if err != nil {
			t.Fatalf("Run()=%v\n%s", err, progress.String())
		}
		if rep.Total != 4 || rep.Ran != 4 || rep.Cached != 0 || len(rep.Failures) != 0 {
			t.Fatalf("Run() report=%+v, want 4 tasks run", rep)
		}
		jobs := readFile(t, filepath.Join(out, "jobs.parquet"))

		// Again: everything from the cache, same bytes.
		rep, err = c.Run(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Cached != 4 || rep.Ran != 0 {
			t.Fatalf("second Run() report=%+v, want 4 cached", rep)
		}
		if got := readFile(t, filepath.Join(out, "jobs.parquet")); !bytes.Equal(got, jobs) {
			t.Fatal("jobs.parquet from cache differs")
		}

		// Forced: everything again, same bytes.
		c = coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out), coordinator.WithForce(true))
		if rep, err = c.Run(context.Background(), spec); err != nil {
			t.Fatal(err)
		}
		if rep.Cached != 0 || rep.Ran != 4 {
			t.Fatalf("forced Run() report=%+v, want 4 run", rep)
		}
		if got := readFile(t, filepath.Join(out, "jobs.parquet")); !bytes.Equal(got, jobs) {
			t.Fatal("jobs.parquet of forced run differs")
		}
	})

	t.Run("ErrNoConnection", func(t *testing.T) {
		dir := t.TempDir()
		spec := MustLoadSpec(t, dir, smallSpec)
		st := MustOpenStore(t, filepath.Join(dir, "state"))
		_, err := coordinator.New(st, nil).Run(context.Background(), spec)
		if !errors.Is(err, coordinator.ErrNoConnection) {
			t.Fatalf("Run()=%v, want ErrNoConnection", err)
		}
	})
}

// cleanRun runs spec from scratch with its own state and returns the
// output directory.
func cleanRun(t *testing.T, spec *sweep.Spec) string {
	t.Helper()
	dir := t.TempDir()
	ns := MustStartServer(t)
	stop := StartWorker(t, ns, worker.WithConcurrency(2))
	defer stop()
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	if _, err := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out)).Run(context.Background(), spec); err != nil {
		t.Fatalf("clean run: %v", err)
	}
	return out
}

// sameOutputs fails unless the content outputs of two runs are equal byte
// for byte (tasks.parquet differs in its worker and wall time columns).
func sameOutputs(t *testing.T, got, want string) {
	t.Helper()
	for _, f := range []string{"jobs.parquet", "summary.parquet", "tables.md", "tables.csv"} {
		if !bytes.Equal(readFile(t, filepath.Join(got, f)), readFile(t, filepath.Join(want, f))) {
			t.Errorf("%s differs from the clean run's", f)
		}
	}
}

// runUntilPublished runs the coordinator until its tasks are all on the
// task stream, then stops it, as a crash right after publishing would.
func runUntilPublished(t *testing.T, c *coordinator.Coordinator, js jetstream.JetStream, spec *sweep.Spec, n uint64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := c.Run(ctx, spec); done <- err }()
	testkit.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() error { return streamHas(js, natsutil.TaskStream, n) })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted Run()=%v, want context.Canceled", err)
	}
}

// streamHas returns nil when the stream holds n messages.
func streamHas(js jetstream.JetStream, stream string, n uint64) error {
	s, err := js.Stream(context.Background(), stream)
	if err != nil {
		return err
	}
	info, err := s.Info(context.Background())
	if err != nil {
		return err
	}
	if info.State.Msgs != n {
		return fmt.Errorf("stream %s has %d messages, want %d", stream, info.State.Msgs, n)
	}
	return nil
}

func TestCoordinator_Run_resume(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	want := cleanRun(t, spec)

	ns := MustStartServer(t)
	nc := MustConnect(t, ns)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	c := coordinator.New(st, nc, coordinator.WithOutDir(out))
	runUntilPublished(t, c, js, spec, 4)

	// The workers finish all but task 3 while the coordinator is down.
	gate := make(chan struct{})
	StartWorker(t, ns, worker.WithExecute(func(ctx context.Context, task *sweep.Task, path string) (*results.TaskResult, error) {
		if task.Index == 3 {
			<-gate
		}
		return runner.Execute(ctx, task, path)
	}))
	testkit.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error { return streamHas(js, natsutil.ResultStream, 3) })

	// A result delivered twice (a redelivered task whose second result
	// escaped deduplication) must be ignored.
	s, err := js.Stream(context.Background(), natsutil.ResultStream)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := s.Info(context.Background())
	raw, err := s.GetMsg(context.Background(), info.State.FirstSeq)
	if err != nil {
		t.Fatal(err)
	}
	dup := nats.NewMsg(raw.Subject)
	dup.Header = raw.Header
	dup.Header.Set(jetstream.MsgIDHeader, "another-id")
	dup.Data = raw.Data
	if _, err := js.PublishMsg(context.Background(), dup); err != nil {
		t.Fatal(err)
	}
	close(gate)

	// The interrupted session began an hour ago: the resumed session's
	// duration must not count the hour the run was down.
	rec, err := st.Sweep(spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	rec.Started = rec.Started.Add(-time.Hour)
	if err := st.PutSweep(rec); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	c = coordinator.New(st, nc, coordinator.WithOutDir(out), coordinator.WithProgress(&progress))
	rep, err := c.Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Resumed || rep.Ran != 4 || rep.Duplicates != 1 {
		t.Fatalf("resumed Run() report=%+v, want resumed, 4 run, 1 duplicate", rep)
	}
	if !rep.Began.Equal(rec.Started) || rep.Elapsed >= time.Hour {
		t.Errorf("resumed Run() Began=%v Elapsed=%v, want Began=%v (the interrupted start) and the session's own time", rep.Began, rep.Elapsed, rec.Started)
	}
	m := regexp.MustCompile(`tasks done \(.*\) in (\S+) this session \(resumed; (\S+) since the run began at `).FindStringSubmatch(progress.String())
	if m == nil {
		t.Fatalf("resumed run's last line does not give the session's time and the time since the run began:\n%s", progress.String())
	}
	session, err1 := time.ParseDuration(m[1])
	since, err2 := time.ParseDuration(m[2])
	if err1 != nil || err2 != nil || session >= time.Hour || since < time.Hour {
		t.Errorf("resumed run took %q this session and %q since it began, want under an hour and at least an hour", m[1], m[2])
	}
	sameOutputs(t, out, want)
	if err := streamHas(js, natsutil.ResultStream, 0); err != nil {
		t.Error(err)
	}
}

func TestCoordinator_Run_largeResults(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	want := cleanRun(t, spec)

	ns := MustStartServer(t)
	nc := MustConnect(t, ns)
	// Every result goes through the results object store.
	StartWorker(t, ns, worker.WithInlineLimit(0))
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	if _, err := coordinator.New(st, nc, coordinator.WithOutDir(out)).Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, out, want)
	js, _ := jetstream.New(nc)
	obs, err := js.ObjectStore(context.Background(), natsutil.ResultBucket)
	if err != nil {
		t.Fatal(err)
	}
	if objs, err := obs.List(context.Background()); !errors.Is(err, jetstream.ErrNoObjectsFound) {
		t.Errorf("result objects left: %d (%v)", len(objs), err)
	}
}

// poisonSpec has two workloads; the test corrupts the second one's trace
// in the object store, so its two tasks fail on every worker.
const poisonSpec = `
name: poison
workloads:
  - trace: TRACE
    count: 200
    estimates: accurate
  - trace: TRACE
    count: 200
    skip: 1000
    estimates: accurate
    procs: 200
policies:
  - name: fcfs
  - name: easy
seed: 1
`

func TestCoordinator_Run_poison(t *testing.T) {
	dir := t.TempDir()
	// Two different trace files: a copy of KTH gives another sha256 only
	// if its bytes differ, so write the second as an uncompressed copy.
	spec := MustLoadSpec(t, dir, strings.Replace(poisonSpec, "TRACE", gunzipTo(t, kthTrace(t), filepath.Join(dir, "kth.swf")), 1))
	traces := spec.Traces()
	if len(traces) != 2 {
		t.Fatalf("spec uses %d traces, want 2", len(traces))
	}
	bad := traces[0]

	ns := MustStartServer(t)
	nc := MustConnect(t, ns)
	js, _ := jetstream.New(nc)
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	c := coordinator.New(st, nc, coordinator.WithOutDir(out))
	done := make(chan error, 1)
	go func() { _, err := c.Run(context.Background(), spec); done <- err }()
	testkit.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() error { return streamHas(js, natsutil.TaskStream, 4) })

	// Corrupt the uploaded trace: every worker now fetches bytes that do
	// not hash to the task's sha256.
	obs, err := js.ObjectStore(context.Background(), natsutil.TraceBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.PutBytes(context.Background(), bad.SHA256, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n")); err != nil {
		t.Fatal(err)
	}
	StartWorker(t, ns)

	var err2 error
	select {
	case err2 = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("sweep with poison tasks did not end")
	}
	var fe *coordinator.FailedError
	if !errors.As(err2, &fe) || !errors.Is(err2, coordinator.ErrTasksFailed) {
		t.Fatalf("Run()=%v, want a FailedError", err2)
	}
	if len(fe.Failures) != 2 || fe.Failures[0].Index != 0 || fe.Failures[1].Index != 1 {
		t.Fatalf("failures %+v, want tasks 0 and 1", fe.Failures)
	}
	if !strings.Contains(fe.Error(), "sha256 mismatch") {
		t.Errorf("error %q does not name the cause", fe.Error())
	}
	rows, err := results.ReadTasks(filepath.Join(out, "tasks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0].Error == "" || rows[1].Error == "" || rows[2].Error != "" || rows[3].Error != "" {
		t.Fatalf("tasks.parquet errors wrong: %+v", rows)
	}

	// The failure is retried by the next run: the trace is uploaded again
	// (its digest is wrong), so now it succeeds.
	rep, err := c.Run(context.Background(), spec)
	if err != nil {
		t.Fatalf("second Run()=%v", err)
	}
	if rep.Cached != 2 || rep.Ran != 2 {
		t.Fatalf("second Run() report=%+v, want 2 cached, 2 run", rep)
	}
}

func TestCoordinator_Run_purgesUnfinishedRun(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	ns := MustStartServer(t)
	nc := MustConnect(t, ns)
	js, _ := jetstream.New(nc)
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	out := filepath.Join(dir, "out")
	runUntilPublished(t, coordinator.New(st, nc, coordinator.WithOutDir(out)), js, spec, 4)
	old, err := st.Sweep(spec.Name)
	if err != nil {
		t.Fatal(err)
	}

	// A forced run starts anew: the unfinished run's tasks go away before
	// any worker takes them (the worker starts once the new run's tasks,
	// sequences 5 to 8, are the only ones left).
	done := make(chan error, 1)
	var rep *coordinator.Report
	go func() {
		var err error
		rep, err = coordinator.New(st, nc, coordinator.WithOutDir(out), coordinator.WithForce(true)).Run(context.Background(), spec)
		done <- err
	}()
	testkit.CheckFor(t, 10*time.Second, 10*time.Millisecond, func() error {
		s, err := js.Stream(context.Background(), natsutil.TaskStream)
		if err != nil {
			return err
		}
		info, err := s.Info(context.Background())
		if err != nil {
			return err
		}
		if info.State.Msgs != 4 || info.State.FirstSeq != 5 {
			return fmt.Errorf("task stream state %+v", info.State)
		}
		return nil
	})
	StartWorker(t, ns)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rep.Resumed || rep.RunID == old.RunID || rep.Ran != 4 || rep.Duplicates != 0 {
		t.Fatalf("forced Run() report=%+v, want a new run of 4 tasks", rep)
	}
	for _, s := range []string{natsutil.TaskStream, natsutil.ResultStream} {
		if err := streamHas(js, s, 0); err != nil {
			t.Error(err)
		}
	}
	if _, err := js.Consumer(context.Background(), natsutil.ResultStream, "schedfarm-results-"+old.RunID); !errors.Is(err, jetstream.ErrConsumerNotFound) {
		t.Errorf("results consumer of the old run: %v, want it deleted", err)
	}
	rec, _ := st.Sweep(spec.Name)
	if len(rec.Unpurged) != 0 || rec.Finished.IsZero() {
		t.Errorf("sweep record %+v, want finished with nothing to purge", rec)
	}
}

// TestCoordinator_Run_unreadableCache checks that a cached result in a
// format this version cannot read is run again.
func TestCoordinator_Run_unreadableCache(t *testing.T) {
	rerunDamaged(t, "the unreadable one", func(st *coordinator.Store, tasks []sweep.Task, state string) {
		if err := st.RecordResult("old", tasks[2].ID, coordinator.TaskState{Index: 2, SimVersion: tasks[2].SimVersion}, []byte("SFTR\x00not a result")); err != nil {
			t.Fatal(err)
		}
	})
}

// TestCoordinator_Run_damagedSpool checks that a cached result whose spool
// file is lost is run again, like a result that does not decode.
func TestCoordinator_Run_damagedSpool(t *testing.T) {
	rerunDamaged(t, "the damaged one", func(st *coordinator.Store, tasks []sweep.Task, state string) {
		// A large cached result, spooled, whose file is then lost.
		b, err := syntheticResult(tasks[2].ID, 2, 20000).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RecordResult("old", tasks[2].ID, coordinator.TaskState{Index: 2, SimVersion: tasks[2].SimVersion}, b); err != nil {
			t.Fatal(err)
		}
		fs, err := filepath.Glob(filepath.Join(state, "spool", "res-*"))
		if err != nil || len(fs) != 1 {
			t.Fatalf("spool files %v, %v; want one", fs, err)
		}
		if err := os.Remove(fs[0]); err != nil {
			t.Fatal(err)
		}
	})
}

// rerunDamaged runs smallSpec, lets damage spoil the cached result of task
// 2 in the store (state is the store's folder), runs it again and checks
// that only that task ran again (what names it in the message) and that
// jobs.parquet is the same.
func rerunDamaged(t *testing.T, what string, damage func(st *coordinator.Store, tasks []sweep.Task, state string)) {
	t.Helper()
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	ns := MustStartServer(t)
	StartWorker(t, ns)
	state := filepath.Join(dir, "state")
	st := MustOpenStore(t, state)
	out := filepath.Join(dir, "out")
	c := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out))
	if _, err := c.Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	jobs := readFile(t, filepath.Join(out, "jobs.parquet"))
	tasks, err := spec.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	damage(st, tasks, state)
	var progress bytes.Buffer
	c = coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(out), coordinator.WithProgress(&progress))
	rep, err := c.Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cached != 3 || rep.Ran != 1 {
		t.Fatalf("Run() report=%+v, want 3 cached and %s run again", rep, what)
	}
	// The damage is found before the run says what it reuses: the
	// first lines name the damaged result, then count 3 reused, 1 to
	// run, never 4 reused.
	lines := strings.Split(progress.String(), "\n")
	if len(lines) < 2 || !strings.Contains(lines[0], "1 cached results cannot be read (task 2:") ||
		!strings.Contains(lines[1], "4 tasks, 3 cached results reused, 1 to run") {
		t.Errorf("progress:\n%s\nwant the damaged result named first, then 3 reused and 1 to run", progress.String())
	}
	if strings.Contains(progress.String(), "4 cached results reused") {
		t.Errorf("progress:\n%s\nsays the damaged result is reused", progress.String())
	}
	if got := readFile(t, filepath.Join(out, "jobs.parquet")); !bytes.Equal(got, jobs) {
		t.Fatal("jobs.parquet differs")
	}
}
