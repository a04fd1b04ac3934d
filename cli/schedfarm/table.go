package schedfarm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

func tableCommand() *cli.Command {
	return &cli.Command{
		Name:      "table",
		Usage:     "print a sweep's per-category tables laid out like the papers' tables",
		ArgsUsage: "DIR",
		Description: "Reads summary.parquet and tasks.parquet in DIR (a sweep's output directory) and prints,\n" +
			"per workload (trace, subset, estimates, load), the chosen metric per category of the chosen\n" +
			"scheme: one grid per policy setting (--layout grid), or one table with a row per category\n" +
			"and a column per setting (--layout wide). Replications of a setting are combined: means by\n" +
			"their mean, maxima by their maximum. With --baseline, every setting is compared with the\n" +
			"baseline's value (--compare ratio: value / baseline; pct: change in percent; r: Lawson and\n" +
			"Smirni's R = (s1 - s) / min(s1, s), s1 the baseline's value, positive when lower is better).\n\n" +
			"Examples:\n" +
			"  schedfarm table out/quickstart\n" +
			"  schedfarm table out/reproduce/kettimuthu2005/fig07-14 --metric bsd_max --baseline NS\n" +
			"  schedfarm table out/quickstart --layout wide --where trace=CTC-SP2-1996-3.1-cln --where load=1\n" +
			"  schedfarm table out/quickstart --scheme ss4 --out out/quickstart/ss4\n" +
			"  schedfarm table out/quickstart --metric slowdown_mean --scheme ss4 --layout wide --baseline easy --compare r\n" +
			"  schedfarm table out/quickstart --ci --metric bsd_p90 --scheme ss4 --baseline easy\n" +
			"DIR may also be a reproduced group's folder (out/reproduce/PAPER/GROUP), whose sweep/ is read.",
		Flags: []cli.Flag{
			metricFlag(),
			schemeFlag(),
			&cli.StringSliceFlag{Name: "where", Usage: "keep rows with `KEY=VALUE` (repeatable; one key repeated means any of its values): " +
				"trace, policy, label, estimates, load, load_mode, skip, count, replication, procs or a parameter name"},
			&cli.StringFlag{Name: "baseline", Usage: "compare every setting with the setting `NAME` (a label, a policy name or a shown setting name)"},
			&cli.StringFlag{Name: "compare", Value: report.CompareRatio, Usage: "how to compare with --baseline: ratio, pct or r"},
			&cli.StringFlag{Name: "layout", Value: report.LayoutGrid, Usage: "grid (a scheme grid per setting) or wide (rows: categories, columns: settings)"},
			&cli.StringFlag{Name: "out", Usage: "write `PREFIX`.md and PREFIX.csv instead of printing Markdown"},
			&cli.BoolFlag{Name: "ci", Usage: "print, per workload, each setting's mean across replications ± the 95% confidence half-width (Student's t) per category; with --baseline, each setting's paired difference from the baseline with its interval, * where it excludes 0 (see docs/statistics.md)"},
		},
		Action: runTable,
	}
}

func runTable(c *cli.Context) error {
	dir, where, err := dirAndWhere(c)
	if err != nil {
		return err
	}
	opts := report.TableOptions{
		Metric: c.String("metric"), Scheme: c.String("scheme"), Where: where,
		Baseline: c.String("baseline"), Layout: c.String("layout"),
	}
	if c.IsSet("compare") || opts.Baseline != "" {
		opts.Compare = c.String("compare")
	}
	s, err := report.Load(dir)
	if err != nil {
		return err
	}
	if c.Bool("ci") {
		if c.IsSet("compare") || c.IsSet("layout") || c.IsSet("out") {
			return cliUsageError(c, "--ci prints its own table: without --compare, --layout or --out")
		}
		return s.WriteConfidence(c.App.Writer, opts)
	}
	if out := c.String("out"); out != "" {
		files, err := s.WriteTables(out, opts)
		if err != nil {
			return err
		}
		for _, f := range files {
			fmt.Fprintln(c.App.Writer, f)
		}
		return nil
	}
	return s.WriteMarkdown(c.App.Writer, opts)
}

// sweepDir returns dir, or dir/sweep when dir is a reproduced figure
// group's folder (out/reproduce/PAPER/GROUP) rather than a sweep's output.
func sweepDir(dir string) string {
	if _, err := os.Stat(filepath.Join(dir, "summary.parquet")); err == nil {
		return dir
	}
	if _, err := os.Stat(filepath.Join(dir, "sweep", "summary.parquet")); err == nil {
		return filepath.Join(dir, "sweep")
	}
	return dir
}

// metricFlag is the --metric flag of table and plot.
func metricFlag() cli.Flag {
	return &cli.StringFlag{Name: "metric", Usage: "`NAME`: " + strings.Join(metrics.MetricNames(), ", ") + " (default: the spec's outputs.tables.metric, else bsd_mean)"}
}

// schemeFlag is the --scheme flag of table and plot.
func schemeFlag() cli.Flag {
	return &cli.StringFlag{Name: "scheme", Usage: "category scheme `NAME`, one of the sweep's categories (default: the spec's outputs.tables.scheme, else its first)"}
}

// dirAndWhere returns the sweep directory argument of table and plot and
// their parsed --where filters.
func dirAndWhere(c *cli.Context) (string, []report.Filter, error) {
	dir, err := dirArg(c)
	if err != nil {
		return "", nil, err
	}
	where, err := report.ParseFilters(c.StringSlice("where"))
	if err != nil {
		return "", nil, fmt.Errorf("--where: %w", err)
	}
	return dir, where, nil
}

// dirArg returns the one DIR argument of a command (see sweepDir).
func dirArg(c *cli.Context) (string, error) {
	switch c.NArg() {
	case 0:
		return "", fmt.Errorf("%s: missing DIR, a sweep's output directory", c.Command.Name)
	case 1:
		return sweepDir(c.Args().First()), nil
	}
	return "", fmt.Errorf("%s: want one DIR, got %d arguments: %q", c.Command.Name, c.NArg(), c.Args().Slice())
}
