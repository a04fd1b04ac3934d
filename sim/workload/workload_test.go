package workload

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

func TestTrace_Build(t *testing.T) {
	tr := MustRead(t, "ok.swf", 0)
	orig := slices.Clone(tr.Records)
	tests := []struct {
		name          string
		givenOpts     Options
		expectedJobs  []sim.Job
		expectedProcs int
	}{
		{
			name: "OK/TraceEstimates", // sorted by submit, ties in file order
			expectedJobs: []sim.Job{
				{ID: 1, Submit: 0, Runtime: 100, Estimate: 200, Procs: 4, Info: okInfo(1)},
				{ID: 3, Submit: 5, Runtime: 10, Estimate: 10, Procs: 8, Info: okInfo(3)},
				{ID: 2, Submit: 10, Runtime: 50, Estimate: 50, Procs: 2, Info: okInfo(2)},
				{ID: 4, Submit: 10, Runtime: 7, Estimate: 7, Procs: 1, Info: okInfo(4)},
			},
		},
		{
			name:      "OK/AccurateEstimates",
			givenOpts: Options{Estimates: EstimateAccurate, Procs: 8},
			expectedJobs: []sim.Job{
				{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 4, Info: okInfo(1)},
				{ID: 3, Submit: 5, Runtime: 10, Estimate: 10, Procs: 8, Info: okInfo(3)},
				{ID: 2, Submit: 10, Runtime: 50, Estimate: 50, Procs: 2, Info: okInfo(2)},
				{ID: 4, Submit: 10, Runtime: 7, Estimate: 7, Procs: 1, Info: okInfo(4)},
			},
		},
		{
			// Twice max(requested time, runtime); predicted keeps the
			// trace estimates (the policy predicts).
			name:      "OK/DoubleEstimates",
			givenOpts: Options{Estimates: EstimateDouble},
			expectedJobs: []sim.Job{
				{ID: 1, Submit: 0, Runtime: 100, Estimate: 400, Procs: 4, Info: okInfo(1)},
				{ID: 3, Submit: 5, Runtime: 10, Estimate: 20, Procs: 8, Info: okInfo(3)},
				{ID: 2, Submit: 10, Runtime: 50, Estimate: 100, Procs: 2, Info: okInfo(2)},
				{ID: 4, Submit: 10, Runtime: 7, Estimate: 14, Procs: 1, Info: okInfo(4)},
			},
		},
		{
			name:      "OK/PredictedEstimates",
			givenOpts: Options{Estimates: EstimatePredicted},
			expectedJobs: []sim.Job{
				{ID: 1, Submit: 0, Runtime: 100, Estimate: 200, Procs: 4, Info: okInfo(1)},
				{ID: 3, Submit: 5, Runtime: 10, Estimate: 10, Procs: 8, Info: okInfo(3)},
				{ID: 2, Submit: 10, Runtime: 50, Estimate: 50, Procs: 2, Info: okInfo(2)},
				{ID: 4, Submit: 10, Runtime: 7, Estimate: 7, Procs: 1, Info: okInfo(4)},
			},
		},
		{
			name:      "OK/SubsetRebased",
			givenOpts: Options{Skip: 1, Count: 2},
			expectedJobs: []sim.Job{
				{ID: 3, Submit: 0, Runtime: 10, Estimate: 10, Procs: 8, Info: okInfo(3)},
				{ID: 2, Submit: 5, Runtime: 50, Estimate: 50, Procs: 2, Info: okInfo(2)},
			},
		},
		{
			name:      "OK/SkipRest",
			givenOpts: Options{Skip: 3},
			expectedJobs: []sim.Job{
				{ID: 4, Submit: 0, Runtime: 7, Estimate: 7, Procs: 1, Info: okInfo(4)},
			},
		},
		{
			name:      "OK/LoadOneIsNone",
			givenOpts: Options{Load: 1, LoadMode: LoadDuplicate, Count: 1},
			expectedJobs: []sim.Job{
				{ID: 1, Submit: 0, Runtime: 100, Estimate: 200, Procs: 4, Info: okInfo(1)},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := tr.Build(tt.givenOpts)
			if err != nil {
				t.Fatalf("Build()=%v", err)
			}
			if !reflect.DeepEqual(w.Jobs, tt.expectedJobs) {
				t.Errorf("Jobs=%+v\nwant %+v", w.Jobs, tt.expectedJobs)
			}
			if w.Name != "ok" || w.Procs != 8 || w.SHA256 != tr.SHA256 {
				t.Errorf("Workload{Name: %q, Procs: %d, SHA256: %s}, want {ok, 8, %s}", w.Name, w.Procs, w.SHA256, tr.SHA256)
			}
			if !reflect.DeepEqual(tr.Records, orig) {
				t.Errorf("Build changed the trace's records")
			}
		})
	}
}

