package farmtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// externalSpec writes, in a new directory, a sweep mixing the Python
// EASY example (with the kit beside it) and the built-in easy and fcfs,
// and returns the spec's path.
func externalSpec(t *testing.T, interpreter string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"examples/easy.py", "schedfarm_policy.py"} {
		b, err := os.ReadFile(filepath.Join("..", "sdk", "python", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := `name: mixed
workloads:
  - trace: kth
    count: 1500
    estimates: [trace, accurate]
policies:
  - name: fcfs
  - name: easy
  - name: external
    label: easy-py
    params:
      command: ` + interpreter + ` easy.py
      files: schedfarm_policy.py
seed: 7
categories: [ss4]
`
	p := filepath.Join(dir, "mixed.yaml")
	if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExternal_Farm: a sweep with a Python policy beside built-in ones
// through a real NATS server gives the outputs of an embedded run byte
// for byte with 1 and 2 workers; the Python EASY's rows equal the
// built-in easy's; editing the policy file re-runs its tasks and no
// others.
func TestExternal_Farm(t *testing.T) {
	spec := externalSpec(t, "python3")
	ref := t.TempDir()
	want := filepath.Join(ref, "out")
	schedfarm(t, ref, "run", "--workers", "2", "--allow-external", "python3", "--state", filepath.Join(ref, "state"), "--out", want, spec).mustSucceed(t, 2*time.Minute)
	tables, err := os.ReadFile(filepath.Join(want, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Each workload's easy and easy-py rows agree after the params column.
	rows := map[string]string{}
	for _, l := range strings.Split(string(tables), "\n") {
		f := strings.Split(l, "|")
		if len(f) > 9 && (strings.TrimSpace(f[6]) == "easy" || strings.TrimSpace(f[6]) == "easy-py") {
			key := strings.TrimSpace(f[4]) + " " + strings.TrimSpace(f[6])
			if _, ok := rows[key]; !ok {
				rows[key] = strings.Join(f[8:], "|")
			}
		}
	}
	for _, est := range []string{"trace", "accurate"} {
		if a, b := rows[est+" easy"], rows[est+" easy-py"]; a == "" || a != b {
			t.Errorf("estimates %s: easy row %q, easy-py row %q", est, a, b)
		}
	}

	for _, n := range []int{1, 2} {
		t.Run("Workers"+string(rune('0'+n)), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			ns := startNATS(t)
			for range n {
				ns.worker(t, dir, "--concurrency", "1", "--allow-external", "python3")
			}
			ns.coordinator(t, dir, filepath.Join(dir, "state"), out, spec).mustSucceed(t, 2*time.Minute)
			sameOutputs(t, out, want)
		})
	}

	t.Run("EditPolicy", func(t *testing.T) {
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		schedfarm(t, dir, "run", "--allow-external", "python3", "--state", state, "--out", filepath.Join(dir, "out1"), spec).mustSucceed(t, 2*time.Minute)
		f := filepath.Join(filepath.Dir(spec), "easy.py")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, append(b, []byte("# edited\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		p := schedfarm(t, dir, "run", "--allow-external", "python3", "--state", state, "--out", filepath.Join(dir, "out2"), spec)
		p.mustSucceed(t, 2*time.Minute)
		if got := p.stdout.String(); !contains(got, "4 cached results reused") || !contains(got, "2 to run") {
			t.Errorf("after editing the policy, want the 4 built-in tasks cached and the 2 Python ones run:\n%s", got)
		}
	})
}

// TestExternal_NotAllowed: a worker without --allow-external fails the
// external tasks with an error saying how to allow them (the built-in
// ones succeed); with --allow-external python3, a spec whose command
// starts another interpreter is refused.
func TestExternal_NotAllowed(t *testing.T) {
	for _, tt := range []struct {
		interpreter string
		allow       []string
		want        string
	}{
		{"python3", nil, "start the worker (or schedfarm run) with --allow-external"},
		{"perl", []string{"--allow-external", "python3"}, `program "perl" is not among the allowed interpreters (python3)`},
	} {
		t.Run(tt.interpreter, func(t *testing.T) {
			spec := externalSpec(t, tt.interpreter)
			dir := t.TempDir()
			ns := startNATS(t)
			ns.worker(t, dir, append([]string{"--concurrency", "1"}, tt.allow...)...)
			p := ns.coordinator(t, dir, filepath.Join(dir, "state"), filepath.Join(dir, "out"), spec)
			if err := p.wait(t, 2*time.Minute); err == nil {
				t.Fatal("the sweep succeeded")
			}
			got := p.stderr.String()
			if !contains(got, "2 of 6 tasks failed") || !contains(got, tt.want) {
				t.Errorf("coordinator's error:\n%s\nwant 2 of 6 tasks failed with %q", got, tt.want)
			}
		})
	}
}
