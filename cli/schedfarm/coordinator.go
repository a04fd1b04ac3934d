package schedfarm

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/natsutil"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/sweep"
)

// defaultStateDir is where coordinators keep their state by default.
const defaultStateDir = ".schedfarm"

func coordinatorCommand() *cli.Command {
	return &cli.Command{
		Name:      "coordinator",
		Usage:     "run a sweep on workers reached through an external NATS server",
		ArgsUsage: "SPEC",
		Description: "Validates SPEC, publishes its tasks on the NATS server's JetStream (traces go through\n" +
			"an object store, so workers need no shared filesystem), records every result in the state\n" +
			"directory as it arrives and writes the outputs when all tasks are in. Start any number of\n" +
			"`schedfarm worker --nats URL` processes, before or after. Killed or interrupted, the\n" +
			"coordinator resumes where it stopped when started again with the same spec; results\n" +
			"already in the state are reused (--force recomputes them). Exits non-zero if tasks failed,\n" +
			"after writing all outputs.",
		Flags: append(append(natsFlags(), sweepFlags()...), memoryLimitFlag(defaultMemoryLimitMiB, "the coordinator's"), memProfileFlag()),
		Action: func(c *cli.Context) (err error) {
			stopProfile := startMemProfile(c)
			defer func() { err = errors.Join(err, stopProfile()) }()
			if err := checkSweepFlags(c); err != nil {
				return err
			}
			spec, err := loadSpecArg(c)
			if err != nil {
				return err
			}
			setMemoryLimit(c)
			log := newLogger(c)
			store, err := coordinator.OpenStore(c.String("state"))
			if err != nil {
				return err
			}
			defer store.Close()
			nc, err := connectNATS(c, "schedfarm coordinator "+spec.Name, log)
			if err != nil {
				return err
			}
			defer nc.Close()
			_, err = coordinator.New(store, nc, coordinatorOptions(c, log)...).Run(c.Context, spec)
			return err
		},
	}
}

// sweepFlags are the flags of the commands that run a sweep.
func sweepFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "state", Value: defaultStateDir, Usage: "state `DIR`: results, task states (and, for run, the NATS store and trace cache)"},
		&cli.StringFlag{Name: "out", Usage: "output `DIR` (default: out/<sweep name>)"},
		&cli.BoolFlag{Name: "force", Usage: "recompute every task instead of reusing cached results"},
		&cli.DurationFlag{Name: "progress-interval", Value: coordinator.DefaultProgressInterval, Usage: "when stdout is not a terminal, a progress line for each change of the counts, at most one per this interval"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "log informational events to stderr"},
		&cli.Float64Flag{Name: "verify", Usage: "run this `FRACTION` (0..1) of the tasks, chosen by task ID, a second time on a different worker and fail on any byte of difference, naming both workers"},
		&cli.DurationFlag{Name: "ack-wait", Value: natsutil.DefaultAckWait, Usage: "workers' consumer: redeliver a task this long after its worker's last sign of life (the coordinator's setting holds for all workers)"},
		&cli.IntFlag{Name: "max-attempts", Value: natsutil.DefaultMaxAttempts, Usage: "workers' consumer: report a task as failed after this many deliveries"},
	}
}

// defaultMemoryLimitMiB is the default of the coordinator's --memory-limit.
// Writing the outputs, the coordinator's live heap is about 120-140 MB
// whatever the number of job rows (see package coordinator); without a
// limit Go lets the heap grow to twice that before collecting. With the
// binary's own pages (40-50 MB) and Badger's mapped tables, 170 MiB keeps
// the process under 250 MB resident for the sweeps measured in the README
// (40 and 400 whole-trace tasks, 10,000 small ones), at the cost of more
// frequent collections.
const defaultMemoryLimitMiB = 170

// memoryLimitFlag is the --memory-limit of the coordinator and of run,
// with its default in MiB; whose says whose memory it limits.
func memoryLimitFlag(def int, whose string) cli.Flag {
	return &cli.IntFlag{Name: "memory-limit", Value: def,
		Usage: "soft limit of " + whose + " Go memory in `MiB`, so it collects garbage before the heap doubles (0: no limit; GOMEMLIMIT in the environment takes precedence)"}
}

// setMemoryLimit applies --memory-limit unless GOMEMLIMIT is set. The
// limit is soft: a live heap above it is collected more often, not
// refused.
func setMemoryLimit(c *cli.Context) {
	if mib := c.Int("memory-limit"); mib > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(mib) << 20)
	}
}

