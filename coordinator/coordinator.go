// Package coordinator drives a sweep: it expands the spec into tasks,
// takes what it can from the result cache, puts the rest on the farm's
// task stream for workers (package worker), records each result as it
// arrives, and writes the outputs when every task is in.
//
// # State
//
// Everything worth keeping is in a [Store] (Badger, under a state
// directory): each sweep's latest run, which tasks finished in it, and the
// results themselves, keyed by task ID (the result cache; a task's ID is
// the hash of everything that can change its result, so equal tasks of
// different sweeps share results). Results of 64 KB or more are kept in
// spool files beside the database, which holds a reference to each (size
// and checksum), so that they are read with plain reads rather than
// through Badger's memory-mapped value log. A result is written to the
// store before its message is acked, so killing the coordinator at any
// point loses nothing that was acknowledged.
//
// # Runs and resuming
//
// A run is one attempt to finish a sweep; its ID scopes the run's subjects
// and message IDs (see natsutil.MsgID). Starting a sweep whose latest run
// is unfinished and whose spec is unchanged resumes that run: tasks
// finished in it are not published again, the others are, under fresh
// message IDs (natsutil.PublishMsgID), after the copies an earlier session
// left on the task stream are purged; a copy a worker was running
// meanwhile may still deliver its result, and the second result of a task
// is ignored.
// Otherwise a new run starts, reusing every cached result unless
// [WithForce] is given, and the leftovers of an unfinished earlier run of
// the sweep are purged from the streams.
//
// # Memory
//
// The coordinator's memory does not grow with the job rows of a sweep.
// Results go to the store as they arrive, in batches of at most 64
// results or 256 KB (each message is decoded once, to check it, and
// dropped; its bytes are kept until its batch is recorded and acked: when
// the batch is full or no result has come for 20 ms). The client buffers
// result messages up to a number of bytes (16 MB, or two messages of the
// server's max payload), not a number of messages, so large inline
// results cannot pile up.
// Results too large for a message come through the results object store
// in chunks. Large results are read back from spool files with plain
// reads, so the page cache holds them, not the coordinator's resident
// memory. The outputs are written by streaming the results from the
// store in task order ([results.StreamOutputs]): the decoded results whose
// rows are in the current row group of jobs.parquet (at most two for
// tasks larger than a row group), one range of that row group's columns
// in Arrow form at a time, the small summary and tasks row groups, one
// zstd page encoder and Badger's memtables: about 120-140 MB of live
// heap for tasks of 77,000 jobs. The results are handed over to the
// writer ([results.OwnResults]), which decodes the next result into the
// job records of one it is done with. What does grow with the sweep is small
// per task: the task list (about 112 bytes a task with its ID: the tasks
// of a grid point share one sweep.TaskPoint), its states (80 bytes, in a
// slice by position) and what the tables keep of each task
// (report.Tables: about 100 bytes, and 16 per category with jobs). Badger reads its tables through
// memory maps, so the store keeps the results out of them, in segment and
// spool files read with plain reads, and drops the pages of the tables
// mapped into the process every few hundred results it reads or records
// (Linux, MADV_DONTNEED): the results of a sweep do not stay resident as
// file-backed memory. The
// schedfarm coordinator command sets a soft memory limit (170 MiB by
// default) so that the heap is collected before it doubles. A worker
// likewise holds at most one result per slot, and a marshalled result's
// jobs are encoded and decoded one record batch (16,384 jobs) at a time.
//
// # Failures
//
// A task that fails for good (the worker sends an error result) is
// recorded as failed; the sweep still finishes and writes every output,
// and [Coordinator.Run] then returns a [*FailedError] listing the
// failures. A failed task is tried again by the next run of the sweep.
package coordinator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/rusage"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sweep"
)

// Defaults of the coordinator options.
const (
	// DefaultProgressInterval is the interval of the plain progress lines
	// printed when the progress writer is not a terminal.
	DefaultProgressInterval = 10 * time.Second
	// publishChunk is how many tasks are published before waiting for
	// their acks.
	publishChunk = 1000
	// resultsInactive is how long the server keeps a run's results
	// consumer while no coordinator uses it.
	resultsInactive = 7 * 24 * time.Hour
)

// ErrNoConnection is returned by [Coordinator.Run] when tasks must run
// but the coordinator has no NATS connection.
var ErrNoConnection = errors.New("no nats connection")

