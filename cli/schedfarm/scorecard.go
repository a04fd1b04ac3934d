package schedfarm

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/reproduction"
)

// gradeOnly grades the outputs in dir without running: dir is the
// reproduction's output root, a paper's folder or a figure group's
// folder.
func gradeOnly(c *cli.Context, dir string) error {
	start := time.Now()
	papers, outRoot, only, err := reproduction.OutputsIn(dir)
	if err != nil {
		return err
	}
	files, err := reproduction.LoadClaims(c.String("root"), papers)
	if err != nil {
		return err
	}
	run := reproductionRun(c, outRoot)
	cards, err := run.Grade(files, only)
	if c.Bool("readings") && err == nil {
		if len(only) > 0 {
			return cliUsageError(c, "--readings grades whole papers: give the output folder or a paper's folder")
		}
		err = run.GradeReadings(papers, files, cards, false)
	}
	fmt.Fprintf(c.App.Writer, "graded in %v\n", time.Since(start).Round(time.Millisecond))
	return err
}
