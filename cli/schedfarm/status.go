package schedfarm

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/reproduction"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show the progress of sweeps recorded in a state directory",
		ArgsUsage: "[SPEC or SWEEP NAME]",
		Description: "Prints done/total, failures and timing of the named sweep's latest run, or of every\n" +
			"sweep in the state directory. It needs no NATS server. It opens the state read-only; while\n" +
			"a coordinator (or `schedfarm run`) holds the state, it shows that coordinator's live\n" +
			"progress file instead (running count, rate and ETA, no failure list).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "state", Value: defaultStateDir, Usage: "state `DIR`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cliUsageError(c, "want at most one SPEC or sweep name, got %d arguments", c.NArg())
			}
			name, hash := c.Args().First(), ""
			if fi, err := os.Stat(name); name != "" && err == nil && fi.Mode().IsRegular() {
				spec, err := reproduction.LoadSpecFile(name)
				if err != nil {
					return err
				}
				name, hash = spec.Name, spec.Hash
			}
			sts, err := coordinator.ReadStatus(c.String("state"), name)
			if err != nil {
				return err
			}
			if len(sts) == 0 {
				return errors.New("no sweeps in the state yet")
			}
			for _, s := range sts {
				printStatus(os.Stdout, s)
				if hash != "" && s.Hash != "" && s.Hash != hash {
					fmt.Println("  note: that run is of another version of the spec (its hash differs)")
				}
			}
			return nil
		},
	}
}

func printStatus(w io.Writer, s coordinator.Status) {
	state := "in progress"
	switch {
	case s.Live:
		state = "running now"
	case !s.Finished.IsZero():
		state = "finished " + s.Finished.Local().Format(time.DateTime)
	}
	pct := 0.0
	if s.Total > 0 {
		pct = 100 * float64(s.Done) / float64(s.Total)
	}
	fmt.Fprintf(w, "sweep %s (run %s): %s\n", s.Sweep, s.RunID, state)
	fmt.Fprintf(w, "  %d/%d done (%.0f%%), %d failed", s.Done, s.Total, pct, s.Failed)
	if !s.Live {
		fmt.Fprintf(w, ", %d from the result cache", s.Cached)
	} else {
		eta := "?"
		if s.Rate > 0 {
			eta = s.ETA.String()
		}
		fmt.Fprintf(w, ", %d running, %.1f tasks/s, ETA %s", s.Running, s.Rate, eta)
	}
	fmt.Fprintln(w)
	if !s.Started.IsZero() {
		fmt.Fprintf(w, "  started %s, last update %s\n", s.Started.Local().Format(time.DateTime), s.Updated.Local().Format(time.DateTime))
	}
	if s.OutDir != "" {
		fmt.Fprintf(w, "  outputs: %s\n", s.OutDir)
	}
	for _, f := range s.Failures {
		fmt.Fprintf(w, "  failed: task %d (id %.12s): %s\n", f.Index, f.ID, f.Err)
	}
}