// natsFlags are the flags that reach an external NATS server.
func natsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "nats", Required: true, EnvVars: []string{"SCHEDFARM_NATS"}, Usage: "NATS server `URL`s, comma-separated"},
		&cli.StringFlag{Name: "creds", EnvVars: []string{"SCHEDFARM_NATS_CREDS"}, Usage: "NATS credentials `FILE`"},
		&cli.StringFlag{Name: "token", EnvVars: []string{"SCHEDFARM_NATS_TOKEN"}, Usage: "NATS auth `TOKEN` (prefer the environment variable)"},
		&cli.StringFlag{Name: "tls-ca", Usage: "PEM `FILE` of CAs to verify the server (default: system roots)"},
		&cli.StringFlag{Name: "tls-cert", Usage: "client certificate PEM `FILE` (with --tls-key)"},
		&cli.StringFlag{Name: "tls-key", Usage: "client key PEM `FILE` (with --tls-cert)"},
		&cli.DurationFlag{Name: "connect-timeout", Value: defaultConnectTimeout, Usage: "give up when no NATS server was reached for this long (0: retry forever)"},
	}
}

// defaultConnectTimeout is the default of --connect-timeout.
const defaultConnectTimeout = 2 * time.Minute

// connectNATS connects with the natsFlags, retrying while the server is
// not up yet (until the command's context ends).
func connectNATS(c *cli.Context, name string, log *slog.Logger) (*nats.Conn, error) {
	log.Info("connecting to nats", "url", natsutil.Redacted(c.String("nats")), "connect_timeout", c.Duration("connect-timeout"))
	return natsutil.Connect(c.Context, c.String("nats"),
		natsutil.WithConnectTimeout(c.Duration("connect-timeout")),
		natsutil.WithName(name),
		natsutil.WithCreds(c.String("creds")),
		natsutil.WithToken(c.String("token")),
		natsutil.WithTLS(c.String("tls-ca"), c.String("tls-cert"), c.String("tls-key")),
		natsutil.WithRetryConnect(true),
		natsutil.WithEventHandler(func(s string) { log.Warn(s) }),
	)
}

// loadSpecArg loads and validates the one SPEC argument.
func loadSpecArg(c *cli.Context) (*sweep.Spec, error) {
	if c.NArg() != 1 {
		return nil, cliUsageError(c, "want one SPEC argument, got %d", c.NArg())
	}
	return reproduction.LoadSpecFile(c.Args().First())
}

// checkSweepFlags validates the sweepFlags that need more than a type.
func checkSweepFlags(c *cli.Context) error {
	if v := c.Float64("verify"); !(v >= 0 && v <= 1) {
		return cliUsageError(c, "--verify %v: must be a fraction from 0 to 1", v)
	}
	if d := c.Duration("ack-wait"); d < time.Second {
		return cliUsageError(c, "--ack-wait %v: must be at least 1s", d)
	}
	if n := c.Int("max-attempts"); n < 1 {
		return cliUsageError(c, "--max-attempts %d: must be at least 1", n)
	}
	return nil
}

// coordinatorOptions builds the coordinator options from sweepFlags.
func coordinatorOptions(c *cli.Context, log *slog.Logger) []coordinator.Option {
	return []coordinator.Option{
		coordinator.WithVerify(c.Float64("verify")),
		coordinator.WithWorkerConsumer(c.Duration("ack-wait"), c.Int("max-attempts")),
		coordinator.WithOutDir(c.String("out")),
		coordinator.WithForce(c.Bool("force")),
		coordinator.WithProgress(os.Stdout),
		coordinator.WithProgressInterval(c.Duration("progress-interval")),
		coordinator.WithToolVersion(toolVersion()),
		coordinator.WithLogger(log),
	}
}

// newLogger logs to stderr: warnings and errors, or everything from info
// up with --verbose.
func newLogger(c *cli.Context) *slog.Logger {
	level := slog.LevelWarn
	if c.Bool("verbose") {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// newWorkerLogger logs to stderr from info up (one line per task, the
// NATS URL at start), or everything with --verbose.
func newWorkerLogger(c *cli.Context) *slog.Logger {
	level := slog.LevelInfo
	if c.Bool("verbose") {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// cliUsageError returns a usage error with a hint to the command's help.
func cliUsageError(c *cli.Context, format string, a ...any) error {
	return fmt.Errorf(format+" (Try: schedfarm %s --help)", append(a, c.Command.Name)...)
}
