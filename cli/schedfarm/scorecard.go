package schedfarm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/results"
)

// loadClaims loads the claims file of each paper that has one; a paper
// without one maps to nil.
func loadClaims(root string, papers []string) (map[string]*claims.File, error) {
	out := map[string]*claims.File{}
	var errs []error
	for _, p := range papers {
		path := filepath.Join(root, "specs", p, claims.FileName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			out[p] = nil
			continue
		}
		f, err := claims.Load(path, claims.Options{Groups: reproduction.PaperGroups(p)})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[p] = f
	}
	return out, errors.Join(errs...)
}

// grade evaluates each paper's claims against the outputs under outRoot,
// writes the scorecards into outRoot/<paper>, prints the summary lines
// and, with --record, stores the scorecards and regenerates the docs.
// only limits a paper's groups (nil: every group with outputs). It
// returns the scorecards by paper, and fails when a claim cannot be
// evaluated or a must claim does not agree.
func grade(c *cli.Context, outRoot string, files map[string]*claims.File, only map[string][]string) (map[string]*claims.Scorecard, error) {
	w := c.App.Writer
	root := c.String("root")
	cards := map[string]*claims.Scorecard{}
	var errs []error
	for _, paper := range reproduction.Papers() {
		f, ok := files[paper]
		if !ok {
			continue
		}
		if f == nil {
			fmt.Fprintf(w, "%s: no claims (specs/%s/%s)\n", paper, paper, claims.FileName)
			continue
		}
		o := claims.NewOutputs(filepath.Join(outRoot, paper))
		o.Only = only[paper]
		sc := claims.Evaluate(f, o)
		cards[paper] = sc
		if _, err := sc.WriteFiles(o.Dir); err != nil {
			return nil, err
		}
		fmt.Fprintln(w, sc.Summary())
		if err := sc.Err(); err != nil {
			errs = append(errs, err)
		}
		if c.Bool("record") {
			path, err := claims.Record(root, sc)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(w, "recorded %s\n", path)
		}
	}
	if c.Bool("record") {
		changed, err := claims.WriteDocs(root)
		if err != nil {
			return nil, err
		}
		for _, p := range changed {
			fmt.Fprintf(w, "regenerated the scorecard sections of %s\n", p)
		}
	}
	return cards, errors.Join(errs...)
}

// gradeOnly grades the outputs in dir without running: dir is the
// reproduction's output root, a paper's folder or a figure group's
// folder.
func gradeOnly(c *cli.Context, dir string) error {
	start := time.Now()
	root := c.String("root")
	var papers []string
	var outRoot string
	only := map[string][]string{}
	isGroup := func(d string) bool {
		_, err := os.Stat(filepath.Join(d, "sweep", results.SummaryFile))
		return err == nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	switch base := filepath.Base(abs); {
	case isGroup(abs):
		paperDir := filepath.Dir(abs)
		paper := filepath.Base(paperDir)
		papers, outRoot = []string{paper}, filepath.Dir(paperDir)
		only[paper] = []string{base}
	case reproduction.PaperGroups(base) != nil:
		papers, outRoot = []string{base}, filepath.Dir(abs)
	default:
		outRoot = abs
		for _, p := range reproduction.Papers() {
			if st, err := os.Stat(filepath.Join(abs, p)); err == nil && st.IsDir() {
				papers = append(papers, p)
			}
		}
	}
	if len(papers) == 0 {
		return fmt.Errorf("%s holds no reproduction outputs (want the output folder of schedfarm reproduce, a paper's folder in it, or a figure group's)", dir)
	}
	files, err := loadClaims(root, papers)
	if err != nil {
		return err
	}
	cards, err := grade(c, outRoot, files, only)
	if c.Bool("readings") && err == nil {
		if len(only) > 0 {
			return cliUsageError(c, "--readings grades whole papers: give the output folder or a paper's folder")
		}
		err = gradeReadings(c, outRoot, papers, files, cards, nil)
	}
	fmt.Fprintf(c.App.Writer, "graded in %v\n", time.Since(start).Round(time.Millisecond))
	return err
}
