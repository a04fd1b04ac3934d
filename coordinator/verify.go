package coordinator

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sweep"
)

// Trust: a result is only as good as the worker that made it. Each result
// carries the simulator version and the build identity of the worker that
// produced it; the coordinator refuses a result whose simulator version is
// not its task's (refuse), records the build with the result (the state's
// provenance and tasks.parquet's build column), and reuses a cached result
// only for a task of the same simulator version. A worker built from
// modified sources that still reports the right version is caught only by
// verification (WithVerify): a chosen fraction of the tasks runs a second
// time on another worker, and any byte of difference between the two
// results (worker name, wall time and build apart) fails the sweep.

// verifyUntaken is worker.VerifyUntaken (the coordinator does not import
// the worker package).
const verifyUntaken = "verification run delivered"

// maxRefusals is how many results of one task are refused before the
// sweep stops: by then no worker of the right version seems to be
// taking it.
const maxRefusals = 10

// verified reports whether task t is among the fraction to verify: the
// first 8 bytes of its ID (a sha256), as a fraction of 2^64, are below it.
func (r *run) toBeVerified(t *sweep.Task) bool {
	f := r.c.cfg.verify
	if f <= 0 {
		return false
	}
	if f >= 1 {
		return true
	}
	b, err := hex.DecodeString(t.ID[:min(16, len(t.ID))])
	if err != nil || len(b) < 8 {
		return false
	}
	return float64(binary.BigEndian.Uint64(b)) < f*math.Exp2(64)
}

// resumeVerifications queues the verification of tasks finished in an
// earlier session of the run whose verification never came.
func (r *run) resumeVerifications() error {
	if r.c.cfg.verify <= 0 {
		return nil
	}
	for i := range r.tasks {
		t := &r.tasks[i]
		st, ok := r.states.lookup(t.ID)
		if !ok || st.Cached || st.Failed() || st.Verified != "" || !r.toBeVerified(t) {
			continue
		}
		r.verifying[t.ID] = st.Worker
		r.toVerify = append(r.toVerify, t)
	}
	return nil
}

// queueVerification queues the verification of a task just recorded
// with the result of worker.
func (r *run) queueVerification(t *sweep.Task, worker string) {
	r.verifying[t.ID] = worker
	r.toVerify = append(r.toVerify, t)
}

// publishVerifications publishes the queued verification runs, each
// telling the worker of the first result to leave it to another.
func (r *run) publishVerifications(ctx context.Context) error {
	for len(r.toVerify) > 0 {
		worker := r.verifying[r.toVerify[0].ID]
		var same, rest []*sweep.Task
		for _, t := range r.toVerify {
			if r.verifying[t.ID] == worker {
				same = append(same, t)
			} else {
				rest = append(rest, t)
			}
		}
		if err := r.publish(ctx, same, worker); err != nil {
			return fmt.Errorf("publish verification runs: %w", err)
		}
		r.toVerify = rest
	}
	return nil
}

// republishVerifications publishes every awaited verification run again
// (the streams were lost).
func (r *run) republishVerifications(ctx context.Context) error {
	r.toVerify = r.toVerify[:0]
	for i := range r.tasks {
		if _, ok := r.verifying[r.tasks[i].ID]; ok {
			r.toVerify = append(r.toVerify, &r.tasks[i])
		}
	}
	return r.publishVerifications(ctx)
}

// refuse refuses a result of another simulator version than its task's:
// it says so, naming the worker, drops the message and publishes the
// task (or its verification run) again. After maxRefusals refusals of
// one task the sweep stops.
func (r *run) refuse(ctx context.Context, msg jetstream.Msg, obj string, t *sweep.Task, res *results.TaskResult, verify string) error {
	r.report.Refused++
	r.refused[t.ID]++
	n := r.refused[t.ID]
	version := res.SimVersion
	if version == "" {
		version = "none given"
	}
	r.c.say("sweep %s: refused the result of task %d from worker %s (build %s): simulator version %s, the task needs %s",
		r.spec.Name, t.Index, res.Worker, res.Build, version, t.SimVersion)
	r.c.log.Warn("refused a result of another simulator version", "index", t.Index, "worker", res.Worker,
		"build", res.Build, "sim_version", res.SimVersion, "want", t.SimVersion)
	r.ack(msg)
	if obj != "" {
		r.deleteObject(ctx, obj)
	}
	if n >= maxRefusals {
		return &fatalError{fmt.Errorf("sweep %s: %d results of task %d refused, the last from worker %s with simulator version %s; the sweep needs %s: start workers built from the coordinator's version",
			r.spec.Name, n, t.Index, res.Worker, version, t.SimVersion)}
	}
	if err := r.publish(ctx, []*sweep.Task{t}, verify); err != nil {
		return &fatalError{fmt.Errorf("publish task %d again after refusing a result: %w", t.Index, err)}
	}
	return nil
}

