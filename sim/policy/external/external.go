package external

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schedfarm/schedfarm/sim"
)

// Version is the protocol version this package speaks.
const Version = 1

// Default limits.
const (
	DefaultInstantLimit = 10 * time.Second
	DefaultTaskLimit    = 0 // none
)

// MinStartLimit is the least time the program gets to start and answer
// the handshake (an interpreter's start on a loaded machine).
const MinStartLimit = time.Minute

// ErrProtocol is wrapped by every error of an external policy.
var ErrProtocol = errors.New("external policy")

// Config says which program to run and how.
type Config struct {
	// Command is the program and its arguments (no shell is involved).
	Command []string
	// Dir is the child's working directory ("" for the current one).
	Dir string
	// Env is the child's environment; nil gives a minimal one (PATH,
	// LANG=C.UTF-8, PYTHONHASHSEED=0, PYTHONDONTWRITEBYTECODE=1).
	Env []string
	// Params are the policy's own parameters, passed in the handshake.
	Params map[string]any
	// Seed is passed in the handshake.
	Seed uint64
	// InstantLimit bounds the wall time the policy may take to answer one
	// message (0: [DefaultInstantLimit]); the handshake, which includes
	// the program's start, gets at least [MinStartLimit].
	InstantLimit time.Duration
	// TaskLimit bounds the wall time of the whole run (0: none).
	TaskLimit time.Duration
}

// Error is the error of a run ended by an external policy's failure.
type Error struct {
	// Instant is the simulated time of the failure (-1 during the handshake).
	Instant sim.Time
	// Message is the protocol line the failure is about (may be empty).
	Message string
	// Err says what went wrong.
	Err error
	// Stderr holds the last lines of the policy's standard error.
	Stderr []string
}

// Error returns one text with every part.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("external policy: ")
	if e.Instant >= 0 {
		fmt.Fprintf(&b, "at t=%d: ", e.Instant)
	} else {
		b.WriteString("handshake: ")
	}
	b.WriteString(e.Err.Error())
	if e.Message != "" {
		fmt.Fprintf(&b, "; message: %s", clip(e.Message, 300))
	}
	if len(e.Stderr) == 0 {
		b.WriteString("; standard error: (empty)")
	} else {
		fmt.Fprintf(&b, "; last %d lines of standard error:", len(e.Stderr))
		for _, l := range e.Stderr {
			b.WriteString("\n  | ")
			b.WriteString(l)
		}
	}
	return b.String()
}

// Unwrap returns [ErrProtocol] and the cause.
func (e *Error) Unwrap() []error { return []error{ErrProtocol, e.Err} }

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Policy is a [sim.Policy] played by a child process.
type Policy struct {
	cfg      Config
	m        *sim.Machine
	p        *proc
	name     string
	overhead bool      // the policy wants overhead events
	buf      []byte    // the events of the next instant message
	out      []byte    // the message
	nev      int       // events in buf
	deadline time.Time // end of the task's wall-time budget (zero: none)
	err      *Error    // first failure
	cur      string    // the decision being applied, for errors
	// timers: the engine's tags are sequence numbers; the policy's tag of each.
	timers  map[int]pending
	byTag   map[int64][]int
	timerNo int
	msg     decisions
	sets    []int64 // backing array of msg's sets (fastDecode)
	tailRef *tail   // the child's standard error, kept after it stopped
}

type pending struct {
	tag int64
	tm  sim.Timer
}

var (
	_ sim.Policy          = (*Policy)(nil)
	_ sim.OverheadWatcher = (*Policy)(nil)
	_ sim.ErrorAnnotator  = (*Policy)(nil)
)

// New returns an external policy; the process starts in Init.
func New(cfg Config) (*Policy, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, fmt.Errorf("%w: empty command", ErrProtocol)
	}
	if cfg.InstantLimit <= 0 {
		cfg.InstantLimit = DefaultInstantLimit
	}
	if cfg.Env == nil {
		cfg.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1"}
	}
	return &Policy{cfg: cfg, timers: map[int]pending{}, byTag: map[int64][]int{}}, nil
}

// Name returns the name the policy gave in its handshake.
func (p *Policy) Name() string { return p.name }

// fail records the first failure, stops the child and returns the error.
func (p *Policy) fail(msg string, err error) *Error {
	if p.err != nil {
		return p.err
	}
	at := sim.Time(-1)
	if p.m != nil && p.name != "" {
		at = p.m.Now()
	}
	if p.p != nil {
		p.p.stop()
		p.p = nil
		// The child is gone: its standard error is complete.
	}
	e := &Error{Instant: at, Message: msg, Err: err}
	if p.tailRef != nil {
		e.Stderr = p.tailRef.get()
	}
	p.err = e
	return e
}

