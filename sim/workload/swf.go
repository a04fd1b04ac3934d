package workload

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// NumFields is the number of fields of an SWF job line.
const NumFields = 18

// MaxValue is the largest absolute value a field may have (2^53-1, so that
// every value is exact as a float64 too).
const MaxValue = 1<<53 - 1

// MaxMachine is the largest machine size (processors) a header or a caller
// may give.
const MaxMachine = 1 << 24

// SWF field numbers the reader uses (1-based).
const (
	fieldID         = 1
	fieldSubmit     = 2
	fieldWait       = 3
	fieldRuntime    = 4
	fieldAllocProcs = 5
	fieldReqProcs   = 8
	fieldReqTime    = 9
	fieldStatus     = 11
	fieldUser       = 12
	fieldGroup      = 13
	fieldExecutable = 14
	fieldQueue      = 15
	fieldPartition  = 16
	fieldPreceding  = 17
	fieldThinkTime  = 18
)

// maxStatus is the largest job status (field 11) the format defines.
const maxStatus = 5

// Read reads the SWF file at path, plain or gzipped, and drops the jobs
// that cannot run (see the package documentation). procs is the machine
// size; 0 takes it from the header. Any error is a [*ParseError] naming
// path (a missing file wraps [fs.ErrNotExist]), except a negative procs,
// which wraps [ErrInvalidOption]. On error the trace is nil. Read uses
// the [DefaultLimits]; [ReadContext] takes others and a context.
func Read(path string, procs int) (*Trace, error) {
	return ReadContext(context.Background(), path, procs, Limits{})
}

// ReadContext is [Read] with limits (zero fields take the defaults) and a
// context: reading stops with ctx's error, wrapped in a [*ParseError],
// soon after ctx is done.
func ReadContext(ctx context.Context, path string, procs int, lim Limits) (*Trace, error) {
	if err := checkProcs(procs); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Op, pe.Err)
		}
		return nil, &ParseError{File: path, Err: err}
	}
	defer f.Close()
	lim = lim.withDefaults()
	return parse(ctx, f, path, procs, lim, recordsHint(f, lim))
}

// Parse is [Read] for a stream: it reads r to its end and parses it as the
// SWF file name (used in errors and for [Trace.Name]).
func Parse(r io.Reader, name string, procs int) (*Trace, error) {
	return ParseContext(context.Background(), r, name, procs, Limits{})
}

// ParseContext is [Parse] with limits and a context, as [ReadContext].
func ParseContext(ctx context.Context, r io.Reader, name string, procs int, lim Limits) (*Trace, error) {
	if err := checkProcs(procs); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return parse(ctx, r, name, procs, lim.withDefaults(), 0)
}

func checkProcs(procs int) error {
	if procs < 0 || procs > MaxMachine {
		return fmt.Errorf("%w: machine size %d, want 0 (from the header) or 1..%d", ErrInvalidOption, procs, MaxMachine)
	}
	return nil
}

// isGzip reports whether data starts with the gzip magic bytes.
func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// traceName returns the base name of file without ".gz" and ".swf".
func traceName(file string) string {
	name := filepath.Base(file)
	name = strings.TrimSuffix(name, ".gz")
	return strings.TrimSuffix(name, ".swf")
}

// parser holds the state of one parse.
type parser struct {
	file       string
	lim        Limits
	header     map[string]string
	headerSize int
	lastKey    string // key a continuation line belongs to
	keyLine    map[string]int
	recs       []Record
	maxID      int64
	seen       map[int64]int // job id -> line; built once ids stop increasing
	fields     [NumFields][]byte
}

// errTextTooLarge is returned by capReader past its limit.
var errTextTooLarge = errors.New("text limit reached")

// capReader reads at most n bytes from r, then fails with errTextTooLarge
// (not io.EOF: input cut at the limit must not parse as a shorter file).
type capReader struct {
	r io.Reader
	n int64
}

func (c *capReader) Read(b []byte) (int, error) {
	if c.n <= 0 {
		return 0, errTextTooLarge
	}
	if int64(len(b)) > c.n {
		b = b[:c.n]
	}
	n, err := c.r.Read(b)
	c.n -= int64(n)
	return n, err
}

// bom is the UTF-8 byte order mark, accepted at the start of the text.
var bom = []byte{0xef, 0xbb, 0xbf}

