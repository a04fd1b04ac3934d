package natsutil

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream assets the farm uses. Every sweep run shares them;
// a run's messages are told apart by the run ID in their subject.
const (
	// TaskStream holds tasks waiting for a worker (WorkQueue retention: a
	// task leaves the stream when a worker acks it).
	TaskStream = "SCHEDFARM_TASKS"
	// ResultStream holds results waiting for their coordinator (WorkQueue
	// retention: a result leaves the stream when the coordinator has
	// recorded it and acks it).
	ResultStream = "SCHEDFARM_RESULTS"
	// WorkerConsumer is the durable pull consumer every worker shares.
	WorkerConsumer = "schedfarm-workers"
	// TraceBucket is the object store of trace files, named by the hex
	// sha256 of their bytes.
	TraceBucket = "schedfarm-traces"
	// ResultBucket is the object store of results too large for a message,
	// named by [MsgID].
	ResultBucket = "schedfarm-results"
)

// Message headers besides Nats-Msg-Id.
const (
	// HeaderRun carries the run ID on task and result messages.
	HeaderRun = "Schedfarm-Run"
	// HeaderTask carries the task ID on task and result messages.
	HeaderTask = "Schedfarm-Task"
	// HeaderResultObject, on a result message with an empty body, names the
	// [ResultBucket] object holding the result.
	HeaderResultObject = "Schedfarm-Result-Object"
	// HeaderFailed is "true" on a result message whose result is an error
	// result (informational; the result itself says so too).
	HeaderFailed = "Schedfarm-Failed"
	// HeaderEnvironment is "true" on an error result whose cause is the
	// worker's environment (no space left, permission denied, an I/O
	// error), not the task: the coordinator stops the sweep with that
	// error instead of recording a failure, and a resume runs the task
	// again.
	HeaderEnvironment = "Schedfarm-Environment-Error"
	// HeaderVerify, on a task message, names the worker whose result of
	// the task is to be verified: a worker of that name gives the task
	// back, any other runs it; its result message carries the header
	// too, so the coordinator compares the two results instead of
	// recording a duplicate.
	HeaderVerify = "Schedfarm-Verify"
	// HeaderWorker and HeaderSlots, on a [StartedSubject] message, name
	// the worker that started the task and how many tasks it runs at
	// once, so the coordinator's "running" count never exceeds the
	// slots that exist.
	HeaderWorker = "Schedfarm-Worker"
	HeaderSlots  = "Schedfarm-Slots"
)

// TraceFilenameKey is the object metadata key holding a trace's original
// file name (the worker keeps the name, and so the .gz suffix, in its cache).
const TraceFilenameKey = "filename"

// DefaultDuplicateWindow is the server-side deduplication window of both
// streams: a task or result published again with the same message ID
// within it is dropped by the server. The server keeps every ID of the
// window in memory, about 170 bytes each: the 100,000 task messages a
// coordinator publishes at the start of a 100,000-task sweep held 17 MB
// for as long as the window lasted, and its results, at about 500 a
// second, about 10 MB more under the server's default window of 2 minutes
// (34 MB in all under the 24 hours of an earlier build). Nothing needs a
// long window: each publication of a task has fresh IDs
// ([PublishMsgID]), so a task is never published twice with one ID, and
// the coordinator recognises a result it already has and drops it
// whenever it comes (counted as a duplicate in its report). The
// window spares it a second copy only when both come within it: a
// client's own retry of a publication (nats.go retries one that found no
// server answering, within a second), or two slots finishing a task
// message delivered twice at about the same time. A worker's publication
// again after one whose acknowledgement was lost comes a minute later
// or more (a publish times out after a minute, then the task comes back
// after the worker's nak) and is dropped by the coordinator.
const DefaultDuplicateWindow = 10 * time.Second

// ResultMaxAge is how long a result waits for its coordinator in
// [ResultStream] and [ResultBucket]; older ones are dropped. It only
// matters for results nobody will collect (those of a run that was purged
// while a worker was still running one of its tasks) and for a coordinator
// that stays down longer than this: resumed, it publishes the tasks whose
// results expired again (the deduplication window, shorter, has passed).
const ResultMaxAge = 7 * 24 * time.Hour

// TaskSubject is the subject of a run's task messages.
func TaskSubject(run string) string { return "schedfarm.tasks." + run }

// ResultSubject is the subject of a run's result messages.
func ResultSubject(run string) string { return "schedfarm.results." + run }

// StartedSubject is the plain NATS subject (no JetStream) on which workers
// announce that they started a run's task; the body is the task ID. It only
// feeds the coordinator's "running" count.
func StartedSubject(run string) string { return "schedfarm.started." + run }

