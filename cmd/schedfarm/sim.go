package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
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
			&cli.StringFlag{Name: "trace", Required: true, Usage: "SWF trace `FILE` (.swf or .swf.gz)"},
			&cli.StringFlag{Name: "policy", Value: "easy", Usage: "policy `NAME`: " + strings.Join(policy.Names(), ", ")},
			&cli.StringSliceFlag{Name: "param", Usage: "policy parameter `NAME=VALUE` (repeatable)"},
			&cli.StringFlag{Name: "estimates", Value: "trace", Usage: "estimate model: trace or accurate"},
			&cli.IntFlag{Name: "skip", Usage: "leave out the first `N` valid jobs"},
			&cli.IntFlag{Name: "count", Usage: "take `N` valid jobs after --skip (0: all)"},
			&cli.Float64Flag{Name: "load", Value: 1, Usage: "load factor `LF` (1: unchanged)"},
			&cli.StringFlag{Name: "load-mode", Value: "arrival", Usage: "how --load is applied: arrival (scale inter-arrival times) or duplicate"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of every random choice"},
			&cli.IntFlag{Name: "procs", Usage: "machine size `N` (0: the trace header's MaxProcs)"},
			&cli.StringFlag{Name: "categories", Value: "ss16", Usage: "category scheme: " + strings.Join(metrics.SchemeNames(), ", ")},
			&cli.StringFlag{Name: "metric", Value: "bsd_mean", Usage: "metric of the category table"},
			&cli.StringFlag{Name: "out", Usage: "write per-job rows to `FILE` (.csv)"},
		},
		Action: runSim,
	}
}

func policyHelp() string {
	var b strings.Builder
	for _, e := range policy.Entries() {
		fmt.Fprintf(&b, "\n  %-14s %s", e.Name, e.Doc)
		for _, p := range e.Params {
			fmt.Fprintf(&b, "\n  %14s   %s (%s, default %v): %s", "", p.Name, p.Kind, p.Default, p.Doc)
		}
	}
	return b.String()
}

func runSim(c *cli.Context) error {
	if c.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (the trace is given with --trace)", c.Args().First())
	}
	est, err := workload.ParseEstimateModel(c.String("estimates"))
	if err != nil {
		return fmt.Errorf("--estimates: %w", err)
	}
	mode, err := workload.ParseLoadMode(c.String("load-mode"))
	if err != nil {
		return fmt.Errorf("--load-mode: %w", err)
	}
	scheme, err := metrics.LookupScheme(c.String("categories"))
	if err != nil {
		return fmt.Errorf("--categories: %w", err)
	}
	metric, err := metrics.LookupMetric(c.String("metric"))
	if err != nil {
		return fmt.Errorf("--metric: %w", err)
	}
	entry, err := policy.Lookup(c.String("policy"))
	if err != nil {
		return fmt.Errorf("--policy: %w", err)
	}
	raw := map[string]string{}
	for _, kv := range c.StringSlice("param") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("--param %q: want NAME=VALUE", kv)
		}
		raw[k] = v
	}
	params, err := entry.ParseStrings(raw)
	if err != nil {
		return fmt.Errorf("--param: %w", err)
	}
	out := c.String("out")
	if out != "" && !strings.HasSuffix(out, ".csv") {
		return fmt.Errorf("--out %q: only .csv is supported by sim", out)
	}
	wl, err := workload.Load(c.String("trace"), workload.Options{
		Procs: c.Int("procs"), Estimates: est, Skip: c.Int("skip"), Count: c.Int("count"),
		Load: c.Float64("load"), LoadMode: mode, Seed: c.Uint64("seed"),
	})
	if err != nil {
		return err
	}
	pol, err := entry.Build(params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: c.Uint64("seed")})
	if err != nil {
		return fmt.Errorf("policy %s: %w", entry.Name, err)
	}
	began := time.Now()
	res, err := sim.Run(c.Context, wl.Procs, wl.Jobs, pol, sim.Options{})
	if err != nil {
		return fmt.Errorf("simulate: %w", err)
	}
	elapsed := time.Since(began)
	recs := metrics.Records(res)
	if out != "" {
		if err := writeCSVFile(out, recs, metrics.Schemes()); err != nil {
			return err
		}
	}
	w := c.App.Writer
	st := metrics.Stats(wl.Procs, recs)
	aggs := metrics.Summarize(scheme, recs)
	all := aggs[len(aggs)-1]
	fmt.Fprintf(w, "trace %s: %d jobs on %d processors; dropped: %v\n", wl.Name, len(wl.Jobs), wl.Procs, wl.Drops)
	fmt.Fprintf(w, "policy %s (%s), estimates %v, load %g (%v)\n", entry.Name, orNone(params.Canonical()), est, c.Float64("load"), mode)
	fmt.Fprintf(w, "utilization %.4f, makespan %d s, suspensions %d, kills %d, simulated in %v\n",
		st.Utilization, st.Makespan, st.Suspensions, st.Kills, elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "overall: bounded slowdown mean %.3f max %.1f; turnaround mean %.0f s; wait mean %.0f s max %.0f s\n\n",
		all.BSD.Mean, all.BSD.Max, all.Turnaround.Mean, all.Wait.Mean, all.Wait.Max)
	fmt.Fprintf(w, "%s by %s category:\n\n", metric.Title, scheme.Name)
	return metrics.WriteGrid(w, scheme, aggs, metric)
}

// writeCSVFile writes per-job rows to path through a temporary file, so a
// failure leaves no half-written output.
func writeCSVFile(path string, recs []metrics.Record, schemes []*metrics.Scheme) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schedfarm-*.csv")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := metrics.WriteCSV(tmp, recs, schemes); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, errors.Join(err, os.Remove(tmp.Name())))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no parameters"
	}
	return s
}
