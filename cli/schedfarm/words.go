package schedfarm

import (
	"github.com/urfave/cli/v2"
)

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
