package coordinator

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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
	// rateWindow is how far back the rate behind the ETA looks: the
	// tasks finished in the last minute (since the session began, if
	// later), so the ETA follows the sweep's recent pace.
	rateWindow = time.Minute
	// rateSettle is how long after the session's first result the rate
	// (and so the ETA) stays unknown.
	rateSettle = 2 * time.Second
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
	// reported starting and have no result yet, never more than the
	// slots of the workers that started them (see progress.started).
	Total   int `json:"total"`
	Done    int `json:"done"`
	Failed  int `json:"failed"`
	Running int `json:"running"`
	// Rate is tasks finished per second recently: over the last minute
	// of this session (the whole session when no task finished in that
	// minute); ETA the time to finish the rest at that rate. Rate 0:
	// unknown, until the first few results are in (see progress.rate).
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
	running map[string]string // task -> the worker that started it ("": unknown)
	// byWorker holds each worker's running tasks in the order it started
	// them, and slots how many it runs at once, as it announced them.
	byWorker map[string][]string
	slots    map[string]int
	// over marks the finished tasks: a bit by task position (byID, the
	// run's, read only, positions below total), 12.5 KB for 100,000 tasks
	// instead of a map of their IDs (about 5 MB); an ID that is not one
	// of the run's goes to overOther.
	byID      map[string]int
	over      []uint64
	overOther map[string]bool
	// finishes are when this session's tasks finished, the last
	// rateWindow's worth (see rate).
	finishes    []time.Time
	firstFinish time.Time // this session's first result
	// next signals the display loop that the counts changed.
	next    chan struct{}
	began   time.Time
	session int
	width   int // length of the last bar drawn
	// shown, shownAt and shownDone, shownFailed: whether a plain line
	// was printed, when, and its counts, so that a line is printed only
	// for new counts and at most once per interval. Only the display
	// goroutine, then stop after it ended, touch them.
	shown                  bool
	shownAt                time.Time
	shownDone, shownFailed int

	quit chan struct{}
	wg   sync.WaitGroup
}

// newProgress starts showing a run's progress on w and writing its
// snapshot file under stateDir; a failing snapshot file is reported to
// log. byID maps the run's task IDs to their positions (nil: none); it
// is only read.
func newProgress(w io.Writer, tty bool, interval time.Duration, sweepName string, total, done, failed int, stateDir, runID string, byID map[string]int, log *slog.Logger) *progress {
	p := &progress{
		w: w, tty: tty, interval: interval, log: log,
		file:      filepath.Join(stateDir, "progress", sweepName+".json"),
		snap:      Snapshot{Sweep: sweepName, RunID: runID, PID: os.Getpid(), Total: total, Done: done, Failed: failed},
		running:   map[string]string{},
		byWorker:  map[string][]string{},
		slots:     map[string]int{},
		byID:      byID,
		over:      make([]uint64, (total+63)/64),
		overOther: map[string]bool{},
		quit:      make(chan struct{}),
		next:      make(chan struct{}, 1),
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
	p.setOver(id)
	p.mu.Unlock()
}

// setOver marks task id finished. Called with p.mu held.
func (p *progress) setOver(id string) {
	if i, ok := p.byID[id]; ok && i/64 < len(p.over) {
		p.over[i/64] |= 1 << (i % 64)
		return
	}
	p.overOther[id] = true
}

// isOver reports whether task id finished. Called with p.mu held.
func (p *progress) isOver(id string) bool {
	if i, ok := p.byID[id]; ok && i/64 < len(p.over) {
		return p.over[i/64]&(1<<(i%64)) != 0
	}
	return p.overOther[id]
}

// started notes that worker (with slots tasks at once; "" and 0 when
// the announcement did not say) started a task. A worker that starts
// more tasks than it has slots has moved on from its oldest ones (their
// results are on the way, or it gave them back), so those stop counting:
// "running" never exceeds the slots of the workers that announced them.
// A task started again by another worker (redelivered) counts once, as
// the new worker's.
func (p *progress) started(id, worker string, slots int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.isOver(id) {
		return
	}
	if prev, ok := p.running[id]; ok {
		if prev == worker {
			return
		}
		p.dropFromWorker(id, prev)
	}
	p.running[id] = worker
	if worker == "" || slots <= 0 {
		return
	}
	p.slots[worker] = slots
	list := append(p.byWorker[worker], id)
	for len(list) > slots {
		delete(p.running, list[0])
		list = list[1:]
	}
	p.byWorker[worker] = list
}

// dropFromWorker removes a task from a worker's running list. Called with
// p.mu held.
func (p *progress) dropFromWorker(id, worker string) {
	list := p.byWorker[worker]
	if i := slices.Index(list, id); i >= 0 {
		p.byWorker[worker] = slices.Delete(list, i, i+1)
	}
}

// finished notes a task's result.
func (p *progress) finished(id string, failed bool) {
	p.mu.Lock()
	if w, ok := p.running[id]; ok {
		p.dropFromWorker(id, w)
	}
	delete(p.running, id)
	p.setOver(id)
	p.snap.Done++
	p.session++
	if failed {
		p.snap.Failed++
	}
	now := time.Now()
	if p.session == 1 {
		p.firstFinish = now
	}
	p.finishes = append(p.finishes, now)
	if len(p.finishes) > 64 && now.Sub(p.finishes[0]) > rateWindow {
		cut := 0
		for cut < len(p.finishes) && now.Sub(p.finishes[cut]) > rateWindow {
			cut++
		}
		p.finishes = slices.Delete(p.finishes, 0, cut)
	}
	p.mu.Unlock()
	select {
	case p.next <- struct{}{}:
	default:
	}
}

// snapshot returns the current figures.
func (p *progress) snapshot() Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.snap
	s.Running = len(p.running)
	now := time.Now()
	s.Updated = now.UTC()
	if s.Rate = p.rate(now); s.Rate > 0 {
		s.ETA = time.Duration(float64(s.Total-s.Done) / s.Rate * float64(time.Second)).Round(time.Second)
	}
	return s
}