// MsgID is the run ID and the task ID: the stem of the Nats-Msg-Id of a
// task's publications ([PublishMsgID]), and the ID a worker gives a
// result whose task message carried none. The run ID scopes deduplication
// to one run, so a later run (--force, or a retry of failed tasks) is not
// taken for a duplicate of an earlier one.
func MsgID(run, task string) string { return run + "." + task }

// PublishMsgID is the Nats-Msg-Id of the n-th publication of a task in a
// run (n >= 1 counts the coordinator's publications, persisted in its
// state): every publication gets a fresh ID, so a task published again
// after its first message was consumed (its result lost, or refused) is
// not dropped by the deduplication window. A worker gives its result
// message the Nats-Msg-Id of the task message it ran, so a task message
// run twice yields one result message.
func PublishMsgID(run, task string, n int) string {
	return MsgID(run, task) + "." + strconv.Itoa(n)
}

// Defaults of the workers' consumer.
const (
	// DefaultAckWait is how long the server waits for a worker's ack or
	// progress signal before it redelivers a task.
	DefaultAckWait = 30 * time.Second
	// DefaultMaxAttempts is how many times a task is tried before it is
	// reported as failed.
	DefaultMaxAttempts = 5
)

// WorkerConsumerConfig is the configuration of the workers' shared
// durable pull consumer [WorkerConsumer] for the given AckWait and attempt
// limit (MaxDeliver is one more, for the delivery that reports the
// failure). The coordinator owns it: it creates or updates it with its
// settings; a worker creates it only when it is missing and otherwise
// uses it as it is.
func WorkerConsumerConfig(ackWait time.Duration, maxAttempts int) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       WorkerConsumer,
		Description:   "schedfarm workers",
		FilterSubject: TaskSubject("*"),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxDeliver:    maxAttempts + 1,
		MaxAckPending: 100000,
		MaxWaiting:    4096,
	}
}

// TaskStreamConfig is the configuration of [TaskStream].
func TaskStreamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        TaskStream,
		Description: "schedfarm tasks waiting for a worker",
		Subjects:    []string{TaskSubject("*")},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  DefaultDuplicateWindow,
	}
}

// ResultStreamConfig is the configuration of [ResultStream].
func ResultStreamConfig() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        ResultStream,
		Description: "schedfarm results waiting for their coordinator",
		Subjects:    []string{ResultSubject("*")},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Duplicates:  DefaultDuplicateWindow,
		MaxAge:      ResultMaxAge,
	}
}

// Setup creates (or updates to the configuration above) both streams and
// both object stores. Coordinators and workers both call it, so either may
// start first.
func Setup(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range []jetstream.StreamConfig{TaskStreamConfig(), ResultStreamConfig()} {
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("create stream %s: %w", cfg.Name, err)
		}
	}
	if _, err := TraceStore(ctx, js); err != nil {
		return err
	}
	if _, err := ResultStore(ctx, js); err != nil {
		return err
	}
	return nil
}

// TraceStore returns the [TraceBucket] object store, creating it if missing.
func TraceStore(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	return objectStore(ctx, js, jetstream.ObjectStoreConfig{
		Bucket:      TraceBucket,
		Description: "schedfarm trace files by sha256",
	})
}

// ResultStore returns the [ResultBucket] object store, creating it if
// missing.
func ResultStore(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	return objectStore(ctx, js, jetstream.ObjectStoreConfig{
		Bucket:      ResultBucket,
		Description: "schedfarm results too large for a message",
		TTL:         ResultMaxAge,
	})
}

// objectStore returns the object store cfg names, creating it with file
// storage if missing.
func objectStore(ctx context.Context, js jetstream.JetStream, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error) {
	bucket := cfg.Bucket
	obs, err := js.ObjectStore(ctx, bucket)
	if err == nil {
		return obs, nil
	}
	cfg.Storage = jetstream.FileStorage
	obs, err = js.CreateOrUpdateObjectStore(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("create object store %s: %w", bucket, err)
	}
	return obs, nil
}

// ResetWorkers deletes the workers' durable consumer if it exists, so that
// tasks delivered to workers that are gone are delivered again at once
// instead of after the consumer's AckWait; the next worker to start
// creates the consumer again. Only call it when no worker is running:
// tasks of running workers would be delivered twice.
func ResetWorkers(ctx context.Context, nc *nats.Conn) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("open jetstream: %w", err)
	}
	err = js.DeleteConsumer(ctx, TaskStream, WorkerConsumer)
	if err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("reset workers' consumer: %w", err)
	}
	return nil
}
