package schedfarm

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/reproduction"
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
			"tables of REPRODUCING.md and docs/papers/PAPER.md and the summary lines of README.md.\n\n" +
			"--readings PAPER... then runs the paper's figure groups once per reading of\n" +
			"specs/PAPER/readings.yaml (parameter overrides on its specs) into OUT/PAPER/readings/ID,\n" +
			"grades the same claims against each and writes OUT/PAPER/readings.{md,csv}: counts per\n" +
			"reading and the claims each gains and loses against the specs as committed; with --record\n" +
			"it stores specs/PAPER/readings.csv and regenerates the readings section of docs/papers/PAPER.md.\n\n" +
			"Figure groups (a name without its paper prefix works too; a paper's name means all of its groups):\n" + strings.Join(names, "\n"),
		Flags: append(withOutUsage(sweepFlags(), "output root `DIR`: each group goes to DIR/PAPER/GROUP (default: out/reproduce)"),
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: runtime.GOMAXPROCS(0), Usage: "tasks run at once"},
			&cli.StringFlag{Name: "root", Value: ".", Usage: "repository `DIR` holding specs/ and traces/"},
			&cli.StringFlag{Name: "claims-only", Usage: "grade the claims against the existing outputs in `DIR` (out/reproduce, a paper's or a group's folder) without running"},
			&cli.BoolFlag{Name: "record", Usage: "store the scorecards under specs/ and regenerate the scorecard tables of REPRODUCING.md and docs/papers/PAPER.md and README.md's summary lines"},
			&cli.BoolFlag{Name: "readings", Usage: "also run the papers' figure groups under each reading of specs/PAPER/readings.yaml, grade them, and write OUT/PAPER/readings.{md,csv}"},
			memProfileFlag(),
		),
		Action: runReproduce,
	}
}

// runReproduce is the reproduce command: it re-grades DIR (--claims-only),
// or runs the named figure groups, grades their papers' claims and, with
// --readings, runs and grades each reading of those papers. The work is
// package reproduction's; this parses the flags.
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
	recipes, err := reproduction.Resolve(c.Args().Slice())
	if err != nil {
		return err
	}
	if c.Bool("readings") {
		if err := readingsArgs(c); err != nil {
			return err
		}
	}
	specs, papers, files, err := reproduction.LoadInputs(c.String("root"), recipes)
	if err != nil {
		return err
	}
	outRoot := c.String("out")
	if outRoot == "" {
		outRoot = filepath.Join("out", "reproduce")
	}
	run := reproductionRun(c, outRoot)
	if c.Bool("readings") {
		// Checked before anything runs.
		if err := run.LoadReadings(papers); err != nil {
			return err
		}
	}
	if err := run.RunRecipes(recipes, specs); err != nil {
		return err
	}
	cards, err := run.Grade(files, nil)
	if err != nil || !c.Bool("readings") {
		return err
	}
	return run.GradeReadings(papers, files, cards, true)
}

// reproductionRun is the reproduction the command's flags ask for, its
// sweeps run on the embedded farm.
func reproductionRun(c *cli.Context, outRoot string) *reproduction.Run {
	return &reproduction.Run{
		Root:   c.String("root"),
		Out:    outRoot,
		Record: c.Bool("record"),
		W:      c.App.Writer,
		RunSweep: func(spec *sweep.Spec, outDir string) (int, int, error) {
			rep, err := runEmbedded(c, spec, coordinator.WithOutDir(outDir))
			if err != nil {
				return 0, 0, err
			}
			return rep.Cached, rep.Total, nil
		},
	}
}