// Coordinator runs sweeps against a state store and a NATS connection.
// Build it with [New]. Runs of different sweeps may share a Coordinator
// but must not run at the same time.
type Coordinator struct {
	store *Store
	nc    *nats.Conn
	cfg   config
	log   *slog.Logger
}

type config struct {
	outDir      string
	force       bool
	progress    io.Writer
	tty         bool // progress is a terminal: a bar redrawn in place
	interval    time.Duration
	toolVersion string
	watchEvery  time.Duration
	idleWarning time.Duration
	logger      *slog.Logger
	verify      float64
	ackWait     time.Duration
	maxAttempts int
	waitLimit   time.Duration
}

// Option configures a [Coordinator].
type Option func(*config)

// WithOutDir sets the output directory (default out/<sweep name>).
func WithOutDir(dir string) Option { return func(c *config) { c.outDir = dir } }

// WithForce makes a new run ignore the result cache and recompute every
// task (default false).
func WithForce(force bool) Option { return func(c *config) { c.force = force } }

// WithProgress sets where the progress display goes (default: nowhere).
// A terminal gets a bar redrawn in place, anything else (a log) a plain
// line every progress interval and each time another 5% of the tasks is
// done.
func WithProgress(w io.Writer) Option { return func(c *config) { c.progress = w } }

// WithProgressInterval sets the interval of plain progress lines (default
// [DefaultProgressInterval]).
func WithProgressInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.interval = d
		}
	}
}

// WithToolVersion sets the tool version recorded in the outputs'
// provenance (default "dev").
func WithToolVersion(v string) Option { return func(c *config) { c.toolVersion = v } }

// WithLogger sets the logger for events the progress display does not
// show (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithWatch sets how often a coordinator waiting for results checks the
// farm's streams (a server restarted with an empty store) and how long
// without a task taken or finished before it says no worker is taking
// tasks ([DefaultWatchInterval], [DefaultIdleWarning]).
func WithWatch(every, idle time.Duration) Option {
	return func(c *config) { c.watchEvery, c.idleWarning = every, idle }
}

// WithVerify makes the coordinator run a fraction (0..1) of the tasks a
// second time on a different worker and fail the sweep, naming both
// workers, if the two results differ in any byte (worker name, wall time
// and build apart). The tasks are chosen by their IDs, so the same
// fraction of the same sweep verifies the same tasks. Default 0.
func WithVerify(fraction float64) Option { return func(c *config) { c.verify = fraction } }

// WithWorkerConsumer sets the configuration the coordinator gives the
// workers' shared consumer (see natsutil.WorkerConsumerConfig): the ack
// wait and the attempt limit (defaults natsutil.DefaultAckWait and
// natsutil.DefaultMaxAttempts). The consumer belongs to the coordinator:
// workers use it as it is.
func WithWorkerConsumer(ackWait time.Duration, maxAttempts int) Option {
	return func(c *config) {
		if ackWait > 0 {
			c.ackWait = ackWait
		}
		if maxAttempts > 0 {
			c.maxAttempts = maxAttempts
		}
	}
}

// WithWaitLimit bounds each single wait on the NATS server (a publication's
// acknowledgement, a stream's information), default [DefaultWaitLimit]:
// past it, the run fails with an error saying what it waited for.
func WithWaitLimit(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.waitLimit = d
		}
	}
}

// DefaultWaitLimit is the default of [WithWaitLimit].
const DefaultWaitLimit = 2 * time.Minute

