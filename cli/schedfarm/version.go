package schedfarm

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/sim"
)

// toolVersion returns the version recorded in outputs and printed by
// "schedfarm version": the -ldflags version if set, else the module
// version and the VCS revision Go stamps into a binary built in a
// checkout ("devel+4f2a9c1e03b7", "+dirty" when the tree had changes),
// else the -ldflags revision ("devel+4f2a9c1e03b7" too).
func toolVersion() string {
	short := revision[:min(12, len(revision))]
	if version != "dev" {
		if short != "" && !strings.Contains(version, short) {
			return version + "+" + short
		}
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		if short != "" {
			return "devel+" + short
		}
		return version
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		rev = revision // no VCS stamp: the build command's
	}
	if rev != "" && v == "devel" {
		v += "+" + rev[:min(12, len(rev))]
	}
	// Go 1.24 and later stamp the main module's version from the VCS
	// (a pseudo-version naming the commit, "+dirty" when modified).
	if dirty && !strings.HasSuffix(v, "+dirty") {
		v += "+dirty"
	}
	return v
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the tool, simulator and Go versions",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliUsageError(c, "unexpected argument %q", c.Args().First())
			}
			fmt.Fprintf(c.App.Writer, "schedfarm %s\nsimulator %s\n%s %s/%s\n", toolVersion(), sim.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
