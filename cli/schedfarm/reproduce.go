package schedfarm

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/sweep"
)

func reproduceCommand() *cli.Command {
	var names []string
	for _, r := range reproduction.Recipes {
		names = append(names, fmt.Sprintf("  %-26s %s", r.Name, r.Doc))
	}
	return &cli.Command{
		Name:      "reproduce",
		Usage:     "run a paper's figure groups, write their tables and figures, and grade the paper's claims",
		ArgsUsage: "GROUP... | PAPER... | all",
		Description: "Runs the spec of each named figure group on this machine (as `schedfarm run` does) and\n" +
			"writes OUT/NAME/sweep (the sweep's Parquet outputs), OUT/NAME/tables (Markdown and CSV)\n" +
			"and OUT/NAME/figures (PNG and SVG). Results already in the state are reused. Run it from\n" +
			"the repository root (or give --root).\n\n" +
			"Then it grades the claims of each paper it ran (specs/PAPER/claims.yaml, see docs/claims.md)\n" +
			"against the outputs, writes OUT/PAPER/scorecard.{md,csv,parquet} and prints one line per\n" +
			"paper. The exit status is 1 when a claim marked must does not agree or a claim cannot be\n" +
			"evaluated. --claims-only DIR grades existing outputs without running anything; --record\n" +
			"also stores each scorecard as specs/PAPER/scorecard.csv and regenerates the scorecard\n" +
			"tables of REPRODUCING.md and the summary lines of README.md.\n\n" +
			"--readings PAPER... then runs the paper's figure groups once per reading of\n" +
			"specs/PAPER/readings.yaml (parameter overrides on its specs) into OUT/PAPER/readings/ID,\n" +
			"grades the same claims against each and writes OUT/PAPER/readings.{md,csv}: counts per\n" +
			"reading and the claims each gains and loses against the specs as committed; with --record\n" +
			"it stores specs/PAPER/readings.csv and regenerates REPRODUCING.md's readings sections.\n\n" +
			"Figure groups (a name without its paper prefix works too; a paper's name means all of its groups):\n" + strings.Join(names, "\n"),
		Flags: append(withOutUsage(sweepFlags(), "output root `DIR`: each group goes to DIR/PAPER/GROUP (default: out/reproduce)"),
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.GOMAXPROCS(0), Usage: "tasks run at once"},
			&cli.StringFlag{Name: "root", Value: ".", Usage: "repository `DIR` holding specs/ and traces/"},
			&cli.StringFlag{Name: "claims-only", Usage: "grade the claims against the existing outputs in `DIR` (out/reproduce, a paper's or a group's folder) without running"},
			&cli.BoolFlag{Name: "record", Usage: "store the scorecards under specs/ and regenerate REPRODUCING.md's scorecard tables and README.md's summary lines"},
			&cli.BoolFlag{Name: "readings", Usage: "also run the papers' figure groups under each reading of specs/PAPER/readings.yaml, grade them, and write OUT/PAPER/readings.{md,csv}"},
			memProfileFlag(),
		),
		Action: runReproduce,
	}
}

// runReproduce is the reproduce command: it re-grades DIR (--claims-only),
// or runs the named figure groups, grades their papers' claims and, with
// --readings, runs and grades each reading of those papers.
func runReproduce(c *cli.Context) (err error) {
	stopProfile := startMemProfile(c)
	defer func() { err = errors.Join(err, stopProfile()) }()
	if dir := c.String("claims-only"); dir != "" {
		if c.NArg() > 0 {
			return cliUsageError(c, "--claims-only takes no figure groups: it grades what DIR holds")
		}
		return gradeOnly(c, dir)
	}
	if c.NArg() == 0 {
		return cliUsageError(c, "name at least one figure group or paper, or all")
	}
	recipes, err := reproduceRecipes(c.Args().Slice())
	if err != nil {
		return err
	}
	if c.Bool("readings") {
		if err := readingsArgs(c); err != nil {
			return err
		}
	}
	specs, papers, files, err := loadReproduceInputs(c.String("root"), recipes)
	if err != nil {
		return err
	}
	outRoot := c.String("out")
	if outRoot == "" {
		outRoot = filepath.Join("out", "reproduce")
	}
	if err := runRecipes(c, outRoot, recipes, specs); err != nil {
		return err
	}
	cards, err := grade(c, outRoot, files, nil)
	if err != nil || !c.Bool("readings") {
		return err
	}
	return gradeReadings(c, outRoot, papers, files, cards, runReading)
}

// loadReproduceInputs loads the spec of every recipe and the claims file
// of every paper they belong to (the papers in recipe order), so a bad
// file stops the command before any run.
func loadReproduceInputs(root string, recipes []*reproduction.Recipe) ([]*sweep.Spec, []string, map[string]*claims.File, error) {
	specs := make([]*sweep.Spec, len(recipes))
	var papers []string
	for i, r := range recipes {
		s, err := sweep.Load(filepath.Join(root, r.Spec))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		specs[i] = s
		if p, _ := reproduction.Paper(r.Name); !slices.Contains(papers, p) {
			papers = append(papers, p)
		}
	}
	files, err := loadClaims(root, papers)
	if err != nil {
		return nil, nil, nil, err
	}
	return specs, papers, files, nil
}

// runRecipes runs each recipe's sweep (specs[i] is recipes[i]'s) into
// OUT/GROUP/sweep on the embedded farm and makes its tables and figures
// in OUT/GROUP. A recipe whose spec file an earlier one ran shares that
// one's sweep outputs instead of running it again.
func runRecipes(c *cli.Context, outRoot string, recipes []*reproduction.Recipe, specs []*sweep.Spec) error {
	w := c.App.Writer
	began := time.Now()
	written := map[string]string{} // spec -> sweep folder written by this reproduce
	for i, r := range recipes {
		dir := filepath.Join(outRoot, filepath.FromSlash(r.Name))
		sweepDir := filepath.Join(dir, "sweep")
		start := time.Now()
		fmt.Fprintf(w, "== %s: %s\n", r.Name, r.Doc)
		if prev, ok := written[r.Spec]; ok {
			if err := shareSweep(prev, sweepDir); err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			fmt.Fprintf(w, "%s: sweep outputs of %s shared (same spec)\n", r.Name, prev)
		} else {
			if _, err := runEmbedded(c, specs[i], coordinator.WithOutDir(sweepDir)); err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			written[r.Spec] = sweepDir
		}
		files, err := r.Make(c.String("root"), sweepDir, dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d tables and figures in %s (%v)\n", r.Name, len(files), dir, time.Since(start).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "reproduced %s in %v\n", count(len(recipes), "figure group"), time.Since(began).Round(time.Second))
	return nil
}

// reproduceRecipes resolves figure group names, paper names and all.
func reproduceRecipes(names []string) ([]*reproduction.Recipe, error) {
	if reproduction.RecipesErr != nil {
		return nil, reproduction.RecipesErr
	}
	var out []*reproduction.Recipe
	add := func(r *reproduction.Recipe) {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, name := range names {
		switch {
		case name == "all":
			for i := range reproduction.Recipes {
				add(&reproduction.Recipes[i])
			}
		case reproduction.PaperGroups(name) != nil:
			for i := range reproduction.Recipes {
				if p, _ := reproduction.Paper(reproduction.Recipes[i].Name); p == name {
					add(&reproduction.Recipes[i])
				}
			}
		default:
			r, err := reproduction.LookupRecipe(name)
			if err != nil {
				return nil, err
			}
			add(r)
		}
	}
	return out, nil
}
