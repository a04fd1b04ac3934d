package schedfarm

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sim"
)

func plotCommand() *cli.Command {
	return &cli.Command{
		Name:      "plot",
		Usage:     "draw a sweep's figures as PNG and SVG",
		ArgsUsage: "DIR",
		Description: "Reads summary.parquet and tasks.parquet in DIR (a sweep's output directory) and draws:\n" +
			"  bars         per workload, grouped bars per category, one bar per policy setting\n" +
			"               (Kettimuthu et al. Figs 7-34); est2 gives a figure per estimate group; with\n" +
			"               --baseline, each bar is 100 (setting - baseline) / baseline (Srinivasan et al.)\n" +
			"  load         per category (and all jobs), the metric against the load factor, one line\n" +
			"               per setting (Figs 37-40)\n" +
			"  util         utilization against the load factor, one line per setting (Figs 35-36)\n" +
			"  util-metric  per category, the metric against the utilization (Figs 41-44)\n" +
			"  transient    per workload, Lawson and Smirni's R = (s1 - s) / min(s1, s) of every setting\n" +
			"               against --baseline per batch of --batch consecutive jobs in submit order,\n" +
			"               against the submit time of the batch's first job (slowdown_mean or bsd_mean;\n" +
			"               reads jobs.parquet)\n" +
			"  timeseries   per workload, the queue length (waiting + suspended jobs) and the utilization\n" +
			"               of each task against simulated time, from timeseries.parquet (written when\n" +
			"               the spec has outputs: {timeseries: {step: 3600}}); at most 8 tasks per\n" +
			"               workload: choose them with --where; --from and --to cut a time window\n" +
			"  gantt        the schedule of task --task (its task_index) over --from..--to: time on x,\n" +
			"               processors on y, each job a box on the processors it held, coloured by\n" +
			"               --scheme category (default ss4) or a numeric jobs.parquet column (--color);\n" +
			"               stops (suspend, kill, checkpoint) and restarts are marked, overheads grey.\n" +
			"               The task is simulated again (the outputs keep no per-job intervals) and the\n" +
			"               figure is refused unless every job starts and ends as jobs.parquet says.\n" +
			"               At most 1000 jobs in the window (a few hundred read well; without a\n" +
			"               window, 300): a larger one is refused with a narrower window to try\n" +
			"Replications are combined as in `schedfarm table`. A y axis spanning more than two decades\n" +
			"is logarithmic. File names are derived from kind, metric, scheme, workload and category;\n" +
			"the paths written are printed.\n\n" +
			"Examples:\n" +
			"  schedfarm plot out/quickstart\n" +
			"  schedfarm plot out/reproduce/kettimuthu2005/fig07-14 --metric turnaround_max --format svg\n" +
			"  schedfarm plot out/quickstart --kind load --scheme ss4 --linear --legend bottom-right\n" +
			"  schedfarm plot out/quickstart --kind util\n" +
			"  schedfarm plot out/quickstart --kind transient --batch 1000 --baseline easy\n" +
			"  schedfarm plot out/quickstart --baseline easy --metric turnaround_mean\n" +
			"  schedfarm plot out/timeseries --kind timeseries --from 5d --to 20d\n" +
			"  schedfarm plot out/timeseries --kind gantt --task 1 --from 12d --to 12.25d --format svg\n" +
			"DIR may also be a reproduced group's folder (out/reproduce/PAPER/GROUP), whose sweep/ is read.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kind", Value: report.KindBars, Usage: "figure kind: " + strings.Join(report.Kinds, ", ")},
			metricFlag(),
			schemeFlag(),
			&cli.StringSliceFlag{Name: "where", Usage: "keep rows with `KEY=VALUE` (repeatable; as in schedfarm table)"},
			&cli.StringFlag{Name: "format", Value: strings.Join(report.Formats, ","), Usage: "comma-separated file `FORMATS`: png, svg"},
			&cli.StringFlag{Name: "out", Usage: "output `DIR` (default: DIR/figures)"},
			&cli.BoolFlag{Name: "log", Usage: "logarithmic y axis on every figure (default: when the values span more than two decades)"},
			&cli.BoolFlag{Name: "linear", Usage: "linear y axis on every figure"},
			&cli.StringFlag{Name: "legend", Usage: "legend `POSITION`: " + strings.Join(plot.LegendPositions, ", ") + " (default: auto: the first corner of the plot area free of data, else outside it, on the right)"},
			&cli.StringFlag{Name: "baseline", Usage: "transient: the setting `NAME` R compares with; bars: draw each other setting's percent change against it (a label, a policy name or a shown setting name)"},
			&cli.IntFlag{Name: "batch", Value: report.DefaultBatch, Usage: "transient: jobs per batch"},
			&cli.StringFlag{Name: "x", Usage: "param: the policy parameter `NAME` on the x axis"},
			&cli.StringFlag{Name: "series", Usage: "param: the parameter `NAME` (or load) whose values are the lines"},
			&cli.StringFlag{Name: "from", Usage: "timeseries, gantt: start of the time window, `TIME` in seconds or with a unit s, m, h, d (for example 10d)"},
			&cli.StringFlag{Name: "to", Usage: "timeseries, gantt: end of the time window, `TIME` as --from (default: the end of the run)"},
			&cli.IntFlag{Name: "task", Value: -1, Usage: "gantt: the task_index `N` of the task to draw"},
			&cli.StringFlag{Name: "color", Usage: "gantt: colour jobs by `WHAT`: category (the --scheme's, default ss4) or a numeric jobs.parquet column (wait, procs, suspensions, ...)"},
			&cli.StringFlag{Name: "spec", Usage: "gantt: the spec `FILE` that made the sweep, when it names traces by relative path"},
		},
		Action: runPlot,
	}
}

func runPlot(c *cli.Context) error {
	dir, where, err := dirAndWhere(c)
	if err != nil {
		return err
	}
	var formats []string
	for f := range strings.SplitSeq(c.String("format"), ",") {
		if f = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(f)), "."); f != "" {
			formats = append(formats, f)
		}
	}
	style := plot.Style{Legend: c.String("legend")}
	switch {
	case c.Bool("log") && c.Bool("linear"):
		return cliUsageError(c, "--log and --linear exclude each other")
	case c.Bool("log"):
		style.YScale = plot.ScaleLog
	case c.Bool("linear"):
		style.YScale = plot.ScaleLinear
	}
	if err := style.Check(); err != nil {
		return cliUsageError(c, "--legend: %v", err)
	}
	var window [2]sim.Time
	for i, name := range []string{"from", "to"} {
		if v := c.String(name); v != "" {
			t, err := report.ParseSimTime(v)
			if err != nil {
				return cliUsageError(c, "--%s: %v", name, err)
			}
			window[i] = t
		}
	}
	if window[1] > 0 && window[1] <= window[0] {
		return cliUsageError(c, "--to must be later than --from")
	}
	files, err := report.PlotsContext(c.Context, dir, report.PlotOptions{Style: style, From: window[0], To: window[1],
		Task: c.Int("task"), Color: c.String("color"), SpecFile: c.String("spec"),
		Kind: c.String("kind"), Metric: c.String("metric"), Scheme: c.String("scheme"),
		Where: where, Formats: formats, OutDir: c.String("out"),
		Baseline: c.String("baseline"), Batch: c.Int("batch"), X: c.String("x"), Series: c.String("series"),
	})
	for _, f := range files {
		fmt.Fprintln(c.App.Writer, f)
	}
	return err
}
