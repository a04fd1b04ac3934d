package workload

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// okRecords are the records of testdata/read/ok.swf.
var okRecords = []Record{
	{Line: 10, ID: 1, Submit: 0, Wait: 5, Runtime: 100, AllocProcs: 4, ReqProcs: -1, ReqTime: 200, Status: 1, User: 3, Group: 1, Executable: -1, Queue: 1, Partition: -1, Preceding: -1, ThinkTime: -1},
	{Line: 11, ID: 2, Submit: 10, Wait: 0, Runtime: 50, AllocProcs: -1, ReqProcs: 2, ReqTime: 30, Status: 1, User: 3, Group: 1, Executable: -1, Queue: 1, Partition: -1, Preceding: -1, ThinkTime: -1},
	{Line: 12, ID: 3, Submit: 5, Wait: 1, Runtime: 10, AllocProcs: 8, ReqProcs: -1, ReqTime: -1, Status: 0, User: 4, Group: 1, Executable: -1, Queue: 2, Partition: -1, Preceding: -1, ThinkTime: -1}, // 9.2 s rounded up
	{Line: 13, ID: 4, Submit: 10, Wait: -1, Runtime: 7, AllocProcs: 1, ReqProcs: 1, ReqTime: 7, Status: 1, User: 4, Group: 1, Executable: -1, Queue: 2, Partition: -1, Preceding: -1, ThinkTime: -1},
}

func TestRead_OK(t *testing.T) {
	for _, file := range []string{"ok.swf", "ok.swf.gz"} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata", "read", file)
			tr, err := Read(path, 0)
			if err != nil {
				t.Fatalf("Read()=%v", err)
			}
			if got, want := tr.Name, "ok"; got != want {
				t.Errorf("Name=%q, want %q", got, want)
			}
			if got, want := tr.File, path; got != want {
				t.Errorf("File=%q, want %q", got, want)
			}
			if got, want := tr.Procs, 8; got != want {
				t.Errorf("Procs=%d, want %d", got, want)
			}
			if !reflect.DeepEqual(tr.Records, okRecords) {
				t.Errorf("Records=%+v\nwant %+v", tr.Records, okRecords)
			}
			if got := tr.Drops.Total(); got != 0 {
				t.Errorf("Drops.Total()=%d, want 0", got)
			}
			wantHeader := map[string]string{
				"Exercises": "a small valid trace; header keys, a continuation line, a\nrepeated key, decimal fields, out-of-order submits, no drops.",
				"Version":   "2.2",
				"Computer":  "Test machine",
				"MaxNodes":  "4",
				"MaxProcs":  "8 (two 4-way nodes)",
				"Queue":     "1 batch\n2 debug",
			}
			if !reflect.DeepEqual(tr.Header, wantHeader) {
				t.Errorf("Header=%q\nwant %q", tr.Header, wantHeader)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := tr.SHA256, sha256Hex(data); got != want {
				t.Errorf("SHA256=%s, want %s (of the stored bytes)", got, want)
			}
		})
	}
}

func TestRead_MachineSize(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		procs     int
		wantProcs int
		wantErr   error
	}{
		{name: "MaxProcs", file: "ok.swf", wantProcs: 8},
		{name: "Override", file: "ok.swf", procs: 32, wantProcs: 32},
		{name: "MaxNodes", file: "nodes-only.swf", wantProcs: 16},
		{name: "NoHeaderOverride", file: "no-header.swf", procs: 2, wantProcs: 2},
		{name: "ErrNoMachineSize", file: "no-header.swf", wantErr: ErrNoMachineSize},
		{name: "ErrNegativeOverride", file: "ok.swf", procs: -1, wantErr: ErrInvalidOption},
		{name: "ErrHugeOverride", file: "ok.swf", procs: MaxMachine + 1, wantErr: ErrInvalidOption},
		{name: "BadHeaderOverridden", file: "bad-header.swf", procs: 4, wantProcs: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Read(filepath.Join("testdata", "read", tt.file), tt.procs)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Read()=%v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if tr != nil {
					t.Errorf("Read() returned a trace with error %v", err)
				}
				return
			}
			if tr.Procs != tt.wantProcs {
				t.Errorf("Procs=%d, want %d", tr.Procs, tt.wantProcs)
			}
		})
	}
}

