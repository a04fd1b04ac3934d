package policy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
)

// TestExternal_Entry: the external entry passes the program's own
// parameters through, needs a command, is refused without an allowance
// or with a program outside it, and runs a policy program when allowed.
func TestExternal_Entry(t *testing.T) {
	e, err := policy.Lookup("external")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Check(map[string]any{"alpha": 1}); !errors.Is(err, policy.ErrBadParam) || !strings.Contains(err.Error(), "command") {
		t.Errorf("no command: %v", err)
	}
	if _, err := e.Check(map[string]any{"command": "python3 p.py", "alpha": []any{1}}); !errors.Is(err, policy.ErrBadParam) {
		t.Errorf("list parameter: %v", err)
	}
	if _, err := e.Check(map[string]any{"command": "python3 'p.py"}); !errors.Is(err, policy.ErrBadParam) || !strings.Contains(err.Error(), "command: bad command: the single quote at offset 8 is not closed") {
		t.Errorf("unclosed quote: %v", err)
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "my fcfs.py") // a space: quoted in the command
	// A first-come first-served policy in a few lines.
	src := `import json, sys
print(json.dumps({"type": "ready", "version": 1, "name": "mini"}), flush=True)
init = json.loads(sys.stdin.readline())
assert init["params"] == {"alpha": 3, "beta": "x"}, init["params"]
q, size, free = [], {}, 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "end":
        break
    for ev in m["events"]:
        if ev["type"] == "arrive":
            q.append(ev["job"]); size[ev["job"]] = ev["procs"]
    free, out = m["free"], []
    while q and size[q[0]] <= free:
        free -= size[q[0]]; out.append({"op": "start", "job": q.pop(0)})
    print(json.dumps({"type": "decisions", "decisions": out}), flush=True)
`
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := e.Check(map[string]any{"command": "python3 " + external.JoinCommand([]string{prog}), "alpha": 3, "beta": "x"})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []sim.Job{{ID: 1, Runtime: 10, Estimate: 10, Procs: 2}, {ID: 2, Submit: 1, Runtime: 5, Estimate: 5, Procs: 2}, {ID: 3, Submit: 2, Runtime: 1, Estimate: 1, Procs: 1}}
	if _, err := e.Build(v, policy.Env{Procs: 3, Jobs: jobs}); !errors.Is(err, external.ErrNotAllowed) || !strings.Contains(err.Error(), "--allow-external python3") {
		t.Errorf("no allowance: %v", err)
	}
	if _, err := e.Build(v, policy.Env{Procs: 3, Jobs: jobs, External: &external.Access{Interpreters: []string{"python3.12"}}}); !errors.Is(err, external.ErrNotAllowed) {
		t.Errorf("other interpreter: %v", err)
	}
	p, err := e.Build(v, policy.Env{Procs: 3, Jobs: jobs, External: &external.Access{Interpreters: []string{"python3"}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), 3, jobs, p, sim.Options{})
	p.(*external.Policy).Close()
	if err != nil {
		t.Fatal(err)
	}
	// FCFS: job 1 at 0 on 2; job 2 waits for it (10); job 3 waits behind job 2 and starts with it.
	for i, want := range []sim.Time{0, 10, 10} {
		if got := res.Tasks[i].FirstStart; got != want {
			t.Errorf("job %d starts at %d, want %d", i+1, got, want)
		}
	}

	// A sweep's task carries its command as the list it split when the
	// spec was read (Env.Command): the policy runs that list and does not
	// split its command text again. Here the text names a program that
	// does not exist, so only the list can start the policy.
	bad, err := e.Check(map[string]any{"command": "python3 'no such policy.py'", "alpha": 3, "beta": "x"})
	if err != nil {
		t.Fatal(err)
	}
	p, err = e.Build(bad, policy.Env{Procs: 3, Jobs: jobs, External: &external.Access{Interpreters: []string{"python3"}}, Command: []string{"python3", prog}})
	if err != nil {
		t.Fatal(err)
	}
	res, err = sim.Run(context.Background(), 3, jobs, p, sim.Options{})
	p.(*external.Policy).Close()
	if err != nil {
		t.Fatalf("Env.Command: %v", err)
	}
	if got := res.Tasks[1].FirstStart; got != 10 {
		t.Errorf("Env.Command: job 2 starts at %d, want 10", got)
	}
}
