package schedfarm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/reproduction/readings"
)

// readingsDir is the folder of a paper's readings outputs, one folder per
// reading: OUT/PAPER/readings/ID/GROUP/sweep.
const readingsDir = "readings"

// readingsArgs checks that --readings names papers (or all): a reading
// is graded over a paper's whole scorecard.
func readingsArgs(c *cli.Context) error {
	for _, a := range c.Args().Slice() {
		if a != "all" && reproduction.PaperGroups(a) == nil {
			return cliUsageError(c, "--readings takes papers (or all), not the figure group %s: a reading is graded over the paper's whole scorecard", a)
		}
	}
	return nil
}

// readingRunner makes the outputs of a paper's figure groups under a
// reading in dir; nil grades the outputs already there.
type readingRunner func(c *cli.Context, outRoot, paper string, groups []readings.Group, r *readings.Reading, dir string) error

// runReading runs each figure group of the paper with the reading's
// overrides applied into dir/GROUP/sweep. A group the reading leaves
// unchanged shares the default's outputs (OUT/PAPER/GROUP/sweep), and a
// group whose spec an earlier group of the same reading ran shares that
// one's; tasks the reading does not change come from the result cache of
// the same --state.
func runReading(c *cli.Context, outRoot, paper string, groups []readings.Group, r *readings.Reading, dir string) error {
	w := c.App.Writer
	written := map[string]string{} // spec file -> sweep folder of this reading
	for _, g := range groups {
		spec, err := groupSpec(paper, g.Name)
		if err != nil {
			return err
		}
		sweepDir := filepath.Join(dir, g.Name, "sweep")
		applied, changed, err := r.Apply(g.Name, g.Spec)
		if err != nil {
			return err
		}
		switch prev, ok := written[spec]; {
		case !changed:
			if err := shareSweep(filepath.Join(outRoot, paper, g.Name, "sweep"), sweepDir); err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			fmt.Fprintf(w, "%s: unchanged by the reading, the default's outputs\n", g.Name)
		case ok:
			if err := shareSweep(prev, sweepDir); err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			fmt.Fprintf(w, "%s: sweep outputs of %s shared (same spec)\n", g.Name, prev)
		default:
			start := time.Now()
			rep, err := runEmbedded(c, applied, coordinator.WithOutDir(sweepDir))
			if err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			written[spec] = sweepDir
			fmt.Fprintf(w, "%s: %d of %d tasks from the result cache (%v)\n", g.Name, rep.Cached, rep.Total, time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}

// groupSpec returns the spec file of a paper's figure group.
func groupSpec(paper, group string) (string, error) {
	r, err := reproduction.LookupRecipe(paper + "/" + group)
	if err != nil {
		return "", err
	}
	return r.Spec, nil
}

// gradeReadings grades, for each of the papers that has a readings file,
// every reading's outputs (made by run first, unless run is nil) with the
// paper's claims, compares each scorecard with the default's (cards),
// writes OUT/PAPER/readings.{md,csv} and each reading's scorecard in its
// folder, prints the table's summary lines and, with --record, records
// specs/PAPER/readings.csv and regenerates REPRODUCING.md's readings
// sections. A must claim failing under a reading does not fail it: a
// reading's verdicts are findings.
func gradeReadings(c *cli.Context, outRoot string, papers []string, files map[string]*claims.File, cards map[string]*claims.Scorecard, run readingRunner) error {
	w := c.App.Writer
	root := c.String("root")
	graded := 0
	for _, paper := range reproduction.Papers() {
		if !slices.Contains(papers, paper) {
			continue
		}
		path := filepath.Join(root, "specs", paper, readings.FileName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(w, "%s: no readings (specs/%s/%s)\n", paper, paper, readings.FileName)
			continue
		}
		groups, err := reproduction.ReadingGroups(root, paper)
		if err != nil {
			return err
		}
		rf, err := readings.Load(path, readings.Options{Paper: paper, Groups: groups})
		if err != nil {
			return err
		}
		cf, def := files[paper], cards[paper]
		if cf == nil || def == nil {
			return fmt.Errorf("%s: readings need the paper's claims (specs/%s/%s)", paper, paper, claims.FileName)
		}
		table := &readings.Table{Paper: paper, Rows: []readings.Row{readings.DefaultRow(def)}}
		for i := range rf.Readings {
			r := &rf.Readings[i]
			dir := filepath.Join(outRoot, paper, readingsDir, r.ID)
			if run != nil {
				fmt.Fprintf(w, "== %s reading %s: %s\n", paper, r.ID, r.Summary)
				if err := run(c, outRoot, paper, groups, r, dir); err != nil {
					return err
				}
			} else if _, err := os.Stat(dir); err != nil {
				return fmt.Errorf("%s reading %s: no outputs in %s (run schedfarm reproduce --readings %s)", paper, r.ID, dir, paper)
			}
			sc := claims.Evaluate(cf, claims.NewOutputs(dir))
			if _, err := sc.WriteFiles(dir); err != nil {
				return err
			}
			row, err := readings.Compare(r, def, sc)
			if err != nil {
				return fmt.Errorf("%s: %w", paper, err)
			}
			table.Rows = append(table.Rows, row)
		}
		if _, err := table.WriteFiles(filepath.Join(outRoot, paper)); err != nil {
			return err
		}
		fmt.Fprint(w, table.Summary())
		graded++
		if c.Bool("record") {
			p, err := readings.Record(root, table)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "recorded %s\n", p)
		}
	}
	if c.Bool("record") && graded > 0 {
		p, err := readings.WriteDoc(root)
		if err != nil {
			return err
		}
		if p != "" {
			fmt.Fprintf(w, "regenerated the readings sections of %s\n", p)
		}
	}
	return nil
}
