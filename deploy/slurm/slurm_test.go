// Package slurm holds the Slurm batch recipe (schedfarm.sbatch); its test
// submits the recipe to a real single-node Slurm on this machine.
package slurm

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// spec is the test's sweep: 9 tasks of about half a second each, so
// that a worker can be killed while tasks are left.
const spec = `name: slurm-test
workloads:
  - trace: ctc
    count: 15000
    estimates: trace
    load: [1.2, 1.4, 1.6]
policies:
  - name: easy
  - name: conservative
  - name: ss
seed: 7
categories: [ss4, ss16]
`

// contentOutputs are the outputs that must equal an embedded run's byte
// for byte (tasks.parquet differs in wall_time_ms and worker).
var contentOutputs = []string{"tables.md", "tables.csv", "jobs.parquet", "summary.parquet"}

// TestSlurm starts munged (unless running), slurmctld and slurmd on
// localhost, submits deploy/slurm/schedfarm.sbatch with sbatch for a
// one-node allocation of three tasks (server and coordinator, two
// workers), kills one worker mid-sweep, and checks that the job succeeds
// and its outputs equal an embedded `schedfarm run` byte for byte. A
// second job, cancelled mid-sweep with scancel, saves its state, and a
// third resumes from it and ends with the same outputs.
func TestSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("starts munged, slurmctld and slurmd and submits a sweep with sbatch")
	}
	ci := os.Getenv("CI") == "true"
	skip := func(format string, a ...any) {
		t.Helper()
		if ci {
			t.Fatalf(format+" (with CI=true the Slurm test must run: .ci/run installs slurm-wlm and munge)", a...)
		}
		t.Skipf(format+" (apt-get install slurm-wlm munge, as root, runs it)", a...)
	}
	for _, bin := range []string{"sbatch", "slurmctld", "slurmd", "scontrol", "sinfo", "munge", "munged"} {
		if _, err := exec.LookPath(bin); err != nil {
			skip("%s not installed", bin)
		}
	}
	if os.Geteuid() != 0 {
		skip("the Slurm daemons are started as root and this test runs as uid %d", os.Geteuid())
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "schedfarm")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/schedfarm/schedfarm/cmd/schedfarm").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	startMunge(t)
	conf := startSlurm(t, dir)

	// The submit directory: the binary, the spec and the shipped traces.
	submit := filepath.Join(dir, "submit")
	mustMkdir(t, submit)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "traces"), filepath.Join(submit, "traces")); err != nil {
		t.Fatal(err)
	}
	specDir := filepath.Join(submit, "specs")
	mustMkdir(t, specDir)
	specFile := filepath.Join(specDir, "slurm-test.yaml")
	if err := os.WriteFile(specFile, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(bin, filepath.Join(submit, "schedfarm")); err != nil {
		t.Fatal(err)
	}

	// The reference: an embedded run.
	ref := filepath.Join(dir, "ref")
	run := exec.Command(bin, "run", "--workers", "2", "--state", filepath.Join(ref, "state"), "--out", filepath.Join(ref, "out"), specFile)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("schedfarm run: %v\n%s", err, out)
	}

	local := filepath.Join(dir, "local")
	mustMkdir(t, local)
	script := filepath.Join(root, "deploy", "slurm", "schedfarm.sbatch")
	sbatch := func(log string) *exec.Cmd {
		cmd := exec.Command("sbatch", "--wait", "--nodes=1", "--ntasks-per-node=3", "--cpus-per-task=1",
			"--time=10", "--output="+log, script, "specs/slurm-test.yaml")
		cmd.Dir = submit
		// Loopback only: the workers are on this machine.
		cmd.Env = append(os.Environ(), "SLURM_CONF="+conf, "SCHEDFARM_LOCAL="+local,
			"SCHEDFARM_LISTEN=127.0.0.1", "SCHEDFARM_HOST=127.0.0.1", "SCHEDFARM_ACK_WAIT=3s")
		return cmd
	}

	// First job: kill one worker once tasks are done and others left.
	log1 := filepath.Join(dir, "job1.log")
	cmd := sbatch(log1)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var err1 error
	done := make(chan struct{})
	go func() { err1 = cmd.Wait(); close(done) }()
	killed := killWorkerMidSweep(local, done)
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("sbatch --wait did not return in 5 minutes\n%s", readFile(t, log1))
	}
	jobLog := readFile(t, log1)
	if err1 != nil {
		t.Fatalf("sbatch: %v\n%s\njob log:\n%s", err1, out.String(), jobLog)
	}
	t.Logf("worker killed mid-sweep: %v; tasks delivered again: %d", killed, strings.Count(jobLog, "attempt=2"))
	if !killed {
		t.Errorf("no worker was found running to kill mid-sweep\n%s", jobLog)
	}
	for _, want := range []string{"server at nats://127.0.0.1:", "outputs copied to", "state saved in"} {
		if !strings.Contains(jobLog, want) {
			t.Errorf("job log does not say %q:\n%s", want, jobLog)
		}
	}
	sameFiles(t, filepath.Join(submit, "out", "slurm-test"), filepath.Join(ref, "out"))
	if left, _ := filepath.Glob(filepath.Join(local, "schedfarm-*")); len(left) > 0 {
		t.Errorf("node-local directories left behind: %v", left)
	}

	// Second job, from scratch: cancelled mid-sweep with scancel, it
	// saves its state; the third resumes from it and runs the rest.
	for _, d := range []string{"out", ".schedfarm-slurm"} {
		if err := os.RemoveAll(filepath.Join(submit, d)); err != nil {
			t.Fatal(err)
		}
	}
	log2 := filepath.Join(dir, "job2.log")
	cmd = sbatch(log2)
	cmd.Args = slices.DeleteFunc(cmd.Args, func(a string) bool { return a == "--wait" })
	cmd.Args = slices.Insert(cmd.Args, 1, "--parsable")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("second sbatch: %v\n%s", err, b)
	}
	job := strings.TrimSpace(string(b))
	waitFor(t, 3*time.Minute, func() error {
		files, _ := filepath.Glob(filepath.Join(local, "schedfarm-*", "state", "progress", "slurm-test.json"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && !strings.Contains(string(b), `"done": 0,`) {
				return nil
			}
		}
		return fmt.Errorf("no task done yet")
	})
	scancel := exec.Command("scancel", job)
	scancel.Env = append(os.Environ(), "SLURM_CONF="+conf)
	if b, err := scancel.CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v\n%s", err, b)
	}
	waitFor(t, 2*time.Minute, func() error {
		if s := readFile(t, log2); !strings.Contains(s, "state saved in") {
			return fmt.Errorf("job log: %s", s)
		}
		return nil
	})
	log3 := filepath.Join(dir, "job3.log")
	if b, err := sbatch(log3).CombinedOutput(); err != nil {
		t.Fatalf("third sbatch: %v\n%s\n%s", err, b, readFile(t, log3))
	}
	jobLog = readFile(t, log3)
	for _, want := range []string{"resuming from the state saved", "resuming with"} {
		if !strings.Contains(jobLog, want) {
			t.Errorf("third job's log does not say %q:\n%s\nsecond job's log:\n%s", want, jobLog, readFile(t, log2))
		}
	}
	sameFiles(t, filepath.Join(submit, "out", "slurm-test"), filepath.Join(ref, "out"))
}