// checkVerification compares a verification run's result (data, already
// checked to decode to res unless cause says why it is bad) with the
// task's recorded one: equal, the task is verified; different, the sweep
// stops naming both workers.
func (r *run) checkVerification(ctx context.Context, msg jetstream.Msg, obj string, t *sweep.Task, data []byte, res *results.TaskResult, cause string) error {
	first := r.verifying[t.ID]
	st := r.states.at(t.ID)
	fail := func(format string, a ...any) error {
		r.ack(msg)
		if obj != "" {
			r.deleteObject(ctx, obj)
		}
		return &fatalError{fmt.Errorf("sweep %s: verification of task %d (%s) failed: "+format,
			append([]any{r.spec.Name, t.Index, t.Describe()}, a...)...)}
	}
	if cause != "" {
		return fail("its second run's result is bad: %s", cause)
	}
	if strings.HasPrefix(res.Err, verifyUntaken) {
		// Only the first worker took it (the others were busy): publish
		// it again, a few times.
		r.refused[t.ID+"/verify"]++
		if r.refused[t.ID+"/verify"] < maxRefusals {
			r.c.log.Info("verification run not taken by another worker, publishing it again", "index", t.Index)
			r.ack(msg)
			if obj != "" {
				r.deleteObject(ctx, obj)
			}
			if err := r.publish(ctx, []*sweep.Task{t}, first); err != nil {
				return &fatalError{fmt.Errorf("publish verification run of task %d again: %w", t.Index, err)}
			}
			return nil
		}
		return fail("%s", res.Err)
	}
	if res.Err != "" {
		return fail("worker %s (build %s) got a result, worker %s (build %s) failed: %s", first, st.Build, res.Worker, res.Build, res.Err)
	}
	stored, err := r.c.store.Result(t.ID, false)
	if err != nil {
		return &fatalError{fmt.Errorf("verify task %d: %w", t.Index, err)}
	}
	a, err := resultContent(stored)
	if err != nil {
		return &fatalError{fmt.Errorf("verify task %d: stored result: %w", t.Index, err)}
	}
	b, err := resultContent(data)
	if err != nil {
		return fail("its second run's result does not decode: %v", err)
	}
	if !bytes.Equal(a, b) {
		return fail("the results of worker %s (build %s) and worker %s (build %s) differ (%d and %d bytes, first difference at byte %d): the simulator is not deterministic on this farm or one of the workers is faulty",
			first, st.Build, res.Worker, res.Build, len(a), len(b), firstDifference(a, b))
	}
	st.Verified = r.intern(res.Worker)
	if err := r.c.store.PutState(r.id, t.ID, st); err != nil {
		return &fatalError{err}
	}
	r.states.set(t.ID, st)
	delete(r.verifying, t.ID)
	r.report.Verified++
	r.c.log.Info("task verified", "index", t.Index, "first", first, "second", res.Worker)
	r.ack(msg)
	if obj != "" {
		r.deleteObject(ctx, obj)
	}
	return nil
}

// resultContent returns a marshalled result without what varies between
// runs of the same task (worker, wall time, build): the bytes two
// correct runs must share.
func resultContent(b []byte) ([]byte, error) {
	tr, err := results.Unmarshal(b)
	if err != nil {
		return nil, err
	}
	tr.Worker, tr.WallTime, tr.Build = "", 0, ""
	return tr.Marshal()
}

// firstDifference returns the first index where a and b differ.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// verifiedCount returns how many tasks of the run were verified.
func (r *run) verifiedCount() int {
	n := 0
	for _, st := range r.states.all() {
		if st.Verified != "" {
			n++
		}
	}
	return n
}
