package external

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// stderrLines is how many of the child's last standard error lines an
// error quotes; stderrLineMax bounds each one.
const (
	stderrLines   = 20
	stderrLineMax = 400
	maxLine       = 64 << 20 // longest protocol line read
)

// proc is a running policy process.
type proc struct {
	cmd    *exec.Cmd
	in     *os.File // child's standard input (our end)
	out    *os.File // child's standard output (our end)
	rd     *bufio.Reader
	w      *bufio.Writer
	tail   *tail
	errEOF chan struct{} // closed when the child's standard error ends
	exited chan struct{} // closed when Wait returned
	werr   error         // Wait's error, valid after exited
	// deadline is the wall time (Unix nanoseconds) by which the current
	// exchange must end, 0 between exchanges; the watchdog kills the
	// child when it passes and sets expired.
	deadline atomic.Int64
	expired  atomic.Bool
}

// tail keeps the last lines written to the child's standard error.
type tail struct {
	mu    sync.Mutex
	lines []string
}

func (t *tail) add(s string) {
	if len(s) > stderrLineMax {
		s = s[:stderrLineMax] + "..."
	}
	t.mu.Lock()
	if len(t.lines) == stderrLines {
		copy(t.lines, t.lines[1:])
		t.lines = t.lines[:stderrLines-1]
	}
	t.lines = append(t.lines, s)
	t.mu.Unlock()
}

func (t *tail) get() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.lines...)
}

// start runs argv in dir with env. The pipes to the child are in
// blocking mode: an exchange is one write and (usually) one read system
// call, without the runtime's poller (a read that finds the pipe empty
// would cost an extra read, an epoll wait and a scheduler round). Time
// limits are kept by a watchdog goroutine instead of I/O deadlines: it
// wakes every tick and kills the child's process group once the current
// exchange's deadline has passed, which ends the blocked read or write.
func start(argv []string, dir string, env []string, tick time.Duration) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	setGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", strings.Join(argv, " "), err)
	}
	// Fd puts each of our ends in blocking mode.
	inW.Fd()
	outR.Fd()
	p := &proc{cmd: cmd, in: inW, out: outR, rd: bufio.NewReaderSize(outR, 64<<10), w: bufio.NewWriterSize(inW, 64<<10),
		tail: &tail{}, errEOF: make(chan struct{}), exited: make(chan struct{})}
	go func() {
		defer close(p.errEOF)
		defer errR.Close()
		sc := bufio.NewReader(errR)
		for {
			line, err := sc.ReadString('\n')
			if line = strings.TrimRight(line, "\r\n"); line != "" {
				p.tail.add(line)
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		p.werr = cmd.Wait()
		close(p.exited)
	}()
	go p.watch(tick)
	return p, nil
}

// watch kills the child when an exchange outlives its deadline; it
// returns when the child has exited.
func (p *proc) watch(tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-p.exited:
			return
		case now := <-t.C:
			if d := p.deadline.Load(); d != 0 && now.UnixNano() >= d {
				p.expired.Store(true)
				p.kill()
			}
		}
	}
}

// watchTick is the watchdog's period for a per-instant limit: a tenth
// of it, between 5 ms and 250 ms, so a limit is kept to within a tenth
// (or 250 ms) and the watchdog costs nothing noticeable.
func watchTick(limit time.Duration) time.Duration {
	return min(max(limit/10, 5*time.Millisecond), 250*time.Millisecond)
}

// arm sets the deadline of the exchange that starts; disarm ends it.
func (p *proc) arm(deadline time.Time) { p.deadline.Store(deadline.UnixNano()) }
func (p *proc) disarm()                { p.deadline.Store(0) }

// errTimeout is returned by readLine when the deadline passed.
var errTimeout = errors.New("timeout")

// send writes one line and flushes it. Within an armed exchange, a
// write the child does not read before the deadline fails with
// errTimeout.
func (p *proc) send(b []byte) error {
	if _, err := p.w.Write(b); err != nil {
		return p.ioErr("write", err)
	}
	if err := p.w.Flush(); err != nil {
		return p.ioErr("write", err)
	}
	return nil
}

// readLine reads one line (without its newline); within an armed
// exchange, it fails with errTimeout after the deadline. The slice is
// valid until the next read.
func (p *proc) readLine() ([]byte, error) {
	var long []byte
	for {
		line, err := p.rd.ReadSlice('\n')
		if err == nil {
			if long != nil {
				line = append(long, line...)
			}
			return line[:len(line)-1], nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			if len(long) > maxLine {
				return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
			}
			continue
		}
		if p.expired.Load() {
			return nil, errTimeout
		}
		if errors.Is(err, io.EOF) {
			if len(line)+len(long) > 0 {
				return nil, fmt.Errorf("standard output ended in the middle of a line: %w", p.exitErr())
			}
			return nil, p.exitErr()
		}
		return nil, p.ioErr("read", err)
	}
}

// ioErr explains a failed write or read: mostly the child died.
func (p *proc) ioErr(op string, err error) error {
	if p.expired.Load() {
		return errTimeout
	}
	select {
	case <-p.exited:
		return p.exitErr()
	case <-time.After(time.Second):
	}
	return fmt.Errorf("%s: %w", op, err)
}

// exitErr waits (briefly) for the child to exit and says how it did.
func (p *proc) exitErr() error {
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
		<-p.exited
		return errors.New("the policy closed its standard output without exiting")
	}
	if p.werr == nil {
		return errors.New("the policy exited (status 0) before the end of the run")
	}
	return fmt.Errorf("the policy exited: %w", p.werr)
}

// kill ends the child's process group.
func (p *proc) kill() {
	killGroup(p.cmd)
}

// stop closes the pipes, kills the child and waits for it and its
// standard error.
func (p *proc) stop() {
	p.kill()
	p.in.Close()
	<-p.exited
	p.out.Close()
	select {
	case <-p.errEOF:
	case <-time.After(5 * time.Second): // a grandchild holds stderr open
	}
}