// New returns a coordinator keeping its state in store and reaching the
// workers through nc. nc may be nil: then only sweeps whose results are
// all cached can run. Options: [WithOutDir], [WithForce],
// [WithProgress], [WithProgressInterval],
// [WithToolVersion], [WithLogger].
func New(store *Store, nc *nats.Conn, opts ...Option) *Coordinator {
	cfg := config{
		progress:    io.Discard,
		interval:    DefaultProgressInterval,
		toolVersion: "dev",
		watchEvery:  DefaultWatchInterval,
		idleWarning: DefaultIdleWarning,
		ackWait:     natsutil.DefaultAckWait,
		maxAttempts: natsutil.DefaultMaxAttempts,
		waitLimit:   DefaultWaitLimit,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	cfg.tty = isTerminal(cfg.progress)
	return &Coordinator{store: store, nc: nc, cfg: cfg, log: cfg.logger}
}

// Report says what a run did.
type Report struct {
	// Sweep and RunID name the sweep and the run.
	Sweep string
	RunID string
	// Resumed is set when the run continued an unfinished one.
	Resumed bool
	// Total is the number of tasks; Cached how many came from the result
	// cache; Done how many finished in earlier sessions of a resumed run;
	// Ran how many results this session received; Duplicates how many
	// extra results of already finished tasks it ignored; Refused how
	// many results it refused (of another simulator version); Verified
	// how many tasks a second worker confirmed byte for byte (--verify).
	Total, Cached, Done, Ran, Duplicates, Refused, Verified int
	// Failures lists the failed tasks by index.
	Failures []TaskFailure
	// OutDir is where the outputs were written ("" if the run did not
	// finish).
	OutDir string
	// Farmed is the time from publishing the tasks to recording the last
	// result (0 when nothing ran); Elapsed is the session's wall time, the
	// outputs included. A resumed run's sessions each report their own
	// time: the time the run was down is in neither.
	Farmed, Elapsed time.Duration
	// FarmedCPU is the CPU time (user + system) the whole process used
	// over Farmed: the coordinator's own, and that of any worker or
	// server running in the same process (0 where the system does not
	// say).
	FarmedCPU time.Duration
	// Began is when the run first started: for a resumed run, the start of
	// the interrupted session, so that time.Since(Began) spans the
	// interruptions too.
	Began time.Time
}

// run is one session of a sweep run.
type run struct {
	c       *Coordinator
	spec    *sweep.Spec
	tasks   []sweep.Task
	byID    map[string]int // task ID -> position in tasks
	id      string
	rec     *SweepRecord
	states  *taskStates
	js      jetstream.JetStream
	results jetstream.ObjectStore
	prog    *progress
	report  *Report
	w       *watch
	began   time.Time // this session's start
	// batch holds the checked results waiting to be recorded (see
	// flush), batchBytes the size of their marshalled results.
	batch      []pendingResult
	batchBytes int
	// refused counts the refused results of each task (see refuse).
	refused map[string]int
	// verifying maps the tasks whose verification run is awaited to the
	// worker of their first result; toVerify lists those to publish.
	verifying map[string]string
	toVerify  []*sweep.Task
	// names holds one copy of each worker name, simulator version and
	// build identity of the results (see intern).
	names map[string]string
	// firstPublication is the number of this session's first
	// publication (see publish).
	firstPublication int
}

// Run runs the sweep to the end: every task finished (or failed) and the
// outputs written to the output directory. It returns a [*FailedError] if
// tasks failed (the outputs are complete otherwise), and ctx's error,
// wrapped, if ctx ends first; the run can then be resumed by calling Run
// again with the same spec. The Report is non-nil whenever the sweep was
// started.
func (c *Coordinator) Run(ctx context.Context, spec *sweep.Spec) (*Report, error) {
	start := time.Now()
	// The spec's own tasks, not a copy: the run only reads them.
	tasks, err := spec.SharedTasks()
	if err != nil {
		return nil, fmt.Errorf("expand sweep: %w", err)
	}
	r := &run{c: c, spec: spec, tasks: tasks, byID: make(map[string]int, len(tasks)), began: start,
		refused: map[string]int{}, verifying: map[string]string{}}
	for i, t := range tasks {
		r.byID[t.ID] = i
	}
	r.report = &Report{Sweep: spec.Name, Total: len(tasks)}
	defer func() { r.report.Elapsed = time.Since(start) }()

	if err := r.begin(); err != nil {
		return nil, err
	}
	if err := r.checkStored(ctx); err != nil {
		return nil, err
	}
	r.report.Began = r.rec.Started
	r.firstPublication = r.rec.Publications + 1
	// The output directory is this run's alone while it runs, as the
	// state is: two runs writing the same files would leave either's.
	release, err := lockDir(r.rec.OutDir)
	if err != nil {
		return nil, fmt.Errorf("output directory %s: %w (another run writes its outputs there; give this one another --out)", r.rec.OutDir, err)
	}
	defer release()
	rep := r.report
	pending := r.pending()
	c.say("sweep %s: %d tasks, %s, %d to run (run %s)", spec.Name, len(tasks), r.startSummary(), len(pending), r.id)

	switch {
	case c.nc != nil:
		// Connect even with nothing to run, to clean up after earlier runs.
		if err := r.connect(ctx); err != nil {
			return rep, err
		}
	case len(pending) > 0:
		return rep, fmt.Errorf("run sweep %s: %d tasks to run: %w", spec.Name, len(pending), ErrNoConnection)
	}
	if err := r.resumeVerifications(); err != nil {
		return rep, err
	}
	if len(r.toVerify) > 0 && c.nc == nil {
		return rep, fmt.Errorf("run sweep %s: %d tasks to verify: %w", spec.Name, len(r.toVerify), ErrNoConnection)
	}
	for round := 0; ; round++ {
		if len(pending) > 0 || len(r.toVerify) > 0 {
			if err := r.farm(ctx, pending); err != nil {
				return rep, err
			}
		}
		unreadable, err := r.finish(ctx)
		if len(unreadable) == 0 {
			return rep, err
		}
		if round > 0 || c.nc == nil {
			return rep, fmt.Errorf("read results of sweep %s: %d stored results do not decode (task %d: %w)",
				spec.Name, len(unreadable), unreadable[0].task.Index, unreadable[0].err)
		}
		// Results written by another version of the result format (or
		// damaged): compute them again.
		c.say("sweep %s: %d stored results cannot be read (task %d: %v); running them again",
			spec.Name, len(unreadable), unreadable[0].task.Index, unreadable[0].err)
		pending = pending[:0]
		for _, u := range unreadable {
			if err := c.store.Forget(r.id, u.task.ID); err != nil {
				return rep, err
			}
			if r.states.at(u.task.ID).Cached {
				r.report.Cached--
			}
			r.states.del(u.task.ID)
			pending = append(pending, u.task)
		}
	}
}

// unreadable is a stored result that does not decode.
type unreadable struct {
	task *sweep.Task
	err  error
}

func (u *unreadable) Error() string { return fmt.Sprintf("task %d: %v", u.task.Index, u.err) }

// result reads and decodes the stored result of tasks[i]; a result that
// does not decode, or whose spool file is damaged, gives an *unreadable
// error.
func (r *run) result(i int) (*results.TaskResult, error) {
	t := &r.tasks[i]
	b, err := r.c.store.Result(t.ID, r.states.at(t.ID).Failed())
	if errors.Is(err, ErrResultDamaged) {
		return nil, &unreadable{t, err}
	}
	if err != nil {
		return nil, err
	}
	tr, err := results.Unmarshal(b)
	if err != nil {
		return nil, &unreadable{t, err}
	}
	// A cached result may come from another sweep where the task had
	// another index.
	tr.Index = t.Index
	return tr, nil
}

// unreadableFrom returns the stored results that do not decode among
// tasks[from:].
func (r *run) unreadableFrom(from int) ([]unreadable, error) {
	var bad []unreadable
	for i := from; i < len(r.tasks); i++ {
		_, err := r.result(i)
		var u *unreadable
		switch {
		case errors.As(err, &u):
			bad = append(bad, *u)
		case err != nil:
			return nil, err
		}
	}
	return bad, nil
}

// checkStored reads every result the run starts with (cached ones and,
// when resuming, those of earlier sessions) before the run says what it
// reuses: a result that does not decode, or whose spool file is damaged,
// is forgotten and its task runs again, and the counts printed are of
// the results that will be used. Each result is decoded and dropped, one
// at a time.
func (r *run) checkStored(ctx context.Context) error {
	if r.states.len() == 0 {
		return nil
	}
	var bad []unreadable
	cached := true
	for i := range r.tasks {
		st, ok := r.states.lookup(r.tasks[i].ID)
		if !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("check stored results of sweep %s: %w", r.spec.Name, err)
		}
		_, err := r.result(i)
		var u *unreadable
		switch {
		case errors.As(err, &u):
			bad = append(bad, *u)
			cached = cached && st.Cached
		case err != nil:
			return err
		}
	}
	if len(bad) == 0 {
		return nil
	}
	what := "stored"
	if cached {
		what = "cached"
	}
	r.c.say("sweep %s: %d %s results cannot be read (task %d: %v); running them again",
		r.spec.Name, len(bad), what, bad[0].task.Index, bad[0].err)
	for _, u := range bad {
		if err := r.c.store.Forget(r.id, u.task.ID); err != nil {
			return err
		}
		if r.states.at(u.task.ID).Cached {
			r.report.Cached--
			r.rec.Cached--
		} else {
			r.report.Done--
		}
		r.states.del(u.task.ID)
	}
	return r.c.store.PutSweep(r.rec)
}