// Override with a smaller machine drops the jobs that no longer fit.
func TestRead_OverrideDrops(t *testing.T) {
	tr, err := Read(filepath.Join("testdata", "read", "ok.swf"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Drops, (DropReport{TooBig: 2}); got != want {
		t.Errorf("Drops=%+v, want %+v", got, want)
	}
	if got, want := len(tr.Records), 2; got != want {
		t.Errorf("len(Records)=%d, want %d", got, want)
	}
}

func TestRead_Drops(t *testing.T) {
	tr, err := Read(filepath.Join("testdata", "read", "drops.swf"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Drops, (DropReport{Runtime: 3, Procs: 1, TooBig: 1}); got != want {
		t.Errorf("Drops=%+v, want %+v", got, want)
	}
	if got, want := tr.Drops.String(), "dropped 5 jobs: 3 with runtime <= 0, 1 with procs <= 0, 1 with procs > machine size"; got != want {
		t.Errorf("Drops.String()=%q, want %q", got, want)
	}
	var ids []int64
	for _, r := range tr.Records {
		ids = append(ids, r.ID)
	}
	if want := []int64{1, 6, 7}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("kept ids=%v, want %v", ids, want)
	}
	w, err := tr.Build(Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                  string
		procs, estimate, subm int64
	}{
		{name: "Field8OverField5", procs: 2, estimate: 20, subm: 0},
		{name: "Field5WhenField8Missing/NoEstimate", procs: 4, estimate: 10, subm: 5},
		{name: "EstimateBelowRuntime", procs: 1, estimate: 10, subm: 6},
	}
	for i, tt := range tests {
		j := w.Jobs[i]
		if int64(j.Procs) != tt.procs || int64(j.Estimate) != tt.estimate || int64(j.Submit) != tt.subm {
			t.Errorf("%s: job %+v, want procs %d, estimate %d, submit %d", tt.name, j, tt.procs, tt.estimate, tt.subm)
		}
	}
	if w.Drops != tr.Drops {
		t.Errorf("Workload.Drops=%+v, want %+v", w.Drops, tr.Drops)
	}
}

func TestDropReport_String(t *testing.T) {
	tests := []struct {
		given DropReport
		want  string
	}{
		{DropReport{}, "dropped 0 jobs"},
		{DropReport{Runtime: 1}, "dropped 1 job: 1 with runtime <= 0"},
		{DropReport{Procs: 2, TooBig: 1}, "dropped 3 jobs: 2 with procs <= 0, 1 with procs > machine size"},
	}
	for _, tt := range tests {
		if got := tt.given.String(); got != tt.want {
			t.Errorf("%+v.String()=%q, want %q", tt.given, got, tt.want)
		}
	}
}

func TestRead_Errors(t *testing.T) {
	dir := filepath.Join("testdata", "read")
	tests := []struct {
		name      string
		file      string
		withError error
		wantLine  int
		wantField int
		wantText  string
	}{
		{name: "ErrFieldCount", file: "field-count.swf", withError: ErrFieldCount, wantLine: 4,
			wantText: "testdata/read/field-count.swf:4: wrong number of fields: got 17, want 18"},
		{name: "ErrNotNumber", file: "not-number.swf", withError: ErrNotNumber, wantLine: 4, wantField: 4,
			wantText: `testdata/read/not-number.swf:4: field 4 (runtime): "abc" is not a number`},
		{name: "ErrNotInteger", file: "not-integer.swf", withError: ErrNotInteger, wantLine: 3, wantField: 5,
			wantText: `testdata/read/not-integer.swf:3: field 5 (allocated procs): "2.5" is not an integer`},
		{name: "ErrRange", file: "range.swf", withError: ErrRange, wantLine: 3, wantField: 9,
			wantText: `testdata/read/range.swf:3: field 9 (requested time): "99999999999999999999" is out of range`},
		{name: "ErrNegativeSubmit", file: "negative-submit.swf", withError: ErrNegativeSubmit, wantLine: 4, wantField: 2,
			wantText: `testdata/read/negative-submit.swf:4: field 2 (submit): "-5" is a negative submit time`},
		{name: "ErrDuplicateID", file: "duplicate-id.swf", withError: ErrDuplicateID, wantLine: 6, wantField: 1,
			wantText: `testdata/read/duplicate-id.swf:6: field 1 (job id): duplicate job id 2 (first on line 4)`},
		{name: "ErrEmpty/EmptyFile", file: "empty.swf", withError: ErrEmpty,
			wantText: `testdata/read/empty.swf: no jobs: the input has no job lines`},
		{name: "ErrEmpty/HeaderOnly", file: "header-only.swf", withError: ErrEmpty,
			wantText: `testdata/read/header-only.swf: no jobs: the input has no job lines`},
		{name: "ErrEmpty/AllDropped", file: "all-dropped.swf", withError: ErrEmpty,
			wantText: `testdata/read/all-dropped.swf: no jobs: all 2 job lines dropped on a 8-processor machine (dropped 2 jobs: 1 with runtime <= 0, 1 with procs > machine size)`},
		{name: "ErrNoMachineSize", file: "no-header.swf", withError: ErrNoMachineSize,
			wantText: `testdata/read/no-header.swf: no machine size: the header has no MaxProcs or MaxNodes and no machine size was given`},
		{name: "ErrBadHeader", file: "bad-header.swf", withError: ErrBadHeader, wantLine: 2,
			wantText: `testdata/read/bad-header.swf:2: bad header value: MaxProcs "many" is not an integer in 1..16777216`},
		{name: "ErrBadGzip/Garbage", file: "bad-gzip.swf.gz", withError: ErrBadGzip,
			wantText: `testdata/read/bad-gzip.swf.gz: bad gzip data: `},
		{name: "ErrBadGzip/Truncated", file: "truncated.swf.gz", withError: ErrBadGzip,
			wantText: `testdata/read/truncated.swf.gz: bad gzip data: unexpected EOF`},
		{name: "ErrNotExist", file: "missing.swf", withError: fs.ErrNotExist,
			wantText: `testdata/read/missing.swf: open: no such file or directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			tr, err := Read(path, 0)
			if !errors.Is(err, tt.withError) {
				t.Fatalf("Read()=%v, want %v", err, tt.withError)
			}
			if tr != nil {
				t.Errorf("Read() returned a trace with error %v", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Read() error %T, want *ParseError", err)
			}
			if pe.File != path || pe.Line != tt.wantLine || pe.Field != tt.wantField {
				t.Errorf("ParseError{File: %q, Line: %d, Field: %d}, want {%q, %d, %d}", pe.File, pe.Line, pe.Field, path, tt.wantLine, tt.wantField)
			}
			if got := err.Error(); !strings.HasPrefix(got, tt.wantText) {
				t.Errorf("Error()=%q, want %q", got, tt.wantText)
			}
		})
	}
}

// Gzip is recognised by its magic bytes, not the file name, and a plain
// file named .gz is read as text.
func TestRead_GzipMagic(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "read", "ok.swf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"gz-named-plain.swf": testkit.Compress(t, plain), "plain-named-gz.swf.gz": plain} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Read(path, 0)
		if err != nil {
			t.Fatalf("Read(%s)=%v", name, err)
		}
		if !reflect.DeepEqual(tr.Records, okRecords) {
			t.Errorf("Read(%s).Records=%+v, want %+v", name, tr.Records, okRecords)
		}
	}
}

// Multi-member gzip files (concatenated .gz) are read whole.
func TestRead_GzipMultiMember(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "read", "ok.swf"))
	if err != nil {
		t.Fatal(err)
	}
	half := bytes.Index(plain, []byte("\n    3 ")) + 1
	tr, err := Parse(bytes.NewReader(testkit.Compress(t, plain[:half], plain[half:])), "two-members.swf.gz", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tr.Records, okRecords) {
		t.Errorf("Records=%+v, want %+v", tr.Records, okRecords)
	}
}

func TestParseNum(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		whole   bool
		wantErr error
	}{
		{in: "0", want: 0, whole: true},
		{in: "-1", want: -1, whole: true},
		{in: "+7", want: 7, whole: true},
		{in: "142.00", want: 142, whole: true},
		{in: "3.5", want: 4},
		{in: "3.", want: 3, whole: true},
		{in: ".5", want: 1},
		{in: "-0.5", want: 0},
		{in: "-1.5", want: -1},
		{in: "9007199254740991", want: MaxValue, whole: true},
		{in: "-9007199254740991", want: -MaxValue, whole: true},
		{in: "9007199254740992", wantErr: ErrRange},
		{in: "9007199254740991.1", wantErr: ErrRange},
		{in: "", wantErr: ErrNotNumber},
		{in: "-", wantErr: ErrNotNumber},
		{in: ".", wantErr: ErrNotNumber},
		{in: "1e3", wantErr: ErrNotNumber},
		{in: "1.2.3", wantErr: ErrNotNumber},
		{in: "--1", wantErr: ErrNotNumber},
		{in: "0x10", wantErr: ErrNotNumber},
	}
	for _, tt := range tests {
		got, whole, err := parseNum([]byte(tt.in))
		if !errors.Is(err, tt.wantErr) {
			t.Errorf("parseNum(%q) error=%v, want %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && (got != tt.want || whole != tt.whole) {
			t.Errorf("parseNum(%q)=%d, %v, want %d, %v", tt.in, got, whole, tt.want, tt.whole)
		}
	}
}

func TestWrite_RoundTrip(t *testing.T) {
	for _, file := range []string{"ok.swf", "drops.swf"} {
		t.Run(file, func(t *testing.T) {
			tr, err := Read(filepath.Join("testdata", "read", file), 0)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, tr); err != nil {
				t.Fatal(err)
			}
			tr2, err := Parse(&buf, file, 0)
			if err != nil {
				t.Fatalf("Parse(Write())=%v\n%s", err, buf.Bytes())
			}
			if err := equalTraces(tr, tr2); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestParseError_Error(t *testing.T) {
	tests := []struct {
		given ParseError
		want  string
	}{
		{ParseError{File: "a.swf", Line: 12, Field: 4, Err: ErrNotNumber}, "a.swf:12: field 4 (runtime): not a number"},
		{ParseError{File: "a.swf", Line: 12, Err: ErrFieldCount}, "a.swf:12: wrong number of fields"},
		{ParseError{File: "a.swf", Err: ErrEmpty}, "a.swf: no jobs"},
		{ParseError{File: "a.swf", Line: 1, Field: 99, Err: ErrRange}, "a.swf:1: field 99 (?): out of range"},
	}
	for _, tt := range tests {
		if got := tt.given.Error(); got != tt.want {
			t.Errorf("Error()=%q, want %q", got, tt.want)
		}
	}
}
