package farmtest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

// TestBadInput feeds bad specs: each problem gets its own message, the
// exit status is non-zero and nothing is published.
func TestBadInput(t *testing.T) {
	ns := startNATS(t)
	js := ns.js(t)
	for _, tc := range []struct {
		name string
		spec string
		want []string // one message per problem
	}{
		{"Syntax", "bad/syntax.yaml", []string{"syntax.yaml:3: yaml: line 3"}},
		{"Problems", "bad/problems.yaml", []string{
			`problems.yaml:5: workloads[0].trace: trace file "no-such-dir/missing.swf" not found`,
			`problems.yaml:8: policies[0].name: unknown policy "easyy"`,
			`problems.yaml:11: policies[1].params.suspension_factor[0]: must be >= 1, got 0.5`,
		}},
		{"MissingSpec", "bad/no-such-spec.yaml", []string{"no-such-spec.yaml: no such file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			spec := testdata(t, tc.spec)
			for _, p := range []*proc{
				ns.coordinator(t, dir, filepath.Join(dir, "state"), filepath.Join(dir, "out"), spec),
				schedfarm(t, dir, "run", "--state", filepath.Join(dir, "run-state"), spec),
			} {
				if err := p.wait(t, 30*time.Second); err == nil {
					t.Fatalf("%s exited 0", p.name)
				}
				stderr := p.stderr.String()
				for _, want := range tc.want {
					if strings.Count(stderr, want) != 1 {
						t.Errorf("%s: stderr does not say %q once:\n%s", p.name, want, stderr)
					}
				}
				if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != len(tc.want) {
					t.Errorf("%s: %d lines on stderr, want %d:\n%s", p.name, lines, len(tc.want), stderr)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "run-state", "nats")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("run started its nats server for a bad spec (stat: %v)", err)
			}
		})
	}
	if _, err := streamMsgs(js, natsutil.TaskStream); !errors.Is(err, jetstream.ErrStreamNotFound) {
		t.Errorf("task stream after bad specs: %v, want it never created", err)
	}

	t.Run("Usage", func(t *testing.T) {
		p := schedfarm(t, t.TempDir(), "coordinator", "--nats", ns.url)
		if err := p.wait(t, 30*time.Second); err == nil || !strings.Contains(p.stderr.String(), "want one SPEC argument") {
			t.Errorf("coordinator without SPEC: %v\n%s", err, p.stderr.String())
		}
	})
}