// begin loads or starts the run and fills r.id, r.rec, r.states.
func (r *run) begin() error {
	c, spec := r.c, r.spec
	rec, err := c.store.Sweep(spec.Name)
	if err != nil && !errors.Is(err, ErrNoSweep) {
		return err
	}
	if rec != nil && rec.Finished.IsZero() && rec.Hash == spec.Hash && rec.Total == len(r.tasks) && (!c.cfg.force || rec.Force) {
		states, err := c.store.RunStates(rec.RunID)
		if err != nil {
			return err
		}
		r.id, r.rec, r.states = rec.RunID, rec, newTaskStates(r.byID, r.taskID, len(r.tasks))
		for id, st := range states {
			r.states.set(id, st)
		}
		r.report.Resumed = true
		if c.cfg.outDir != "" && c.cfg.outDir != rec.OutDir {
			rec.OutDir = c.cfg.outDir
			if err := c.store.PutSweep(rec); err != nil {
				return err
			}
		}
		for _, st := range states {
			if st.Cached {
				r.report.Cached++
			} else {
				r.report.Done++
			}
		}
		r.report.RunID = r.id
		return nil
	}
	var unpurged []string
	if rec != nil {
		unpurged = rec.Unpurged
		if rec.Finished.IsZero() {
			unpurged = append(unpurged, rec.RunID)
			if err := c.store.DropRun(rec.RunID); err != nil {
				return err
			}
		}
	}
	r.id = newRunID()
	r.report.RunID = r.id
	r.states = newTaskStates(r.byID, r.taskID, len(r.tasks))
	if !c.cfg.force {
		want := make(map[string]string, len(r.tasks))
		for _, t := range r.tasks {
			want[t.ID] = t.SimVersion
		}
		cached, other, err := c.store.Cached(want)
		if err != nil {
			return err
		}
		if other > 0 {
			c.say("sweep %s: %d cached results of another or an unknown simulator version are not reused (the tasks need %s)",
				spec.Name, other, r.tasks[0].SimVersion)
		}
		now := time.Now().UTC()
		found := make(map[string]TaskState, len(cached))
		for _, t := range r.tasks {
			if cached[t.ID] {
				st := TaskState{Index: t.Index, Cached: true, At: now}
				found[t.ID] = st
				r.states.set(t.ID, st)
			}
		}
		if err := c.store.MarkFinished(r.id, found); err != nil {
			return err
		}
		r.report.Cached = r.states.len()
	}
	outDir := c.cfg.outDir
	if outDir == "" {
		outDir = filepath.Join("out", spec.Name)
	}
	r.rec = &SweepRecord{
		Name: spec.Name, Hash: spec.Hash, RunID: r.id, Total: len(r.tasks),
		Cached: r.states.len(), Force: c.cfg.force, OutDir: outDir, Started: time.Now().UTC(),
		Unpurged: unpurged,
	}
	return c.store.PutSweep(r.rec)
}

