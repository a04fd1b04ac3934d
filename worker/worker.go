// Package worker runs sweep tasks taken from NATS JetStream and publishes
// their results.
//
// A [Worker] is stateless: everything it needs comes with the task message
// (the task as JSON) or from the trace object store (cached locally by
// sha256), and everything it produces goes back as a result message. Any
// number of workers, on any machines, share one durable pull consumer;
// each worker runs up to its concurrency of tasks at once and pulls one
// task per free slot, so no task waits in a busy worker's buffer.
//
// # Delivery contract
//
// For each task message a worker does exactly one of:
//
//   - runs it, publishes the result (Nats-Msg-Id = run and task ID, so a
//     task run twice yields one result message), then acks the task;
//   - publishes an error result and terminates the message
//     (TermWithReason) when the failure would recur on every try: a
//     deterministic simulator error (runner.ErrDeterministic), a panic, a
//     trace whose bytes do not match its sha256, an undecodable task, or a
//     task delivered more than the worker's attempt limit (a task that
//     crashed or stalled every worker that took it);
//   - publishes an environment error result (natsutil.HeaderEnvironment),
//     which stops the sweep with nothing recorded for the task, and
//     terminates the message when the cause is the machine or the farm's
//     state, not the task: no space left, permissions, I/O errors, a
//     trace the server's store lost (missing from the object store, or
//     proven damaged: fewer chunks than its description, a size or digest
//     that does not match, or a chunk that does not come within
//     [WithTraceStall] while the stream holds no further chunk of it; the
//     worker then empties the trace bucket, whose damaged stream cannot
//     take the trace again, and the sweep's next run uploads its traces
//     anew), or a trace fetch that stalled ([ErrTraceStalled]: a chunk that
//     does not come within [WithTraceStall] while the stream still holds
//     it; nothing is deleted);
//   - naks it (with a growing delay) on any other failure, up to the
//     attempt limit; the last attempt publishes an error result instead.
//
// While a task runs, the worker sends InProgress every few seconds so the
// server does not redeliver it; if the worker dies, the server redelivers
// the task to another worker after the consumer's AckWait.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/tick"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sweep"
)

// Defaults of the worker options.
const (
	// DefaultAckWait is how long the server waits for an ack or a progress
	// signal before it redelivers a task.
	DefaultAckWait = natsutil.DefaultAckWait
	// DefaultMaxAttempts is how many times a task is tried before it is
	// reported as failed.
	DefaultMaxAttempts = natsutil.DefaultMaxAttempts
	// DefaultDrainTimeout is how long a stopping worker lets its running
	// tasks finish before it cancels them and gives them back.
	DefaultDrainTimeout = time.Minute
	// DefaultFetchWait is how long one pull request waits for a task; a
	// stopping worker waits for its requests to expire.
	DefaultFetchWait = time.Second
	// DefaultTraceStall is how long a trace being fetched from the
	// object store may go without a chunk before it is taken for damaged.
	DefaultTraceStall = 30 * time.Second
	// DefaultTaskTimeLimit is how long a task may run when its spec sets
	// no time_limit.
	DefaultTaskTimeLimit = 24 * time.Hour
	// maxHeartbeat bounds the interval between InProgress signals.
	maxHeartbeat = 5 * time.Second
	// payloadHeadroom is kept free of a message's max payload for headers.
	payloadHeadroom = 16 << 10
	// giveBackDelay delays the redelivery of a task given back on
	// shutdown.
	giveBackDelay = time.Second
	// publishTimeout bounds one result publication.
	publishTimeout = time.Minute
)

// ErrInvalidOption wraps the errors of options given bad values.
var ErrInvalidOption = errors.New("invalid worker option")

// VerifyUntaken starts the error of a verification run that only the
// worker of the first result took until its deliveries ran out; the
// coordinator publishes such a run again (a busy farm) a few times
// before it gives up.
const VerifyUntaken = "verification run delivered"

// errTimeLimit is the cause of a task's context when its time limit
// ended it.
var errTimeLimit = errors.New("task time limit")

// errPanic marks a recovered panic of the simulator.
var errPanic = errors.New("simulator panic")

// ExecuteFunc runs one task on a local trace file. [runner.Execute] is the
// default.
type ExecuteFunc func(ctx context.Context, t *sweep.Task, tracePath string) (*results.TaskResult, error)

