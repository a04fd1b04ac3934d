package coordinator

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
)

const (
	// barRefresh is the redraw interval of the terminal bar.
	barRefresh = 250 * time.Millisecond
	// snapshotInterval is how often the progress file is rewritten.
	snapshotInterval = time.Second
	barWidth         = 30
)

// Snapshot is the progress of a running sweep, as the coordinator shows
// it and writes it to <state dir>/progress/<sweep>.json for `schedfarm
// status` to read while the coordinator holds the state store.
type Snapshot struct {
	// Sweep and RunID identify the run; PID is the coordinator's process.
	Sweep string `json:"sweep"`
	RunID string `json:"run_id"`
	PID   int    `json:"pid"`
	// Total is the number of tasks, Done how many finished (failed ones
	// included), Failed how many failed, Running how many workers
	// reported starting and have no result yet.
	Total   int `json:"total"`
	Done    int `json:"done"`
	Failed  int `json:"failed"`
	Running int `json:"running"`
	// Rate is tasks finished per second in this session; ETA the time to
	// finish the rest, from the durations of the finished and running
	// tasks (see progress.eta), or at that rate before any task's
	// duration is known (0: unknown).
	Rate float64       `json:"rate"`
	ETA  time.Duration `json:"eta"`
	// Updated is when the snapshot was taken.
	Updated time.Time `json:"updated"`
}

// progress tracks and shows a run's progress. Its methods are safe for
// concurrent use.
type progress struct {
	w        io.Writer
	tty      bool
	interval time.Duration
	file     string
	log      *slog.Logger
	// saveFailed is whether the last save failed, so that a failing
	// progress file is logged once, not every second. Only the display
	// goroutine, then stop after it ended, touch it.
	saveFailed bool

	mu      sync.Mutex
	snap    Snapshot
	running map[string]time.Time // task -> when a worker started it
	over    map[string]bool      // tasks finished
	// took and timed sum and count the durations of the tasks finished
	// in this session whose start was seen.
	took  time.Duration
	timed int
	// step is the last twentieth of the sweep a plain line was printed
	// for; next signals the display loop to print one.
	step    int
	next    chan struct{}
	began   time.Time
	session int
	width   int // length of the last bar drawn
	// shown and shownDone, shownFailed: the counts of the last plain
	// line, so that the final line is not a repeat of it. Only the
	// display goroutine, then stop after it ended, touch them.
	shown                  bool
	shownDone, shownFailed int

	quit chan struct{}
	wg   sync.WaitGroup
}

// newProgress starts showing a run's progress on w and writing its
// snapshot file under stateDir; a failing snapshot file is reported to
// log.
func newProgress(w io.Writer, tty bool, interval time.Duration, sweepName string, total, done, failed int, stateDir, runID string, log *slog.Logger) *progress {
	p := &progress{
		w: w, tty: tty, interval: interval, log: log,
		file:    filepath.Join(stateDir, "progress", sweepName+".json"),
		snap:    Snapshot{Sweep: sweepName, RunID: runID, PID: os.Getpid(), Total: total, Done: done, Failed: failed},
		running: map[string]time.Time{},
		over:    map[string]bool{},
		quit:    make(chan struct{}),
		next:    make(chan struct{}, 1),
	}
	p.wg.Go(p.loop)
	return p
}

// begin marks the start of the measured session (tasks published).
func (p *progress) begin() {
	p.mu.Lock()
	p.began = time.Now()
	p.mu.Unlock()
}

// preset marks a task finished before the session began.
func (p *progress) preset(id string) {
	p.mu.Lock()
	p.over[id] = true
	p.mu.Unlock()
}

// started notes that a worker started a task.
func (p *progress) started(id string) {
	p.mu.Lock()
	if _, ok := p.running[id]; !ok && !p.over[id] {
		p.running[id] = time.Now()
	}
	p.mu.Unlock()
}

// finished notes a task's result.
func (p *progress) finished(id string, failed bool) {
	p.mu.Lock()
	if at, ok := p.running[id]; ok {
		p.took += time.Since(at)
		p.timed++
	}
	delete(p.running, id)
	p.over[id] = true
	p.snap.Done++
	p.session++
	if failed {
		p.snap.Failed++
	}
	if p.snap.Total > 0 {
		if step := p.snap.Done * 20 / p.snap.Total; step > p.step {
			p.step = step
			select {
			case p.next <- struct{}{}:
			default:
			}
		}
	}
	p.mu.Unlock()
}

