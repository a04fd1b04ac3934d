package reproduction

import (
	"fmt"
	"github.com/schedfarm/schedfarm/report"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedfarm/schedfarm/results"
)

// Recipe says how to reproduce one group of a paper's figures and tables:
// which spec to run and which tables and figures to make from its output.
type Recipe struct {
	// Name is the recipe's key, e.g. "kettimuthu2005/fig07-14".
	Name string
	// Spec is the spec file, relative to the repository root.
	Spec string
	// Doc says what the recipe reproduces.
	Doc string
	// Tables are written as <name>.md and <name>.csv.
	Tables []TableJob
	// Plots are made into the figures folder.
	Plots []report.PlotOptions
	// Panels are tables and figures of a metric against a parameter
	// (plot kind param), one per panel of the paper's figures.
	Panels []report.Panel
	// Steps make further files from the sweep (workload statistics, ...)
	// into dir (the recipe's output folder) and return their paths; root
	// is the repository holding specs/ (the paper's files a step reads).
	Steps []Step
}

// Step is a recipe step beyond tables and plots.
type Step struct {
	Name string
	Run  func(s *report.Sweep, root, dir string) ([]string, error)
}

// TableJob is one table file of a recipe.
type TableJob struct {
	Name string
	Opts results.TableOptions
}

// wide compares every setting with a baseline in one table per workload.
func wide(name, metric, scheme, baseline string) TableJob {
	return TableJob{Name: name, Opts: results.TableOptions{
		Metric: metric, Scheme: scheme, Layout: results.LayoutWide, Baseline: baseline, Compare: results.CompareRatio,
	}}
}

func bars(metric, scheme string) report.PlotOptions {
	return report.PlotOptions{Kind: report.KindBars, Metric: metric, Scheme: scheme}
}

// barsOf draws only the settings labelled labels (the series a paper's
// figure shows).
func barsOf(metric, scheme string, labels ...string) report.PlotOptions {
	return report.PlotOptions{Kind: report.KindBars, Metric: metric, Scheme: scheme, Where: []results.Filter{{Key: "label", Values: labels}}}
}