func TestTrace_Build_Errors(t *testing.T) {
	tr := MustRead(t, "ok.swf", 0)
	tests := []struct {
		name      string
		trace     *Trace // nil: ok.swf
		nilTrace  bool
		givenOpts Options
		withError error
		wantText  string
	}{
		{name: "ErrNotEnoughJobs/Count", givenOpts: Options{Skip: 1, Count: 4}, withError: ErrNotEnoughJobs,
			wantText: "build workload ok: not enough jobs: skip 1 then take 4 jobs, but the trace has 4 valid jobs (0 dropped)"},
		{name: "ErrNotEnoughJobs/Skip", givenOpts: Options{Skip: 4}, withError: ErrNotEnoughJobs,
			wantText: "build workload ok: not enough jobs: skip 4 then take at least one job, but the trace has 4 valid jobs (0 dropped)"},
		{name: "ErrInvalidOption/Skip", givenOpts: Options{Skip: -1}, withError: ErrInvalidOption,
			wantText: "build workload ok: invalid option: Skip = -1, want >= 0"},
		{name: "ErrInvalidOption/Count", givenOpts: Options{Count: -5}, withError: ErrInvalidOption,
			wantText: "build workload ok: invalid option: Count = -5, want >= 0 (0 = all)"},
		{name: "ErrInvalidOption/Procs", givenOpts: Options{Procs: 16}, withError: ErrInvalidOption,
			wantText: "build workload ok: invalid option: Procs = 16, but the trace was read for 8 processors (pass the size to Read)"},
		{name: "ErrInvalidOption/DuplicateBelowOne", givenOpts: Options{Load: 0.5, LoadMode: LoadDuplicate}, withError: ErrInvalidOption,
			wantText: "build workload ok: invalid option: Load = 0.5 with LoadMode duplicate, want >= 1 (copies can only add load)"},
		{name: "ErrInvalidOption/NegativeLoad", givenOpts: Options{Load: -2}, withError: ErrInvalidOption,
			wantText: "build workload ok: invalid option: Load = -2, want 0 (none) or 0.01..100"},
		{name: "ErrInvalidOption/NaNLoad", givenOpts: Options{Load: math.NaN()}, withError: ErrInvalidOption},
		{name: "ErrInvalidOption/InfLoad", givenOpts: Options{Load: math.Inf(1)}, withError: ErrInvalidOption},
		{name: "ErrInvalidOption/LoadMode", givenOpts: Options{Load: 2, LoadMode: 9}, withError: ErrInvalidOption,
			wantText: "build workload ok: LoadMode: invalid option: unknown load mode 9"},
		{name: "ErrInvalidOption/Estimates", givenOpts: Options{Estimates: 7}, withError: ErrInvalidOption,
			wantText: "build workload ok: Estimates: invalid option: unknown estimate model 7"},
		{name: "ErrInvalidTrace/Nil", nilTrace: true, withError: ErrInvalidTrace,
			wantText: "build workload <nil>: invalid trace: nil trace"},
		{name: "ErrInvalidTrace/Runtime", trace: &Trace{Name: "hand", Procs: 4, Records: []Record{{Line: 3, ID: 9, Runtime: 0, AllocProcs: 1}}},
			withError: ErrInvalidTrace,
			wantText:  "build workload hand: invalid trace: record 0 (line 3, job 9) has submit 0, runtime 0, procs 1 on a 4-processor machine"},
		{name: "ErrInvalidTrace/Procs", trace: &Trace{Name: "hand", Procs: 0}, withError: ErrInvalidTrace},
		{name: "ErrNotEnoughJobs/NoRecords", trace: &Trace{Name: "hand", Procs: 4}, withError: ErrNotEnoughJobs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trace := tt.trace
			switch {
			case tt.nilTrace:
				trace = nil
			case trace == nil:
				trace = tr
			}
			w, err := trace.Build(tt.givenOpts)
			if !errors.Is(err, tt.withError) {
				t.Fatalf("Build()=%v, want %v", err, tt.withError)
			}
			if w != nil {
				t.Errorf("Build() returned a workload with error %v", err)
			}
			if tt.wantText != "" && err.Error() != tt.wantText {
				t.Errorf("Error()=%q\nwant     %q", err.Error(), tt.wantText)
			}
		})
	}
}

