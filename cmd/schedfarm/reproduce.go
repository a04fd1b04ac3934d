package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sweep"
)

func reproduceCommand() *cli.Command {
	var names []string
	for _, r := range report.Recipes {
		names = append(names, fmt.Sprintf("  %-26s %s", r.Name, r.Doc))
	}
	return &cli.Command{
		Name:      "reproduce",
		Usage:     "run a paper's figure group and write its tables and figures into one folder",
		ArgsUsage: "NAME... | all",
		Description: "Runs the spec of each named figure group on this machine (as `schedfarm run` does) and\n" +
			"writes OUT/NAME/sweep (the sweep's Parquet outputs), OUT/NAME/tables (Markdown and CSV)\n" +
			"and OUT/NAME/figures (PNG and SVG). Results already in the state are reused. Run it from\n" +
			"the repository root (or give --root). REPRODUCING.md compares the outputs with the papers.\n\n" +
			"Figure groups (a name without its paper prefix works too):\n" + strings.Join(names, "\n"),
		Flags: append(sweepFlags(),
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.GOMAXPROCS(0), Usage: "tasks run at once"},
			&cli.StringFlag{Name: "root", Value: ".", Usage: "repository `DIR` holding specs/ and traces/"},
		),
		Action: runReproduce,
	}
}

func runReproduce(c *cli.Context) error {
	if c.NArg() == 0 {
		return cliUsageError(c, "name at least one figure group, or all")
	}
	var recipes []*report.Recipe
	for _, name := range c.Args().Slice() {
		if name == "all" {
			for i := range report.Recipes {
				recipes = append(recipes, &report.Recipes[i])
			}
			continue
		}
		r, err := report.LookupRecipe(name)
		if err != nil {
			return err
		}
		recipes = append(recipes, r)
	}
	// Load every spec first, so a bad one stops everything before any run.
	specs := make([]*sweep.Spec, len(recipes))
	for i, r := range recipes {
		s, err := sweep.Load(filepath.Join(c.String("root"), r.Spec))
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		specs[i] = s
	}
	outRoot := c.String("out")
	if outRoot == "" {
		outRoot = filepath.Join("out", "reproduce")
	}
	w := c.App.Writer
	began := time.Now()
	for i, r := range recipes {
		dir := filepath.Join(outRoot, filepath.FromSlash(r.Name))
		sweepDir := filepath.Join(dir, "sweep")
		start := time.Now()
		fmt.Fprintf(w, "== %s: %s\n", r.Name, r.Doc)
		if _, err := runEmbedded(c, specs[i], coordinator.WithOutDir(sweepDir)); err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		files, err := r.Make(sweepDir, dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d tables and figures in %s (%v)\n", r.Name, len(files), dir, time.Since(start).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "reproduced %d figure groups in %v\n", len(recipes), time.Since(began).Round(time.Second))
	return nil
}
