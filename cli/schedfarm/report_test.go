package schedfarm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/runner/runnertest"
)

// cliSpec is a tiny real sweep for the table and plot commands.
const cliSpec = `
name: cli-fixture
workloads:
  - trace: ctc
    count: 100
    procs: 430
    estimates: accurate
    load: [1, 1.4]
policies:
  - name: easy
    label: NS
  - name: fcfs
    label: FCFS
categories: [ss16, ss4]
`

// mustSweepDir runs cliSpec in this process and returns its output directory.
func mustSweepDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if err := runnertest.Write(cliSpec, ".", dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runApp runs the schedfarm app with args and returns what it printed.
func runApp(t *testing.T, args ...string) (string, error) {
	t.Helper()
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, &out
	err := runArgs(context.Background(), app, append([]string{"schedfarm"}, args...))
	return out.String(), err
}

func TestTableCommand(t *testing.T) {
	dir := mustSweepDir(t)
	s, err := report.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OK", func(t *testing.T) {
		got, err := runApp(t, "table", "--scheme", "ss4", "--layout", "wide", "--baseline", "NS", "--compare", "pct",
			"--where", "load=1.4", "--where", "label=NS", "--where", "label=FCFS", dir)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		opts := report.TableOptions{Scheme: "ss4", Layout: report.LayoutWide, Baseline: "NS", Compare: report.ComparePct,
			Where: []report.Filter{{Key: "load", Values: []string{"1.4"}}, {Key: "label", Values: []string{"NS", "FCFS"}}}}
		if err := s.WriteMarkdown(&want, opts); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Errorf("schedfarm table printed\n%s\nwant\n%s", got, want.String())
		}
		if !strings.Contains(got, "| category | jobs | NS | FCFS | FCFS vs NS (%) |") {
			t.Errorf("schedfarm table printed no wide comparison:\n%s", got)
		}
	})
	t.Run("Out", func(t *testing.T) {
		prefix := filepath.Join(t.TempDir(), "t4")
		got, err := runApp(t, "table", "--out", prefix, dir)
		if err != nil {
			t.Fatal(err)
		}
		if want := prefix + ".md\n" + prefix + ".csv\n"; got != want {
			t.Errorf("schedfarm table --out printed %q, want %q", got, want)
		}
		md, err := os.ReadFile(prefix + ".md")
		if err != nil || !bytes.HasPrefix(md, []byte("# cli-fixture: mean bounded slowdown by ss16 category\n")) {
			t.Errorf("%s.md: %v, starts %.60q", prefix, err, md)
		}
	})
	for _, tt := range []struct {
		name      string
		args      []string
		withError string
	}{
		{"ErrNoDir", []string{"table"}, "table: missing DIR"},
		{"ErrTwoDirs", []string{"table", dir, dir}, "table: want one DIR, got 2 arguments"},
		{"ErrWhere", []string{"table", "--where", "load", dir}, `--where: filter "load": want key=value`},
		{"ErrCompare", []string{"table", "--compare", "pct", dir}, "compare pct needs a baseline"},
		{"ErrLayout", []string{"table", "--layout", "long", dir}, `unknown layout "long"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runApp(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.withError) {
				t.Errorf("schedfarm %q: %v, want an error containing %q", tt.args, err, tt.withError)
			}
		})
	}
}

func TestPlotCommand(t *testing.T) {
	dir := mustSweepDir(t)
	out := t.TempDir()
	got, err := runApp(t, "plot", "--kind", "load", "--scheme", "ss4", "--metric", "wait_mean", "--format", "svg, PNG", "--out", out, dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	// Five figures (SN, SW, LN, LW, all jobs) in two formats.
	if len(lines) != 10 {
		t.Fatalf("schedfarm plot printed %d paths, want 10:\n%s", len(lines), got)
	}
	for _, p := range lines {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 || filepath.Dir(p) != out {
			t.Errorf("%s: %v", p, err)
		}
	}
	if want := filepath.Join(out, "load-wait_mean-ss4-ctc-sp2-1996-3.1-cln-0+100-p430-accurate-sn.svg"); lines[0] != want {
		t.Errorf("first file %s, want %s", lines[0], want)
	}
	if _, err := runApp(t, "plot", "--format", "pdf", dir); err == nil || !strings.Contains(err.Error(), `unknown figure format "pdf"`) {
		t.Errorf("schedfarm plot --format pdf: %v", err)
	}
}
