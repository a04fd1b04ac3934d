package schedfarm

import "github.com/urfave/cli/v2"

// commands lists the subcommands; each lives in its own file.
func commands() []*cli.Command {
	return []*cli.Command{
		simCommand(),
		tableCommand(),
		plotCommand(),
		tracestatsCommand(),
		reproduceCommand(),
		runCommand(),
		coordinatorCommand(),
		workerCommand(),
		serverCommand(),
		statusCommand(),
		versionCommand(),
	}
}