func (p *Policy) limit() time.Time {
	lim := p.cfg.InstantLimit
	if p.name == "" { // the handshake
		lim = max(lim, MinStartLimit)
	}
	d := time.Now().Add(lim)
	if !p.deadline.IsZero() && p.deadline.Before(d) {
		return p.deadline
	}
	return d
}

func (p *Policy) timeoutErr() error {
	if !p.deadline.IsZero() && !time.Now().Before(p.deadline) {
		return fmt.Errorf("the policy used up the run's limit of %v", p.cfg.TaskLimit)
	}
	if p.name == "" {
		return fmt.Errorf("no answer to the handshake within %v", max(p.cfg.InstantLimit, MinStartLimit))
	}
	return fmt.Errorf("no answer within the per-instant limit of %v", p.cfg.InstantLimit)
}

// exchange sends line and reads the answer.
func (p *Policy) exchange(line []byte) ([]byte, error) {
	p.p.arm(p.limit())
	defer p.p.disarm()
	if err := p.p.send(line); err != nil {
		if errors.Is(err, errTimeout) {
			return nil, fmt.Errorf("the policy does not read its input: %w", p.timeoutErr())
		}
		return nil, err
	}
	ans, err := p.p.readLine()
	if errors.Is(err, errTimeout) {
		return nil, p.timeoutErr()
	}
	return ans, err
}

// Init starts the process and makes the handshake.
func (p *Policy) Init(m *sim.Machine) error {
	p.m = m
	if p.cfg.TaskLimit > 0 {
		p.deadline = time.Now().Add(p.cfg.TaskLimit)
	}
	pr, err := start(p.cfg.Command, p.cfg.Dir, p.cfg.Env, watchTick(p.cfg.InstantLimit))
	if err != nil {
		return p.fail("", err)
	}
	p.p, p.tailRef = pr, pr.tail
	params := p.cfg.Params
	if params == nil {
		params = map[string]any{}
	}
	hs, err := json.Marshal(initMsg{Type: "init", Version: Version, Procs: m.Size(), Jobs: m.NumTasks(), Seed: p.cfg.Seed, Params: params})
	if err != nil {
		return p.fail("", err)
	}
	ans, err := p.exchange(append(hs, '\n'))
	if err != nil {
		return p.fail(string(hs), err)
	}
	var r readyMsg
	if err := strictUnmarshal(ans, &r); err != nil || r.Type != "ready" {
		return p.fail(string(ans), outside(ans, "a ready message"))
	}
	if r.Version != Version {
		return p.fail(string(ans), fmt.Errorf("the policy speaks protocol version %d, this engine %d", r.Version, Version))
	}
	for _, ev := range r.Events {
		switch ev {
		case "overhead":
			p.overhead = true
		default:
			return p.fail(string(ans), fmt.Errorf("unknown optional event %q (known: overhead)", ev))
		}
	}
	if r.Name == "" {
		r.Name = "external"
	}
	p.name = r.Name
	p.begin()
	return nil
}

// outside explains an answer that is not the expected message.
func outside(ans []byte, want string) error {
	s := strings.TrimSpace(string(ans))
	if !strings.HasPrefix(s, "{") {
		return fmt.Errorf("the policy wrote to standard output outside the protocol (want %s; write logs to standard error)", want)
	}
	return fmt.Errorf("malformed message: want %s", want)
}

// begin starts the next instant message.
func (p *Policy) begin() {
	p.buf = p.buf[:0]
	p.nev = 0
}

func (p *Policy) event() {
	if p.nev > 0 {
		p.buf = append(p.buf, ',')
	}
	p.nev++
}

