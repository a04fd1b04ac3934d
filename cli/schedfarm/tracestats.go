package schedfarm

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/sweep"
)

func tracestatsCommand() *cli.Command {
	return &cli.Command{
		Name:      "tracestats",
		Usage:     "print workload statistics of traces (Lawson, Smirni and Puiu 2002, Table 1 and Figs 1-2)",
		ArgsUsage: "TRACE...",
		Description: "Reads each TRACE (an SWF file, or a shipped trace's short name: " + strings.Join(sweep.ShippedTraces(), ", ") + ",\n" +
			"looked up in traces/ of the working directory and its parents) with the simulator's rules\n" +
			"(jobs with runtime <= 0, size <= 0 or wider than the machine dropped) and prints, one column\n" +
			"per trace: the job count, mean, median and CV (population standard deviation / mean) of the\n" +
			"runtime and of the processors, jobs per week, and summaries of the per-batch statistics.\n" +
			"With --out DIR it also writes DIR/table1.md, fig01-weekly.csv (jobs per week), fig02-batches.csv\n" +
			"(per batch of --batch consecutive jobs: mean and CV of the runtime, overall and per len4\n" +
			"class, and the class shares) and their figures. A TRACE that names a synthetic workload\n" +
			"(" + strings.Join(workload.Synthetics(), ", ") + ") and is not a file is generated with the model's defaults and --seed.\n\n" +
			"Examples:\n" +
			"  schedfarm tracestats ctc kth sdsc sdsc-par\n" +
			"  schedfarm tracestats --out out/tracestats --format svg ctc\n" +
			"  schedfarm tracestats ctc lublin",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "batch", Value: report.DefaultBatch, Usage: "jobs per batch"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of a synthetic workload"},
			&cli.StringFlag{Name: "out", Usage: "write the table, CSV files and figures into `DIR`"},
			&cli.StringFlag{Name: "format", Value: strings.Join(report.Formats, ","), Usage: "comma-separated figure `FORMATS`: png, svg"},
		},
		Action: runTracestats,
	}
}

func runTracestats(c *cli.Context) error {
	if c.NArg() == 0 {
		return fmt.Errorf("tracestats: missing TRACE")
	}
	if c.Int("batch") <= 0 {
		return fmt.Errorf("tracestats: --batch must be > 0, got %d", c.Int("batch"))
	}
	var stats []report.WorkloadStats
	for _, arg := range c.Args().Slice() {
		wl, path, err := tracestatsWorkload(c, arg)
		if err != nil {
			return err
		}
		n := len(wl.Jobs)
		sub, rt, pr := make([]float64, n), make([]float64, n), make([]float64, n)
		for i, j := range wl.Jobs {
			sub[i], rt[i], pr[i] = float64(j.Submit), float64(j.Runtime), float64(j.Procs)
		}
		name := fmt.Sprintf("%s (%d processors)", sweep.TraceName(path), wl.Procs)
		stats = append(stats, report.ComputeWorkloadStats(name, sub, rt, pr, c.Int("batch")))
	}
	if err := report.WriteStatsTable(c.App.Writer, stats); err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		return nil
	}
	var formats []string
	for f := range strings.SplitSeq(c.String("format"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			formats = append(formats, f)
		}
	}
	files, err := report.WriteStatsFiles(out, stats, formats)
	for _, f := range files {
		fmt.Fprintln(c.App.Writer, f)
	}
	return err
}

// tracestatsWorkload reads the trace arg, or generates the synthetic
// workload arg names when no such file exists; path is the file, or the
// synthetic workload's name.
func tracestatsWorkload(c *cli.Context, arg string) (*workload.Workload, string, error) {
	if _, err := os.Stat(arg); err != nil && slices.Contains(workload.Synthetics(), arg) {
		wl, err := workload.Synthetic(arg, 0, 1, nil, c.Uint64("seed"))
		return wl, arg, err
	}
	path, err := findTrace(arg)
	if err != nil {
		return nil, "", err
	}
	wl, err := workload.LoadContext(c.Context, path, workload.Options{Estimates: workload.EstimateAccurate}, workload.Limits{})
	return wl, path, err
}

// findTrace returns the file of a trace argument: an existing file, or a
// shipped trace's short name found in traces/ of the working directory
// or one of its parents.
func findTrace(arg string) (string, error) {
	if _, err := os.Stat(arg); err == nil {
		return arg, nil
	}
	file, ok := sweep.ShippedTraceFile(arg)
	if !ok {
		return "", fmt.Errorf("trace %q: no such file, and not a shipped trace (%s)", arg, strings.Join(sweep.ShippedTraces(), ", "))
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, sweep.TracesDir, file)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("trace %q: %s not found in %s/ of the working directory or its parents", arg, file, sweep.TracesDir)
		}
		dir = parent
	}
}
