package workload

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// handTrace returns a trace of jobs submitted at the given times, ids
// 1..n, runtime 10+i, procs 1+i%4, requested time 100, on 8 processors.
func handTrace(submits ...sim.Time) *Trace {
	tr := &Trace{Name: "hand", Procs: 8}
	for i, s := range submits {
		tr.Records = append(tr.Records, Record{Line: i + 1, ID: int64(i + 1), Submit: s,
			Runtime: sim.Time(10 + i), AllocProcs: 1 + i%4, ReqProcs: -1, ReqTime: 100})
	}
	return tr
}

func submits(jobs []sim.Job) []sim.Time {
	var s []sim.Time
	for _, j := range jobs {
		s = append(s, j.Submit)
	}
	return s
}

func TestLoadArrival(t *testing.T) {
	tests := []struct {
		name  string
		given []sim.Time
		load  float64
		want  []sim.Time
	}{
		{name: "Double", given: []sim.Time{0, 10, 20, 31, 41, 41}, load: 2, want: []sim.Time{0, 5, 10, 16, 21, 21}},
		{name: "Rebased", given: []sim.Time{100, 110, 120}, load: 2, want: []sim.Time{0, 5, 10}},
		{name: "Stretch", given: []sim.Time{0, 10, 25}, load: 0.5, want: []sim.Time{0, 20, 50}},
		{name: "Third", given: []sim.Time{0, 1, 2, 3, 4}, load: 3, want: []sim.Time{0, 0, 1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := handTrace(tt.given...).Build(Options{Load: tt.load, LoadMode: LoadArrival})
			if err != nil {
				t.Fatal(err)
			}
			if got := submits(w.Jobs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("submits=%v, want %v", got, tt.want)
			}
		})
	}
}

// At LF 2 every inter-arrival time of a real trace is halved, to within the
// rounding of each submit time, and the order is kept.
func TestLoadArrival_CTC(t *testing.T) {
	tr := readRealTrace(t, "CTC-SP2-1996-3.1-cln")
	base, err := tr.Build(Options{Skip: 1000, Count: 5000})
	if err != nil {
		t.Fatal(err)
	}
	w, err := tr.Build(Options{Skip: 1000, Count: 5000, Load: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.Jobs {
		b, j := base.Jobs[i], w.Jobs[i]
		if j.ID != b.ID || j.Runtime != b.Runtime || j.Procs != b.Procs || j.Estimate != b.Estimate {
			t.Fatalf("job %d=%+v, want %+v apart from submit", i, j, b)
		}
		if want := sim.Time(math.Round(float64(b.Submit) / 2)); j.Submit != want {
			t.Fatalf("job %d submit=%d, want %d (from %d)", i, j.Submit, want, b.Submit)
		}
		if i > 0 {
			got, want := j.Submit-w.Jobs[i-1].Submit, float64(b.Submit-base.Jobs[i-1].Submit)/2
			if math.Abs(float64(got)-want) > 1 || got < 0 {
				t.Fatalf("inter-arrival %d=%d, want %v +- 1", i, got, want)
			}
		}
	}
	last := len(w.Jobs) - 1
	if got, want := w.Jobs[last].Submit, (base.Jobs[last].Submit+1)/2; got != want {
		t.Errorf("span=%d, want %d", got, want)
	}
}

func TestLoadDuplicate(t *testing.T) {
	tr := readRealTrace(t, "CTC-SP2-1996-3.1-cln")
	const n = 5000
	opts := Options{Count: n, Load: 1.5, LoadMode: LoadDuplicate, Seed: 1}
	w, err := tr.Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	// Binomial(5000, 0.5) copies: mean 2500, sd about 35.
	if got := len(w.Jobs) - n; got < 2500-200 || got > 2500+200 {
		t.Errorf("copies=%d, want about 2500", got)
	}
	checkDuplicates(t, tr, w, n)

	again, err := tr.Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Jobs, w.Jobs) {
		t.Errorf("same seed gave different workloads")
	}
	opts.Seed = 2
	other, err := tr.Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Jobs, w.Jobs) {
		t.Errorf("seeds 1 and 2 gave the same workload")
	}
	checkDuplicates(t, tr, other, n)
}

func TestLoadDuplicate_Counts(t *testing.T) {
	tr := handTrace(0, 5, 5, 9, 20, 21, 22, 40)
	n := len(tr.Records)
	tests := []struct {
		name     string
		load     float64
		min, max int // copies per job
	}{
		{name: "Two", load: 2, min: 1, max: 1},
		{name: "Three", load: 3, min: 2, max: 2},
		{name: "ThreeAndAQuarter", load: 3.25, min: 2, max: 3},
		{name: "Max", load: MaxLoad, min: 99, max: 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := tr.Build(Options{Load: tt.load, LoadMode: LoadDuplicate, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Jobs) < n*(1+tt.min) || len(w.Jobs) > n*(1+tt.max) {
				t.Errorf("len(Jobs)=%d, want %d..%d", len(w.Jobs), n*(1+tt.min), n*(1+tt.max))
			}
			checkDuplicates(t, tr, w, n)
		})
	}
}

// checkDuplicates checks a duplicated workload: originals in order, each
// followed by its copies (same submit, runtime, estimate, procs), copy ids
// maxID+1, maxID+2, ... in order, sorted by submit.
func checkDuplicates(t *testing.T, tr *Trace, w *Workload, n int) {
	t.Helper()
	var maxID int64
	for _, r := range tr.Records {
		maxID = max(maxID, r.ID)
	}
	next := maxID + 1
	originals := 0
	var last sim.Job
	for i, j := range w.Jobs {
		if i > 0 && j.Submit < w.Jobs[i-1].Submit {
			t.Fatalf("job %d submits before job %d", i, i-1)
		}
		if j.ID <= maxID {
			if !j.Original() {
				t.Fatalf("original %d has origin %d", j.ID, j.Origin)
			}
			originals++
			last = j
			continue
		}
		if j.Origin != last.ID {
			t.Fatalf("copy %d has origin %d, want %d", j.ID, j.Origin, last.ID)
		}
		if j.ID != next {
			t.Fatalf("copy %d has id %d, want %d", i, j.ID, next)
		}
		next++
		c := j
		c.ID = last.ID
		c.Origin = 0
		if c != last {
			t.Fatalf("copy %d=%+v, want a copy of %+v", i, j, last)
		}
	}
	if originals != n {
		t.Errorf("originals=%d, want %d", originals, n)
	}
	ids := make([]int64, len(w.Jobs))
	for i, j := range w.Jobs {
		ids[i] = j.ID
	}
	slices.Sort(ids)
	if len(slices.Compact(ids)) != len(w.Jobs) {
		t.Errorf("job ids are not unique")
	}
}
