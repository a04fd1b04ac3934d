package farmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/results"
)

// externalSpec writes, in a new directory, a sweep mixing the Python
// EASY example (with the kit beside it) and the built-in easy and fcfs,
// and returns the spec's path.
func externalSpec(t *testing.T, interpreter string) string {
	t.Helper()
	return externalSpecOf(t, interpreter, "kth\n    count: 1500")
}

// externalSpecOf is externalSpec on the workload trace (YAML text after
// "trace: ").
func externalSpecOf(t *testing.T, interpreter, trace string) string {
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
  - trace: ` + trace + `
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

// externalReference returns the outputs of an embedded run of spec with
// 2 workers allowing python3.
func externalReference(t *testing.T, spec string) string {
	t.Helper()
	ref := t.TempDir()
	want := filepath.Join(ref, "out")
	schedfarm(t, ref, "run", "--workers", "2", "--allow-external", "python3", "--state", filepath.Join(ref, "state"), "--out", want, spec).mustSucceed(t, 5*time.Minute)
	return want
}

// childRunning returns the pid of a process whose parent is ppid and
// whose command line holds arg, or 0.
func childRunning(ppid int, arg string) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := procStat(pid); !ok || st.ppid != ppid || st.state == 'Z' {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmd), arg) {
			return pid
		}
	}
	return 0
}

type stat struct {
	state byte
	ppid  int
}

// procStat reads the state and parent of a process from /proc.
func procStat(pid int) (stat, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return stat{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 2 {
		return stat{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	return stat{state: f[0][0], ppid: ppid}, err == nil
}

// TestExternal_KillWorker kills a worker with SIGKILL while its Python
// policy is in the middle of a task (the policy's process is running,
// a child of the worker): the policy's process exits (its input is
// closed), the task is redelivered to another worker after the ack
// wait, and the sweep's outputs are byte-identical to an undisturbed
// run's.
func TestExternal_KillWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to see the worker's policy process")
	}
	// Four Python EASY tasks over the whole KTH trace (about 2 s each)
	// and four built-in ones.
	spec := externalSpecOf(t, "python3", "kth\n    load: [1.0, 1.1]")
	want := externalReference(t, spec)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec)
	w1 := ns.worker(t, dir, "--concurrency", "1", "--allow-external", "python3")
	// Wait for a policy process that has been running for a while.
	var policy int
	testkit.CheckFor(t, 2*time.Minute, 20*time.Millisecond, func() error {
		pid := childRunning(w1.cmd.Process.Pid, "easy.py")
		if pid == 0 {
			return errNotYet("a policy process under the first worker")
		}
		time.Sleep(300 * time.Millisecond)
		if childRunning(w1.cmd.Process.Pid, "easy.py") != pid {
			return errNotYet("a policy process still running after 300 ms")
		}
		policy = pid
		return nil
	})
	w1.kill()
	testkit.CheckFor(t, 30*time.Second, 20*time.Millisecond, func() error {
		if st, ok := procStat(policy); ok && st.state != 'Z' {
			return errNotYet(fmt.Sprintf("the killed worker's policy process %d (state %c) to exit", policy, st.state))
		}
		return nil
	})
	w2 := ns.worker(t, dir, "--concurrency", "2", "--allow-external", "python3")
	c.mustSucceed(t, 5*time.Minute)
	sameOutputs(t, out, want)
	if !strings.Contains(w2.stderr.String(), "running a redelivered task") {
		t.Errorf("the killed worker's task was not redelivered:\n%s", w2.stderr.String())
	}
}

// TestExternal_Verify runs the mixed sweep with --verify 1 on two
// workers allowing python3: every task, the Python policy's included, is
// run again on the other worker and agrees, and the outputs are the
// embedded run's.
func TestExternal_Verify(t *testing.T) {
	spec := externalSpec(t, "python3")
	want := externalReference(t, spec)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "state"), filepath.Join(dir, "out")
	ns := startNATS(t)
	c := ns.coordinator(t, dir, state, out, spec, "--verify", "1")
	ns.worker(t, dir, "--name", "a", "--concurrency", "1", "--allow-external", "python3")
	ns.worker(t, dir, "--name", "b", "--concurrency", "1", "--allow-external", "python3")
	c.mustSucceed(t, 3*time.Minute)
	if got := c.stdout.String(); !strings.Contains(got, "6 verified on a second worker") {
		t.Errorf("not every task verified:\n%s", got)
	}
	sameOutputs(t, out, want)
}

// TestExternal_PythonSpec runs specs/python.yaml as the README does: each
// Python policy gives every job the start time its built-in twin (the
// label without -py) gives it.
func TestExternal_PythonSpec(t *testing.T) {
	spec, err := filepath.Abs(filepath.Join("..", "specs", "python.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	schedfarm(t, dir, "run", "--allow-external", "python3", "--state", filepath.Join(dir, "state"), "--out", out, spec).mustSucceed(t, 3*time.Minute)
	rows, err := results.ReadJobs(filepath.Join(out, "jobs.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]map[int64]int64{} // estimates/label -> job -> start
	for _, r := range rows {
		k := r.Estimates + "/" + r.Label
		if starts[k] == nil {
			starts[k] = map[int64]int64{}
		}
		starts[k][r.Job.JobID] = int64(r.Job.Start)
	}
	pairs := 0
	for k, py := range starts {
		twin, ok := strings.CutSuffix(k, "-py")
		if !ok {
			continue
		}
		pairs++
		builtin := starts[twin]
		if len(py) != 3000 || len(builtin) != 3000 {
			t.Errorf("%s: %d jobs, %s: %d, want 3000 each", k, len(py), twin, len(builtin))
		}
		diff := 0
		for id, s := range py {
			if builtin[id] != s {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("%s: %d jobs start at another time than under %s", k, diff, twin)
		}
	}
	if pairs != 6 {
		t.Errorf("%d Python policies, want 3 per estimate model (6)", pairs)
	}
}