// killWorkerMidSweep waits until the coordinator's progress file shows
// tasks done and tasks left, then kills one worker process (SIGKILL, as a
// lost node) and reports whether it found one.
func killWorkerMidSweep(local string, done <-chan struct{}) bool {
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return false
		default:
		}
		files, _ := filepath.Glob(filepath.Join(local, "schedfarm-*", "state", "progress", "slurm-test.json"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			s := string(b)
			if strings.Contains(s, `"done": 0,`) || strings.Contains(s, `"done": 9,`) {
				continue
			}
			if pid := workerPID(local); pid > 0 {
				if err := syscall.Kill(pid, syscall.SIGKILL); err == nil {
					return true
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// workerPID returns the pid of a schedfarm worker whose cache is under
// local (0 if none).
func workerPID(local string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 2 && filepath.Base(args[0]) == "schedfarm" && args[1] == "worker" && strings.Contains(string(b), local) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	return 0
}

// startMunge starts munged as the munge user unless a munged already
// answers, and stops it at cleanup if it started it.
func startMunge(t *testing.T) {
	t.Helper()
	if exec.Command("munge", "-n").Run() == nil {
		return
	}
	u, err := user.Lookup("munge")
	if err != nil {
		t.Fatalf("no munge user (the munge package creates it): %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if _, err := os.Stat("/etc/munge/munge.key"); err != nil {
		if out, err := exec.Command("runuser", "-u", "munge", "--", "mungekey", "--create").CombinedOutput(); err != nil {
			t.Fatalf("mungekey --create: %v\n%s", err, out)
		}
	}
	for _, d := range []string{"/run/munge", "/var/log/munge", "/var/lib/munge"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("runuser", "-u", "munge", "--", "munged", "--foreground")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start munged: %v", err)
	}
	t.Cleanup(func() { stop(cmd) })
	waitFor(t, 20*time.Second, func() error {
		if err := exec.Command("munge", "-n").Run(); err != nil {
			return fmt.Errorf("munge -n: %v; munged says: %s", err, out.String())
		}
		return nil
	})
}

// startSlurm writes a one-node slurm.conf under dir (this host as
// controller and compute node, on 127.0.0.1, free ports, four CPUs),
// starts slurmctld and slurmd in the foreground, stops them at cleanup,
// waits until the node is idle and returns the configuration file.
func startSlurm(t *testing.T, dir string) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	sd := filepath.Join(dir, "slurm")
	for _, d := range []string{"state", "spool", "log"} {
		mustMkdir(t, filepath.Join(sd, d))
	}
	conf := filepath.Join(sd, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=schedfarmtest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/log/slurmctld.log
SlurmdLogFile=%[4]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, freePort(t), freePort(t), sd)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "SLURM_CONF="+conf)
	for _, d := range [][]string{{"slurmctld", "-D", "-i", "-f", conf}, {"slurmd", "-D", "-N", host, "-f", conf}} {
		cmd := exec.Command(d[0], d[1:]...)
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", d[0], err)
		}
		t.Cleanup(func() {
			stop(cmd)
			if t.Failed() {
				t.Logf("%s output:\n%s\nlog:\n%s", d[0], out.String(), readFile(t, filepath.Join(sd, "log", d[0]+".log")))
			}
		})
	}
	waitFor(t, time.Minute, func() error {
		cmd := exec.Command("sinfo", "-h", "-o", "%T")
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(b)) != "idle" {
			return fmt.Errorf("sinfo: %v: %q", err, b)
		}
		return nil
	})
	return conf
}

// stop ends a daemon the test started: SIGTERM, then SIGKILL after 10 s.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	ch := make(chan struct{})
	go func() { _ = cmd.Wait(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-ch
	}
}

// sameFiles fails unless the content outputs in got equal those in want.
func sameFiles(t *testing.T, got, want string) {
	t.Helper()
	for _, f := range contentOutputs {
		a, err := os.ReadFile(filepath.Join(got, f))
		if err != nil {
			t.Error(err)
			continue
		}
		b, err := os.ReadFile(filepath.Join(want, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the Slurm job (%s) and the embedded run", f, got)
		}
	}
}

func waitFor(t *testing.T, timeout time.Duration, cond func() error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		err := cond()
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("not within %v: %v", timeout, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func mustMkdir(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}
