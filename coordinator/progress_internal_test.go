package coordinator

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// TestProgress_eta checks that the ETA comes from task durations: queued
// tasks take the mean of the finished ones, and a task running longer
// than that mean makes the ETA grow instead of standing still.
func TestProgress_eta(t *testing.T) {
	p := newProgress(io.Discard, false, time.Hour, "s", 10, 0, 0, t.TempDir(), "r", slog.New(slog.DiscardHandler))
	defer p.stop()
	p.begin()
	now := time.Now()
	p.mu.Lock()
	p.took, p.timed = 20*time.Second, 2 // mean 10 s
	p.running["a"] = now.Add(-2 * time.Second)
	got := p.eta(4) // 3 queued x 10 s + 8 s left of a, one slot
	p.running["a"] = now.Add(-60 * time.Second)
	long := p.eta(1) // a has run 60 s, 6 times the mean
	p.mu.Unlock()
	if got < 37*time.Second || got > 39*time.Second {
		t.Errorf("eta with 3 queued and one running for 2 s = %v, want 38s", got)
	}
	if long < 60*time.Second {
		t.Errorf("eta with a task running 60 s (mean 10 s) = %v, want at least 60s", long)
	}
}

// TestProgress_linesEveryTwentieth checks that a log gets a line each time
// another 5% of the tasks is done, not only every interval.
func TestProgress_linesEveryTwentieth(t *testing.T) {
	var b testkit.SyncBuffer
	p := newProgress(&b, false, time.Hour, "s", 40, 0, 0, t.TempDir(), "r", slog.New(slog.DiscardHandler))
	p.begin()
	for i := range 40 {
		p.finished(string(rune('a'+i)), false)
		time.Sleep(2 * time.Millisecond)
	}
	p.stop()
	n := strings.Count(b.String(), "\n")
	if n < 10 || n > 21 {
		t.Errorf("%d progress lines for 40 tasks finished within a second (interval an hour), want one per 5%% (20) plus the last:\n%s", n, b.String())
	}
	if c := strings.Count(b.String(), "40/40 done"); c != 1 {
		t.Errorf("the finished state is printed %d times, want once:\n%s", c, b.String())
	}
}

// TestProgress_saveFailureLogged checks that a progress file that cannot
// be written is logged once, not at every save, and that writing it again
// is logged too.
func TestProgress_saveFailureLogged(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(state, nil, 0o644); err != nil { // a file where the folder should be
		t.Fatal(err)
	}
	var logged bytes.Buffer
	p := newProgress(io.Discard, false, time.Hour, "s", 10, 0, 0, state, "r", slog.New(slog.NewTextHandler(&logged, nil)))
	p.stop() // the display goroutine has ended: saves below are this test's only
	p.save()
	if n := strings.Count(logged.String(), "progress file not written"); n != 1 {
		t.Fatalf("failing saves logged %d times, want once; log:\n%s", n, logged.String())
	}
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	p.save()
	p.save()
	if n := strings.Count(logged.String(), "progress file written again"); n != 1 {
		t.Errorf("recovery logged %d times, want once; log:\n%s", n, logged.String())
	}
	if _, err := readSnapshot(state, "s"); err != nil {
		t.Errorf("snapshot after recovery: %v", err)
	}
}