// parse reads a trace from r (plain or gzipped SWF) within lim (with its
// defaults filled in), stopping soon after ctx is done; see
// [ParseContext]. Its list of records starts with room for hint job lines.
func parse(ctx context.Context, r io.Reader, file string, procs int, lim Limits, hint int) (*Trace, error) {
	sum := sha256.New()
	raw := bufio.NewReaderSize(io.TeeReader(r, sum), 64<<10)
	var text io.Reader = raw
	var zr *gzip.Reader
	if magic, _ := raw.Peek(2); isGzip(magic) {
		var err error
		if zr, err = gzip.NewReader(raw); err != nil {
			return nil, &ParseError{File: file, Err: fmt.Errorf("%w: %w", ErrBadGzip, err)}
		}
		text = zr
	}
	in := bufio.NewReaderSize(&capReader{r: text, n: lim.MaxBytes}, lim.MaxLineLength+1)
	p := &parser{file: file, lim: lim, header: map[string]string{}, keyLine: map[string]int{}}
	p.recs = make([]Record, 0, hint)
	for n, iter := 1, 1; ; n, iter = n+1, iter+1 {
		if iter%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, &ParseError{File: file, Line: n, Err: fmt.Errorf("read: %w", err)}
			}
		}
		line, err := in.ReadSlice('\n')
		if err != nil && err != io.EOF {
			return nil, readError(err, line, file, n, lim, zr != nil)
		}
		if len(line) == 1 && line[0] == '\n' {
			// Skip a run of empty lines in one go (a bomb is made of them).
			buf, _ := in.Peek(in.Buffered())
			k := 0
			for k < len(buf) && buf[k] == '\n' {
				k++
			}
			in.Discard(k) // cannot fail: the k bytes are buffered
			n += k
			continue
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		if len(line) > 0 {
			if perr := p.line(n, line); perr != nil {
				return nil, perr
			}
		}
		if err == io.EOF {
			break
		}
	}
	if zr != nil {
		if err := zr.Close(); err != nil {
			return nil, &ParseError{File: file, Err: fmt.Errorf("%w: %w", ErrBadGzip, err)}
		}
	}
	// Hash what the readers above left unread (nothing, normally).
	if _, err := io.Copy(io.Discard, raw); err != nil {
		return nil, &ParseError{File: file, Err: fmt.Errorf("read: %w", err)}
	}
	return p.trace(file, procs, hex.EncodeToString(sum.Sum(nil)))
}

// readError turns an error of reading line n (other than io.EOF) into a
// ParseError; gz says whether the input is gzipped.
func readError(err error, line []byte, file string, n int, lim Limits, gz bool) *ParseError {
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		if bytes.IndexByte(line, '\r') >= 0 {
			return &ParseError{File: file, Line: n, Err: ErrCRLineEndings}
		}
		return &ParseError{File: file, Line: n,
			Err: fmt.Errorf("%w: more than %d bytes (Limits.MaxLineLength)", ErrLineTooLong, lim.MaxLineLength)}
	case errors.Is(err, errTextTooLarge):
		return &ParseError{File: file, Line: n,
			Err: fmt.Errorf("%w: more than %d bytes of text (Limits.MaxBytes)", ErrTooLarge, lim.MaxBytes)}
	case gz:
		return &ParseError{File: file, Err: fmt.Errorf("%w: %w", ErrBadGzip, err)}
	}
	return &ParseError{File: file, Line: n, Err: fmt.Errorf("read: %w", err)}
}

// trace makes the Trace of the parsed job lines on a machine of procs
// processors (0: the header's size), dropping the jobs it cannot run;
// sha is the input's hash.
func (p *parser) trace(file string, procs int, sha string) (*Trace, error) {
	if len(p.recs) == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: the input has no job lines", ErrEmpty)}
	}
	if procs == 0 {
		var err error
		if procs, err = p.machineSize(); err != nil {
			return nil, err
		}
	}
	t := &Trace{
		Name:   traceName(file),
		File:   file,
		Procs:  procs,
		Header: p.header,
		SHA256: sha,
	}
	kept := p.recs[:0]
	for i := range p.recs {
		if c := t.Drops.reason(&p.recs[i], procs); c != nil {
			*c++
			continue
		}
		kept = append(kept, p.recs[i])
	}
	if len(kept) == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: all %d job lines dropped on a %d-processor machine (%s)", ErrEmpty, len(p.recs), procs, t.Drops)}
	}
	// The records grew by appending: keep an exactly sized copy, not a
	// backing array up to twice as large, since parsed traces are cached.
	t.Records = slices.Clone(kept)
	return t, nil
}