// Worker takes tasks from the farm's task stream and runs them. Build it
// with [New]; a Worker runs once ([Worker.Run]).
type Worker struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	cfg config
	log *slog.Logger

	cache   *traceCache
	results jetstream.ObjectStore
	cons    jetstream.Consumer
	consMu  sync.Mutex // guards cons, hb and attempts after setup (see recreate)
	hb      time.Duration
	// attempts is the consumer's attempt limit (MaxDeliver - 1), which
	// may differ from the worker's option; hbAt is when hb and attempts
	// were last read from the server.
	attempts int
	hbAt     time.Time

	// stopPulling ends the slots' pulling after a fatal error (fatal).
	stopPulling context.CancelFunc
	fatalOnce   sync.Once
	fatalErr    error
}

type config struct {
	concurrency  int
	cacheDir     string
	name         string
	ackWait      time.Duration
	maxAttempts  int
	drainTimeout time.Duration
	fetchWait    time.Duration
	traceStall   time.Duration
	inlineLimit  int
	timeLimit    time.Duration
	logger       *slog.Logger
	execute      ExecuteFunc
	// allowExternal are the interpreters external policies may run.
	allowExternal []string
}

// Option configures a [Worker].
type Option func(*config) error

// WithConcurrency sets how many tasks run at once (default GOMAXPROCS).
func WithConcurrency(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: concurrency %d: must be at least 1", ErrInvalidOption, n)
		}
		c.concurrency = n
		return nil
	}
}

// WithCacheDir sets the trace cache directory (default
// $XDG_CACHE_HOME/schedfarm/traces, see [os.UserCacheDir]).
func WithCacheDir(dir string) Option {
	return func(c *config) error { c.cacheDir = dir; return nil }
}

// WithName sets the worker's name, recorded in each result (default
// host name and process ID).
func WithName(name string) Option {
	return func(c *config) error { c.name = name; return nil }
}

// WithAckWait sets the AckWait the worker gives the shared consumer if it
// has to create it (default [DefaultAckWait]): how long after a worker's
// last sign of life the server redelivers its task. The consumer belongs
// to the coordinator: a worker never changes an existing one, and one
// whose setting differs says so and uses the consumer's.
func WithAckWait(d time.Duration) Option {
	return func(c *config) error {
		if d < time.Second {
			return fmt.Errorf("%w: ack wait %v: must be at least 1s", ErrInvalidOption, d)
		}
		c.ackWait = d
		return nil
	}
}

// WithMaxAttempts sets how many deliveries of a task are tried before it
// is reported as failed (default [DefaultMaxAttempts]; the consumer's
// MaxDeliver is one more, for the delivery that reports the failure).
// Like [WithAckWait], it only applies to a consumer the worker creates;
// an existing consumer's MaxDeliver decides.
func WithMaxAttempts(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("%w: max attempts %d: must be at least 1", ErrInvalidOption, n)
		}
		c.maxAttempts = n
		return nil
	}
}

// WithDrainTimeout sets how long a stopping worker lets running tasks
// finish (default [DefaultDrainTimeout]; 0: cancel them at once). Tasks
// still running then are cancelled and given back (Nak) for another
// worker.
func WithDrainTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("%w: drain timeout %v: must not be negative", ErrInvalidOption, d)
		}
		c.drainTimeout = d
		return nil
	}
}

// WithFetchWait sets how long one pull request waits for a task (default
// [DefaultFetchWait], at least 10ms). An idle slot sends one request per
// fetch wait; a stopping worker returns once its requests have expired.
func WithFetchWait(d time.Duration) Option {
	return func(c *config) error {
		if d < 10*time.Millisecond {
			return fmt.Errorf("%w: fetch wait %v: must be at least 10ms", ErrInvalidOption, d)
		}
		c.fetchWait = d
		return nil
	}
}

// WithTraceStall sets how long a trace being fetched from the trace
// object store may go without a chunk before the worker gives up on it
// (default [DefaultTraceStall], at least 100ms): the server's store can
// lose chunks it still counts, and the read would wait for them. The
// worker then asks the stream whether it still holds the chunk: if not,
// the trace is damaged and the trace bucket emptied; if so (a slow or
// overloaded server), the error wraps [ErrTraceStalled] and nothing is
// deleted.
func WithTraceStall(d time.Duration) Option {
	return func(c *config) error {
		if d < 100*time.Millisecond {
			return fmt.Errorf("%w: trace stall %v: must be at least 100ms", ErrInvalidOption, d)
		}
		c.traceStall = d
		return nil
	}
}

