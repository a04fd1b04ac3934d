package schedfarm

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// runApp runs app on the command line args (args[0] is the program),
// with the subcommand's flags moved before its positional arguments, so
// that "schedfarm table DIR --metric m" works like
// "schedfarm table --metric m DIR" (urfave/cli stops parsing flags at the
// first positional argument). Everything after "--" stays as it is.
func runArgs(ctx context.Context, app *cli.App, args []string) error {
	return app.RunContext(ctx, reorderArgs(app, args))
}

// reorderArgs returns args with the flags of the subcommand args[1] moved
// before its positional arguments, keeping their order. A flag's value is
// moved with it when the flag takes one and is not given as --flag=value.
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{"help": false, "h": false}
	for _, f := range cmd.Flags {
		tv := true
		if d, ok := f.(cli.DocGenerationFlag); ok {
			tv = d.TakesValue()
		}
		for _, n := range f.Names() {
			takesValue[n] = tv
		}
	}
	out := append([]string{}, args[:2]...)
	var pos []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' || isNumber(a) {
			pos = append(pos, a)
			continue
		}
		out = append(out, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(rest) {
			i++
			out = append(out, rest[i])
		}
	}
	return append(out, pos...)
}

// isNumber reports whether s is a negative number rather than a flag.
func isNumber(s string) bool {
	var f float64
	_, err := fmt.Sscanf(s, "%g", &f)
	return err == nil && strings.TrimLeft(s, "-0123456789.eE+") == ""
}
