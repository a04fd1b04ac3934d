package reproduction

import (
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
)

// The reproduction of Islam, Balaji, Sadayappan and Panda (2004),
// "Towards Provision of Quality of Service Guarantees in Job Scheduling":
// one table and one figure per panel of Figures 3-11, each a metric of
// all jobs against a parameter (plot kind param).
func init() {
	Recipes = append(Recipes,
		Recipe{
			Name: "islam2004/fig03-05",
			Spec: "specs/islam2004/fig03-05.yaml",
			Doc:  "Islam et al. 2004, Figs 3-5: QoPS acceptance, accepted processor-seconds (resource charge) and QoS charge against the tolerance factor per load, fixed and random TF",
			Panels: []report.Panel{
				tfPanel("fig03a-acceptance", "Fig 3a: jobs accepted (%) against TF, fixed TF", "acceptance", false),
				tfPanel("fig03b-proc-seconds", "Fig 3b: accepted processor-seconds against TF, fixed TF", "resource_charge", false),
				tfPanel("fig04a-resource-charge", "Fig 4a: resource charge against TF, fixed TF", "resource_charge", false),
				tfPanel("fig04b-resource-charge-random", "Fig 4b: resource charge against TF, random TF", "resource_charge", true),
				tfPanel("fig05a-qos-charge", "Fig 5a: QoS charge against TF, fixed TF", "qos_charge", false),
				tfPanel("fig05b-qos-charge-random", "Fig 5b: QoS charge against TF, random TF", "qos_charge", true),
				tfPanel("fig03-05-acceptance-random", "Acceptance (%) against TF, random TF (not in the paper)", "acceptance", true),
			},
		},
		Recipe{
			Name: "islam2004/fig06-07",
			Spec: "specs/islam2004/fig06-07.yaml",
			Doc:  "Islam et al. 2004, Figs 6-7: QoPS resource and QoS charges against the slack factor, one line per TF, loads 1.3 and 1.6",
			Panels: []report.Panel{
				sfPanel("fig06a-resource-charge", "Fig 6a: resource charge against SF, load 1.3", "resource_charge", "tolerance", "load", "1.3"),
				sfPanel("fig06b-resource-charge", "Fig 6b: resource charge against SF, load 1.6", "resource_charge", "tolerance", "load", "1.6"),
				sfPanel("fig07a-qos-charge", "Fig 7a: QoS charge against SF, load 1.3", "qos_charge", "tolerance", "load", "1.3"),
				sfPanel("fig07b-qos-charge", "Fig 7b: QoS charge against SF, load 1.6", "qos_charge", "tolerance", "load", "1.6"),
			},
		},
		Recipe{
			Name: "islam2004/fig08-09",
			Spec: "specs/islam2004/fig08-09.yaml",
			Doc:  "Islam et al. 2004, Figs 8-9: resource and QoS charges against SF with and without kill-and-restart, load 1.6, TF 2 and 4; sensitivity to K, RETRY_COUNT, new_job_first and least_laxity",
			Tables: []TableJob{
				sensitivity("sensitivity-acceptance", "acceptance"),
				sensitivity("sensitivity-resource-charge", "resource_charge"),
				sensitivity("sensitivity-qos-charge", "qos_charge"),
			},
			Panels: []report.Panel{
				krPanel("fig08a-resource-charge", "Fig 8a: resource charge against SF, with and without kill-and-restart, TF 2", "resource_charge", "2"),
				krPanel("fig08b-resource-charge", "Fig 8b: resource charge against SF, with and without kill-and-restart, TF 4", "resource_charge", "4"),
				krPanel("fig09a-qos-charge", "Fig 9a: QoS charge against SF, with and without kill-and-restart, TF 2", "qos_charge", "2"),
				krPanel("fig09b-qos-charge", "Fig 9b: QoS charge against SF, with and without kill-and-restart, TF 4", "qos_charge", "4"),
			},
		},
		Recipe{
			Name: "islam2004/fig10-11",
			Spec: "specs/islam2004/fig10-11.yaml",
			Doc:  "Islam et al. 2004, Figs 10-11: as Figs 8-9 with 20% of the jobs requesting deadlines",
			Panels: []report.Panel{
				krPanel("fig10a-resource-charge", "Fig 10a: resource charge against SF, with and without kill-and-restart, 20% deadline jobs, TF 2", "resource_charge", "2"),
				krPanel("fig10b-resource-charge", "Fig 10b: resource charge against SF, with and without kill-and-restart, 20% deadline jobs, TF 4", "resource_charge", "4"),
				krPanel("fig11a-qos-charge", "Fig 11a: QoS charge against SF, with and without kill-and-restart, 20% deadline jobs, TF 2", "qos_charge", "2"),
				krPanel("fig11b-qos-charge", "Fig 11b: QoS charge against SF, with and without kill-and-restart, 20% deadline jobs, TF 4", "qos_charge", "4"),
			},
		},
	)
}

func where(kv ...string) []results.Filter {
	var fs []results.Filter
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, results.Filter{Key: kv[i], Values: []string{kv[i+1]}})
	}
	return fs
}

// tfPanel: metric against TF, one line per load, fixed or random TF.
func tfPanel(name, caption, metric string, random bool) report.Panel {
	r := "false"
	if random {
		r = "true"
	}
	return report.Panel{Name: name, Caption: caption, Plot: report.PlotOptions{Kind: report.KindParam, Metric: metric, Scheme: "ss16",
		X: "tolerance", Series: "load", Where: where("tolerance_random", r)}}
}

// sfPanel: metric against SF, one line per value of series.
func sfPanel(name, caption, metric, series string, kv ...string) report.Panel {
	return report.Panel{Name: name, Caption: caption, Plot: report.PlotOptions{Kind: report.KindParam, Metric: metric, Scheme: "ss16",
		X: "slack", Series: series, Where: where(kv...)}}
}

// krPanel: metric against SF, with and without kill-and-restart, at TF tf.
func krPanel(name, caption, metric, tf string) report.Panel {
	return sfPanel(name, caption, metric, "kill_restart", "label", "QoPS", "tolerance", tf)
}

// sensitivity compares the sensitivity settings with QoPS at TF 4, SF 1,
// without kill-and-restart.
func sensitivity(name, metric string) TableJob {
	return TableJob{Name: name, Opts: results.TableOptions{
		Metric: metric, Scheme: "ss16", Layout: results.LayoutWide, Baseline: "QoPS", Compare: results.CompareRatio,
		Where: where("tolerance", "4", "slack", "1", "kill_restart", "false"),
	}}
}
