package schedfarm

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/sweep"
)

func simCommand() *cli.Command {
	return &cli.Command{
		Name:      "sim",
		Usage:     "simulate one policy on one trace and print per-category metrics",
		ArgsUsage: " ",
		Description: "Replays an SWF trace under a scheduling policy and prints the drop report, the overall\n" +
			"metrics and the per-category table of the chosen scheme.\n\n" +
			"Policies: " + policyHelp(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "trace", Usage: "SWF trace `FILE` (.swf or .swf.gz) or a shipped trace's name (" + strings.Join(sweep.ShippedTraces(), ", ") + "); or --synthetic"},
			&cli.StringFlag{Name: "synthetic", Usage: "synthetic workload `NAME` instead of a trace: " + strings.Join(workload.Synthetics(), ", ")},
			&cli.StringSliceFlag{Name: "gen", Usage: "synthetic workload key `KEY=VALUE` (repeatable), e.g. mean_interarrival=300"},
			&cli.StringFlag{Name: "policy", Value: "easy", Usage: "policy `NAME`: " + strings.Join(policy.Names(), ", ")},
			&cli.StringSliceFlag{Name: "param", Usage: "policy parameter `NAME=VALUE` (repeatable)"},
			&cli.StringFlag{Name: "estimates", Value: "trace", Usage: "estimate model: trace, accurate, double or predicted"},
			&cli.IntFlag{Name: "skip", Usage: "leave out the first `N` valid jobs"},
			&cli.IntFlag{Name: "count", Usage: "take `N` valid jobs after --skip (0: all)"},
			&cli.Float64Flag{Name: "load", Value: 1, Usage: "load factor `LF` (1: unchanged)"},
			&cli.StringFlag{Name: "load-mode", Value: "arrival", Usage: "how --load is applied: arrival (scale inter-arrival times) or duplicate"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "base seed, as in a spec: the run uses the task seed derived from it"},
			&cli.IntFlag{Name: "procs", Usage: "machine size `N` (0: the trace header's MaxProcs)"},
			&cli.StringFlag{Name: "categories", Value: "ss16", Usage: "category scheme: " + strings.Join(metrics.SchemeNames(), ", ")},
			&cli.StringFlag{Name: "metric", Value: "bsd_mean", Usage: "metric of the category table"},
			&cli.StringFlag{Name: "out", Usage: "write per-job rows to `FILE` (.csv or .parquet, both with the columns of a sweep's jobs.parquet)"},
			&cli.Float64Flag{Name: "sigma", Usage: "make the workload moldable: Downey variance of parallelism `SIGMA` (>= 0; default 0 when only --range-factor is given)"},
			&cli.Float64Flag{Name: "range-factor", Value: 1, Usage: "make the workload moldable: range factor `RF` (>= 1; default 1 when only --sigma is given)"},
			&cli.StringFlag{Name: "segments", Usage: "write every interval a job held processors to `FILE` (CSV: job_id,start,end,procs,working)"},
		},
		Action: runSim,
	}
}

func policyHelp() string {
	var b strings.Builder
	for _, e := range append(policy.Entries(), policy.External()) {
		fmt.Fprintf(&b, "\n  %-14s %s", e.Name, e.Doc)
		for _, p := range e.Params {
			fmt.Fprintf(&b, "\n  %14s   %s (%s, default %v): %s", "", p.Name, p.Kind, p.Default, p.Doc)
		}
	}
	return b.String()
}

func runSim(c *cli.Context) error {
	a, err := parseSimFlags(c)
	if err != nil {
		return err
	}
	est, mode, entry, params, out := a.est, a.mode, a.entry, a.params, a.out
	// The run is the one task of a one-task spec, so --seed is a base
	// seed exactly as in a spec, and --out .parquet carries the same task
	// columns and provenance as a sweep's jobs.parquet.
	spec, task, err := simSpec(c, entry.Name, params, est, mode)
	if err != nil {
		return err
	}
	var (
		wl      *workload.Workload
		simOpts sim.Options
	)
	if task.Workload.Synthetic != "" {
		wl, simOpts, err = runner.Synthetic(task)
	} else {
		// The file the spec resolved: --trace's, or a shipped trace's.
		wl, err = workload.LoadContext(c.Context, spec.Traces()[0].Path, workload.Options{
			Procs: c.Int("procs"), Estimates: est, Skip: c.Int("skip"), Count: c.Int("count"),
			Load: c.Float64("load"), LoadMode: mode, Seed: task.Seed, Moldable: task.Workload.Moldability(),
		}, workload.Limits{})
	}
	if err != nil {
		return err
	}
	env := policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: task.Seed, Predict: wl.Estimates == workload.EstimatePredicted,
		// The user's own command line may run any external policy
		// program, in the current directory.
		External: &external.Access{}}
	if err := entry.CheckEnv(env); err != nil {
		return err
	}
	pol, err := entry.Build(params, env)
	if err != nil {
		return fmt.Errorf("policy %s: %w", entry.Name, err)
	}
	began := time.Now()
	segs := c.String("segments")
	simOpts.Segments = segs != ""
	res, err := sim.Run(c.Context, wl.Procs, wl.Jobs, pol, simOpts)
	if cl, ok := pol.(io.Closer); ok {
		cl.Close()
	}
	if err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	if segs != "" {
		if err := writeSegmentsFile(segs, res); err != nil {
			return err
		}
	}
	elapsed := time.Since(began)
	recs := metrics.Records(res)
	st := metrics.Stats(wl.Procs, recs)
	st.Elastic = metrics.ElasticStatsOf(res, recs)
	if a, ok := pol.(metrics.Annotator); ok {
		a.Annotate(recs, &st)
	}
	// --out .csv and --out .parquet carry the same columns and values.
	r := &results.TaskResult{
		TaskID: task.ID, Index: task.Index, Stats: st, Jobs: recs,
		Drops: results.Drops{Runtime: wl.Drops.Runtime, Procs: wl.Drops.Procs, TooBig: wl.Drops.TooBig},
	}
	switch {
	case strings.HasSuffix(out, ".csv"):
		if err := results.WriteJobsCSV(out, spec, []sweep.Task{*task}, []*results.TaskResult{r}); err != nil {
			return err
		}
	case strings.HasSuffix(out, ".parquet"):
		if err := results.WriteJobsFile(out, spec, []sweep.Task{*task}, []*results.TaskResult{r}, toolVersion()); err != nil {
			return err
		}
	}
	return a.printSim(c.App.Writer, wl, c.Float64("load"), st, recs, elapsed)
}

