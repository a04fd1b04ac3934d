package reproduction

import (
	"fmt"
	"path/filepath"

	"github.com/schedfarm/schedfarm/reproduction/readings"
)

// ReadingGroups loads the spec of every figure group of a paper (its
// [Recipes]), in recipe order, from the repository at root: what
// [readings.Options.Groups] takes.
func ReadingGroups(root, paper string) ([]readings.Group, error) {
	var out []readings.Group
	for _, r := range Recipes {
		p, g := Paper(r.Name)
		if p != paper {
			continue
		}
		s, err := LoadSpec(root, r.Spec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		out = append(out, readings.Group{Name: g, Spec: s})
	}
	if out == nil {
		return nil, fmt.Errorf("paper %s has no figure groups", paper)
	}
	return out, nil
}

// LoadReadings loads specs/<paper>/readings.yaml under root, validated
// against the paper's specs.
func LoadReadings(root, paper string) (*readings.File, error) {
	groups, err := ReadingGroups(root, paper)
	if err != nil {
		return nil, err
	}
	return readings.Load(filepath.Join(root, "specs", paper, readings.FileName), readings.Options{Paper: paper, Groups: groups})
}