func (r *run) startSummary() string {
	if r.report.Resumed {
		return fmt.Sprintf("resuming with %d done (%d from the result cache)", r.report.Done+r.report.Cached, r.report.Cached)
	}
	if r.c.cfg.force {
		return "result cache ignored (--force)"
	}
	return fmt.Sprintf("%d cached results reused", r.report.Cached)
}

// pending returns the tasks not finished in the run, in index order.
func (r *run) pending() []*sweep.Task {
	var out []*sweep.Task
	for i := range r.tasks {
		if !r.states.has(r.tasks[i].ID) {
			out = append(out, &r.tasks[i])
		}
	}
	return out
}

// connect sets up JetStream and purges the leftovers of earlier
// unfinished runs of the sweep.
func (r *run) connect(ctx context.Context) error {
	js, err := jetstream.New(r.c.nc)
	if err != nil {
		return fmt.Errorf("open jetstream: %w", err)
	}
	r.js = js
	if err := natsutil.Setup(ctx, js); err != nil {
		return fmt.Errorf("set up streams: %w", err)
	}
	if r.results, err = natsutil.ResultStore(ctx, js); err != nil {
		return err
	}
	if err := r.workerConsumer(ctx); err != nil {
		return err
	}
	if len(r.rec.Unpurged) > 0 {
		for _, id := range r.rec.Unpurged {
			r.c.log.Info("purging an unfinished earlier run", "run", id)
			if err := r.purge(ctx, id); err != nil {
				return err
			}
		}
		r.rec.Unpurged = nil
		if err := r.c.store.PutSweep(r.rec); err != nil {
			return err
		}
	}
	return nil
}

