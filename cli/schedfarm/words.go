package schedfarm

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// count returns "1 figure group", "2 figure groups".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// withOutUsage returns flags with the --out flag's usage replaced.
func withOutUsage(flags []cli.Flag, usage string) []cli.Flag {
	out := make([]cli.Flag, len(flags))
	for i, f := range flags {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Name == "out" {
			c := *sf
			c.Usage = usage
			f = &c
		}
		out[i] = f
	}
	return out
}