// rate returns the tasks finished per second recently: the results of
// the last rateWindow over the time since its start (the session's start
// if later), or the whole session's rate when none came in the window.
// It is 0 (unknown) until minResults have come and rateSettle has passed
// since the first: the first results say little about the pace (results
// come in bursts, and at 1 of 1200 tasks the rate gave an ETA of 13m46s
// for a 59 s sweep). Called with p.mu held.
func (p *progress) rate(now time.Time) float64 {
	if p.began.IsZero() || p.session < p.minResults() || now.Sub(p.firstFinish) < rateSettle {
		return 0
	}
	from := now.Add(-rateWindow)
	if p.began.After(from) {
		from = p.began
	}
	n := 0
	for i := len(p.finishes) - 1; i >= 0 && p.finishes[i].After(from); i-- {
		n++
	}
	if n == 0 {
		from, n = p.began, p.session
	}
	el := now.Sub(from).Seconds()
	if el <= 0 {
		return 0
	}
	return float64(n) / el
}

// minResults is how many results the rate waits for: twice the slots
// that workers announced, at least 4.
func (p *progress) minResults() int {
	slots := 0
	for _, n := range p.slots {
		slots += n
	}
	return max(4, 2*slots)
}

// loop redraws a terminal's bar every barRefresh; elsewhere it prints a
// plain line when the counts change, at most once per interval (a change
// within the interval is printed when it ends), so a log gets one line
// per change and never the same line twice.
func (p *progress) loop() {
	var barC <-chan time.Time
	if p.tty {
		bar := time.NewTicker(barRefresh)
		defer bar.Stop()
		barC = bar.C
	}
	lineT := time.NewTimer(time.Hour)
	lineT.Stop()
	defer lineT.Stop()
	armed := false
	line := func() {
		if wait := p.interval - time.Since(p.shownAt); p.shown && wait > 0 {
			if !armed {
				lineT.Reset(wait)
				armed = true
			}
			return
		}
		p.draw(false)
	}
	fileT := time.NewTicker(snapshotInterval)
	defer fileT.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-barC:
			p.draw(false)
		case <-p.next:
			if !p.tty {
				line()
			}
		case <-lineT.C:
			armed = false
			line()
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
		if p.shown && s.Done == p.shownDone && s.Failed == p.shownFailed {
			return // the last line already says this
		}
		fmt.Fprintf(p.w, "sweep %s: %s\n", s.Sweep, s.line())
		p.shown, p.shownAt, p.shownDone, p.shownFailed = true, time.Now(), s.Done, s.Failed
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
