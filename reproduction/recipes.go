package reproduction

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/specs"
)

// Recipe says how to reproduce one group of a paper's figures and tables:
// which spec to run and which tables and figures to make from its output.
type Recipe struct {
	// Name is the recipe's key, e.g. "kettimuthu2005/fig07-14".
	Name string
	// Spec is the spec file, relative to the repository root.
	Spec string
	// Doc says what the recipe reproduces.
	Doc string
	// Tables are written as <name>.md and <name>.csv.
	Tables []TableJob
	// Plots are made into the figures folder.
	Plots []report.PlotOptions
	// Panels are tables and figures of a metric against a parameter
	// (plot kind param), one per panel of the paper's figures.
	Panels []report.Panel
	// Steps make further files from the sweep (workload statistics, ...)
	// into dir (the recipe's output folder) and return their paths; root
	// is the repository holding specs/ (the paper's files a step reads).
	Steps []Step
	// TSSLimits are the paper's tss_paper_limits ([LimitsTable]), the
	// same in every recipe of the paper; nil when its paper file has none.
	TSSLimits []LimitsTable
}

// Step is a recipe step beyond tables and plots.
type Step struct {
	Name string
	Run  func(s *report.Sweep, root, dir string) ([]string, error)
}

// TableJob is one table file of a recipe.
type TableJob struct {
	Name string
	Opts report.TableOptions
}

// Recipes lists every reproducible figure group, in paper order: the
// groups of the paper files of the specs folder (specs/papers.yaml and
// specs/<paper>/paper.yaml), built into the binary. RecipesErr is their
// error when those files are invalid (then Recipes is empty); TestPapers
// keeps them valid.
var Recipes, RecipesErr = LoadPapers(specs.Papers)

// LookupRecipe returns the recipe called name; a name without its paper
// prefix ("fig07-14") matches too when it is unique.
func LookupRecipe(name string) (*Recipe, error) {
	var found *Recipe
	n := 0
	for i := range Recipes {
		r := &Recipes[i]
		if r.Name == name {
			return r, nil
		}
		if strings.HasSuffix(r.Name, "/"+name) {
			found = r
			n++
		}
	}
	if n == 1 {
		return found, nil
	}
	var names []string
	for _, r := range Recipes {
		names = append(names, r.Name)
	}
	return nil, fmt.Errorf("unknown figure group %q (valid: %s)", name, strings.Join(names, ", "))
}

// Make writes the recipe's tables into dir/tables and its figures into
// dir/figures from the sweep output in outDir, and returns the files.
// root is the repository holding specs/, where steps read the paper's
// numbers.
func (r *Recipe) Make(root, outDir, dir string) ([]string, error) {
	s, err := report.Load(outDir)
	if err != nil {
		return nil, err
	}
	var files []string
	tdir := filepath.Join(dir, "tables")
	if err := mkdir(tdir); err != nil {
		return nil, err
	}
	for _, t := range r.Tables {
		fs, err := s.WriteTables(filepath.Join(tdir, t.Name), t.Opts)
		if err != nil {
			return nil, fmt.Errorf("%s: table %s: %w", r.Name, t.Name, err)
		}
		files = append(files, fs...)
	}
	for _, p := range r.Plots {
		p.OutDir = filepath.Join(dir, "figures")
		fs, err := s.Plots(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %s plot: %w", r.Name, p.Kind, err)
		}
		files = append(files, fs...)
	}
	for _, p := range r.Panels {
		fs, err := s.WritePanel(p, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: panel %s: %w", r.Name, p.Name, err)
		}
		files = append(files, fs...)
	}
	for _, st := range r.Steps {
		fs, err := st.Run(s, root, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", r.Name, st.Name, err)
		}
		files = append(files, fs...)
	}
	return files, nil
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	return nil
}
