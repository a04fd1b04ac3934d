package reproduction

import (
	"path/filepath"

	"github.com/schedfarm/schedfarm/report"
)

// steps are the recipe steps a paper file may name (steps: [key]): what
// computes something beyond the tables and plots a paper file declares.
// A new step is an entry here.
var steps = map[string]Step{
	// Parsons and Sevcik 1997, Table 3 beside the paper's numbers, Figs 3-5.
	"lsf-table3": {Name: "table 3", Run: func(s *report.Sweep, root, dir string) ([]string, error) {
		return lsfTableStep(s, root, filepath.Join(dir, "tables"), "table3.md")
	}},
	"lsf-table3-delay30": {Name: "table 3, dispatch delay 30 s", Run: func(s *report.Sweep, root, dir string) ([]string, error) {
		return lsfTableStep(s, root, filepath.Join(dir, "tables"), "table3-delay30.md")
	}},
	"lsf-bars": {Name: "bars", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
		return lsfBarsStep(s, filepath.Join(dir, "figures"))
	}},
	"lsf-wait-by-min": {Name: "wait by minimum", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
		return lsfWaitStep(s, filepath.Join(dir, "tables"), filepath.Join(dir, "figures"))
	}},
	// Workload statistics of the sweep's traces (Lawson, Smirni and Puiu 2002,
	// Table 1, Figs 1-2) and the transient R per batch (Fig 6).
	"trace-stats-table": {Name: "workload statistics", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
		return statsStep(s, filepath.Join(dir, "tables"), "")
	}},
	"trace-stats-weekly": {Name: "jobs per week", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
		return statsStep(s, filepath.Join(dir, "figures"), "fig01")
	}},
	"trace-stats-batches": {Name: "batch statistics", Run: func(s *report.Sweep, _, dir string) ([]string, error) {
		return statsStep(s, filepath.Join(dir, "figures"), "fig02")
	}},
	"transient-summary": {Name: "transient summary", Run: transientStep},
}
