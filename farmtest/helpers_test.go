package farmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/results"
)

// Binaries built once by TestMain.
var (
	schedfarmBin string
	natsBin      string
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	flag.Parse()
	if testing.Short() {
		fmt.Println("farmtest: skipped with -short: every test builds schedfarm and nats-server and runs them as processes (go test ./farmtest runs them)")
		return 0
	}
	dir, err := os.MkdirTemp("", "farmtest-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	reference.tmp = filepath.Join(dir, "ref")
	schedfarmBin = filepath.Join(dir, "schedfarm")
	natsBin = filepath.Join(dir, "nats-server")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, b := range []struct{ out, pkg string }{
		{schedfarmBin, "github.com/schedfarm/schedfarm/cmd/schedfarm"},
		{natsBin, "github.com/nats-io/nats-server/v2"},
	} {
		wg.Go(func() {
			out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput()
			if err != nil {
				errs[i] = fmt.Errorf("build %s: %v\n%s", b.pkg, err, out)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// proc is a process started by a test; it is killed at cleanup.
type proc struct {
	name   string
	cmd    *exec.Cmd
	stdout testkit.SyncBuffer
	stderr testkit.SyncBuffer
	done   chan struct{}
	err    error
}

// start starts a process in dir.
func start(t *testing.T, dir, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{name: filepath.Base(bin) + " " + strings.Join(args, " "), done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Dir = dir
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", p.name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("%s\nstdout:\n%s\nstderr:\n%s", p.name, p.stdout.String(), p.stderr.String())
		}
	})
	return p
}

// schedfarm starts the schedfarm binary.
func schedfarm(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	return start(t, dir, schedfarmBin, args...)
}

// wait waits for the process to exit and returns its error (nil for exit
// status 0).
func (p *proc) wait(t *testing.T, timeout time.Duration) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		t.Fatalf("%s did not exit within %v\nstdout:\n%s\nstderr:\n%s", p.name, timeout, p.stdout.String(), p.stderr.String())
		return nil
	}
}

// mustSucceed waits for the process and fails the test unless it exits 0.
func (p *proc) mustSucceed(t *testing.T, timeout time.Duration) {
	t.Helper()
	if err := p.wait(t, timeout); err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", p.name, err, p.stdout.String(), p.stderr.String())
	}
}

// kill sends SIGKILL (no-op once exited) and waits for the exit.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.done
}

// signal sends a signal to the process.
func (p *proc) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v to %s: %v", sig, p.name, err)
	}
}

// natsServer is a nats-server process with JetStream.
type natsServer struct {
	*proc
	url string
}

