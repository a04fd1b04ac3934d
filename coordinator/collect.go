package coordinator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/envfault"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
)

// collect receives results until every task of the run is finished.
func (r *run) collect(ctx context.Context, cons jetstream.Consumer) error {
	for r.states.len() < len(r.tasks) || len(r.verifying) > 0 {
		it, err := cons.Messages(jetstream.PullMaxBytes(r.pullBytes()), jetstream.PullExpiry(max(r.w.every, time.Second)))
		if err != nil {
			return fmt.Errorf("receive results: %w", err)
		}
		err = r.receive(ctx, it)
		it.Stop()
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return fmt.Errorf("sweep %s interrupted with %d of %d tasks finished (run it again to resume): %w",
				r.spec.Name, r.states.len(), len(r.tasks), ctx.Err())
		}
		var fatal *fatalError
		if errors.As(err, &fatal) {
			if envfault.Is(fatal.err) {
				return fmt.Errorf("sweep %s stopped with %d of %d tasks finished: %w; nothing acknowledged was lost: fix the cause (free space, permissions, the disk of the state directory %s) and run the sweep again to resume",
					r.spec.Name, r.states.len(), len(r.tasks), fatal.err, r.c.store.Dir())
			}
			return fatal.err
		}
		if !errors.Is(err, errFarmLost) {
			r.c.log.Warn("receiving results, retrying", "err", err)
			if lost := r.tick(ctx); lost != nil {
				err = lost
			}
		}
		if errors.Is(err, errFarmLost) {
			if err := r.recover(ctx, err); err != nil {
				r.c.log.Warn("recover the farm's streams, retrying", "err", err)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
		if again, err := r.resultsConsumer(ctx); err == nil {
			cons = again
		} else if ctx.Err() == nil {
			r.c.log.Warn("recreate results consumer", "err", err)
		}
	}
	return nil
}

// minPullBytes is the least the results consumer buffers in the client.
const minPullBytes = 16 << 20

// pullBytes returns how many bytes of result messages the client buffers:
// a bound by bytes rather than by messages, so that large inline results
// (up to the server's max payload each) cannot pile up in memory, while
// small ones still arrive in large batches. It is at least two messages
// of the largest size, since a pull asking for less than one message
// would never be served.
func (r *run) pullBytes() int {
	return max(minPullBytes, 2*int(r.c.nc.MaxPayload()))
}

// fatalError marks an error that stops the run (the store failed).
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

// Results are recorded in batches: a result that arrives is checked and
// kept with its message until the batch is full (flushCount results or
// flushBytes of them), or until no other result arrives within
// flushDelay; then the batch is recorded in the store in one transaction
// and only then are its messages acked. A crash before the write loses
// nothing: the messages, unacked, are delivered again. Recording a batch
// at once costs one store transaction instead of one per result, and
// acking a batch at once lets the server empty the result stream once
// per batch instead of once per result.
const (
	flushCount = 64
	flushBytes = 256 << 10
	flushDelay = 20 * time.Millisecond
)

// pendingResult is a checked result waiting to be recorded.
type pendingResult struct {
	msg jetstream.Msg
	obj string // result object to delete once recorded ("" if none)
	rec ResultRecord
}

// receive handles messages from it until every task is finished (nil) or
// an error. Results still waiting to be recorded when it returns are
// recorded first.
func (r *run) receive(ctx context.Context, it jetstream.MessagesContext) (err error) {
	defer func() {
		if ferr := r.flush(ctx); ferr != nil && err == nil {
			err = ferr
		}
	}()
	for r.states.len()+len(r.batch) < len(r.tasks) || len(r.verifying) > 0 {
		wait := r.w.every
		if len(r.batch) > 0 {
			wait = flushDelay
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		msg, err := it.Next(jetstream.NextContext(wctx))
		cancel()
		if ctx.Err() == nil && (errors.Is(err, jetstream.ErrNoHeartbeat) || errors.Is(err, context.DeadlineExceeded)) {
			if len(r.batch) > 0 {
				if err := r.flush(ctx); err != nil {
					return err
				}
				continue
			}
			if err := r.tick(ctx); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := r.handle(ctx, msg); err != nil {
			return err
		}
		if len(r.batch) >= flushCount || r.batchBytes >= flushBytes {
			if err := r.flush(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// flush records the waiting results in the store, then acks their
// messages. Only a store failure is returned (as a *fatalError).
func (r *run) flush(ctx context.Context) error {
	if len(r.batch) == 0 {
		return nil
	}
	recs := make([]ResultRecord, len(r.batch))
	for i, p := range r.batch {
		recs[i] = p.rec
	}
	if err := r.c.store.RecordResults(r.id, recs); err != nil {
		return &fatalError{err}
	}
	for i := range r.batch {
		p := &r.batch[i]
		id, st := p.rec.ID, p.rec.State
		r.states.set(id, st)
		r.report.Ran++
		r.ack(p.msg)
		if p.obj != "" {
			r.deleteObject(ctx, p.obj)
		}
		r.prog.finished(id, st.Failed())
		t := &r.tasks[r.byID[id]]
		if st.Failed() {
			r.c.log.Warn("task failed", "index", t.Index, "task", t.Describe(), "err", st.Err)
		} else if r.toBeVerified(t) {
			r.queueVerification(t, st.Worker)
		}
		*p = pendingResult{}
	}
	r.batch, r.batchBytes = r.batch[:0], 0
	if err := r.publishVerifications(ctx); err != nil {
		return &fatalError{err}
	}
	return nil
}

// waiting reports whether a result of task id waits in the batch.
func (r *run) waiting(id string) bool {
	for i := range r.batch {
		if r.batch[i].rec.ID == id {
			return true
		}
	}
	return false
}

// handle checks one result message and adds it to the batch of results
// to record (see flush). Only a failure to encode an error result is
// returned (as a *fatalError); anything wrong with the message itself is
// logged, and a result that cannot be read is recorded as the task's
// failure.
func (r *run) handle(ctx context.Context, msg jetstream.Msg) error {
	h := msg.Headers()
	id := h.Get(natsutil.HeaderTask)
	obj := h.Get(natsutil.HeaderResultObject)
	i, ok := r.byID[id]
	if !ok {
		r.c.log.Warn("result for a task not in the sweep, dropped", "task", id)
		r.term(msg, "task not in the run")
		return nil
	}
	t := &r.tasks[i]
	// The task's own ID string, not the header's: the header's value is a
	// piece of the message's whole header block, which the run's states
	// and progress would otherwise keep for every task (18 MB of 100,000).
	id = t.ID
	verify := h.Get(natsutil.HeaderVerify)
	_, verifying := r.verifying[id]
	if done := r.states.has(id); verify == "" && (done || r.waiting(id)) || verify != "" && !verifying {
		// The first result's message stays unacked until it is
		// recorded: acking this one now loses nothing.
		r.report.Duplicates++
		r.ack(msg)
		if obj != "" {
			r.deleteObject(ctx, obj)
		}
		return nil
	}
	data := msg.Data()
	var cause string
	if obj != "" {
		b, err := r.results.GetBytes(ctx, obj)
		switch {
		case err == nil:
			data = b
		case errors.Is(err, jetstream.ErrObjectNotFound):
			cause = fmt.Sprintf("result object %s missing from %s", obj, natsutil.ResultBucket)
		default:
			// Transient: have the message redelivered.
			r.c.log.Warn("get result object", "object", obj, "err", err)
			if err := msg.NakWithDelay(time.Second); err != nil {
				r.c.log.Warn("nak result", "err", err)
			}
			return nil
		}
	}
	var res *results.TaskResult
	if cause == "" {
		var err error
		res, err = results.Unmarshal(data)
		switch {
		case err != nil:
			cause = fmt.Sprintf("undecodable result: %v", err)
		case res.TaskID != id:
			cause = fmt.Sprintf("result of task %s arrived as task %s", res.TaskID, id)
		}
	}
	if cause == "" && res.SimVersion != t.SimVersion {
		return r.refuse(ctx, msg, obj, t, res, verify)
	}
	if h.Get(natsutil.HeaderEnvironment) == "true" {
		r.ack(msg)
		if obj != "" {
			r.deleteObject(ctx, obj)
		}
		if r.earlierSession(h.Get(jetstream.MsgIDHeader)) {
			// It stopped an earlier session already; the task was
			// published again in this one.
			r.c.log.Info("environment error of an earlier session ignored", "task", id)
			return nil
		}
		worker, why := "?", "environment error"
		if res != nil {
			worker, why = res.Worker, res.Err
		}
		return &fatalError{fmt.Errorf("sweep %s stopped: worker %s could not run task %d because of its environment, not the task: %s. "+
			"Nothing was recorded for the task: fix the cause (free space, permissions, the disk) and run the sweep again to resume",
			r.spec.Name, worker, t.Index, why)}
	}
	if verify != "" {
		return r.checkVerification(ctx, msg, obj, t, data, res, cause)
	}
	if cause != "" {
		r.c.log.Warn("bad result", "task", id, "err", cause)
		res = &results.TaskResult{TaskID: id, Index: t.Index, Err: cause}
		b, err := res.Marshal()
		if err != nil {
			return &fatalError{fmt.Errorf("marshal error result: %w", err)}
		}
		data = b
	}
	st := TaskState{Index: t.Index, Err: res.Err, Worker: r.intern(res.Worker), WallTime: res.WallTime,
		SimVersion: r.intern(res.SimVersion), Build: r.intern(res.Build), At: time.Now().UTC()}
	r.batch = append(r.batch, pendingResult{msg: msg, obj: obj, rec: ResultRecord{ID: id, State: st, Result: data}})
	r.batchBytes += len(data)
	return nil
}

// intern returns the run's copy of s, a worker name, simulator version or
// build identity: a sweep has few of each, and the state of every task
// keeps them (8 MB of copies at 100,000 tasks otherwise).
func (r *run) intern(s string) string {
	if v, ok := r.names[s]; ok {
		return v
	}
	if r.names == nil {
		r.names = map[string]string{}
	}
	r.names[s] = s
	return s
}

func (r *run) ack(msg jetstream.Msg) {
	// A lost ack means a redelivery, which is ignored as a duplicate.
	if err := msg.Ack(); err != nil {
		r.c.log.Warn("ack result", "err", err)
	}
}

func (r *run) term(msg jetstream.Msg, reason string) {
	if err := msg.TermWithReason(reason); err != nil {
		r.c.log.Warn("term result", "err", err)
	}
}

func (r *run) deleteObject(ctx context.Context, name string) {
	if err := r.results.Delete(ctx, name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		r.c.log.Warn("delete result object", "object", name, "err", err)
	}
}

// earlierSession reports whether a result's message ID (that of the task
// message it answers, see natsutil.PublishMsgID) names a publication
// made before this session began.
func (r *run) earlierSession(msgID string) bool {
	dot := strings.LastIndexByte(msgID, '.')
	n, err := strconv.Atoi(msgID[dot+1:])
	return err == nil && n < r.firstPublication
}