// printSim writes the report of a run of schedfarm sim: the workload and
// its drops, the policy, the overall figures and the table of a's metric
// by a's categories.
func (a *simArgs) printSim(w io.Writer, wl *workload.Workload, load float64, st metrics.RunStats, recs []metrics.Record, elapsed time.Duration) error {
	scheme, metric := a.scheme.For(recs), a.metric
	aggs := metrics.Summarize(scheme, recs)
	all := aggs[len(aggs)-1]
	fmt.Fprintf(w, "trace %s: %d jobs on %d processors; %v\n", wl.Name, len(wl.Jobs), wl.Procs, wl.Drops)
	fmt.Fprintf(w, "policy %s (%s), estimates %v, load %g (%v)\n", a.entry.Name, orNone(a.params.Canonical()), a.est, load, a.mode)
	fmt.Fprintf(w, "utilization %.4f, makespan %d s, suspensions %d, kills %d, simulated in %v\n",
		st.Utilization, st.Makespan, st.Suspensions, st.Kills, elapsed.Round(time.Millisecond))
	if st.Admitted < st.Jobs || st.QoPS != nil {
		fmt.Fprintf(w, "admitted %d of %d jobs (%.4f); resource charge %.6g, QoS charge %.6g, deadline misses %d, wasted processor-seconds %.6g\n",
			st.Admitted, st.Jobs, float64(st.Admitted)/float64(max(st.Jobs, 1)), st.ResourceCharge, st.QoSCharge, st.DeadlineMisses, st.WastedProcSeconds)
	}
	if q := st.QoPS; q != nil {
		fmt.Fprintf(w, "offers %d, taken %d; schedule size N mean %.1f max %d over %d insertions\n", q.Offers, q.OffersTaken, q.MeanN, q.MaxN, q.Inserts)
	}
	if e := st.Elastic; e != nil {
		fmt.Fprintf(w, "tagged jobs %d: mean turnaround %.0f s, makespan %d s (lower bound %d s), unfinished %d, max queue %d\n",
			e.Tagged, e.MRT, e.MakespanTagged, e.MakespanLB, e.Unfinished, e.MaxQueue)
	}
	fmt.Fprintf(w, "overall: bounded slowdown mean %.3f max %.1f; turnaround mean %.0f s; wait mean %.0f s max %.0f s\n\n",
		all.BSD.Mean, all.BSD.Max, all.Turnaround.Mean, all.Wait.Mean, all.Wait.Max)
	fmt.Fprintf(w, "%s by %s category:\n\n", metric.Title, scheme.Name)
	return metrics.WriteGrid(w, scheme, aggs, metric)
}

// simArgs are the flags of schedfarm sim that name things, checked.
type simArgs struct {
	est    workload.EstimateModel
	mode   workload.LoadMode
	scheme *metrics.Scheme
	metric *metrics.Metric
	entry  *policy.Entry
	params policy.Values
	out    string // "", or a .csv or .parquet file
}