// Build sorts a trace whose records are out of submit order, stably,
// without touching the trace.
func TestTrace_Build_Unsorted(t *testing.T) {
	tr := &Trace{Name: "hand", Procs: 4, Records: []Record{
		{ID: 1, Submit: 30, Runtime: 1, AllocProcs: 1, ReqTime: -1},
		{ID: 2, Submit: 10, Runtime: 1, AllocProcs: 1, ReqTime: -1},
		{ID: 3, Submit: 30, Runtime: 1, AllocProcs: 1, ReqTime: -1},
		{ID: 4, Submit: 10, Runtime: 1, AllocProcs: 1, ReqTime: -1},
	}}
	w, err := tr.Build(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var subs []sim.Time
	for _, j := range w.Jobs {
		ids = append(ids, j.ID)
		subs = append(subs, j.Submit)
	}
	if want := []int64{2, 4, 1, 3}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids=%v, want %v", ids, want)
	}
	if want := []sim.Time{0, 0, 20, 20}; !reflect.DeepEqual(subs, want) {
		t.Errorf("submits=%v, want %v", subs, want)
	}
	if tr.Records[0].ID != 1 {
		t.Errorf("Build reordered the trace's records")
	}
}

func TestLoad(t *testing.T) {
	path := filepath.Join("testdata", "read", "ok.swf")
	w, err := Load(path, Options{Procs: 4, Estimates: EstimateAccurate})
	if err != nil {
		t.Fatal(err)
	}
	// Job 3 (8 procs) no longer fits on 4 processors.
	if got, want := w.Drops, (DropReport{TooBig: 1}); got != want {
		t.Errorf("Drops=%+v, want %+v", got, want)
	}
	if got, want := len(w.Jobs), 3; got != want || w.Procs != 4 {
		t.Errorf("len(Jobs)=%d, Procs=%d, want %d, 4", got, w.Procs, want)
	}
	if _, err := Load(path, Options{Skip: -1}); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("Load(Skip -1)=%v, want %v", err, ErrInvalidOption)
	}
	if _, err := Load(filepath.Join("testdata", "read", "missing.swf"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing)=%v, want not exist", err)
	}
}

func TestParseEstimateModel(t *testing.T) {
	for _, m := range []EstimateModel{EstimateTrace, EstimateAccurate, EstimateDouble, EstimatePredicted} {
		got, err := ParseEstimateModel(m.String())
		if err != nil || got != m {
			t.Errorf("ParseEstimateModel(%q)=%v, %v, want %v", m.String(), got, err, m)
		}
	}
	_, err := ParseEstimateModel("exact")
	if !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("ParseEstimateModel(exact)=%v, want %v", err, ErrInvalidOption)
	}
	if got, want := err.Error(), `invalid option: unknown estimate model "exact" (valid: trace, accurate, double, predicted)`; got != want {
		t.Errorf("Error()=%q, want %q", got, want)
	}
	var m EstimateModel
	if err := m.UnmarshalText([]byte("accurate")); err != nil || m != EstimateAccurate {
		t.Errorf("UnmarshalText(accurate)=%v, %v", m, err)
	}
	if b, err := EstimateAccurate.MarshalText(); err != nil || string(b) != "accurate" {
		t.Errorf("MarshalText()=%q, %v", b, err)
	}
	if _, err := EstimateModel(5).MarshalText(); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("EstimateModel(5).MarshalText()=%v, want %v", err, ErrInvalidOption)
	}
	if got, want := EstimateModel(5).String(), "EstimateModel(5)"; got != want {
		t.Errorf("String()=%q, want %q", got, want)
	}
}