// snapshot returns the current figures.
func (p *progress) snapshot() Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.snap
	s.Running = len(p.running)
	s.Updated = time.Now().UTC()
	if !p.began.IsZero() {
		if el := time.Since(p.began).Seconds(); el > 0 && p.session > 0 {
			s.Rate = float64(p.session) / el
			s.ETA = time.Duration(float64(s.Total-s.Done) / s.Rate * float64(time.Second)).Round(time.Second)
		}
		if p.timed > 0 {
			s.ETA = p.eta(s.Total - s.Done).Round(time.Second)
		}
	}
	return s
}

// eta estimates the time to finish left tasks (running ones included)
// from the durations of the tasks finished and of those running: a queued
// task takes the mean duration of the finished ones; a running task needs
// the rest of that mean, or, once it has run longer than the mean, as long
// again as it has run so far (a long task is likely to go on), so the
// estimate grows while a long task runs instead of standing still. The
// work is shared by as many slots as tasks are running (at least one),
// and the estimate is never below the longest running task's rest.
// Called with p.mu held.
func (p *progress) eta(left int) time.Duration {
	mean := p.took / time.Duration(p.timed)
	queued := left - len(p.running)
	work := time.Duration(max(queued, 0)) * mean
	var longest time.Duration
	now := time.Now()
	for _, at := range p.running {
		ran := now.Sub(at)
		rest := mean - ran
		if ran >= mean {
			rest = ran
		}
		work += rest
		longest = max(longest, rest)
	}
	return max(work/time.Duration(max(len(p.running), 1)), longest)
}

func (p *progress) loop() {
	draw := p.interval
	if p.tty {
		draw = barRefresh
	}
	drawT := time.NewTicker(draw)
	defer drawT.Stop()
	fileT := time.NewTicker(snapshotInterval)
	defer fileT.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-drawT.C:
			p.draw(false)
		case <-p.next:
			// Another twentieth of the sweep is done: a plain line now
			// (a terminal's bar is redrawn often anyway).
			if !p.tty {
				p.draw(false)
				drawT.Reset(draw)
			}
		case <-fileT.C:
			p.save()
		}
	}
}

// stop draws the final state and stops the display.
func (p *progress) stop() {
	close(p.quit)
	p.wg.Wait()
	p.draw(true)
	p.save()
}

func (p *progress) draw(final bool) {
	s := p.snapshot()
	if !p.tty {
		if final && p.shown && s.Done == p.shownDone && s.Failed == p.shownFailed {
			return // the last line already says this
		}
		fmt.Fprintf(p.w, "sweep %s: %s\n", s.Sweep, s.line())
		p.shown, p.shownDone, p.shownFailed = true, s.Done, s.Failed
		return
	}
	pct := 0.0
	if s.Total > 0 {
		pct = float64(s.Done) / float64(s.Total)
	}
	fill := int(pct * barWidth)
	bar := "[" + strings.Repeat("=", fill) + strings.Repeat(" ", barWidth-fill) + "] " + s.line()
	pad := max(p.width-len(bar), 0)
	p.width = len(bar)
	fmt.Fprintf(p.w, "\r%s%s", bar, strings.Repeat(" ", pad))
	if final {
		fmt.Fprintln(p.w)
	}
}

// line formats the figures: done/total, running, failed, rate, ETA.
func (s Snapshot) line() string {
	pct := 0.0
	if s.Total > 0 {
		pct = 100 * float64(s.Done) / float64(s.Total)
	}
	eta := "?"
	switch {
	case s.Done == s.Total:
		eta = "0s"
	case s.Rate > 0:
		eta = s.ETA.String()
	}
	return fmt.Sprintf("%d/%d done (%.0f%%), %d running, %d failed, %.1f tasks/s, ETA %s",
		s.Done, s.Total, pct, s.Running, s.Failed, s.Rate, eta)
}

// save writes the snapshot file atomically. A failure only costs the
// live status display (`schedfarm status`), so the run goes on; it is
// logged when it starts, and again when the file can be written.
func (p *progress) save() {
	err := atomicfile.Write(p.file, func(w io.Writer) error {
		b, err := json.MarshalIndent(p.snapshot(), "", "  ")
		if err != nil {
			return fmt.Errorf("encode progress: %w", err)
		}
		_, err = w.Write(b)
		return err
	})
	switch {
	case err != nil && !p.saveFailed:
		p.log.Warn("progress file not written; schedfarm status will show old figures", "err", err)
	case err == nil && p.saveFailed:
		p.log.Info("progress file written again", "file", p.file)
	}
	p.saveFailed = err != nil
}

// readSnapshot reads the progress file of a sweep.
func readSnapshot(stateDir, sweepName string) (*Snapshot, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, "progress", sweepName+".json"))
	if err != nil {
		return nil, err
	}
	var s Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decode progress of %s: %w", sweepName, err)
	}
	return &s, nil
}
