// Command schedfarm runs parallel job scheduling simulations: one at a time
// (sim) or as a parameter sweep farmed out to workers over NATS JetStream
// (run, coordinator, worker), and turns the results into tables and plots.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the tool's version when set at build time with
// -ldflags "-X main.version=..."; otherwise toolVersion reads the module
// version and VCS revision from the binary.
var version = "dev"

// revision is the commit the binary was built from when set at build time
// with -ldflags "-X main.revision=$(git rev-parse HEAD)" (the README's
// build command and the Dockerfile do), so the version names the commit
// even where Go's VCS stamping is off (GOFLAGS=-buildvcs=false, a build
// without the .git directory). Go's own stamp, when there, wins: it also
// knows whether the tree was modified.
var revision = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runArgs(ctx, newApp(), os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "schedfarm:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:                 "schedfarm",
		Usage:                "parameter-sweep farm for parallel job scheduling research",
		Version:              toolVersion(),
		EnableBashCompletion: true,
		Commands:             commands(),
		Action:               unknownCommand,
	}
}

// unknownCommand is the app's action: with no command it shows the help,
// with an unknown one it fails with the list of commands.
func unknownCommand(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	var names []string
	for _, cmd := range c.App.VisibleCommands() {
		names = append(names, cmd.Name)
	}
	return fmt.Errorf("unknown command %q (commands: %s; try: schedfarm --help)", c.Args().First(), strings.Join(names, ", "))
}
