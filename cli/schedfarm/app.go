// Package schedfarm is the schedfarm command line as a library: [Main]
// runs it with every command (sim, run, coordinator, worker, reproduce,
// ...). A program that registers its own policies
// ([policy.Register]) calls it from its main function to be a schedfarm
// binary that knows them:
//
//	func init() {
//		if err := policy.Register(policy.Entry{Name: "mine", Build: build}); err != nil {
//			panic(err)
//		}
//	}
//
//	func main() { os.Exit(schedfarm.Main(schedfarm.Stamp{})) }
//
// The command schedfarm (cmd/schedfarm) is this package's Main.
package schedfarm

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the tool's version as stamped at build time ([Stamp]);
// otherwise toolVersion reads the module version and VCS revision from
// the binary.
var version = "dev"

// revision is the commit the binary was built from as stamped at build
// time ([Stamp]), so the version names the commit even where Go's VCS
// stamping is off (GOFLAGS=-buildvcs=false, a build without the .git
// directory). Go's own stamp, when there, wins: it also knows whether the
// tree was modified.
var revision = ""

// Stamp is what the build stamped into the binary; the zero value is a
// development build (the version is then read from Go's build
// information).
type Stamp struct {
	// Version is the release version ("" or "dev": none).
	Version string
	// Revision is the commit the binary was built from ("": unknown).
	Revision string
}

// Main runs the command line on os.Args, with SIGINT and SIGTERM
// cancelling the command, and returns the exit status: 0, or 1 after
// printing the error.
func Main(s Stamp) int {
	if s.Version != "" {
		version = s.Version
	}
	revision = s.Revision
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runArgs(ctx, newApp(), os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "schedfarm:", err)
		return 1
	}
	return 0
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