// WithInlineLimit sets the largest result in bytes sent inside the result
// message (default: the connection's max payload less 16 KiB); larger
// results go through the results object store.
func WithInlineLimit(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("%w: inline limit %d: must not be negative", ErrInvalidOption, n)
		}
		c.inlineLimit = n
		return nil
	}
}

// WithTaskTimeLimit sets how long a task whose spec gives no time_limit
// may run (default [DefaultTaskTimeLimit]). A task still running then is
// stopped and reported as failed for good.
func WithTaskTimeLimit(d time.Duration) Option {
	return func(c *config) error {
		if d < time.Second {
			return fmt.Errorf("%w: task time limit %v: must be at least 1s", ErrInvalidOption, d)
		}
		c.timeLimit = d
		return nil
	}
}

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.logger = l; return nil }
}

// WithExecute replaces the function that runs a task (default
// [runner.Execute]).
func WithExecute(f ExecuteFunc) Option {
	return func(c *config) error { c.execute = f; return nil }
}

// New returns a worker that uses the connection nc. Options:
// [WithConcurrency], [WithCacheDir], [WithName], [WithAckWait],
// [WithMaxAttempts], [WithDrainTimeout], [WithFetchWait],
// [WithTraceStall], [WithInlineLimit], [WithTaskTimeLimit], [WithLogger], [WithExecute].
func New(nc *nats.Conn, opts ...Option) (*Worker, error) {
	cfg := config{
		concurrency:  runtime.GOMAXPROCS(0),
		ackWait:      DefaultAckWait,
		maxAttempts:  DefaultMaxAttempts,
		drainTimeout: DefaultDrainTimeout,
		fetchWait:    DefaultFetchWait,
		traceStall:   DefaultTraceStall,
		inlineLimit:  -1,
		timeLimit:    DefaultTaskTimeLimit,
		execute:      runner.Execute,
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.name == "" {
		host, _ := os.Hostname()
		if host == "" {
			host = "worker"
		}
		cfg.name = host + "-" + strconv.Itoa(os.Getpid())
	}
	if cfg.cacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("%w: no cache dir given and no user cache dir: %v", ErrInvalidOption, err)
		}
		cfg.cacheDir = filepath.Join(dir, "schedfarm", "traces")
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if limit := max(int(nc.MaxPayload())-payloadHeadroom, 0); cfg.inlineLimit < 0 || cfg.inlineLimit > limit {
		cfg.inlineLimit = limit
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("open jetstream: %w", err)
	}
	return &Worker{nc: nc, js: js, cfg: cfg, log: cfg.logger.With("worker", cfg.name)}, nil
}

// ConsumerConfig is the configuration of the shared durable pull consumer
// for the given AckWait and attempt limit
// ([natsutil.WorkerConsumerConfig]).
func ConsumerConfig(ackWait time.Duration, maxAttempts int) jetstream.ConsumerConfig {
	return natsutil.WorkerConsumerConfig(ackWait, maxAttempts)
}

// Run takes and runs tasks until ctx is done, then stops pulling (within
// the fetch wait), lets running tasks finish within the drain timeout,
// gives back (Nak) those that do not, and returns nil. It returns an error
// only if it cannot set up (streams, consumer, object stores, cache
// directory); lost connections are retried.
func (w *Worker) Run(ctx context.Context) error {
	if err := w.setup(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped before it started
		}
		return err
	}
	// A fatal error (a task for another simulator version) stops the
	// pulling as a signal would, and Run returns it.
	ctx, w.stopPulling = context.WithCancel(ctx)
	defer w.stopPulling()

	// Running tasks use execCtx, which outlives ctx by the drain timeout.
	execCtx, cancelExec := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelExec()
	slotsDone := make(chan struct{})
	go func() {
		select {
		case <-slotsDone:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(w.cfg.drainTimeout)
		defer t.Stop()
		select {
		case <-slotsDone:
		case <-t.C:
			cancelExec()
		}
	}()

	w.log.Info("worker started", "concurrency", w.cfg.concurrency, "cache", w.cfg.cacheDir)
	var wg sync.WaitGroup
	for range w.cfg.concurrency {
		wg.Go(func() { w.slot(ctx, execCtx) })
	}
	wg.Wait()
	close(slotsDone)
	w.log.Info("worker stopped")
	return w.fatalErr
}

