package reproduction

import (
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
)

// The figure groups of Srinivasan, Krishnamoorthy and Sadayappan 2003, "A
// robust scheduling strategy for moldable scheduling of parallel jobs":
// mean turnaround time per weight10 category as the percent change
// against a baseline setting.
func init() {
	pct := func(name, baseline string) TableJob {
		return TableJob{Name: name, Opts: results.TableOptions{
			Metric: "turnaround_mean", Scheme: "weight10", Layout: results.LayoutWide, Baseline: baseline, Compare: results.ComparePct,
		}}
	}
	plain := func(name string) TableJob {
		return TableJob{Name: name, Opts: results.TableOptions{Metric: "turnaround_mean", Scheme: "weight10", Layout: results.LayoutWide}}
	}
	vs := func(baseline string) report.PlotOptions {
		return report.PlotOptions{Kind: report.KindBars, Metric: "turnaround_mean", Scheme: "weight10", Baseline: baseline}
	}
	Recipes = append(Recipes,
		Recipe{
			Name:   "srinivasan2003/fig01-03",
			Spec:   "specs/srinivasan2003/fig01-03.yaml",
			Doc:    "Srinivasan et al. 2003, Figs 1-3: greedy, submit-time (B) and schedule-time (C) fair share with WF 2 against rigid conservative backfilling, percent change of mean turnaround per weight10 category",
			Tables: []TableJob{pct("fig01-03-turnaround-vs-rigid", "rigid"), plain("fig01-03-turnaround")},
			Plots:  []report.PlotOptions{vs("rigid")},
		},
		Recipe{
			Name:   "srinivasan2003/sec41",
			Spec:   "specs/srinivasan2003/sec41.yaml",
			Doc:    "Section 4.1: the base strategy with 12 processor choices against every profile step, SDSC LF 100, sigma 0, RF 1",
			Tables: []TableJob{pct("sec41-turnaround-vs-base", "base"), plain("sec41-turnaround")},
			Plots:  []report.PlotOptions{vs("base")},
		},
		Recipe{
			Name:   "srinivasan2003/fig04",
			Spec:   "specs/srinivasan2003/fig04.yaml",
			Doc:    "Fig 4: modified (sqrt weights) and corrected (sqrt weights over parallel jobs) fair share against the base strategy, SDSC LF 100, sigma 0, RF 1",
			Tables: []TableJob{pct("fig04-turnaround-vs-base", "base"), pct("fig04-turnaround-vs-modified", "modified")},
			Plots:  []report.PlotOptions{vs("base")},
		},
		Recipe{
			Name:   "srinivasan2003/fig05",
			Spec:   "specs/srinivasan2003/fig05.yaml",
			Doc:    "Fig 5: category and xfactor reservations, alone and together, against the base strategy, SDSC LF 100, sigma 0, RF 1",
			Tables: []TableJob{pct("fig05-turnaround-vs-base", "base"), pct("fig05-turnaround-vs-category", "category")},
			Plots:  []report.PlotOptions{vs("base")},
		},
		Recipe{
			Name:   "srinivasan2003/fig06-11",
			Spec:   "specs/srinivasan2003/fig06-11.yaml",
			Doc:    "Figs 6-11: the combined scheme against rigid conservative backfilling for RF 1-4, SDSC and CTC, sigma 0 and 1, LF 100 and 125",
			Tables: []TableJob{pct("fig06-11-turnaround-vs-rigid", "rigid")},
			Plots:  []report.PlotOptions{vs("rigid")},
		},
		Recipe{
			Name:   "srinivasan2003/sec21",
			Spec:   "specs/srinivasan2003/sec21.yaml",
			Doc:    "Section 2.1: utilization of rigid conservative backfilling at LF 100, 125 and 150 (the paper: about 95% at LF 150)",
			Tables: []TableJob{plain("sec21-turnaround")},
			Plots:  []report.PlotOptions{{Kind: report.KindUtil}},
		},
	)
}
