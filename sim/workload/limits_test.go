package workload

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// TestParse_GzipBomb reads a gzip bomb with the default limits: reading
// stops at DefaultMaxBytes of text with ErrTooLarge, without allocating
// memory in proportion to the text.
func TestParse_GzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 512 MiB")
	}
	data := testkit.Bomb(t, DefaultMaxBytes+1<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := Parse(bytes.NewReader(data), "bomb.swf.gz", 0)
	runtime.ReadMemStats(&after)
	if tr != nil || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Parse(bomb)=%v, %v, want ErrTooLarge", tr, err)
	}
	if !strings.Contains(err.Error(), "bomb.swf.gz:") || !strings.Contains(err.Error(), "Limits.MaxBytes") {
		t.Errorf("error %q does not name the file and the limit", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("Parse(bomb) allocated %d MB, want < 16 MB", alloc>>20)
	}
}

// TestParseContext_Limits checks each limit and cancellation.
func TestParseContext_Limits(t *testing.T) {
	job := "1 0 5 100 4 -1 -1 4 200 -1 1 3 1 -1 1 -1 -1 -1\n"
	jobs := func(n int) string {
		var b strings.Builder
		b.WriteString("; MaxProcs: 8\n")
		for i := range n {
			b.WriteString(strings.Replace(job, "1 ", itoa(i+1)+" ", 1))
		}
		return b.String()
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		input []byte
		lim   Limits
		want  error
		text  string
	}{
		{"bomb", context.Background(), testkit.Bomb(t, 4<<20), Limits{MaxBytes: 1 << 20}, ErrTooLarge, "input too large: more than 1048576 bytes of text (Limits.MaxBytes)"},
		{"long line", context.Background(), []byte("; MaxProcs: 8\n" + strings.Repeat("7", 5000) + "\n"), Limits{MaxLineLength: 4096}, ErrLineTooLong, "bomb.swf:2: line too long"},
		{"long line default", context.Background(), []byte("; MaxProcs: 8\n;" + strings.Repeat(" x", MaxLineLength) + "\n"), Limits{}, ErrLineTooLong, "bomb.swf:2: line too long: more than 65536 bytes"},
		{"jobs", context.Background(), []byte(jobs(11)), Limits{MaxJobs: 10}, ErrTooLarge, "bomb.swf:12: input too large: more than 10 job lines"},
		{"header", context.Background(), []byte("; MaxProcs: 8\n" + strings.Repeat("; Note: "+strings.Repeat("n", 100)+"\n", 20) + job), Limits{MaxHeader: 1000}, ErrTooLarge, "header comments"},
		{"cancelled", cancelled, []byte(jobs(5000)), Limits{}, context.Canceled, "bomb.swf:4096: read: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := ParseContext(tt.ctx, bytes.NewReader(tt.input), "bomb.swf", 0, tt.lim)
			if tr != nil || !errors.Is(err, tt.want) {
				t.Fatalf("ParseContext()=%v, %v, want %v", tr, err, tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T, want *ParseError", err)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Error()=%q, want it to contain %q", err, tt.text)
			}
		})
	}
	// Within the limits the same inputs parse.
	if _, err := ParseContext(context.Background(), strings.NewReader(jobs(10)), "ok.swf", 0, Limits{MaxJobs: 10}); err != nil {
		t.Errorf("10 jobs with MaxJobs 10: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestParse_Messages checks the messages of inputs a newcomer meets: a
// UTF-8 BOM is accepted, CR line endings and a negative job id are named,
// and MaxProcs -1 is reported as unknown rather than missing.
func TestParse_Messages(t *testing.T) {
	job := "1 0 0 10 1 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1"
	tr, err := Parse(strings.NewReader("\xef\xbb\xbf; MaxProcs: 2\n"+job+"\n"), "bom.swf", 0)
	if err != nil || tr.Procs != 2 || len(tr.Records) != 1 {
		t.Fatalf("Parse(BOM)=%+v, %v, want 1 job on 2 procs", tr, err)
	}
	tests := []struct {
		name, input, want string
		sentinel          error
	}{
		{"CR", "; MaxProcs: 2\r" + job + "\r" + job + "\r", "cr.swf:1: the file has CR line endings", ErrCRLineEndings},
		{"CR only jobs", job + "\r" + job + "\r", "cr.swf:1: the file has CR line endings", ErrCRLineEndings},
		{"negative id", "; MaxProcs: 2\n" + strings.Replace(job, "1 ", "-4 ", 1) + "\n", `cr.swf:2: field 1 (job id): "-4" is a negative job id`, ErrNegativeID},
		{"MaxProcs -1", "; MaxProcs: -1\n" + job + "\n", "MaxProcs is -1 (unknown) on line 1 and no machine size was given", ErrNoMachineSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.input), "cr.swf", 0)
			if !errors.Is(err, tt.sentinel) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse()=%v, want %q", err, tt.want)
			}
		})
	}
}