// fatal stops the worker: its slots stop pulling and finish or give back
// their tasks as on a signal, and Run returns err.
func (w *Worker) fatal(err error) {
	w.fatalOnce.Do(func() {
		w.fatalErr = err
		w.log.Error("stopping", "err", err)
		w.stopPulling()
	})
}

// setup creates what the worker needs: cache directory, streams, object
// stores, the shared consumer.
func (w *Worker) setup(ctx context.Context) error {
	if err := os.MkdirAll(w.cfg.cacheDir, 0o755); err != nil {
		return fmt.Errorf("create trace cache: %w", err)
	}
	if err := natsutil.Setup(ctx, w.js); err != nil {
		return fmt.Errorf("set up worker: %w", err)
	}
	cons, err := w.openConsumer(ctx)
	if err != nil {
		return err
	}
	w.cons = cons
	w.adopt(cons.CachedInfo().Config)
	traces, err := natsutil.TraceStore(ctx, w.js)
	if err != nil {
		return err
	}
	if w.results, err = natsutil.ResultStore(ctx, w.js); err != nil {
		return err
	}
	w.cache = newTraceCache(w.cfg.cacheDir, w.js, traces, w.cfg.traceStall)
	return nil
}

// openConsumer returns the workers' shared consumer, creating it with the
// worker's settings only if it does not exist: the consumer belongs to
// the coordinator, and a worker never changes its configuration.
func (w *Worker) openConsumer(ctx context.Context) (jetstream.Consumer, error) {
	cons, err := w.js.Consumer(ctx, natsutil.TaskStream, natsutil.WorkerConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = w.js.CreateConsumer(ctx, natsutil.TaskStream, ConsumerConfig(w.cfg.ackWait, w.cfg.maxAttempts))
		if errors.Is(err, jetstream.ErrConsumerExists) {
			// Another worker or the coordinator created it meanwhile.
			cons, err = w.js.Consumer(ctx, natsutil.TaskStream, natsutil.WorkerConsumer)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open consumer %s: %w", natsutil.WorkerConsumer, err)
	}
	return cons, nil
}

// adopt takes the heartbeat interval and the attempt limit from the
// consumer's configuration, saying so when they differ from the worker's
// options (once per change). The caller holds consMu or is setup.
func (w *Worker) adopt(cfg jetstream.ConsumerConfig) {
	attempts := cfg.MaxDeliver - 1
	if cfg.MaxDeliver <= 0 {
		attempts = w.cfg.maxAttempts // unlimited deliveries: the worker's limit ends a task
	}
	if (cfg.AckWait != w.cfg.ackWait || attempts != w.cfg.maxAttempts) && (w.attempts != attempts || w.hb != min(cfg.AckWait/3, maxHeartbeat)) {
		w.log.Warn("the shared consumer's settings differ from this worker's; using the consumer's (they belong to the coordinator)",
			"consumer", natsutil.WorkerConsumer, "ack_wait", cfg.AckWait, "max_attempts", attempts,
			"worker_ack_wait", w.cfg.ackWait, "worker_max_attempts", w.cfg.maxAttempts)
	}
	w.hb = min(cfg.AckWait/3, maxHeartbeat)
	w.attempts = attempts
	w.hbAt = time.Now()
}

// consumerRefresh is how often a worker reads the consumer's settings
// again (a coordinator may change them while the worker runs).
const consumerRefresh = 10 * time.Second

// settings returns the heartbeat interval and the attempt limit of the
// shared consumer, read again from the server every consumerRefresh.
func (w *Worker) settings(ctx context.Context) (time.Duration, int) {
	w.consMu.Lock()
	defer w.consMu.Unlock()
	if time.Since(w.hbAt) >= consumerRefresh {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		info, err := w.cons.Info(rctx)
		cancel()
		if err == nil {
			w.adopt(info.Config)
		} else {
			w.hbAt = time.Now() // keep the last settings; try again later
		}
	}
	return w.hb, w.attempts
}

// slot pulls and runs one task at a time until ctx is done.
//
// A pull request is never cancelled from this side: cancelling races with
// the server, which may already have sent a task to the request's inbox;
// that task would then sit unseen until AckWait. Each request expires on
// the server after the fetch wait instead, so a stopping worker returns
// within the fetch wait (plus the drain) and leaves no request behind; a
// task that arrives meanwhile is given back.
func (w *Worker) slot(ctx, execCtx context.Context) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		batch, err := w.consumer().Fetch(1, jetstream.FetchMaxWait(w.cfg.fetchWait))
		if err == nil {
			for msg := range batch.Messages() {
				if ctx.Err() != nil {
					w.giveBack(msg)
					continue
				}
				w.handle(execCtx, msg)
			}
			err = batch.Error()
		}
		if err == nil || ctx.Err() != nil {
			backoff = 100 * time.Millisecond
			continue
		}
		w.log.Warn("fetch task", "err", err)
		if farmLost(err) {
			w.recreate(ctx)
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// giveBack returns a task to the stream for another worker. The short
// delay lets the server see this worker's last pull requests expire
// first, so the task does not come back here.
func (w *Worker) giveBack(msg jetstream.Msg) {
	if err := msg.NakWithDelay(giveBackDelay); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		w.log.Warn("give back task", "err", err)
	}
}

// handle runs one task message to one of the outcomes of the package
// doc's delivery contract.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	run := msg.Headers().Get(natsutil.HeaderRun)
	taskID := msg.Headers().Get(natsutil.HeaderTask)
	attempt := 1
	if md, err := msg.Metadata(); err == nil {
		attempt = int(md.NumDelivered)
	}
	log := w.log.With("run", run, "task", taskID, "attempt", attempt)

	t, ok := w.decode(ctx, msg, run, taskID, log)
	if !ok {
		return
	}
	hb, maxAttempts := w.settings(ctx)
	if attempt > maxAttempts {
		cause := fmt.Errorf("task delivered %d times without a result (did it crash or stall the workers that took it?)", attempt-1)
		if v := msg.Headers().Get(natsutil.HeaderVerify); v != "" {
			cause = fmt.Errorf("%s %d times without a result: no worker other than %s took it (--verify needs at least two workers)", VerifyUntaken, attempt-1, v)
		}
		w.fail(ctx, msg, run, &t, cause, 0, log)
		return
	}
	if v := msg.Headers().Get(natsutil.HeaderVerify); v == w.cfg.name {
		// The task's first result is this worker's: another must verify
		// it. The delay grows with the deliveries, so that a busy other
		// worker gets its turn.
		if err := msg.NakWithDelay(time.Duration(attempt) * giveBackDelay); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			log.Warn("give back verification run", "err", err)
		}
		return
	}
	if t.SimVersion != sim.Version {
		// Any result this worker made would be refused: give the task
		// back for a worker of the right version, and stop.
		w.giveBack(msg)
		w.fatal(fmt.Errorf("task %d of sweep %s (run %s) needs simulator version %s, this worker runs %s (build %s): stopping; start workers built from the coordinator's version",
			t.Index, t.Sweep, run, t.SimVersion, sim.Version, BuildIdentity()))
		return
	}
	if attempt > 1 {
		log.Info("running a redelivered task")
	}
	// Best effort: only feeds the coordinator's "running" count.
	_ = w.nc.PublishMsg(&nats.Msg{Subject: natsutil.StartedSubject(run), Data: []byte(t.ID), Header: nats.Header{
		natsutil.HeaderWorker: {w.cfg.name}, natsutil.HeaderSlots: {strconv.Itoa(w.cfg.concurrency)}}})

	// Progress signals go on until the task is acked, naked or
	// terminated: publishing a large result takes time too.
	defer w.heartbeat(msg, hb, log)()
	limit, source := w.cfg.timeLimit, "worker --task-time-limit"
	if t.TimeLimit > 0 {
		limit, source = t.TimeLimit, "spec time_limit"
	}
	tctx, cancel := context.WithTimeoutCause(ctx, limit, errTimeLimit)
	start := time.Now()
	res, err := w.execute(tctx, &t)
	wall := time.Since(start)
	cancel()

	switch {
	case err == nil:
		if res.Worker == "" {
			res.Worker = w.cfg.name
		}
		if res.WallTime == 0 {
			res.WallTime = wall
		}
		res.Build = BuildIdentity()
		if err := w.publish(ctx, run, msg, &t, res); err != nil {
			log.Warn("publish result", "err", err)
			w.nak(msg, attempt, log)
			return
		}
		if err := msg.Ack(); err != nil {
			// The result is in; a redelivery is run again and its result
			// dropped as a duplicate.
			log.Warn("ack task", "err", err)
		}
		log.Info("task done", "policy", t.Policy, "label", t.Label, "wall", wall.Round(time.Millisecond))
	case ctx.Err() != nil:
		log.Info("task cancelled by shutdown, giving it back")
		w.giveBack(msg)
	case errors.Is(context.Cause(tctx), errTimeLimit) && err != nil:
		w.fail(ctx, msg, run, &t, fmt.Errorf("task %d exceeded its time limit of %v (%s): stopped after %v", t.Index, limit, source, wall.Round(time.Millisecond)), wall, log)
	case IsEnvironment(err), errors.As(err, new(*traceDamaged)), errors.Is(err, ErrTraceStalled):
		w.failEnvironment(ctx, msg, run, &t, err, wall, log)
	case errors.Is(err, runner.ErrDeterministic), errors.Is(err, errPanic), errors.Is(err, ErrTraceMismatch):
		w.fail(ctx, msg, run, &t, err, wall, log)
	case errors.Is(err, runner.ErrTraceMismatch):
		// The local copy went bad after it was verified: fetch it again.
		w.cache.forget(t.Workload.TraceSHA256)
		if attempt >= maxAttempts {
			w.fail(ctx, msg, run, &t, fmt.Errorf("attempt %d of %d: %w", attempt, maxAttempts, err), wall, log)
			return
		}
		log.Warn("cached trace corrupt, will fetch it again", "err", err)
		w.nak(msg, attempt, log)
	case attempt >= maxAttempts:
		w.fail(ctx, msg, run, &t, fmt.Errorf("attempt %d of %d: %w", attempt, maxAttempts, err), wall, log)
	default:
		log.Warn("task failed, will retry", "err", err)
		w.nak(msg, attempt, log)
	}
}

