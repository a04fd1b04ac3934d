package schedfarm

import (
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/worker"
)

func workerCommand() *cli.Command {
	return &cli.Command{
		Name:      "worker",
		Usage:     "run sweep tasks taken from an external NATS server",
		ArgsUsage: " ",
		Description: "Pulls tasks of any sweep from the NATS server, runs them (up to --concurrency at once)\n" +
			"and publishes the results. Traces are fetched from the server's object store into --cache.\n" +
			"The worker keeps no state: kill it at any time and its tasks go to other workers after\n" +
			"--ack-wait. On SIGINT/SIGTERM it stops taking tasks and lets running ones finish for up to\n" +
			"--drain-timeout, then gives them back.",
		Flags: append(natsFlags(),
			&cli.IntFlag{Name: "concurrency", Aliases: []string{"c"}, Value: runtime.GOMAXPROCS(0), Usage: "tasks run at once"},
			&cli.StringFlag{Name: "cache", EnvVars: []string{"SCHEDFARM_CACHE"}, Usage: "trace cache `DIR` (default: the user cache dir's schedfarm/traces)"},
			&cli.StringFlag{Name: "name", Usage: "worker `NAME` recorded in results (default: host name and pid)"},
			&cli.DurationFlag{Name: "ack-wait", Value: worker.DefaultAckWait, Usage: "redeliver a task this long after its worker's last sign of life; only used to create the workers' consumer when no coordinator has (the coordinator's --ack-wait decides, and a worker never changes it)"},
			&cli.IntFlag{Name: "max-attempts", Value: worker.DefaultMaxAttempts, Usage: "report a task as failed after this many deliveries; like --ack-wait, the coordinator's setting decides"},
			&cli.DurationFlag{Name: "drain-timeout", Value: worker.DefaultDrainTimeout, Usage: "on shutdown, let running tasks finish this long"},
			&cli.DurationFlag{Name: "task-time-limit", Value: worker.DefaultTaskTimeLimit, Usage: "stop a task after this long and report it failed, unless its spec sets time_limit"},
			&cli.StringSliceFlag{Name: "allow-external", Usage: "run external policies whose command starts this `INTERPRETER` (repeatable, for example python3); without it such tasks fail. Only the files that came with the sweep run, checked by sha256, in a scratch directory"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "log debugging events too (default: one line per task and warnings)"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliUsageError(c, "unexpected argument %q", c.Args().First())
			}
			log := newWorkerLogger(c)
			nc, err := connectNATS(c, "schedfarm worker", log)
			if err != nil {
				return err
			}
			defer nc.Close()
			w, err := worker.New(nc,
				worker.WithConcurrency(c.Int("concurrency")),
				worker.WithCacheDir(c.String("cache")),
				worker.WithName(c.String("name")),
				worker.WithAckWait(c.Duration("ack-wait")),
				worker.WithMaxAttempts(c.Int("max-attempts")),
				worker.WithDrainTimeout(c.Duration("drain-timeout")),
				worker.WithTaskTimeLimit(c.Duration("task-time-limit")),
				worker.WithAllowExternal(c.StringSlice("allow-external")...),
				worker.WithLogger(log),
			)
			if err != nil {
				return err
			}
			if err := w.Run(c.Context); err != nil {
				return err
			}
			// Make sure the last acks and naks reach the server.
			_ = nc.FlushTimeout(5 * time.Second)
			return nil
		},
	}
}
