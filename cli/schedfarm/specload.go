package schedfarm

import (
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/sweep"
)

// loadSpec loads and validates the spec at path. A spec in a paper's folder
// (specs/PAPER/NAME.yaml) is loaded as reproduce loads it, so that what it
// takes from the paper's data (the TSS limits of tss_paper_limits, read from
// the paper's claims file) is filled in: `schedfarm run` on a shipped paper
// spec runs the tasks reproduce runs, with the same IDs. Any other spec is
// loaded as it is written.
func loadSpec(path string) (*sweep.Spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return sweep.Load(path)
	}
	paperDir, file := filepath.Split(abs)
	paperDir = filepath.Clean(paperDir)
	specsDir := filepath.Dir(paperDir)
	if filepath.Base(specsDir) != "specs" {
		return sweep.Load(path)
	}
	root := filepath.Dir(specsDir)
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, root); err == nil {
			root = r
		}
	}
	rel := filepath.ToSlash(filepath.Join("specs", filepath.Base(paperDir), file))
	return reproduction.LoadSpec(root, rel)
}