// Arrive implements [sim.Policy].
func (p *Policy) Arrive(t *sim.Task) {
	p.event()
	b := append(p.buf, `{"type":"arrive","job":`...)
	b = strconv.AppendInt(b, int64(t.Index), 10)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, `,"submit":`...)
	b = strconv.AppendInt(b, int64(t.Submit), 10)
	b = append(b, `,"estimate":`...)
	b = strconv.AppendInt(b, int64(t.Estimate), 10)
	b = append(b, `,"procs":`...)
	b = strconv.AppendInt(b, int64(t.Procs), 10)
	if a := t.Mold; a != nil {
		b = append(b, `,"mold":{"min":`...)
		b = strconv.AppendInt(b, int64(a.Min), 10)
		b = append(b, `,"max":`...)
		hi := min(a.Max, p.m.Size())
		b = strconv.AppendInt(b, int64(hi), 10)
		b = append(b, `,"estimates":[`...)
		for k := a.Min; k <= hi; k++ {
			if k > a.Min {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(a.E(k)), 10)
		}
		b = append(b, "]}"...)
	}
	if e := t.Elastic; e != nil {
		b = append(b, `,"elastic":{"min":`...)
		b = strconv.AppendInt(b, int64(e.Min), 10)
		b = append(b, `,"max":`...)
		b = strconv.AppendInt(b, int64(e.Max), 10)
		b = append(b, `,"unit":`...)
		b = strconv.AppendInt(b, int64(e.Unit), 10)
		b = append(b, `,"seq_frac":`...)
		b = strconv.AppendFloat(b, e.SeqFrac, 'g', -1, 64)
		b = append(b, '}')
	}
	p.buf = append(b, '}')
}

// Finish implements [sim.Policy].
func (p *Policy) Finish(t *sim.Task) {
	p.event()
	p.buf = append(p.buf, `{"type":"finish","job":`...)
	p.buf = strconv.AppendInt(p.buf, int64(t.Index), 10)
	p.buf = append(p.buf, '}')
}

// OverheadDone implements [sim.OverheadWatcher]; sent only to policies
// that asked for "overhead" events.
func (p *Policy) OverheadDone(t *sim.Task) {
	if !p.overhead {
		return
	}
	p.event()
	p.buf = append(p.buf, `{"type":"overhead","job":`...)
	p.buf = strconv.AppendInt(p.buf, int64(t.Index), 10)
	p.buf = append(p.buf, `,"state":"`...)
	p.buf = append(p.buf, t.State.String()...)
	p.buf = append(p.buf, `"}`...)
}

// Timer implements [sim.Policy].
func (p *Policy) Timer(n int) {
	pt, ok := p.timers[n]
	if !ok {
		return
	}
	p.dropTimer(n, pt.tag)
	p.event()
	p.buf = append(p.buf, `{"type":"timer","tag":`...)
	p.buf = strconv.AppendInt(p.buf, pt.tag, 10)
	p.buf = append(p.buf, '}')
}

func (p *Policy) dropTimer(n int, tag int64) {
	delete(p.timers, n)
	l := p.byTag[tag]
	for i, x := range l {
		if x == n {
			l = append(l[:i], l[i+1:]...)
			break
		}
	}
	if len(l) == 0 {
		delete(p.byTag, tag)
	} else {
		p.byTag[tag] = l
	}
}

// Schedule sends the instant's message and applies the decisions.
func (p *Policy) Schedule() {
	if p.err != nil || p.p == nil {
		p.m.Check(p.err)
		return
	}
	b := append(p.out[:0], `{"type":"instant","now":`...)
	b = strconv.AppendInt(b, int64(p.m.Now()), 10)
	b = append(b, `,"events":[`...)
	b = append(b, p.buf...)
	b = append(b, `],"free":`...)
	b = strconv.AppendInt(b, int64(p.m.Free()), 10)
	b = append(b, "}\n"...)
	p.out = b
	sent := b
	ans, err := p.exchange(sent)
	if err != nil {
		p.m.Check(p.fail(string(sent[:len(sent)-1]), err))
		return
	}
	if err := p.decode(ans); err != nil {
		p.m.Check(p.fail(string(ans), err))
		return
	}
	for i := range p.msg.Decisions {
		d := &p.msg.Decisions[i]
		p.cur = string(ans)
		if err := p.apply(d); err != nil {
			p.m.Check(p.fail(string(ans), fmt.Errorf("decision %d (%s): %w", i+1, d.Op, err)))
			return
		}
		p.cur = ""
		if p.err != nil { // the machine refused it (see AnnotateError)
			return
		}
	}
	p.begin()
}

// AnnotateError implements [sim.ErrorAnnotator]: a decision the machine
// refused ends the run with the message and the policy's standard error.
func (p *Policy) AnnotateError(err error) error {
	if p.err != nil {
		return err
	}
	if p.cur == "" {
		return fmt.Errorf("at t=%d: %w", p.m.Now(), err)
	}
	return p.fail(p.cur, fmt.Errorf("the engine refused a decision: %w", err))
}

