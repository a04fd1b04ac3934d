package schedfarm

import (
	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/reproduction"
)

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
