package readings

import (
	"fmt"
	"path/filepath"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sweep"
)

// PaperGroups loads the spec of every figure group of a paper (the
// recipes of package report), in recipe order, from the repository at
// root: what [Options.Groups] takes.
func PaperGroups(root, paper string) ([]Group, error) {
	var out []Group
	for _, r := range report.Recipes {
		p, g := report.Paper(r.Name)
		if p != paper {
			continue
		}
		s, err := sweep.Load(filepath.Join(root, r.Spec))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		out = append(out, Group{Name: g, Spec: s})
	}
	if out == nil {
		return nil, fmt.Errorf("paper %s has no figure groups", paper)
	}
	return out, nil
}

// LoadPaper loads specs/<paper>/readings.yaml under root, validated
// against the paper's specs.
func LoadPaper(root, paper string) (*File, error) {
	groups, err := PaperGroups(root, paper)
	if err != nil {
		return nil, err
	}
	return Load(filepath.Join(root, "specs", paper, FileName), Options{Paper: paper, Groups: groups})
}
