package reproduction

import (
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/report"
)

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
	series, err := s.Transient("slowdown_mean", "single", report.DefaultBatch, []report.Filter{{Key: "label", Values: []string{"single", "multi"}}})
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