// Close ends the run: it sends "end", waits for the child to exit within
// the per-instant limit and kills it otherwise. It is safe to call more
// than once and after a failure.
func (p *Policy) Close() error {
	if p.p == nil {
		return nil
	}
	pr := p.p
	p.p = nil
	var end []byte
	end = append(end, `{"type":"end","now":`...)
	end = strconv.AppendInt(end, int64(p.m.Now()), 10)
	end = append(end, "}\n"...)
	pr.arm(time.Now().Add(p.cfg.InstantLimit))
	if pr.send(end) == nil {
		pr.in.Close()
		select {
		case <-pr.exited:
		case <-time.After(p.cfg.InstantLimit):
		}
	}
	pr.stop()
	return nil
}

// job returns the task a decision names.
func (p *Policy) job(d *decision) (*sim.Task, error) {
	if d.Job == nil {
		return nil, errors.New("no job")
	}
	i := *d.Job
	if i < 0 || i >= int64(p.m.NumTasks()) {
		return nil, fmt.Errorf("no job %d (the run has jobs 0..%d)", i, p.m.NumTasks()-1)
	}
	t := p.m.Task(int(i))
	if t.State == sim.Pending {
		return nil, fmt.Errorf("job %d has not arrived", i)
	}
	return t, nil
}

func (p *Policy) set(d *decision, t *sim.Task) (sim.ProcSet, error) {
	s := sim.NewProcSet(p.m.Size())
	for _, x := range d.Set {
		if x < 0 || x >= int64(p.m.Size()) {
			return sim.ProcSet{}, fmt.Errorf("job %d: processor %d outside the machine (0..%d)", t.Index, x, p.m.Size()-1)
		}
		s.Add(int(x))
	}
	if s.Len() != len(d.Set) {
		return sim.ProcSet{}, fmt.Errorf("job %d: a processor is named twice in the set", t.Index)
	}
	return s, nil
}

func nonneg(what string, v int64) (sim.Time, error) {
	if v < 0 {
		return 0, fmt.Errorf("negative %s %d", what, v)
	}
	return sim.Time(v), nil
}

// apply carries out one decision through the Machine. Machine refusals
// go through AnnotateError; the errors returned here are the decision's
// own (a missing field, an unknown job).
func (p *Policy) apply(d *decision) error {
	switch d.Op {
	case "timer":
		if d.Tag == nil || d.At == nil {
			return errors.New("a timer needs at and tag")
		}
		p.timerNo++
		n := p.timerNo
		at := sim.Time(*d.At)
		if at < p.m.Now() {
			return fmt.Errorf("timer at %d is before now", at)
		}
		p.timers[n] = pending{tag: *d.Tag, tm: p.m.SetTimer(at, n)}
		p.byTag[*d.Tag] = append(p.byTag[*d.Tag], n)
		return nil
	case "cancel_timer":
		if d.Tag == nil {
			return errors.New("cancel_timer needs a tag")
		}
		for _, n := range p.byTag[*d.Tag] {
			p.m.CancelTimer(p.timers[n].tm)
			delete(p.timers, n)
		}
		delete(p.byTag, *d.Tag)
		return nil
	}
	t, err := p.job(d)
	if err != nil {
		return err
	}
	switch d.Op {
	case "start":
		delay, err := nonneg("delay", d.Delay)
		if err != nil {
			return err
		}
		if d.Set != nil {
			s, err := p.set(d, t)
			if err != nil {
				return err
			}
			p.m.Dispatch(t, s, delay)
			return nil
		}
		p.m.DispatchN(t, delay)
	case "mold":
		if d.Procs == nil {
			return errors.New("mold needs procs")
		}
		p.m.Mold(t, int(*d.Procs))
	case "suspend":
		o, err := nonneg("overhead", d.Overhead)
		if err != nil {
			return err
		}
		p.m.Suspend(t, o)
	case "resume":
		o, err := nonneg("overhead", d.Overhead)
		if err != nil {
			return err
		}
		if d.Set != nil {
			s, err := p.set(d, t)
			if err != nil {
				return err
			}
			p.m.ResumeOn(t, s, o)
			return nil
		}
		p.m.Resume(t, o)
	case "kill":
		p.m.Kill(t)
	case "checkpoint":
		c, err := nonneg("cost", d.Cost)
		if err != nil {
			return err
		}
		p.m.Checkpoint(t, c)
	case "admit":
		dl := sim.NoDeadline
		if d.Deadline != nil {
			dl = sim.Time(*d.Deadline)
		}
		p.m.Admit(t, dl)
	case "reject":
		p.m.Reject(t)
	case "promise":
		if d.At == nil {
			return errors.New("promise needs at")
		}
		p.m.Promise(t, sim.Time(*d.At))
	default:
		return fmt.Errorf("unknown op %q (known: start, mold, suspend, resume, kill, checkpoint, timer, cancel_timer, admit, reject, promise)", d.Op)
	}
	return nil
}
