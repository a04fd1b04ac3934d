// Command schedfarm runs parallel job scheduling simulations: one at a time
// (sim) or as a parameter sweep farmed out to workers over NATS JetStream
// (run, coordinator, worker), and turns the results into tables and plots.
// It is [schedfarm.Main] of package cli/schedfarm.
package main

import (
	"os"

	"github.com/schedfarm/schedfarm/cli/schedfarm"
)

// version is the tool's version when set at build time with
// -ldflags "-X main.version=..."; otherwise the module version and VCS
// revision are read from the binary.
var version = "dev"

// revision is the commit the binary was built from when set at build time
// with -ldflags "-X main.revision=$(git rev-parse HEAD)" (the README's
// build command and the Dockerfile do).
var revision = ""

func main() {
	os.Exit(schedfarm.Main(schedfarm.Stamp{Version: version, Revision: revision}))
}