// decode reads the task of a message. A message that does not decode,
// lacks its run or task ID or its point (workload, policy, ...), or whose
// IDs differ would fail on every try:
// it gets an error result when its run and task ID say whose it is, and is
// terminated either way (the delivery contract); decode then returns false.
func (w *Worker) decode(ctx context.Context, msg jetstream.Msg, run, taskID string, log *slog.Logger) (sweep.Task, bool) {
	var t sweep.Task
	err := json.Unmarshal(msg.Data(), &t)
	if err == nil && run != "" && t.ID != "" && t.ID == taskID && t.TaskPoint != nil {
		return t, true
	}
	switch {
	case err == nil && t.TaskPoint == nil:
		err = fmt.Errorf("task message %q without its workload and policy", taskID)
	case err == nil:
		err = fmt.Errorf("task message without run or task ID, or IDs differ (header %q, body %q)", taskID, t.ID)
	}
	log.Error("bad task message", "err", err)
	if run != "" && taskID != "" {
		t.ID = taskID
		if t.TaskPoint == nil {
			t.TaskPoint = &sweep.TaskPoint{}
		}
		w.fail(ctx, msg, run, &t, fmt.Errorf("decode task: %w", err), 0, log)
		return t, false
	}
	if err := msg.TermWithReason("undecodable task: " + err.Error()); err != nil {
		log.Warn("term task", "err", err)
	}
	return t, false
}

