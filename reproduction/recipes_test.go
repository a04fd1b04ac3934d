package reproduction

import (
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/report"
)

// TestRecipes: every recipe names a spec that loads, and asks only for
// schemes the spec reports and baselines that are labels of its policies.
func TestRecipes(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Recipes {
		t.Run(r.Name, func(t *testing.T) {
			if seen[r.Name] {
				t.Fatalf("recipe %s twice", r.Name)
			}
			seen[r.Name] = true
			spec, err := LoadSpec("..", r.Spec)
			if err != nil {
				t.Fatal(err)
			}
			var labels []string
			for _, p := range spec.Policies {
				labels = append(labels, p.Label)
			}
			if len(r.Steps) == 0 && len(r.Panels) == 0 && (len(r.Tables) == 0 || len(r.Plots) == 0) {
				t.Errorf("recipe makes no tables or no figures (and has no steps or panels that make them)")
			}
			for _, p := range r.Panels {
				if p.Plot.Kind != report.KindParam || p.Plot.X == "" || p.Plot.Series == "" || p.Name == "" || p.Caption == "" {
					t.Errorf("panel %+v: want kind param, x, series, a name and a caption", p)
				}
				for _, f := range p.Plot.Where {
					for _, v := range f.Values {
						if f.Key == "label" && !slices.Contains(labels, v) {
							t.Errorf("panel %s: label %q is no policy label of %v", p.Name, v, labels)
						}
					}
				}
			}
			for _, tj := range r.Tables {
				if tj.Opts.Scheme != "" && !slices.Contains(spec.Categories, tj.Opts.Scheme) {
					t.Errorf("table %s: scheme %s not in the spec's categories %v", tj.Name, tj.Opts.Scheme, spec.Categories)
				}
				if tj.Opts.Baseline != "" && !slices.Contains(labels, tj.Opts.Baseline) {
					t.Errorf("table %s: baseline %q is no policy label of %v", tj.Name, tj.Opts.Baseline, labels)
				}
			}
			for _, p := range r.Plots {
				if p.Scheme != "" && !slices.Contains(spec.Categories, p.Scheme) {
					t.Errorf("%s plot: scheme %s not in the spec's categories %v", p.Kind, p.Scheme, spec.Categories)
				}
				for _, f := range p.Where {
					for _, v := range f.Values {
						if f.Key == "label" && !slices.Contains(labels, v) {
							t.Errorf("%s plot: label %q is no policy label of %v", p.Kind, v, labels)
						}
					}
				}
			}
		})
	}
	if _, err := LookupRecipe("fig07-14"); err != nil {
		t.Errorf("LookupRecipe(fig07-14): %v", err)
	}
	if _, err := LookupRecipe("fig99"); err == nil {
		t.Errorf("LookupRecipe(fig99) gave no error")
	}
}
