package worker

import (
	"context"
	"errors"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

// farmLost reports whether a fetch error means the task stream or the
// workers' consumer is gone, as after a NATS server restarted with an
// empty store.
func farmLost(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, jetstream.ErrConsumerDeleted)
}

// consumer returns the workers' consumer.
func (w *Worker) consumer() jetstream.Consumer {
	w.consMu.Lock()
	defer w.consMu.Unlock()
	return w.cons
}

// recreate sets up the streams, object stores and the workers' consumer
// again after they went missing, and says so. The coordinator of a sweep
// notices the recreated streams and publishes its unfinished tasks again.
// Concurrent calls (one per slot) recreate once.
func (w *Worker) recreate(ctx context.Context) {
	w.consMu.Lock()
	defer w.consMu.Unlock()
	if _, err := w.cons.Info(ctx); err == nil {
		return // another slot recreated it, or it was a passing error
	}
	if err := natsutil.Setup(ctx, w.js); err != nil {
		w.log.Warn("recreate the farm's streams", "err", err)
		return
	}
	cons, err := w.openConsumer(ctx)
	if err != nil {
		w.log.Warn("recreate the workers' consumer", "err", err)
		return
	}
	w.adopt(cons.CachedInfo().Config)
	if _, err := natsutil.TraceStore(ctx, w.js); err != nil {
		w.log.Warn("recreate the trace store", "err", err)
	}
	if _, err := natsutil.ResultStore(ctx, w.js); err != nil {
		w.log.Warn("recreate the result store", "err", err)
	}
	w.cons = cons
	w.log.Warn("the task stream or the workers' consumer was missing (NATS server restarted with an empty store?): recreated them; coordinators publish their unfinished tasks again")
}