// execute fetches the task's trace and runs it, turning a panic into an
// error wrapping errPanic.
func (w *Worker) execute(ctx context.Context, t *sweep.Task) (res *results.TaskResult, err error) {
	var path string
	if t.Workload.Synthetic == "" { // synthetic workloads need no trace
		path, err = w.cache.path(ctx, t.Workload.TraceSHA256)
		if err != nil {
			return nil, fmt.Errorf("trace %s: %w", t.Workload.Trace, err)
		}
	}
	ctx, cleanup, err := w.externalContext(ctx, t)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	res, err = w.cfg.execute(ctx, t, path)
	if err == nil && res == nil {
		err = fmt.Errorf("%w: execute returned neither a result nor an error", errPanic)
	}
	return res, err
}

// heartbeat sends InProgress for msg every hb until the returned stop
// function is called.
func (w *Worker) heartbeat(msg jetstream.Msg, hb time.Duration, log *slog.Logger) (stop func()) {
	return tick.Every(hb, func() {
		if err := msg.InProgress(); err != nil {
			log.Warn("progress signal", "err", err)
		}
	})
}

// fail publishes an error result for t and terminates msg.
func (w *Worker) fail(ctx context.Context, msg jetstream.Msg, run string, t *sweep.Task, cause error, wall time.Duration, log *slog.Logger) {
	log.Warn("task failed for good", "policy", t.Policy, "label", t.Label, "wall", wall.Round(time.Millisecond), "err", cause)
	w.sendError(ctx, msg, run, t, cause, wall, false, log)
}

