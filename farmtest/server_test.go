package farmtest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// listeningRE finds the URL in the server's "listening on" line.
var listeningRE = regexp.MustCompile(`listening on (nats://\S+)`)

// startServer starts `schedfarm server` on a free loopback port with its
// store in store and extra flags, and returns it with the URL it printed
// once it accepts connections (with token, if not empty).
func startServer(t *testing.T, store, token string, args ...string) (*proc, string) {
	t.Helper()
	args = append([]string{"server", "--listen", "127.0.0.1:0", "--store", store}, args...)
	if token != "" {
		args = append(args, "--token", token)
	}
	p := schedfarm(t, t.TempDir(), args...)
	var url string
	testkit.CheckFor(t, 20*time.Second, 20*time.Millisecond, func() error {
		m := listeningRE.FindStringSubmatch(p.stdout.String())
		if m == nil {
			select {
			case <-p.done:
				return fmt.Errorf("server exited: %v\n%s", p.err, p.stderr.String())
			default:
			}
			return errNotYet("no listening line")
		}
		url = m[1]
		return nil
	})
	return p, url
}

// TestServer_Farm runs a sweep with the one binary in four processes on
// loopback (`schedfarm server`, a coordinator and two workers, with a
// token) and checks the outputs equal an embedded `schedfarm run` byte
// for byte.
func TestServer_Farm(t *testing.T) {
	spec := testdata(t, "small.yaml")
	want := cleanRun(t, spec)

	dir := t.TempDir()
	const token = "s3cret-token"
	srv, url := startServer(t, filepath.Join(dir, "js"), token)

	// Without the token the server turns clients away.
	if nc, err := nats.Connect(url); err == nil {
		nc.Close()
		t.Fatal("connected without the token")
	}
	for _, c := range []string{"2", "1"} {
		schedfarm(t, dir, "worker", "--nats", url, "--token", token, "--cache", filepath.Join(t.TempDir(), "cache"), "--concurrency", c)
	}
	out := filepath.Join(dir, "out")
	schedfarm(t, dir, "coordinator", "--nats", url, "--token", token, "--state", filepath.Join(dir, "state"),
		"--out", out, "--progress-interval", "1s", spec).mustSucceed(t, 2*time.Minute)
	sameOutputs(t, out, want)

	// SIGTERM stops the server cleanly.
	srv.signal(t, 15)
	if err := srv.wait(t, 30*time.Second); err != nil {
		t.Errorf("server after SIGTERM: %v\n%s", err, srv.stderr.String())
	}
}

// TestServer_Refuses: on an address other than loopback the server will
// not start without credentials unless --insecure is given, and says why.
func TestServer_Refuses(t *testing.T) {
	p := schedfarm(t, t.TempDir(), "server", "--listen", "0.0.0.0:0", "--store", filepath.Join(t.TempDir(), "js"))
	if err := p.wait(t, 30*time.Second); err == nil {
		t.Fatal("server on 0.0.0.0 without credentials started")
	}
	if got := p.stderr.String(); !contains(got, "no credentials are set") || !contains(got, "--insecure") {
		t.Errorf("stderr does not say why:\n%s", got)
	}
}
