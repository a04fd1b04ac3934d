package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

// env is an embedded server with the farm's streams, one task of 200 KTH
// jobs whose trace is uploaded, and a results consumer for the test.
type env struct {
	ns      *server.Server
	nc      *nats.Conn
	js      jetstream.JetStream
	task    sweep.Task
	results jetstream.Consumer
}

const run = "testrun"

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvAt(t, filepath.Join(t.TempDir(), "nats"), true)
}

// newEnvAt is newEnv with the server's store in store; the trace is
// uploaded only when upload is set (a restart over a store that has it).
func newEnvAt(t *testing.T, store string, upload bool) *env {
	t.Helper()
	ns, err := natsutil.StartServer(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	nc, err := natsutil.ConnectInProcess(ns, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := natsutil.Setup(ctx, js); err != nil {
		t.Fatal(err)
	}
	trace, err := filepath.Abs(filepath.Join("..", "traces", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sweep.Parse([]byte("name: w\nworkloads:\n  - trace: "+trace+"\n    count: 200\npolicies:\n  - name: easy\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tasks, _ := spec.Tasks()
	if upload {
		obs, err := natsutil.TraceStore(ctx, js)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(trace)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: tasks[0].Workload.TraceSHA256,
			Metadata: map[string]string{natsutil.TraceFilenameKey: filepath.Base(trace)}}, f); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, natsutil.ResultStream, jetstream.ConsumerConfig{
		Durable: "test", AckPolicy: jetstream.AckExplicitPolicy, FilterSubject: natsutil.ResultSubject(run)})
	if err != nil {
		t.Fatal(err)
	}
	return &env{ns: ns, nc: nc, js: js, task: tasks[0], results: cons}
}

// publish puts a task on the task stream the way the coordinator does.
func (e *env) publish(t *testing.T, task sweep.Task) {
	t.Helper()
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	msg := nats.NewMsg(natsutil.TaskSubject(run))
	msg.Header.Set(natsutil.HeaderRun, run)
	msg.Header.Set(natsutil.HeaderTask, task.ID)
	msg.Data = b
	if _, err := e.js.PublishMsg(context.Background(), msg, jetstream.WithMsgID(natsutil.MsgID(run, task.ID))); err != nil {
		t.Fatal(err)
	}
}

// start runs a worker until the returned stop function is called.
func (e *env) start(t *testing.T, opts ...worker.Option) (stop func()) {
	t.Helper()
	nc, err := natsutil.ConnectInProcess(e.ns, "worker")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	opts = append([]worker.Option{worker.WithCacheDir(filepath.Join(t.TempDir(), "cache")), worker.WithAckWait(time.Second),
		worker.WithFetchWait(100 * time.Millisecond)}, opts...)
	w, err := worker.New(nc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var stopped bool
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run()=%v", err)
			}
		}
	}
	t.Cleanup(stop)
	return stop
}

// result waits for the next result message and acks it.
func (e *env) result(t *testing.T, timeout time.Duration) (*results.TaskResult, jetstream.Msg) {
	t.Helper()
	msg, err := e.results.Next(jetstream.FetchMaxWait(timeout))
	if err != nil {
		t.Fatalf("no result within %v: %v", timeout, err)
	}
	msg.Ack()
	data := msg.Data()
	if obj := msg.Headers().Get(natsutil.HeaderResultObject); obj != "" {
		obs, _ := natsutil.ResultStore(context.Background(), e.js)
		if data, err = obs.GetBytes(context.Background(), obj); err != nil {
			t.Fatal(err)
		}
	}
	res, err := results.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return res, msg
}

// consumer returns the workers' consumer info.
func (e *env) consumer(t *testing.T) *jetstream.ConsumerInfo {
	t.Helper()
	c, err := e.js.Consumer(context.Background(), natsutil.TaskStream, natsutil.WorkerConsumer)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func TestWorker_Run(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		e := newEnv(t)
		e.start(t, worker.WithName("w1"))
		e.publish(t, e.task)
		res, msg := e.result(t, 10*time.Second)
		if res.TaskID != e.task.ID || res.Err != "" || res.Worker != "w1" || len(res.Jobs) != 200 {
			t.Fatalf("result %s/%q/%s with %d jobs, want task %s ok from w1 with 200 jobs", res.TaskID, res.Err, res.Worker, len(res.Jobs), e.task.ID)
		}
		if got := msg.Headers().Get(jetstream.MsgIDHeader); got != natsutil.MsgID(run, e.task.ID) {
			t.Errorf("result Nats-Msg-Id=%q, want %q", got, natsutil.MsgID(run, e.task.ID))
		}
		testkit.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
			if info := e.consumer(t); info.NumAckPending+int(info.NumPending) != 0 {
				return fmt.Errorf("task not acked: %d pending, %d ack pending", info.NumPending, info.NumAckPending)
			}
			return nil
		})
	})

	t.Run("LargeResult", func(t *testing.T) {
		e := newEnv(t)
		e.start(t, worker.WithInlineLimit(10))
		e.publish(t, e.task)
		res, msg := e.result(t, 10*time.Second)
		if msg.Headers().Get(natsutil.HeaderResultObject) == "" || len(msg.Data()) != 0 {
			t.Fatal("large result sent inline")
		}
		if len(res.Jobs) != 200 {
			t.Fatalf("result has %d jobs, want 200", len(res.Jobs))
		}
	})

	t.Run("ErrDeterministic", func(t *testing.T) {
		e := newEnv(t)
		e.start(t)
		task := e.task.Clone()
		task.Policy = "no-such-policy"
		e.publish(t, task)
		res, msg := e.result(t, 10*time.Second)
		if !strings.Contains(res.Err, "no-such-policy") || msg.Headers().Get(natsutil.HeaderFailed) != "true" {
			t.Fatalf("result error %q, want the unknown policy named", res.Err)
		}
		// Terminated, not redelivered.
		testkit.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
			if info := e.consumer(t); info.NumAckPending+int(info.NumPending) != 0 || info.NumRedelivered != 0 {
				return fmt.Errorf("task still pending or redelivered: %+v", info)
			}
			return nil
		})
	})

	t.Run("BadMessage", func(t *testing.T) {
		// A body that does not decode gets an error result when its
		// headers say whose it is; without them it is only terminated.
		// Neither is redelivered.
		e := newEnv(t)
		e.start(t)
		for _, headers := range []bool{false, true} {
			msg := nats.NewMsg(natsutil.TaskSubject(run))
			if headers {
				msg.Header.Set(natsutil.HeaderRun, run)
				msg.Header.Set(natsutil.HeaderTask, e.task.ID)
			}
			msg.Data = []byte("{not json")
			if _, err := e.js.PublishMsg(context.Background(), msg); err != nil {
				t.Fatal(err)
			}
		}
		res, msg := e.result(t, 10*time.Second)
		if res.TaskID != e.task.ID || !strings.Contains(res.Err, "decode task:") || msg.Headers().Get(natsutil.HeaderFailed) != "true" {
			t.Fatalf("result for task %.12s with error %q, want the decode error for %.12s", res.TaskID, res.Err, e.task.ID)
		}
		testkit.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
			if info := e.consumer(t); info.NumAckPending+int(info.NumPending) != 0 || info.NumRedelivered != 0 {
				return fmt.Errorf("task messages still pending or redelivered: %+v", info)
			}
			return nil
		})
		if m, err := e.results.Next(jetstream.FetchMaxWait(200 * time.Millisecond)); err == nil {
			t.Fatalf("a second result %q, want none for the message without headers", m.Data())
		}
	})

	t.Run("MessageWithoutPoint", func(t *testing.T) {
		// A body with the task's ID but none of its point's fields
		// (workload, policy, ...) gets an error result that says so, not
		// a panic on the missing point.
		e := newEnv(t)
		e.start(t)
		msg := nats.NewMsg(natsutil.TaskSubject(run))
		msg.Header.Set(natsutil.HeaderRun, run)
		msg.Header.Set(natsutil.HeaderTask, e.task.ID)
		msg.Data = []byte(`{"id":"` + e.task.ID + `","index":0}`)
		if _, err := e.js.PublishMsg(context.Background(), msg); err != nil {
			t.Fatal(err)
		}
		res, got := e.result(t, 10*time.Second)
		if res.TaskID != e.task.ID || !strings.Contains(res.Err, "without its workload and policy") || got.Headers().Get(natsutil.HeaderFailed) != "true" {
			t.Fatalf("result for task %.12s with error %q, want the missing point named for %.12s", res.TaskID, res.Err, e.task.ID)
		}
	})

	t.Run("ErrMaxAttempts", func(t *testing.T) {
		e := newEnv(t)
		e.start(t, worker.WithMaxAttempts(2), worker.WithExecute(func(context.Context, *sweep.Task, string) (*results.TaskResult, error) {
			return nil, errors.New("flaky machine")
		}))
		e.publish(t, e.task)
		res, _ := e.result(t, 20*time.Second)
		if !strings.Contains(res.Err, "attempt 2 of 2") || !strings.Contains(res.Err, "flaky machine") {
			t.Fatalf("result error %q, want the last attempt's cause", res.Err)
		}
	})

	t.Run("ErrTraceMissing", func(t *testing.T) {
		// The coordinator uploads a trace before it publishes its tasks:
		// a trace not in the object store was lost by the server's
		// store, which retrying does not mend. The sweep stops (an
		// environment error) and its next run uploads the trace.
		e := newEnv(t)
		e.start(t)
		task := e.task.Clone()
		task.Workload.TraceSHA256 = strings.Repeat("0", 64)
		e.publish(t, task)
		res, msg := e.result(t, 20*time.Second)
		if msg.Headers().Get(natsutil.HeaderEnvironment) != "true" || !strings.Contains(res.Err, "is not in bucket") ||
			!strings.Contains(res.Err, "run the sweep again") {
			t.Fatalf("result error %q (headers %v), want an environment error saying the trace is missing and what to do", res.Err, msg.Headers())
		}
	})

	t.Run("ErrCrashedEveryTime", func(t *testing.T) {
		// A worker that takes the task and dies without a word (the test
		// fetches it and never acks) uses up the only attempt; the next
		// delivery reports the failure.
		e := newEnv(t)
		nc, _ := natsutil.ConnectInProcess(e.ns, "crashing")
		defer nc.Close()
		js, _ := jetstream.New(nc)
		cons, err := js.CreateOrUpdateConsumer(context.Background(), natsutil.TaskStream, worker.ConsumerConfig(time.Second, 1))
		if err != nil {
			t.Fatal(err)
		}
		e.publish(t, e.task)
		if _, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second)); err != nil {
			t.Fatal(err)
		}
		e.start(t, worker.WithMaxAttempts(1))
		res, _ := e.result(t, 20*time.Second)
		if !strings.Contains(res.Err, "delivered 1 times without a result") {
			t.Fatalf("result error %q, want the delivery count", res.Err)
		}
	})

	t.Run("DrainTimeout", func(t *testing.T) {
		// A stopping worker gives back a task that outlives the drain
		// timeout, at once (no wait for AckWait).
		e := newEnv(t)
		started := make(chan struct{})
		stop := e.start(t, worker.WithDrainTimeout(0), worker.WithAckWait(time.Minute), worker.WithExecute(
			func(ctx context.Context, _ *sweep.Task, _ string) (*results.TaskResult, error) {
				close(started)
				<-ctx.Done()
				return nil, ctx.Err()
			}))
		e.publish(t, e.task)
		<-started
		stop()
		// AckWait is a minute: only a Nak explains a quick redelivery.
		e.start(t, worker.WithAckWait(time.Minute))
		if res, _ := e.result(t, 10*time.Second); res.Err != "" {
			t.Fatalf("result error %q", res.Err)
		}
	})

	t.Run("StopIdle", func(t *testing.T) {
		// A stopped worker leaves no pull request behind that would take
		// the next task and sit on it until AckWait.
		e := newEnv(t)
		stop := e.start(t, worker.WithConcurrency(4))
		testkit.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
			c, err := e.js.Consumer(context.Background(), natsutil.TaskStream, natsutil.WorkerConsumer)
			if err != nil {
				return err
			}
			if info, err := c.Info(context.Background()); err != nil || info.NumWaiting != 4 {
				return fmt.Errorf("pull requests waiting: %v, want 4", err)
			}
			return nil
		})
		stop()
		e.publish(t, e.task)
		e.start(t, worker.WithAckWait(time.Minute))
		if res, _ := e.result(t, 10*time.Second); res.Err != "" {
			t.Fatalf("result error %q", res.Err)
		}
	})

	t.Run("Drain", func(t *testing.T) {
		// A stopping worker finishes a running task within the drain
		// timeout and publishes its result.
		e := newEnv(t)
		started, release := make(chan struct{}), make(chan struct{})
		stop := e.start(t, worker.WithDrainTimeout(time.Minute), worker.WithExecute(
			func(ctx context.Context, task *sweep.Task, path string) (*results.TaskResult, error) {
				close(started)
				<-release
				return runner.Execute(ctx, task, path)
			}))
		e.publish(t, e.task)
		<-started
		stopped := make(chan struct{})
		go func() { stop(); close(stopped) }()
		time.Sleep(50 * time.Millisecond)
		close(release)
		<-stopped
		if res, _ := e.result(t, 5*time.Second); res.Err != "" {
			t.Fatalf("result error %q", res.Err)
		}
	})

	t.Run("Panic", func(t *testing.T) {
		e := newEnv(t)
		e.start(t, worker.WithExecute(func(context.Context, *sweep.Task, string) (*results.TaskResult, error) {
			panic("boom")
		}))
		e.publish(t, e.task)
		if res, _ := e.result(t, 10*time.Second); !strings.Contains(res.Err, "boom") {
			t.Fatalf("result error %q, want the panic", res.Err)
		}
	})
}

func TestNew_ErrInvalidOption(t *testing.T) {
	e := newEnv(t)
	for name, opt := range map[string]worker.Option{
		"concurrency": worker.WithConcurrency(0),
		"ack wait":    worker.WithAckWait(time.Millisecond),
		"attempts":    worker.WithMaxAttempts(0),
		"drain":       worker.WithDrainTimeout(-time.Second),
		"inline":      worker.WithInlineLimit(-1),
		"fetch wait":  worker.WithFetchWait(0),
	} {
		if _, err := worker.New(e.nc, opt); !errors.Is(err, worker.ErrInvalidOption) {
			t.Errorf("New(%s)=%v, want ErrInvalidOption", name, err)
		}
	}
}
