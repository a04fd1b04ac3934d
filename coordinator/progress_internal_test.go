package coordinator

import (
	"bytes"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// TestProgress_rate checks that the rate behind the ETA is unknown
// until the first few results are in and two seconds have passed since
// the first, then the recent one: from the session's start while that
// is less than the window ago, the last minute's later, and the whole
// session's when nothing finished in the last minute.
func TestProgress_rate(t *testing.T) {
	p := newProgress(io.Discard, false, time.Hour, "s", 100, 0, 0, t.TempDir(), "r", nil, slog.New(slog.DiscardHandler))
	defer p.stop()
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.began = now.Add(-10 * time.Second)
	if r := p.rate(now); r != 0 {
		t.Errorf("rate before any result = %v, want 0 (unknown)", r)
	}
	at := func(sec ...float64) []time.Time {
		var ts []time.Time
		for _, s := range sec {
			ts = append(ts, now.Add(-time.Duration(s*float64(time.Second))))
		}
		return ts
	}
	set := func(ts []time.Time) {
		p.session, p.finishes, p.firstFinish = len(ts), ts, ts[0]
	}
	// Three results: too few to say (a 1200-task sweep's first result
	// gave an ETA of 13m46s for 59 s).
	set(at(9, 8, 7))
	if r := p.rate(now); r != 0 {
		t.Errorf("rate after 3 results = %v, want 0 (unknown)", r)
	}
	// A burst of 20 results within the last second: too soon to say.
	set(at(1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1))
	if r := p.rate(now); r != 0 {
		t.Errorf("rate 1 s after the first result = %v, want 0 (unknown)", r)
	}
	// Five over 4 s: five in the 10 s session.
	set(at(9, 8, 7, 6, 5))
	if r := p.rate(now); math.Abs(r-0.5) > 1e-9 {
		t.Errorf("rate after 5 results = %v, want 5/10", r)
	}
	// Workers announced 6 slots: it waits for 12 results.
	p.slots["w1"], p.slots["w2"] = 3, 3
	if r := p.rate(now); r != 0 {
		t.Errorf("rate after 5 results with 6 slots = %v, want 0 (unknown)", r)
	}
	clear(p.slots)
	// A 330 s session: 30 results from 320 s ago to 88 s ago, 6 in the
	// last minute: the recent rate is 6/60.
	p.began = now.Add(-330 * time.Second)
	var ts []time.Time
	for i := range 30 {
		ts = append(ts, now.Add(-time.Duration(320-8*i)*time.Second))
	}
	for i := range 6 {
		ts = append(ts, now.Add(-time.Duration(55-10*i)*time.Second))
	}
	set(ts)
	if r := p.rate(now); math.Abs(r-0.1) > 1e-9 {
		t.Errorf("recent rate = %v, want 6/60", r)
	}
	// Nothing in the last minute (long tasks): the session's rate, 30
	// results in 330 s.
	set(ts[:30])
	if r := p.rate(now); math.Abs(r-30.0/330) > 1e-9 {
		t.Errorf("rate with no result in the last minute = %v, want 30/330", r)
	}
}

// TestProgress_runningCapped checks that "running" counts a worker's
// tasks up to its slots (a worker that starts more has moved on from its
// oldest), a redelivered task once, and drops finished tasks.
func TestProgress_runningCapped(t *testing.T) {
	// The finished tasks are marked by position for the run's task IDs
	// (byID) and by ID for others ("x", and every ID without byID).
	for _, byID := range []map[string]int{nil, {"a": 0, "b": 1, "c": 2, "d": 3, "e": 4, "f": 9}} {
		runningCapped(t, byID)
	}
}

// runningCapped is TestProgress_runningCapped with the run's task positions
// byID.
func runningCapped(t *testing.T, byID map[string]int) {
	t.Helper()
	p := newProgress(io.Discard, false, time.Hour, "s", 10, 0, 0, t.TempDir(), "r", byID, slog.New(slog.DiscardHandler))
	defer p.stop()
	for _, id := range []string{"a", "b", "c", "d"} {
		p.started(id, "w1", 2)
	}
	if got := p.snapshot().Running; got != 2 {
		t.Errorf("4 starts on a worker with 2 slots: %d running, want 2", got)
	}
	p.started("d", "w2", 1) // redelivered to w2
	p.started("d", "w2", 1) // the same announcement twice
	if got := p.snapshot().Running; got != 2 {
		t.Errorf("after d moved to w2: %d running, want 2 (c on w1, d on w2)", got)
	}
	p.started("e", "w1", 2)
	if got := p.snapshot().Running; got != 3 {
		t.Errorf("after w1 started e: %d running, want 3 (c, e on w1; d on w2)", got)
	}
	p.finished("c", false)
	p.finished("d", false)
	p.started("d", "w1", 2) // a late announcement of a finished task
	if s := p.snapshot(); s.Running != 1 || s.Done != 2 {
		t.Errorf("after c and d finished: %d running, %d done; want 1 and 2", s.Running, s.Done)
	}
	p.started("x", "", 0) // an announcement without worker or slots counts
	if got := p.snapshot().Running; got != 2 {
		t.Errorf("with an anonymous start: %d running, want 2", got)
	}
	p.preset("f")
	p.started("f", "w2", 1)
	if got := p.snapshot().Running; got != 2 {
		t.Errorf("after a start of f, finished before the session: %d running, want 2", got)
	}
}

// TestProgress_linesOncePerChange checks the plain lines: none while
// nothing changes, the first change at once, later ones at most once per
// interval, never the same line twice, and the final state once.
func TestProgress_linesOncePerChange(t *testing.T) {
	var b testkit.SyncBuffer
	const interval = 300 * time.Millisecond
	p := newProgress(&b, false, interval, "s", 40, 0, 0, t.TempDir(), "r", nil, slog.New(slog.DiscardHandler))
	p.begin()
	time.Sleep(3 * interval)
	if b.String() != "" {
		t.Errorf("lines with nothing finished:\n%s", b.String())
	}
	began := time.Now()
	for i := range 40 {
		p.finished(string(rune('a'+i)), false)
		time.Sleep(10 * time.Millisecond)
	}
	took := time.Since(began)
	p.stop()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if max := int(took/interval) + 2; len(lines) > max || len(lines) < 2 {
		t.Errorf("%d lines for 40 results over %v at most every %v, want 2 to %d:\n%s", len(lines), took, interval, max, b.String())
	}
	if !strings.HasPrefix(lines[0], "sweep s: 1/40 done") {
		t.Errorf("first line %q, want the first result's at once", lines[0])
	}
	seen := map[string]bool{}
	for _, l := range lines {
		done, _, _ := strings.Cut(l, " done")
		if seen[done] {
			t.Errorf("counts %q printed twice:\n%s", done, b.String())
		}
		seen[done] = true
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
	p := newProgress(io.Discard, false, time.Hour, "s", 10, 0, 0, state, "r", nil, slog.New(slog.NewTextHandler(&logged, nil)))
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
