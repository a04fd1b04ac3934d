package worker_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/worker"
)

// TestWorker_GzipBomb publishes a task whose trace is a gzip bomb (1.5 MB
// stored, more text than workload.DefaultMaxBytes): the worker fails it
// once with the limit's reason, without a redelivery, and goes on to run
// the next task.
func TestWorker_GzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 512 MiB")
	}
	e := newEnv(t)
	bomb := testkit.Bomb(t, int64(workload.DefaultMaxBytes>>20+1)<<20)
	sum := sha256.Sum256(bomb)
	sha := hex.EncodeToString(sum[:])
	obs, err := natsutil.TraceStore(context.Background(), e.js)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.Put(context.Background(), jetstream.ObjectMeta{Name: sha,
		Metadata: map[string]string{natsutil.TraceFilenameKey: "bomb.swf.gz"}}, bytes.NewReader(bomb)); err != nil {
		t.Fatal(err)
	}
	task := e.task.Clone()
	task.ID, task.Index = "bomb", 1
	task.Workload.Trace, task.Workload.TraceSHA256 = "bomb", sha

	e.start(t, worker.WithMaxAttempts(5))
	e.publish(t, task)
	res, _ := e.result(t, 60*time.Second)
	if res.TaskID != "bomb" || !strings.Contains(res.Err, "input too large") {
		t.Fatalf("result of %s: %q, want the bomb task failed with input too large", res.TaskID, res.Err)
	}
	if info := e.consumer(t); info.NumRedelivered != 0 {
		t.Errorf("the bomb task was redelivered %d times, want it failed once", info.NumRedelivered)
	}
	e.publish(t, e.task)
	if res, _ := e.result(t, 20*time.Second); res.TaskID != e.task.ID || res.Err != "" {
		t.Fatalf("next task %s: %q, want it done by the same worker", res.TaskID, res.Err)
	}
}

// TestWorker_LogsOneLinePerTask: at the info level (the worker command's
// default) a finished task gives one line naming the task, its policy and
// its duration.
func TestWorker_LogsOneLinePerTask(t *testing.T) {
	e := newEnv(t)
	var buf testkit.SyncBuffer
	e.start(t, worker.WithLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	e.publish(t, e.task)
	if res, _ := e.result(t, 20*time.Second); res.Err != "" {
		t.Fatal(res.Err)
	}
	testkit.CheckFor(t, 5*time.Second, 10*time.Millisecond, func() error {
		var done []string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, `msg="task done"`) {
				done = append(done, l)
			}
		}
		if len(done) != 1 || !strings.Contains(done[0], "task="+e.task.ID) || !strings.Contains(done[0], "policy=easy") || !strings.Contains(done[0], "wall=") {
			return fmt.Errorf("task lines %q, want one with task, policy and wall", done)
		}
		return nil
	})
}
