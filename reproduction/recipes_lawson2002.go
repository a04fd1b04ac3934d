package reproduction

import (
	"github.com/schedfarm/schedfarm/report"
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/results"
)

// The figure groups of Lawson and Smirni 2002, "Multiple-queue backfilling
// scheduling with priorities and reservations for parallel systems".
func init() {
	workloadSpec := "specs/lawson2002/workload.yaml"
	spec := "specs/lawson2002/fig05-07.yaml"
	rTable := func(name, metric string, where ...results.Filter) TableJob {
		return TableJob{Name: name, Opts: results.TableOptions{
			Metric: metric, Scheme: "len4", Layout: results.LayoutWide, Baseline: "single", Compare: results.CompareR, Where: where,
		}}
	}
	twoSettings := results.Filter{Key: "label", Values: []string{"single", "multi"}}
	Recipes = append(Recipes,
		Recipe{
			Name: "lawson2002/table1",
			Spec: workloadSpec,
			Doc:  "Lawson & Smirni 2002, Table 1: job count, mean, median and CV of runtime and processors of the four whole traces",
			Steps: []Step{{Name: "workload statistics", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
				return statsStep(s, filepath.Join(dir, "tables"), "")
			}}},
		},
		Recipe{
			Name: "lawson2002/fig01",
			Spec: workloadSpec,
			Doc:  "Fig 1: jobs submitted per week, per trace",
			Steps: []Step{{Name: "jobs per week", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
				return statsStep(s, filepath.Join(dir, "figures"), "fig01")
			}}},
		},
		Recipe{
			Name: "lawson2002/fig02",
			Spec: workloadSpec,
			Doc:  "Fig 2: per batch of 1000 jobs, mean and CV of runtime (overall and per class) and class shares",
			Steps: []Step{{Name: "batch statistics", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
				return statsStep(s, filepath.Join(dir, "figures"), "fig02")
			}}},
		},
		Recipe{
			Name: "lawson2002/fig05",
			Spec: spec,
			Doc:  "Fig 5: aggregate slowdown ratio R of multiple-queue backfilling against EASY, all jobs and per len4 class (and on bounded slowdown)",
			Tables: []TableJob{
				rTable("fig05-r-slowdown", "slowdown_mean", twoSettings),
				rTable("fig05-r-bsd", "bsd_mean", twoSettings),
			},
			// The paper's Fig 5 draws R, not the two slowdowns.
			Plots: []report.PlotOptions{{Kind: report.KindBars, Metric: "slowdown_mean", Scheme: "len4", Where: []results.Filter{twoSettings}, Baseline: "single", Compare: results.CompareR}},
		},
		Recipe{
			Name:   "lawson2002/fig06",
			Spec:   spec,
			Doc:    "Fig 6: R per batch of 1000 consecutive jobs against time (multi against single)",
			Tables: []TableJob{rTable("fig06-r-slowdown", "slowdown_mean", twoSettings)},
			Plots: []report.PlotOptions{
				{Kind: report.KindTransient, Metric: "slowdown_mean", Baseline: "single", Batch: report.DefaultBatch, Where: []results.Filter{twoSettings}},
			},
			Steps: []Step{{Name: "transient summary", Run: transientStep}},
		},
		Recipe{
			Name: "lawson2002/fig07",
			Spec: spec,
			Doc:  "Fig 7: aggregate R without delay and with variable delay of extra-long jobs (D_1 = 2500 s; and the delta_1 = 1 reading)",
			Tables: []TableJob{
				rTable("fig07-r-slowdown", "slowdown_mean"),
				rTable("fig07-r-bsd", "bsd_mean"),
				{Name: "fig07-slowdown", Opts: results.TableOptions{Metric: "slowdown_mean", Scheme: "len4", Layout: results.LayoutWide}},
			},
			// The paper's Fig 7 draws R of no delay and variable delay
			// against single-queue backfilling; the delta_1 = 1 reading
			// ("multi D unit") is in the tables only.
			Plots: []report.PlotOptions{{Kind: report.KindBars, Metric: "slowdown_mean", Scheme: "len4", Baseline: "single", Compare: results.CompareR,
				Where: []results.Filter{{Key: "label", Values: []string{"single", "multi", "multi D"}}}}},
		},
	)
}

// statsStep writes the workload statistics of the sweep's workloads:
// Table 1 (fig "") or the files and figures of one of Figs 1-2 ("fig01",
// "fig02").
func statsStep(s *report.Sweep, dir string, fig string) ([]string, error) {
	stats, err := s.JobsStats(report.DefaultBatch)
	if err != nil {
		return nil, err
	}
	if err := mkdir(dir); err != nil {
		return nil, err
	}
	if fig == "" {
		path := filepath.Join(dir, "table1.md")
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		err = report.WriteStatsTable(f, stats)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return []string{path}, err
	}
	return report.WriteStatsFilesOf(dir, stats, nil, fig)
}

// transientStep writes tables/fig06-batches.md: per workload and setting,
// the batches with R > 0 and R < 0 and the mean gain and loss.
func transientStep(s *report.Sweep, _, dir string) ([]string, error) {
	series, err := s.Transient("slowdown_mean", "single", report.DefaultBatch, []results.Filter{{Key: "label", Values: []string{"single", "multi"}}})
	if err != nil {
		return nil, err
	}
	tdir := filepath.Join(dir, "tables")
	if err := mkdir(tdir); err != nil {
		return nil, err
	}
	path := filepath.Join(tdir, "fig06-batches.md")
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	err = report.WriteTransientSummary(f, series)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return []string{path}, err
}