// parseSimFlags checks the arguments of schedfarm sim: no positional
// argument, a trace or a synthetic workload, and the flags that name
// estimates, a load mode, categories, a metric, a policy and its
// parameters, and the output file.
func parseSimFlags(c *cli.Context) (*simArgs, error) {
	if c.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (the trace is given with --trace)", c.Args().First())
	}
	if (c.String("trace") == "") == (c.String("synthetic") == "") {
		return nil, fmt.Errorf("give either --trace FILE or --synthetic NAME")
	}
	if c.String("synthetic") == "" && len(c.StringSlice("gen")) > 0 {
		return nil, fmt.Errorf("--gen needs --synthetic")
	}
	a := &simArgs{}
	var err error
	a.est, err = workload.ParseEstimateModel(c.String("estimates"))
	if err != nil {
		return nil, fmt.Errorf("--estimates: %w", err)
	}
	a.mode, err = workload.ParseLoadMode(c.String("load-mode"))
	if err != nil {
		return nil, fmt.Errorf("--load-mode: %w", err)
	}
	a.scheme, err = metrics.LookupScheme(c.String("categories"))
	if err != nil {
		return nil, fmt.Errorf("--categories: %w", err)
	}
	a.metric, err = metrics.LookupMetric(c.String("metric"))
	if err != nil {
		return nil, fmt.Errorf("--metric: %w", err)
	}
	a.entry, err = policy.Lookup(c.String("policy"))
	if err != nil {
		return nil, fmt.Errorf("--policy: %w", err)
	}
	raw := map[string]string{}
	for _, kv := range c.StringSlice("param") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", kv)
		}
		raw[k] = v
	}
	a.params, err = a.entry.ParseStrings(raw)
	if err != nil {
		return nil, fmt.Errorf("--param: %w", err)
	}
	if a.entry.Moldable && !c.IsSet("sigma") && !c.IsSet("range-factor") {
		return nil, fmt.Errorf("--policy %s: needs a moldable workload: give --sigma and/or --range-factor", a.entry.Name)
	}
	a.out = c.String("out")
	if a.out != "" && !strings.HasSuffix(a.out, ".csv") && !strings.HasSuffix(a.out, ".parquet") {
		return nil, fmt.Errorf("--out %q: want a .csv or .parquet file", a.out)
	}
	return a, nil
}

// simSpec returns the one-task spec equivalent to the sim flags, and its task.
func simSpec(c *cli.Context, name string, params policy.Values, est workload.EstimateModel, mode workload.LoadMode) (*sweep.Spec, *sweep.Task, error) {
	trace := c.String("trace")
	// Paths on the command line (the trace, an external policy's script)
	// are relative to the working directory, as a shell user expects.
	ref := trace
	if !filepath.IsAbs(ref) {
		ref = "./" + filepath.Clean(ref)
	}
	_, shipped := sweep.ShippedTraceFile(trace)
	if _, err := os.Stat(trace); err != nil && !shipped && c.String("synthetic") == "" {
		return nil, nil, fmt.Errorf("--trace %s: no such file, nor a shipped trace's name (%s)", trace, strings.Join(sweep.ShippedTraces(), ", "))
	}
	if shipped {
		if _, err := os.Stat(trace); err != nil {
			// A shipped trace's name, as a spec accepts it: found in
			// traces/ of this directory or a parent, else the copy in
			// the binary.
			ref = trace
		}
	}
	wdoc := map[string]any{
		"trace": ref, "procs": c.Int("procs"),
		"skip": c.Int("skip"), "count": c.Int("count"), "estimates": est.String(),
		"load": c.Float64("load"), "load_mode": mode.String(),
	}
	if syn := c.String("synthetic"); syn != "" {
		gen := map[string]any{}
		for _, kv := range c.StringSlice("gen") {
			k, v, ok := strings.Cut(kv, "=")
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if !ok || k == "" || err != nil {
				return nil, nil, fmt.Errorf("--gen %q: want KEY=NUMBER", kv)
			}
			gen[k] = f
		}
		wdoc = map[string]any{"synthetic": syn, "gen": gen, "procs": c.Int("procs"), "load": c.Float64("load")}
	}
	doc := map[string]any{
		"name":       "sim",
		"workloads":  []any{wdoc},
		"policies":   []any{map[string]any{"name": name, "params": map[string]any(params)}},
		"seed":       c.Uint64("seed"),
		"categories": metrics.SchemeNames(),
	}
	if c.IsSet("sigma") || c.IsSet("range-factor") {
		w := doc["workloads"].([]any)[0].(map[string]any)
		w["sigma"] = c.Float64("sigma")
		w["range_factor"] = c.Float64("range-factor")
	}
	data, err := yaml.Marshal(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("describe the run: %w", err)
	}
	spec, err := sweep.Parse(data, ".")
	if err != nil {
		return nil, nil, err
	}
	tasks, err := spec.Tasks()
	if err != nil {
		return nil, nil, err
	}
	return spec, &tasks[0], nil
}

// writeSegmentsFile writes the run's processor segments to path as CSV
// (job_id,start,end,procs,working), by start time, then job order.
func writeSegmentsFile(path string, res *sim.Result) error {
	segs := slices.Clone(res.Segments)
	slices.SortStableFunc(segs, func(a, b sim.Segment) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Task, b.Task))
	})
	var b strings.Builder
	b.WriteString("job_id,start,end,procs,working\n")
	for _, s := range segs {
		fmt.Fprintf(&b, "%d,%d,%d,%d,%t\n", res.Tasks[s.Task].ID, s.Start, s.End, s.Set.Len(), s.Working)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write segments: %w", err)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no parameters"
	}
	return s
}
