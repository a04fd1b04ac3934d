package coordinator

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sweep"
)

// Defaults of the coordinator's watch over a running sweep.
const (
	// DefaultWatchInterval is how often a waiting coordinator checks the
	// farm's streams and the workers' activity.
	DefaultWatchInterval = 5 * time.Second
	// DefaultIdleWarning is how long without a task taken or finished
	// before the coordinator says that no worker is taking tasks.
	DefaultIdleWarning = 60 * time.Second
)

// errFarmLost is returned while receiving results when the task or result
// stream is gone or was recreated (a NATS server restarted with an empty
// store): the run publishes its unfinished tasks again.
var errFarmLost = errors.New("the farm's streams were lost")

// watch is what a run knows to notice a wiped server and idle workers.
type watch struct {
	every, idle time.Duration
	created     map[string]time.Time // stream -> creation time when last seen
	activity    atomic.Int64         // unix nanos of the last task start or result
	finished    int                  // tasks finished at the last tick
	warnedAt    time.Time
}

func newWatch(every, idle time.Duration) *watch {
	w := &watch{every: every, idle: idle, created: map[string]time.Time{}}
	w.touch()
	return w
}

// touch records activity (a task started or finished) now.
func (w *watch) touch() { w.activity.Store(time.Now().UnixNano()) }

// remember records the creation times of the farm's streams.
func (r *run) rememberStreams(ctx context.Context) error {
	for _, name := range []string{natsutil.TaskStream, natsutil.ResultStream} {
		s, err := r.js.Stream(ctx, name)
		if err != nil {
			return fmt.Errorf("open stream %s: %w", name, err)
		}
		r.w.created[name] = s.CachedInfo().Created
	}
	return nil
}

// tick runs at least every watch interval while results are awaited. It
// says when no worker has taken or finished a task for the idle time, and
// returns an error wrapping errFarmLost when a stream is missing or was
// recreated since it was last seen.
func (r *run) tick(ctx context.Context) error {
	w := r.w
	if n := r.states.len(); n != w.finished {
		w.finished = n
		w.touch()
	}
	idle := time.Since(time.Unix(0, w.activity.Load()))
	var onServer *serverCounts
	if idle >= 2*w.every && len(r.batch) == 0 {
		// Every unfinished task is either on the task stream (waiting or
		// running: a worker acks it only after publishing its result) or
		// has its result on the result stream, until it is recorded. A
		// task in neither was lost: publish it again rather than wait
		// forever.
		if c, err := r.countOnServer(ctx); err == nil {
			onServer = &c
			if c.tasks == 0 && c.results == 0 {
				if err := r.republishLost(ctx); err != nil {
					return err
				}
				return nil
			}
		}
	}
	if idle >= w.idle && time.Since(w.warnedAt) >= w.idle {
		w.warnedAt = time.Now()
		left := len(r.tasks) - r.states.len()
		where := ""
		if onServer != nil {
			where = fmt.Sprintf("; %d task messages of this run on stream %s, %d results on stream %s",
				onServer.tasks, natsutil.TaskStream, onServer.results, natsutil.ResultStream)
		}
		r.c.say("sweep %s: no workers have taken a task for %v (%d of %d tasks left, %d verifications awaited%s); are workers running against this NATS server?",
			r.spec.Name, idle.Round(time.Second), left, len(r.tasks), len(r.verifying), where)
		r.c.log.Warn("no workers have taken a task", "for", idle.Round(time.Second), "left", left)
	}
	for name, created := range w.created {
		s, err := r.js.Stream(ctx, name)
		switch {
		case errors.Is(err, jetstream.ErrStreamNotFound):
			return fmt.Errorf("%w: stream %s is missing", errFarmLost, name)
		case err != nil:
			return nil // the server may be away; the connection retries
		case !s.CachedInfo().Created.Equal(created):
			return fmt.Errorf("%w: stream %s was recreated", errFarmLost, name)
		}
	}
	return nil
}

// recover recreates the farm's streams and stores and publishes the
// unfinished tasks again (the state knows which), saying so.
func (r *run) recover(ctx context.Context, cause error) error {
	var left []*sweep.Task
	for i := range r.tasks {
		if !r.states.has(r.tasks[i].ID) {
			left = append(left, &r.tasks[i])
		}
	}
	r.c.say("sweep %s: %v (NATS server restarted with an empty store?): recreating the streams and publishing the %d unfinished tasks again",
		r.spec.Name, cause, len(left))
	r.c.log.Warn("farm streams lost, republishing unfinished tasks", "cause", cause, "tasks", len(left))
	if err := natsutil.Setup(ctx, r.js); err != nil {
		return fmt.Errorf("recreate streams: %w", err)
	}
	var err error
	if r.results, err = natsutil.ResultStore(ctx, r.js); err != nil {
		return err
	}
	if err := r.uploadTraces(ctx, left); err != nil {
		return err
	}
	if err := r.workerConsumer(ctx); err != nil {
		return err
	}
	if err := r.publish(ctx, left, ""); err != nil {
		return err
	}
	if err := r.republishVerifications(ctx); err != nil {
		return err
	}
	r.w.touch()
	return r.rememberStreams(ctx)
}

// serverCounts are the run's messages on the farm's streams.
type serverCounts struct{ tasks, results uint64 }

// countOnServer counts the run's task and result messages on the
// streams (each request bounded by the wait limit).
func (r *run) countOnServer(ctx context.Context) (serverCounts, error) {
	var c serverCounts
	for _, q := range []struct {
		stream, subject string
		n               *uint64
	}{
		{natsutil.TaskStream, natsutil.TaskSubject(r.id), &c.tasks},
		{natsutil.ResultStream, natsutil.ResultSubject(r.id), &c.results},
	} {
		qctx, cancel := context.WithTimeout(ctx, r.c.cfg.waitLimit)
		s, err := r.js.Stream(qctx, q.stream)
		if err == nil {
			var info *jetstream.StreamInfo
			info, err = s.Info(qctx, jetstream.WithSubjectFilter(q.subject))
			if err == nil {
				*q.n = info.State.Subjects[q.subject]
			}
		}
		cancel()
		if err != nil {
			return c, fmt.Errorf("count the run's messages on %s: %w", q.stream, err)
		}
	}
	return c, nil
}

// republishLost publishes the unfinished tasks and the awaited
// verifications again, saying so: none of them is on the server.
func (r *run) republishLost(ctx context.Context) error {
	var left []*sweep.Task
	for i := range r.tasks {
		if !r.states.has(r.tasks[i].ID) {
			left = append(left, &r.tasks[i])
		}
	}
	r.c.say("sweep %s: %d unfinished tasks and %d verifications are neither on stream %s nor answered on stream %s (lost messages); publishing them again",
		r.spec.Name, len(left), len(r.verifying), natsutil.TaskStream, natsutil.ResultStream)
	r.c.log.Warn("tasks lost, republishing", "tasks", len(left), "verifications", len(r.verifying))
	if err := r.uploadTraces(ctx, left); err != nil {
		return err
	}
	if err := r.publish(ctx, left, ""); err != nil {
		return err
	}
	if err := r.republishVerifications(ctx); err != nil {
		return err
	}
	r.w.touch()
	return nil
}