func TestParseLoadMode(t *testing.T) {
	tests := []struct {
		given string
		want  LoadMode
	}{
		{"arrival", LoadArrival},
		{"arrival_scale", LoadArrival},
		{"duplicate", LoadDuplicate},
	}
	for _, tt := range tests {
		got, err := ParseLoadMode(tt.given)
		if err != nil || got != tt.want {
			t.Errorf("ParseLoadMode(%q)=%v, %v, want %v", tt.given, got, err, tt.want)
		}
	}
	_, err := ParseLoadMode("Duplicate")
	if !errors.Is(err, ErrInvalidOption) {
		t.Fatalf("ParseLoadMode(Duplicate)=%v, want %v", err, ErrInvalidOption)
	}
	if got, want := err.Error(), `invalid option: unknown load mode "Duplicate" (valid: arrival, duplicate, arrival_scale)`; got != want {
		t.Errorf("Error()=%q, want %q", got, want)
	}
	var m LoadMode
	if err := m.UnmarshalText([]byte("duplicate")); err != nil || m != LoadDuplicate {
		t.Errorf("UnmarshalText(duplicate)=%v, %v", m, err)
	}
	if b, err := LoadArrival.MarshalText(); err != nil || string(b) != "arrival" {
		t.Errorf("MarshalText()=%q, %v", b, err)
	}
}

func TestSizeRange_Golden(t *testing.T) {
	for _, c := range []struct {
		rf     float64
		lo, hi int
	}{{1, 1, 128}, {2, 9, 72}, {3, 11, 53}, {4, 13, 44}} {
		if lo, hi := SizeRange(16, 128, c.rf); lo != c.lo || hi != c.hi {
			t.Errorf("SizeRange(16, 128, %v) = [%d,%d], want [%d,%d]", c.rf, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := SizeRange(1, 128, 1); lo != 1 || hi != 1 {
		t.Errorf("sequential job: [%d,%d], want [1,1]", lo, hi)
	}
	for p := 1; p <= 64; p++ {
		for _, rf := range []float64{1, 1.5, 2, 3, 4, 7} {
			if lo, hi := SizeRange(p, 64, rf); lo < 1 || lo > p || hi < p || hi > 64 {
				t.Errorf("SizeRange(%d, 64, %v) = [%d,%d] does not hold %d", p, rf, lo, hi, p)
			}
		}
	}
}

func TestAnnotate(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 100, Estimate: 200, Procs: 16}, {ID: 2, Runtime: 50, Estimate: 50, Procs: 1}}
	if err := Annotate(jobs, 128, Moldability{Sigma: 0, RangeFactor: 2}); err != nil {
		t.Fatal(err)
	}
	a := jobs[0].Mold
	if a.Min != 9 || a.Max != 72 || a.Work != 1600 || a.EstWork != 3200 || a.T(32) != 50 || a.E(32) != 100 {
		t.Errorf("job 1: %+v, T(32) = %d, E(32) = %d", *a, a.T(32), a.E(32))
	}
	if b := jobs[1].Mold; b.Min != 1 || b.Max != 1 {
		t.Errorf("job 2: range [%d,%d], want [1,1]", b.Min, b.Max)
	}
	for _, m := range []Moldability{{Sigma: -1, RangeFactor: 1}, {Sigma: 0, RangeFactor: 0.5}} {
		if err := Annotate(jobs, 128, m); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("Annotate(%+v): err = %v, want ErrInvalidOption", m, err)
		}
	}
}

// okInfo returns the fields 11-18 of job id of testdata/read/ok.swf.
func okInfo(id int) sim.JobInfo {
	info := sim.JobInfo{Status: 1, User: 3, Group: 1, Executable: -1, Queue: 1, Partition: -1, Preceding: -1, ThinkTime: -1}
	if id >= 3 {
		info.User, info.Queue = 4, 2
	}
	if id == 3 {
		info.Status = 0
	}
	return info
}