// machineSize returns the header's machine size: MaxProcs, else MaxNodes.
// A value without a positive leading integer ("-1") counts as unknown; a
// value that does not start with an integer is an error.
func (p *parser) machineSize() (int, error) {
	var unknown []string
	for _, key := range [...]string{"MaxProcs", "MaxNodes"} {
		v, ok := p.header[key]
		if !ok {
			continue
		}
		first, _, _ := strings.Cut(v, "\n")
		n, ok := leadingInt(first)
		if !ok || n > MaxMachine {
			return 0, &ParseError{File: p.file, Line: p.keyLine[key],
				Err: fmt.Errorf("%w: %s %q is not an integer in 1..%d", ErrBadHeader, key, first, MaxMachine)}
		}
		if n > 0 {
			return int(n), nil
		}
		unknown = append(unknown, fmt.Sprintf("%s is %s (unknown) on line %d", key, first, p.keyLine[key]))
	}
	if len(unknown) > 0 {
		return 0, &ParseError{File: p.file, Err: fmt.Errorf("%w: the header's %s and no machine size was given (set procs)", ErrNoMachineSize, strings.Join(unknown, " and "))}
	}
	return 0, &ParseError{File: p.file, Err: fmt.Errorf("%w: the header has no MaxProcs or MaxNodes and no machine size was given (set procs)", ErrNoMachineSize)}
}