// purgeTasks removes the run's task messages from the task stream.
func (r *run) purgeTasks(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.c.cfg.waitLimit)
	defer cancel()
	s, err := r.js.Stream(ctx, natsutil.TaskStream)
	if err != nil {
		return fmt.Errorf("open stream %s: %w", natsutil.TaskStream, err)
	}
	if err := s.Purge(ctx, jetstream.WithPurgeSubject(natsutil.TaskSubject(r.id))); err != nil {
		return fmt.Errorf("purge the earlier tasks of run %s: %w", r.id, err)
	}
	return nil
}

// purge removes a run's tasks, results, results consumer and result
// objects from the server.
func (r *run) purge(ctx context.Context, id string) error {
	for _, p := range []struct{ stream, subject string }{
		{natsutil.TaskStream, natsutil.TaskSubject(id)},
		{natsutil.ResultStream, natsutil.ResultSubject(id)},
	} {
		s, err := r.js.Stream(ctx, p.stream)
		if err != nil {
			return fmt.Errorf("open stream %s: %w", p.stream, err)
		}
		if err := s.Purge(ctx, jetstream.WithPurgeSubject(p.subject)); err != nil {
			return fmt.Errorf("purge %s: %w", p.subject, err)
		}
	}
	if err := r.js.DeleteConsumer(ctx, natsutil.ResultStream, resultsConsumer(id)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("delete results consumer of run %s: %w", id, err)
	}
	objs, err := r.results.List(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		return fmt.Errorf("list result objects: %w", err)
	}
	for _, o := range objs {
		if len(o.Name) > len(id) && o.Name[:len(id)+1] == id+"." {
			if err := r.results.Delete(ctx, o.Name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
				r.c.log.Warn("delete result object", "name", o.Name, "err", err)
			}
		}
	}
	return nil
}

// farm uploads the traces, publishes the pending tasks and collects
// results until every task is finished.
func (r *run) farm(ctx context.Context, pending []*sweep.Task) error {
	if err := r.uploadTraces(ctx, pending); err != nil {
		return err
	}
	prog := newProgress(r.c.cfg.progress, r.c.cfg.tty, r.c.cfg.interval, r.spec.Name, len(r.tasks), r.states.len(), r.failedCount(), r.c.store.Dir(), r.id, r.byID, r.c.log)
	r.prog = prog
	defer func() {
		prog.stop()
		// What the display keeps of every task is not needed to write
		// the outputs.
		r.prog = nil
	}()
	for id := range r.states.all() {
		prog.preset(id)
	}

	r.w = newWatch(r.c.cfg.watchEvery, r.c.cfg.idleWarning)
	sub, err := r.c.nc.Subscribe(natsutil.StartedSubject(r.id), func(m *nats.Msg) {
		r.w.touch()
		slots, _ := strconv.Atoi(m.Header.Get(natsutil.HeaderSlots))
		prog.started(string(m.Data), m.Header.Get(natsutil.HeaderWorker), slots)
	})
	if err != nil {
		return fmt.Errorf("subscribe to task starts: %w", err)
	}
	defer sub.Unsubscribe() // best effort: the subscription also ends with the connection

	// A consumer left by a killed session may hold results it delivered
	// and never saw acked; they would come back only after its AckWait.
	// This run's consumer is this session's alone: start it afresh, so
	// every result on the stream is delivered now.
	if err := r.js.DeleteConsumer(ctx, natsutil.ResultStream, resultsConsumer(r.id)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("reset results consumer: %w", err)
	}
	cons, err := r.resultsConsumer(ctx)
	if err != nil {
		return err
	}
	// Tasks of an earlier session still on the stream are published
	// again below under fresh message IDs: remove the old copies, so
	// they do not run twice (a copy a worker is running is removed too;
	// its result still counts, and the new copy's is a duplicate).
	if err := r.purgeTasks(ctx); err != nil {
		return err
	}
	start, cpu := time.Now(), rusage.CPU()
	r.prog.begin()
	defer func() {
		r.report.Farmed, r.report.FarmedCPU = time.Since(start), rusage.CPU()-cpu
	}()
	if err := r.publish(ctx, pending, ""); err != nil {
		return err
	}
	if err := r.publishVerifications(ctx); err != nil {
		return err
	}
	if err := r.rememberStreams(ctx); err != nil {
		return err
	}
	return r.collect(ctx, cons)
}

// taskID returns the ID of the task at position i.
func (r *run) taskID(i int) string { return r.tasks[i].ID }

func (r *run) failedCount() int {
	n := 0
	for _, st := range r.states.all() {
		if st.Failed() {
			n++
		}
	}
	return n
}

