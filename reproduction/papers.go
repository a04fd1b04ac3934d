package reproduction

import (
	"slices"
	"strings"
)

// Paper returns the paper of a recipe name ("kettimuthu2005" for
// "kettimuthu2005/fig07-14") and the figure group within it.
func Paper(recipe string) (paper, group string) {
	paper, group, _ = strings.Cut(recipe, "/")
	return paper, group
}

// Papers returns the papers that have recipes, in recipe order.
func Papers() []string {
	var out []string
	for _, r := range Recipes {
		if p, _ := Paper(r.Name); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// PaperGroups returns the figure groups of a paper (recipe names without
// the paper), in recipe order; nil for an unknown paper.
func PaperGroups(paper string) []string {
	var out []string
	for _, r := range Recipes {
		if p, g := Paper(r.Name); p == paper {
			out = append(out, g)
		}
	}
	return out
}
