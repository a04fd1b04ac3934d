package schedfarm

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/natsutil"
)

// TestCoordinator_WrongNATS: a coordinator pointed at a URL where no server
// listens gives up after --connect-timeout with an error that names the
// URL without its password.
func TestCoordinator_WrongNATS(t *testing.T) {
	_, err := runApp(t, "coordinator", "--nats", "nats://u:SECRET@127.0.0.1:1", "--connect-timeout", "1s",
		"--out", t.TempDir(), "--state", t.TempDir(), "../../specs/quickstart.yaml")
	if !errors.Is(err, natsutil.ErrConnectTimeout) {
		t.Fatalf("coordinator with a wrong --nats: %v, want a connect timeout", err)
	}
	if msg := err.Error(); strings.Contains(msg, "SECRET") || !strings.Contains(msg, "nats://u:xxxxx@127.0.0.1:1") {
		t.Errorf("error %q: want the URL with its password redacted", msg)
	}
}
