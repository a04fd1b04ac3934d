package schedfarm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a sweep on this machine (embedded NATS server, coordinator and workers in one process)",
		ArgsUsage: "SPEC",
		Description: "Validates SPEC and runs it with --workers local workers through an in-process NATS\n" +
			"server whose JetStream store lives in the state directory, next to the results. The same\n" +
			"coordinator and worker code runs as separate processes with `schedfarm coordinator` and\n" +
			"`schedfarm worker`. Interrupted, it resumes where it stopped when run again with the same\n" +
			"spec; results already in the state are reused (--force recomputes them). Exits non-zero if\n" +
			"tasks failed, after writing all outputs.",
		Flags: append(sweepFlags(),
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.GOMAXPROCS(0), Usage: "tasks run at once"},
			&cli.DurationFlag{Name: "task-time-limit", Value: worker.DefaultTaskTimeLimit, Usage: "stop a task after this long and report it failed, unless its spec sets time_limit"},
			&cli.StringSliceFlag{Name: "allow-external", Usage: "run external policies whose command starts this `INTERPRETER` (repeatable, for example python3); without it such tasks fail"},
			memoryLimitFlag(defaultRunMemoryLimitMiB, "the whole process's (server, coordinator and workers)"),
			memProfileFlag(),
		),
		Action: func(c *cli.Context) (err error) {
			setMemoryLimit(c)
			stopProfile := startMemProfile(c)
			defer func() { err = errors.Join(err, stopProfile()) }()
			spec, err := loadSpecArg(c)
			if err != nil {
				return err
			}
			_, err = runEmbedded(c, spec)
			return err
		},
	}
}

// defaultRunMemoryLimitMiB is the default of run's --memory-limit. Its
// live heap is the coordinator's (the task list and states, the
// writers' row groups) plus the embedded server's (the messages in
// flight, the IDs of the deduplication window) and the workers' (the
// running simulations: a whole-CTC task holds about 60 MB until its
// result is encoded). Without a limit Go lets the heap grow to twice the
// live heap before it collects: 48 whole-CTC tasks on two workers peaked
// at 535 MB resident with a live heap of at most 230 MB, and 274 MB
// under 220 MiB, for 16% more CPU. A sweep whose live heap exceeds the
// limit makes the collector run often (up to half the CPU): such sweeps
// want a higher limit, or none (--memory-limit 0).
const defaultRunMemoryLimitMiB = 220

// runEmbedded runs spec with an in-process NATS server, the coordinator
// and --workers local workers, with the flags of c (see sweepFlags); opts
// are applied after the flags' coordinator options.
func runEmbedded(c *cli.Context, spec *sweep.Spec, opts ...coordinator.Option) (*coordinator.Report, error) {
	if c.Int("workers") < 1 {
		return nil, cliUsageError(c, "--workers %d: must be at least 1", c.Int("workers"))
	}
	if err := checkSweepFlags(c); err != nil {
		return nil, err
	}
	if c.Float64("verify") > 0 && c.Int("workers") < 2 {
		return nil, cliUsageError(c, "--verify needs at least two workers (--workers %d)", c.Int("workers"))
	}
	log := newLogger(c)
	state := c.String("state")
	store, err := coordinator.OpenStore(state)
	if err != nil {
		return nil, err
	}
	defer store.Close()

	ns, err := natsutil.StartServer(c.Context, filepath.Join(state, "nats"))
	if err != nil {
		return nil, err
	}
	defer func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	}()
	wnc, err := natsutil.ConnectInProcess(ns, "schedfarm run workers")
	if err != nil {
		return nil, err
	}
	defer wnc.Close()
	cnc, err := natsutil.ConnectInProcess(ns, "schedfarm run coordinator")
	if err != nil {
		return nil, err
	}
	defer cnc.Close()

	// Tasks that the workers of a killed earlier run had taken would
	// wait for the consumer's AckWait: the server is this process's
	// alone, so start the consumer afresh instead.
	if err := natsutil.ResetWorkers(c.Context, wnc); err != nil {
		return nil, err
	}
	// One worker with all the slots; with --verify two, each with half
	// of them, so that a task's second run can go to another worker.
	slots := []int{c.Int("workers")}
	if c.Float64("verify") > 0 {
		slots = []int{c.Int("workers") / 2, c.Int("workers") - c.Int("workers")/2}
	}
	limit := c.Duration("task-time-limit")
	if limit == 0 { // a command without the flag (reproduce)
		limit = worker.DefaultTaskTimeLimit
	}
	var workers []*worker.Worker
	for i, n := range slots {
		opts := []worker.Option{
			worker.WithConcurrency(n),
			worker.WithCacheDir(filepath.Join(state, "cache")),
			// Everything stops together: give running tasks back at
			// once, so a resumed run redelivers them without delay.
			worker.WithDrainTimeout(0),
			// Short pull requests: the workers stop within this when
			// the sweep is done (in process, polling costs nothing).
			worker.WithFetchWait(100 * time.Millisecond),
			worker.WithAckWait(c.Duration("ack-wait")),
			worker.WithMaxAttempts(c.Int("max-attempts")),
			worker.WithTaskTimeLimit(limit),
			worker.WithAllowExternal(c.StringSlice("allow-external")...),
			worker.WithLogger(log),
		}
		if len(slots) > 1 {
			opts = append(opts, worker.WithName(fmt.Sprintf("local-%d", i+1)))
		}
		w, err := worker.New(wnc, opts...)
		if err != nil {
			return nil, err
		}
		workers = append(workers, w)
	}
	wctx, stopWorkers := context.WithCancel(c.Context)
	cctx, stopCoordinator := context.WithCancel(c.Context)
	defer stopCoordinator()
	werr := make(chan error, len(workers))
	for _, w := range workers {
		go func() {
			err := w.Run(wctx)
			if err != nil {
				stopCoordinator() // a worker failed: stop rather than wait
			}
			werr <- err
		}()
	}

	report, err := coordinator.New(store, cnc, append(coordinatorOptions(c, log), opts...)...).Run(cctx, spec)
	stopWorkers()
	for range workers {
		err = errors.Join(err, <-werr)
	}
	if err != nil && strings.Contains(err.Error(), "error creating store") {
		err = fmt.Errorf("%w\nschedfarm: the embedded NATS server's store under %s is damaged: remove that directory and run again; it holds only tasks and results in transit (every recorded result is in the state, and the run resumes)",
			err, filepath.Join(state, "nats"))
	}
	_ = wnc.FlushTimeout(5 * time.Second)
	return report, err
}