// Recipes lists every reproducible figure group, in paper order.
var Recipes = []Recipe{
	{
		Name: "kettimuthu2005/table4-5",
		Spec: "specs/kettimuthu2005/table4-5.yaml",
		Doc:  "Kettimuthu et al. 2005, Tables 2-5 and 7-8: job mix and NS (EASY) mean bounded slowdown per category, CTC and SDSC",
		Tables: []TableJob{
			{Name: "table4-5-slowdown", Opts: results.TableOptions{Metric: "bsd_mean", Scheme: "ss16"}},
			{Name: "table2-3-share", Opts: results.TableOptions{Metric: "share", Scheme: "ss16"}},
			{Name: "table7-8-share", Opts: results.TableOptions{Metric: "share", Scheme: "ss4"}},
		},
		Plots: []report.PlotOptions{bars("bsd_mean", "ss16")},
	},
	{
		Name: "kettimuthu2005/fig07-14",
		Spec: "specs/kettimuthu2005/fig07-14.yaml",
		Doc:  "Figs 7-14: NS, IS and SS at SF 1.5, 2, 5 with accurate estimates: mean and worst-case slowdown and turnaround per ss16 category",
		Tables: []TableJob{
			wide("fig07-09-avg-slowdown", "bsd_mean", "ss16", "NS"),
			wide("fig08-10-avg-turnaround", "turnaround_mean", "ss16", "NS"),
			wide("fig11-13-worst-slowdown", "bsd_max", "ss16", "NS"),
			wide("fig12-14-worst-turnaround", "turnaround_max", "ss16", "NS"),
		},
		// Figs 7-10 show NS, IS and SS at three SFs; Figs 11-14 (worst
		// cases) only NS, IS and SS SF=2. "IS free" (the other reading of
		// IS) is in the tables only.
		Plots: []report.PlotOptions{
			barsOf("bsd_mean", "ss16", "NS", "IS", "SS SF=1.5", "SS SF=2", "SS SF=5"),
			barsOf("turnaround_mean", "ss16", "NS", "IS", "SS SF=1.5", "SS SF=2", "SS SF=5"),
			barsOf("bsd_max", "ss16", "NS", "IS", "SS SF=2"),
			barsOf("turnaround_max", "ss16", "NS", "IS", "SS SF=2"),
		},
	},
	{
		Name: "kettimuthu2005/fig15-18",
		Spec: "specs/kettimuthu2005/fig15-18.yaml",
		Doc:  "Figs 15-18: TSS against SS and NS (SF 2): worst-case slowdown and turnaround per ss16 category",
		Tables: []TableJob{
			wide("fig15-17-worst-slowdown", "bsd_max", "ss16", "SS SF=2"),
			wide("fig16-18-worst-turnaround", "turnaround_max", "ss16", "SS SF=2"),
			wide("tss-avg-slowdown", "bsd_mean", "ss16", "SS SF=2"),
		},
		// The paper's figures show TSS, SS and NS; the other reading of
		// TSS ("TSS formula") is in the tables only.
		Plots: []report.PlotOptions{
			barsOf("bsd_max", "ss16", "NS", "SS SF=2", "TSS SF=2"),
			barsOf("turnaround_max", "ss16", "NS", "SS SF=2", "TSS SF=2"),
		},
	},
	{
		Name: "kettimuthu2005/fig19-30",
		Spec: "specs/kettimuthu2005/fig19-30.yaml",
		Doc:  "Figs 19-30: trace (user) estimates: all jobs (Figs 19-22), and jobs split into well and badly estimated (Figs 23-30): mean and worst-case slowdown and turnaround",
		Tables: []TableJob{
			wide("fig19-20-avg-slowdown", "bsd_mean", "ss16", "NS"),
			wide("fig21-22-avg-turnaround", "turnaround_mean", "ss16", "NS"),
			wide("fig19-30-avg-slowdown", "bsd_mean", "est2", "NS"),
			wide("fig19-30-avg-turnaround", "turnaround_mean", "est2", "NS"),
			wide("fig19-30-worst-slowdown", "bsd_max", "est2", "NS"),
			wide("fig19-30-worst-turnaround", "turnaround_max", "est2", "NS"),
		},
		Plots: []report.PlotOptions{
			bars("bsd_mean", "ss16"), bars("turnaround_mean", "ss16"),
			bars("bsd_mean", "est2"), bars("turnaround_mean", "est2"), bars("bsd_max", "est2"), bars("turnaround_max", "est2"),
		},
	},
	{
		Name: "kettimuthu2005/fig31-34",
		Spec: "specs/kettimuthu2005/fig31-34.yaml",
		Doc:  "Figs 31-34: suspension overhead (memory / 2 MB/s per suspend and resume): mean slowdown and turnaround per ss16 category",
		Tables: []TableJob{
			wide("fig31-33-avg-slowdown", "bsd_mean", "ss16", "NS"),
			wide("fig32-34-avg-turnaround", "turnaround_mean", "ss16", "NS"),
		},
		// The paper's figures show TSS with overhead, NS and IS; TSS
		// without overhead is in the tables only.
		Plots: []report.PlotOptions{
			barsOf("bsd_mean", "ss16", "NS", "IS", "TSS SF=2"),
			barsOf("turnaround_mean", "ss16", "NS", "IS", "TSS SF=2"),
		},
	},
	{
		Name: "kettimuthu2005/fig35-44",
		Spec: "specs/kettimuthu2005/fig35-44.yaml",
		Doc:  "Figs 35-44: load variation by arrival scaling (CTC 1.0-1.6, SDSC 1.0-1.3): utilization, and ss4 mean slowdown and turnaround against load and against utilization",
		Tables: []TableJob{
			wide("fig37-39-avg-slowdown", "bsd_mean", "ss4", "NS"),
			wide("fig38-40-avg-turnaround", "turnaround_mean", "ss4", "NS"),
		},
		Plots: []report.PlotOptions{
			{Kind: report.KindUtil},
			{Kind: report.KindLoad, Metric: "bsd_mean", Scheme: "ss4"},
			{Kind: report.KindLoad, Metric: "turnaround_mean", Scheme: "ss4"},
			{Kind: report.KindUtilMetric, Metric: "bsd_mean", Scheme: "ss4"},
			{Kind: report.KindUtilMetric, Metric: "turnaround_mean", Scheme: "ss4"},
		},
	},
	{
		Name: "kettimuthu2005/fig35-36-saturation",
		Spec: "specs/kettimuthu2005/fig35-36-saturation.yaml",
		Doc:  "Figs 35-36 beyond saturation: NS and TSS SF=2 hold utilization at the saturation load and above it (CTC 1.6-2.0, SDSC 1.3-1.7)",
		Tables: []TableJob{
			wide("fig35-36-saturation-avg-slowdown", "bsd_mean", "ss4", "NS"),
		},
		Plots: []report.PlotOptions{{Kind: report.KindUtil}},
	},
}

// LookupRecipe returns the recipe called name; a name without its paper
// prefix ("fig07-14") matches too when it is unique.
func LookupRecipe(name string) (*Recipe, error) {
	var found *Recipe
	n := 0
	for i := range Recipes {
		r := &Recipes[i]
		if r.Name == name {
			return r, nil
		}
		if strings.HasSuffix(r.Name, "/"+name) {
			found = r
			n++
		}
	}
	if n == 1 {
		return found, nil
	}
	var names []string
	for _, r := range Recipes {
		names = append(names, r.Name)
	}
	return nil, fmt.Errorf("unknown figure group %q (valid: %s)", name, strings.Join(names, ", "))
}

// Make writes the recipe's tables into dir/tables and its figures into
// dir/figures from the sweep output in outDir, and returns the files.
// root is the repository holding specs/, where steps read the paper's
// numbers.
func (r *Recipe) Make(root, outDir, dir string) ([]string, error) {
	s, err := report.Load(outDir)
	if err != nil {
		return nil, err
	}
	var files []string
	tdir := filepath.Join(dir, "tables")
	if err := mkdir(tdir); err != nil {
		return nil, err
	}
	for _, t := range r.Tables {
		fs, err := s.WriteTables(filepath.Join(tdir, t.Name), t.Opts)
		if err != nil {
			return nil, fmt.Errorf("%s: table %s: %w", r.Name, t.Name, err)
		}
		files = append(files, fs...)
	}
	for _, p := range r.Plots {
		p.OutDir = filepath.Join(dir, "figures")
		fs, err := s.Plots(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %s plot: %w", r.Name, p.Kind, err)
		}
		files = append(files, fs...)
	}
	for _, p := range r.Panels {
		fs, err := s.WritePanel(p, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: panel %s: %w", r.Name, p.Name, err)
		}
		files = append(files, fs...)
	}
	for _, st := range r.Steps {
		fs, err := st.Run(s, root, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", r.Name, st.Name, err)
		}
		files = append(files, fs...)
	}
	return files, nil
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	return nil
}