// uploadTraces puts the traces the pending tasks use into the trace
// object store, skipping those already there intact.
func (r *run) uploadTraces(ctx context.Context, pending []*sweep.Task) error {
	need := map[string]bool{}
	for _, t := range pending {
		need[t.Workload.TraceSHA256] = true
	}
	obs, err := natsutil.TraceStore(ctx, r.js)
	if err != nil {
		return err
	}
	for _, t := range pending {
		for _, f := range t.PolicyFiles {
			need[f.SHA256] = true
		}
	}
	// An external policy's files travel as the traces do, by sha256.
	for _, tf := range append(r.spec.Traces(), r.spec.PolicyFiles()...) {
		if !need[tf.SHA256] {
			continue
		}
		info, err := obs.GetInfo(ctx, tf.SHA256)
		if err == nil && sameDigest(info.Digest, tf.SHA256) {
			r.c.log.Debug("trace already in object store", "trace", tf.Name)
			continue
		}
		if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return fmt.Errorf("look up trace %s: %w", tf.Name, err)
		}
		f, err := os.Open(tf.Path)
		if err != nil {
			return fmt.Errorf("upload trace %s: %w", tf.Name, err)
		}
		info, err = obs.Put(ctx, jetstream.ObjectMeta{
			Name:        tf.SHA256,
			Description: tf.Name,
			Metadata:    map[string]string{natsutil.TraceFilenameKey: filepath.Base(tf.Path)},
		}, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("upload trace %s: %w", tf.Name, err)
		}
		if !sameDigest(info.Digest, tf.SHA256) {
			return fmt.Errorf("upload trace %s: file %s changed since the spec was read (sha256 differs)", tf.Name, tf.Path)
		}
		r.c.log.Info("uploaded trace", "trace", tf.Name, "bytes", info.Size)
	}
	return nil
}

// sameDigest reports whether an object store digest is the hex sha256.
func sameDigest(digest, sha string) bool {
	got, err := jetstream.DecodeObjectDigest(digest)
	return err == nil && hex.EncodeToString(got) == sha
}

// resultsConsumer creates the run's durable results consumer.
func (r *run) resultsConsumer(ctx context.Context) (jetstream.Consumer, error) {
	cons, err := r.js.CreateOrUpdateConsumer(ctx, natsutil.ResultStream, jetstream.ConsumerConfig{
		Durable:           resultsConsumer(r.id),
		Description:       "schedfarm coordinator of sweep " + r.spec.Name,
		FilterSubject:     natsutil.ResultSubject(r.id),
		AckPolicy:         jetstream.AckExplicitPolicy,
		AckWait:           time.Minute,
		MaxAckPending:     1024,
		InactiveThreshold: resultsInactive,
	})
	if err != nil {
		return nil, fmt.Errorf("create results consumer: %w", err)
	}
	return cons, nil
}

func resultsConsumer(run string) string { return "schedfarm-results-" + run }

// workerConsumer creates the workers' shared consumer, or updates it to
// the coordinator's settings: it belongs to the coordinator.
func (r *run) workerConsumer(ctx context.Context) error {
	cfg := natsutil.WorkerConsumerConfig(r.c.cfg.ackWait, r.c.cfg.maxAttempts)
	if _, err := r.js.CreateOrUpdateConsumer(ctx, natsutil.TaskStream, cfg); err != nil {
		return fmt.Errorf("configure the workers' consumer %s: %w", natsutil.WorkerConsumer, err)
	}
	return nil
}

