// Command schedfarm runs parallel job scheduling simulations: one at a time
// (sim) or as a parameter sweep farmed out to workers over NATS JetStream
// (run, coordinator, worker), and turns the results into tables and plots.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the tool's version, set at build time with
// -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newApp().RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "schedfarm:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:                 "schedfarm",
		Usage:                "parameter-sweep farm for parallel job scheduling research",
		Version:              version,
		EnableBashCompletion: true,
		Commands:             commands(),
	}
}