// failEnvironment publishes an environment error result for t (see
// [natsutil.HeaderEnvironment]: the coordinator stops the sweep, and a
// resume runs the task again) and terminates msg.
func (w *Worker) failEnvironment(ctx context.Context, msg jetstream.Msg, run string, t *sweep.Task, cause error, wall time.Duration, log *slog.Logger) {
	log.Error("environment error: the task is given back to the coordinator, which stops the sweep", "err", cause)
	w.sendError(ctx, msg, run, t, cause, wall, true, log)
}

// sendError publishes an error result for t and terminates msg.
func (w *Worker) sendError(ctx context.Context, msg jetstream.Msg, run string, t *sweep.Task, cause error, wall time.Duration, env bool, log *slog.Logger) {
	res := &results.TaskResult{
		TaskID:     t.ID,
		Index:      t.Index,
		Err:        cause.Error(),
		Worker:     w.cfg.name,
		WallTime:   wall,
		SimVersion: sim.Version,
		Build:      BuildIdentity(),
	}
	var err error
	if env {
		err = w.publishEnv(ctx, run, msg, t, res)
	} else {
		err = w.publish(ctx, run, msg, t, res)
	}
	if err != nil {
		log.Warn("publish error result", "err", err)
		if err := msg.Nak(); err != nil {
			log.Warn("nak task", "err", err)
		}
		return
	}
	reason := cause.Error()
	if len(reason) > 512 {
		reason = reason[:512]
	}
	if err := msg.TermWithReason(reason); err != nil {
		log.Warn("term task", "err", err)
	}
}

// nak gives msg back with a delay growing with the attempt number.
func (w *Worker) nak(msg jetstream.Msg, attempt int, log *slog.Logger) {
	delay := min(time.Duration(attempt)*2*time.Second, 30*time.Second)
	if err := msg.NakWithDelay(delay); err != nil {
		log.Warn("nak task", "err", err)
	}
}

// publish sends res, the result of the task message task, on the run's
// result subject, through the results object store if it is too large
// for a message. The result message's ID is the task message's (see
// [natsutil.PublishMsgID]), and it carries the task message's
// [natsutil.HeaderVerify].
func (w *Worker) publish(ctx context.Context, run string, task jetstream.Msg, t *sweep.Task, res *results.TaskResult) error {
	return w.send(ctx, run, task, t, res, false)
}

// publishEnv is publish for an environment error result.
func (w *Worker) publishEnv(ctx context.Context, run string, task jetstream.Msg, t *sweep.Task, res *results.TaskResult) error {
	return w.send(ctx, run, task, t, res, true)
}

func (w *Worker) send(ctx context.Context, run string, task jetstream.Msg, t *sweep.Task, res *results.TaskResult, env bool) error {
	data, err := res.Marshal()
	if err != nil {
		return fmt.Errorf("marshal result: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publishTimeout)
	defer cancel()
	id := task.Headers().Get(jetstream.MsgIDHeader)
	if id == "" {
		id = natsutil.MsgID(run, t.ID)
	}
	msg := nats.NewMsg(natsutil.ResultSubject(run))
	msg.Header.Set(natsutil.HeaderRun, run)
	msg.Header.Set(natsutil.HeaderTask, t.ID)
	if res.Err != "" {
		msg.Header.Set(natsutil.HeaderFailed, "true")
	}
	if env {
		msg.Header.Set(natsutil.HeaderEnvironment, "true")
	}
	if v := task.Headers().Get(natsutil.HeaderVerify); v != "" {
		msg.Header.Set(natsutil.HeaderVerify, v)
	}
	if len(data) > w.cfg.inlineLimit {
		if _, err := w.results.PutBytes(ctx, id, data); err != nil {
			return fmt.Errorf("put result object: %w", err)
		}
		msg.Header.Set(natsutil.HeaderResultObject, id)
	} else {
		msg.Data = data
	}
	if _, err := w.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id)); err != nil {
		return fmt.Errorf("publish result: %w", err)
	}
	return nil
}