// publish puts the tasks on the task stream, in chunks, and waits for the
// server to store each (each wait bounded by the wait limit). Every call
// is a new publication with fresh message IDs (see
// natsutil.PublishMsgID), counted in the sweep record before anything is
// published, so no later publication of a task can be taken for a
// duplicate of an earlier one. verify, when not "", names the worker
// whose results of the tasks are to be verified (natsutil.HeaderVerify).
func (r *run) publish(ctx context.Context, tasks []*sweep.Task, verify string) error {
	if len(tasks) == 0 {
		return nil
	}
	r.rec.Publications++
	if err := r.c.store.PutSweep(r.rec); err != nil {
		return err
	}
	n := r.rec.Publications
	for chunk := range slices.Chunk(tasks, publishChunk) {
		futures := make([]jetstream.PubAckFuture, 0, len(chunk))
		for _, t := range chunk {
			msg, err := taskMsg(r.id, t)
			if err != nil {
				return err
			}
			if verify != "" {
				msg.Header.Set(natsutil.HeaderVerify, verify)
			}
			f, err := r.js.PublishMsgAsync(msg, jetstream.WithMsgID(natsutil.PublishMsgID(r.id, t.ID, n)))
			if err != nil {
				return fmt.Errorf("publish task %d: %w", t.Index, err)
			}
			futures = append(futures, f)
		}
		timeout := time.NewTimer(r.c.cfg.waitLimit)
		for i, f := range futures {
			select {
			case <-f.Ok():
			case err := <-f.Err():
				timeout.Stop()
				return fmt.Errorf("publish task %d: %w", chunk[i].Index, err)
			case <-ctx.Done():
				timeout.Stop()
				return fmt.Errorf("publish tasks: %w", ctx.Err())
			case <-timeout.C:
				return fmt.Errorf("publish tasks of sweep %s: the NATS server did not confirm storing task %d (%d of this chunk of %d confirmed) within %v: is its JetStream store full or the server overloaded?",
					r.spec.Name, chunk[i].Index, i, len(chunk), r.c.cfg.waitLimit)
			}
		}
		timeout.Stop()
	}
	return nil
}

// taskMsg builds the message of a task of the run.
func taskMsg(run string, t *sweep.Task) (*nats.Msg, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return nil, fmt.Errorf("encode task %d: %w", t.Index, err)
	}
	msg := nats.NewMsg(natsutil.TaskSubject(run))
	msg.Header.Set(natsutil.HeaderRun, run)
	msg.Header.Set(natsutil.HeaderTask, t.ID)
	msg.Data = data
	return msg, nil
}

// finish writes the outputs, streaming the results from the store one
// task at a time, and closes the run. If stored results do not decode, it
// writes nothing and returns them (with a nil error) so they can run
// again.
func (r *run) finish(ctx context.Context) ([]unreadable, error) {
	c := r.c
	// r.result decodes each result for the writer alone.
	err := results.StreamOutputs(r.rec.OutDir, r.spec, r.tasks, r.result, c.cfg.toolVersion, results.OwnResults(), results.WithTables(report.Tables))
	var u *unreadable
	if errors.As(err, &u) {
		bad, err := r.unreadableFrom(r.byID[u.task.ID] + 1)
		if err != nil {
			return nil, err
		}
		return append([]unreadable{*u}, bad...), nil
	}
	if err != nil {
		return nil, fmt.Errorf("write outputs: %w", err)
	}
	if r.js != nil {
		if err := r.purge(ctx, r.id); err != nil {
			c.log.Warn("clean up run", "err", err)
		}
	}
	for _, t := range r.tasks {
		if st := r.states.at(t.ID); st.Failed() {
			r.report.Failures = append(r.report.Failures, TaskFailure{Index: t.Index, ID: t.ID, Task: t.Describe(), Err: st.Err})
		}
	}
	r.report.OutDir = r.rec.OutDir
	r.rec.Finished = time.Now().UTC()
	if err := c.store.PutSweep(r.rec); err != nil {
		return nil, err
	}
	c.store.CollectGarbage()
	verified := ""
	if c.cfg.verify > 0 {
		verified = fmt.Sprintf(", %d verified on a second worker", r.verifiedCount())
	}
	refused := ""
	if r.report.Refused > 0 {
		refused = fmt.Sprintf(", %d results of another simulator version refused", r.report.Refused)
	}
	c.say("sweep %s: %d tasks done (%d cached, %d failed%s%s) in %s; outputs in %s",
		r.spec.Name, len(r.tasks), r.report.Cached, len(r.report.Failures), verified, refused, r.took(), r.rec.OutDir)
	if len(r.report.Failures) > 0 {
		return nil, &FailedError{Sweep: r.spec.Name, Total: len(r.tasks), Failures: r.report.Failures}
	}
	return nil, nil
}

// took says how long the run took: this session's time and, for a
// resumed run, also the time since the interrupted session began (which
// includes the time the run was down).
func (r *run) took() string {
	d := time.Since(r.began).Round(time.Millisecond)
	if !r.report.Resumed {
		return d.String()
	}
	return fmt.Sprintf("%v this session (resumed; %v since the run began at %s)",
		d, time.Since(r.rec.Started).Round(time.Second), r.rec.Started.Format(time.RFC3339))
}

// say prints one line on the progress writer.
func (c *Coordinator) say(format string, a ...any) {
	fmt.Fprintf(c.cfg.progress, format+"\n", a...)
}

// newRunID returns a random run ID, safe as a subject token.
func newRunID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