// leadingInt parses the integer that starts s and ends at its end or at a
// space, as in "338 (batch partition; 512 total)".
func leadingInt(s string) (int64, bool) {
	i := 0
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	v, whole, err := parseNum([]byte(s[:i]))
	return v, err == nil && whole
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// splitKey splits a trimmed comment "Key: value" into key and trimmed value.
func splitKey(b []byte) (key, val []byte, ok bool) {
	i := 0
	for i < len(b) && isKeyByte(b[i]) {
		i++
	}
	if i == 0 || i == len(b) || b[i] != ':' || i+1 < len(b) && !isSpace(b[i+1]) {
		return nil, nil, false
	}
	return b[:i], trimSpace(b[i+1:]), true
}

// line parses line n.
func (p *parser) line(n int, line []byte) error {
	b := trimSpace(line)
	if len(b) == 0 {
		return nil
	}
	if bytes.IndexByte(b, '\r') >= 0 {
		return &ParseError{File: p.file, Line: n, Err: ErrCRLineEndings}
	}
	if b[0] == ';' {
		return p.comment(n, trimSpace(b[1:]))
	}
	if len(p.recs) >= p.lim.MaxJobs {
		return &ParseError{File: p.file, Line: n,
			Err: fmt.Errorf("%w: more than %d job lines (Limits.MaxJobs)", ErrTooLarge, p.lim.MaxJobs)}
	}
	return p.job(n, b)
}

// comment records a header comment (without its ';').
func (p *parser) comment(n int, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if p.headerSize += len(b); p.headerSize > p.lim.MaxHeader {
		return &ParseError{File: p.file, Line: n,
			Err: fmt.Errorf("%w: more than %d bytes of header comments (Limits.MaxHeader)", ErrTooLarge, p.lim.MaxHeader)}
	}
	if k, v, ok := splitKey(b); ok {
		key := string(k)
		if old, ok := p.header[key]; ok {
			p.header[key] = old + "\n" + string(v)
		} else {
			p.header[key] = string(v)
			p.keyLine[key] = n
		}
		p.lastKey = key
		return nil
	}
	if p.lastKey != "" {
		p.header[p.lastKey] += "\n" + string(b)
	}
	return nil
}

// job parses the job line n (trimmed, not empty).
func (p *parser) job(n int, b []byte) error {
	k := 0
	for i := 0; i < len(b); {
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		start := i
		for i < len(b) && !isSpace(b[i]) {
			i++
		}
		if start < i {
			if k < NumFields {
				p.fields[k] = b[start:i]
			}
			k++
		}
	}
	if k != NumFields {
		return &ParseError{File: p.file, Line: n, Err: fmt.Errorf("%w: got %d, want %d", ErrFieldCount, k, NumFields)}
	}
	var vals [NumFields]int64
	for i, f := range &p.fields {
		v, whole, err := parseNum(f)
		if err == nil && !whole {
			switch i + 1 {
			case fieldID, fieldAllocProcs, fieldReqProcs, fieldStatus, fieldUser, fieldGroup,
				fieldExecutable, fieldQueue, fieldPartition, fieldPreceding:
				err = ErrNotInteger
			}
		}
		if err != nil {
			return &ParseError{File: p.file, Line: n, Field: i + 1, Err: fmt.Errorf("%s is %w", quote(f), err)}
		}
		vals[i] = v
	}
	if vals[fieldSubmit-1] < 0 {
		return &ParseError{File: p.file, Line: n, Field: fieldSubmit,
			Err: fmt.Errorf("%s is %w", quote(p.fields[fieldSubmit-1]), ErrNegativeSubmit)}
	}
	id := vals[fieldID-1]
	if id < 0 {
		return &ParseError{File: p.file, Line: n, Field: fieldID,
			Err: fmt.Errorf("%s is %w", quote(p.fields[fieldID-1]), ErrNegativeID)}
	}
	if err := p.checkID(n, id); err != nil {
		return err
	}
	if err := p.checkInfo(n, &vals); err != nil {
		return err
	}
	p.recs = append(p.recs, Record{
		Line:       n,
		ID:         id,
		Submit:     sim.Time(vals[fieldSubmit-1]),
		Wait:       sim.Time(vals[fieldWait-1]),
		Runtime:    sim.Time(vals[fieldRuntime-1]),
		AllocProcs: int(vals[fieldAllocProcs-1]),
		ReqProcs:   int(vals[fieldReqProcs-1]),
		ReqTime:    sim.Time(vals[fieldReqTime-1]),
		Status:     int(vals[fieldStatus-1]),
		User:       int32(vals[fieldUser-1]),
		Group:      int32(vals[fieldGroup-1]),
		Executable: int32(vals[fieldExecutable-1]),
		Queue:      int32(vals[fieldQueue-1]),
		Partition:  int32(vals[fieldPartition-1]),
		Preceding:  vals[fieldPreceding-1],
		ThinkTime:  sim.Time(vals[fieldThinkTime-1]),
	})
	return nil
}

// checkInfo checks fields 11-18 of job line n: each is -1 (unknown) or a
// value the format allows: a status of 0..5, numbers (user, group,
// executable, queue, partition, preceding job) >= 0, the first five
// below 2^31, and a think time >= 0.
func (p *parser) checkInfo(n int, vals *[NumFields]int64) error {
	for f := fieldStatus; f <= fieldThinkTime; f++ {
		v := vals[f-1]
		var err error
		switch {
		case v == -1:
		case v < 0:
			err = ErrBelowUnknown
		case f == fieldStatus && v > maxStatus:
			err = fmt.Errorf("%w (valid: -1, 0..%d)", ErrBadStatus, maxStatus)
		case f >= fieldUser && f <= fieldPartition && v > math.MaxInt32:
			err = fmt.Errorf("%w: above %d", ErrRange, math.MaxInt32)
		}
		if err != nil {
			return &ParseError{File: p.file, Line: n, Field: f, Err: fmt.Errorf("%s is %w", quote(p.fields[f-1]), err)}
		}
	}
	return nil
}

// checkID reports a job id seen before. While ids increase (the usual
// case) it needs no set; the first id out of order builds one.
func (p *parser) checkID(n int, id int64) error {
	if p.seen == nil {
		if len(p.recs) == 0 || id > p.maxID {
			p.maxID = id
			return nil
		}
		p.seen = make(map[int64]int, 2*len(p.recs))
		for _, r := range p.recs {
			p.seen[r.ID] = r.Line
		}
	}
	if first, dup := p.seen[id]; dup {
		return &ParseError{File: p.file, Line: n, Field: fieldID,
			Err: fmt.Errorf("%w %d (first on line %d)", ErrDuplicateID, id, first)}
	}
	p.seen[id] = n
	return nil
}

// parseNum parses a decimal number [+-]digits[.digits] (at least one
// digit) and returns it rounded up to an integer, and whether it was whole
// already. It fails with ErrNotNumber or ErrRange.
func parseNum(b []byte) (v int64, whole bool, err error) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	digits := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		v = v*10 + int64(b[i]-'0')
		digits++
		if v > MaxValue {
			return 0, false, ErrRange
		}
	}
	whole = true
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			digits++
			if b[i] != '0' {
				whole = false
			}
		}
	}
	if i != len(b) || digits == 0 {
		return 0, false, ErrNotNumber
	}
	switch {
	case neg:
		v = -v // rounding up a negative number truncates it
	case !whole:
		v++
		if v > MaxValue {
			return 0, false, ErrRange
		}
	}
	return v, whole, nil
}
