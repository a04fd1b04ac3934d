package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/external"
)

// ExternalName is the name of the policy played by a child process.
const ExternalName = "external"

// externalEntry is the external policy: a program speaking the policy
// protocol (docs/protocol.md). It is not in [Entries], which lists the
// policies the engine runs itself; [Lookup] and [Names] know it. Its
// parameters other than its own are the program's, passed through.
var externalEntry = Entry{
	Name: ExternalName, Family: "external",
	Doc: "a policy program speaking the schedfarm policy protocol (docs/protocol.md) over its standard input and output; " +
		"parameters other than these are the program's own",
	Params: []Param{
		{Name: "command", Kind: String, Default: "",
			Doc: "the program and its arguments, split into words as a shell would (spaces separate them; quotes and backslashes keep them together) but without running one, for example \"python3 policies/easy.py\"; in a spec also a list, one argument per item"},
		{Name: "files", Kind: String, Default: "",
			Doc: "in a sweep, other files the program needs (modules it imports), separated by spaces (quotes keep a name with spaces together; in a spec also a list); with the script they are shipped to the workers and put side by side in the directory the program runs in"},
		{Name: "instant_limit", Kind: Float, Default: external.DefaultInstantLimit.Seconds(), Min: 0.001, Max: 3600,
			Doc: "wall-time seconds the program may take to answer one message"},
		{Name: "task_limit", Kind: Float, Default: 0.0, Min: 0, Max: 30 * 24 * 3600,
			Doc: "wall-time seconds the whole run may take (0: no limit)"},
	},
	Open: true,
	Validate: func(v Values) error {
		if v.String("command") == "" {
			return &ParamError{Param: "command", Msg: "must name a program, for example command=\"python3 policy.py\""}
		}
		if _, err := external.SplitCommand(v.String("command")); err != nil {
			return &ParamError{Param: "command", Msg: err.Error()}
		}
		files, err := external.SplitWords(v.String("files"))
		if err != nil {
			return &ParamError{Param: "files", Msg: strings.TrimPrefix(err.Error(), external.ErrCommand.Error()+": ")}
		}
		if slices.Contains(files, "") {
			return &ParamError{Param: "files", Msg: "an empty file name"}
		}
		return nil
	},
	Build: buildExternal,
}

// ExternalCommand returns the command of an external policy's values,
// split into the program and its arguments ([external.SplitCommand]);
// nil when it does not split, which the entry's validation refuses.
func ExternalCommand(v Values) []string {
	args, err := external.SplitCommand(v.String("command"))
	if err != nil {
		return nil
	}
	return args
}

// ExternalParams returns the program's own parameters among an external
// policy's values.
func ExternalParams(v Values) map[string]any {
	own := map[string]any{}
	for k, x := range v {
		if k != "command" && k != "files" && k != "instant_limit" && k != "task_limit" {
			own[k] = x
		}
	}
	return own
}

func buildExternal(v Values, env Env) (sim.Policy, error) {
	cmd := env.Command
	if cmd == nil {
		cmd = ExternalCommand(v)
	}
	if err := env.External.Check(cmd); err != nil {
		return nil, err
	}
	a := env.External
	if a.Files != nil {
		cmd = append([]string(nil), cmd...)
		for i, arg := range cmd[1:] {
			if p, ok := a.Files[arg]; ok {
				cmd[i+1] = p
			}
		}
	}
	return external.New(external.Config{
		Command:      cmd,
		Dir:          a.Dir,
		Env:          a.Env,
		Params:       ExternalParams(v),
		Seed:         env.Seed,
		InstantLimit: time.Duration(v.Float("instant_limit") * float64(time.Second)),
		TaskLimit:    time.Duration(v.Float("task_limit") * float64(time.Second)),
	})
}

// openValue converts a passed-through parameter's raw value: integers to
// int64, other numbers to float64, bools and strings as they are.
func openValue(raw any) (any, error) {
	switch x := raw.(type) {
	case int:
		return int64(x), nil
	case int64, float64, bool, string:
		return x, nil
	case uint64:
		return toInt(x)
	}
	return nil, fmt.Errorf("%w: %v is not a number, a bool or a string", ErrBadParam, raw)
}