// startNATS starts a nats-server process with JetStream storing under a
// temporary directory and waits until it accepts connections.
func startNATS(t *testing.T) *natsServer {
	t.Helper()
	return startNATSStore(t, freePort(t), filepath.Join(t.TempDir(), "js"))
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// startNATSStore starts a nats-server process on port with its JetStream
// store in store, and waits until it accepts connections.
func startNATSStore(t *testing.T, port int, store string) *natsServer {
	t.Helper()
	p := start(t, t.TempDir(), natsBin, "-js", "-sd", store, "-a", "127.0.0.1", "-p", strconv.Itoa(port))
	s := &natsServer{proc: p, url: fmt.Sprintf("nats://127.0.0.1:%d", port)}
	testkit.CheckFor(t, 10*time.Second, 20*time.Millisecond, func() error {
		nc, err := nats.Connect(s.url)
		if err != nil {
			return err
		}
		nc.Close()
		return nil
	})
	return s
}

// js connects to the server for the test.
func (s *natsServer) js(t *testing.T) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(s.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// worker starts a worker process against the server.
func (s *natsServer) worker(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	args = append([]string{"worker", "--nats", s.url, "--cache", filepath.Join(t.TempDir(), "cache"), "--ack-wait", "2s", "-v"}, args...)
	return schedfarm(t, dir, args...)
}

// coordinator starts a coordinator process against the server.
func (s *natsServer) coordinator(t *testing.T, dir, state, out, spec string, args ...string) *proc {
	t.Helper()
	// The workers' 2 s ack wait (see worker): the coordinator's setting
	// is the one that counts. A later --ack-wait in args overrides it.
	args = append([]string{"coordinator", "--nats", s.url, "--state", state, "--out", out, "--progress-interval", "1s", "--ack-wait", "2s"}, args...)
	return schedfarm(t, dir, append(args, spec)...)
}

// progress reads the coordinator's progress file of a sweep.
type progress struct {
	Done, Total, Failed, Running int
}

func readProgress(state, sweep string) (progress, error) {
	var p progress
	b, err := os.ReadFile(filepath.Join(state, "progress", sweep+".json"))
	if err != nil {
		return p, err
	}
	err = json.Unmarshal(b, &p)
	return p, err
}

// waitDone waits until the sweep's progress file shows at least n tasks
// finished.
func waitDone(t *testing.T, state, sweep string, n int, timeout time.Duration) {
	t.Helper()
	testkit.CheckFor(t, timeout, 20*time.Millisecond, func() error {
		p, err := readProgress(state, sweep)
		if err != nil {
			return err
		}
		if p.Done < n {
			return fmt.Errorf("%d of %d done, waiting for %d", p.Done, p.Total, n)
		}
		return nil
	})
}

// sameOutputs fails unless the content outputs in got equal those in
// want byte for byte: tables.md, tables.csv, jobs.parquet and
// summary.parquet. When Parquet bytes differ it says whether the rows and
// metadata differ too, to tell content from encoding.
func sameOutputs(t *testing.T, got, want string) {
	t.Helper()
	for _, f := range []string{"tables.md", "tables.csv", "jobs.parquet", "summary.parquet"} {
		a, err := os.ReadFile(filepath.Join(got, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(want, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(a, b) {
			continue
		}
		detail := "content"
		if strings.HasSuffix(f, ".parquet") {
			if err := sameParquet(filepath.Join(got, f), filepath.Join(want, f)); err == nil {
				detail = "encoding only: same rows and metadata"
			} else {
				detail = err.Error()
			}
		}
		t.Errorf("%s: %s differs from %s (%s)", f, got, want, detail)
	}
}

// sameParquet compares the rows and key-value metadata of two output files.
func sameParquet(a, b string) error {
	ma, err := results.ReadMetadata(a)
	if err != nil {
		return err
	}
	mb, err := results.ReadMetadata(b)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(ma, mb) {
		return fmt.Errorf("metadata %v vs %v", ma, mb)
	}
	var ra, rb any
	if strings.HasSuffix(a, "jobs.parquet") {
		ra, err = results.ReadJobs(a)
		if err == nil {
			rb, err = results.ReadJobs(b)
		}
	} else {
		ra, err = results.ReadSummary(a)
		if err == nil {
			rb, err = results.ReadSummary(b)
		}
	}
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(ra, rb) {
		return errors.New("rows differ")
	}
	return nil
}

// testdata returns the absolute path of a file under testdata.
func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// reference holds clean embedded runs by spec, each made once.
var reference struct {
	sync.Mutex
	dirs map[string]string
	tmp  string
}

// cleanRun returns the output directory of a clean embedded run of spec
// with 2 workers, made once per test binary (under the binaries' temporary
// directory, removed after the tests).
func cleanRun(t *testing.T, spec string) string {
	t.Helper()
	reference.Lock()
	defer reference.Unlock()
	if d, ok := reference.dirs[spec]; ok {
		return d
	}
	if reference.dirs == nil {
		reference.dirs = map[string]string{}
	}
	dir := filepath.Join(reference.tmp, strconv.Itoa(len(reference.dirs)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	schedfarm(t, dir, "run", "--workers", "2", "--state", filepath.Join(dir, "state"), "--out", out, spec).mustSucceed(t, 2*time.Minute)
	reference.dirs[spec] = out
	return out
}

// streamMsgs returns the number of messages in a stream, or an error
// (jetstream.ErrStreamNotFound when it does not exist).
func streamMsgs(js jetstream.JetStream, name string) (uint64, error) {
	s, err := js.Stream(context.Background(), name)
	if err != nil {
		return 0, err
	}
	info, err := s.Info(context.Background())
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}

// errNotYet is the error of a testkit.CheckFor condition that does not hold yet.
type errNotYet string

func (e errNotYet) Error() string { return "not yet: " + string(e) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
