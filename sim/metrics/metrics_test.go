package metrics

import (
	"math"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

func TestScheme_Classify(t *testing.T) {
	tests := []struct {
		scheme   string
		runtime  sim.Time
		estimate sim.Time
		procs    int
		want     string
	}{
		{"ss16", 600, 600, 1, "VS Seq"},
		{"ss16", 601, 601, 2, "S N"},
		{"ss16", 3600, 3600, 8, "S N"},
		{"ss16", 3601, 3601, 9, "L W"},
		{"ss16", 8 * 3600, 8 * 3600, 32, "L W"},
		{"ss16", 8*3600 + 1, 8*3600 + 1, 33, "VL VW"},
		{"ss4", 3600, 3600, 8, "SN"},
		{"ss4", 3601, 3601, 9, "LW"},
		{"ss4", 10, 10, 9, "SW"},
		{"est2", 100, 200, 1, "well VS Seq"},
		{"est2", 100, 201, 64, "bad VS VW"},
		{"len4", 100, 100, 1, "class 1"},
		{"len4", 101, 101, 1, "class 2"},
		{"len4", 10000, 10000, 1, "class 3"},
		{"len4", 10001, 10001, 1, "class 4"},
		{"weight10", 1024, 1024, 1, "W1"},
		{"weight10", 1025, 1025, 1, "W2"},
		{"weight10", 4096, 1, 1, "W2"},
		{"weight10", 1024 * 65536 / 4, 1, 4, "W9"},
		{"weight10", 1024 * 65536 / 4, 1, 5, "W10"},
	}
	for _, tt := range tests {
		s, err := LookupScheme(tt.scheme)
		if err != nil {
			t.Fatal(err)
		}
		r := Record{Runtime: tt.runtime, Estimate: tt.estimate, Procs: tt.procs}
		if got := s.Classify(&r); got != tt.want {
			t.Errorf("%s.Classify(runtime %d, estimate %d, procs %d)=%q, want %q", tt.scheme, tt.runtime, tt.estimate, tt.procs, got, tt.want)
		}
	}
	if _, err := LookupScheme("ss17"); err == nil {
		t.Error("LookupScheme(ss17) gave no error")
	}
	for _, s := range Schemes() {
		seen := map[string]bool{}
		for _, l := range s.Labels() {
			if seen[l] {
				t.Errorf("%s: label %q twice", s.Name, l)
			}
			seen[l] = true
		}
	}
}

func TestNewRecord(t *testing.T) {
	task := &sim.Task{Job: sim.Job{ID: 7, Submit: 100, Runtime: 5, Estimate: 9, Procs: 3}, FirstStart: 120, End: 130}
	r := NewRecord(task)
	// wait = 130 - 100 - 5 = 25; bsd = (25 + 10) / 10 = 3.5; slowdown = 1 + 25/5 = 6.
	if r.Wait != 25 || r.Turnaround != 30 || r.BSD != 3.5 || r.Slowdown != 6 {
		t.Errorf("NewRecord = wait %d turnaround %d bsd %v slowdown %v, want 25 30 3.5 6", r.Wait, r.Turnaround, r.BSD, r.Slowdown)
	}
}

func TestSummarize(t *testing.T) {
	recs := []Record{
		{Runtime: 100, Procs: 1, Wait: 0, BSD: 1, Turnaround: 100, Slowdown: 1},
		{Runtime: 100, Procs: 1, Wait: 100, BSD: 2, Turnaround: 200, Slowdown: 2},
		{Runtime: 7200, Procs: 64, Wait: 7200, BSD: 2, Turnaround: 14400, Slowdown: 2},
	}
	s, _ := LookupScheme("ss4")
	got := Summarize(s, recs)
	if len(got) != 5 {
		t.Fatalf("len=%d, want 5", len(got))
	}
	sn, lw, all := got[0], got[3], got[4]
	if sn.Category != "SN" || sn.Count != 2 || sn.BSD.Mean != 1.5 || sn.BSD.Max != 2 || sn.Wait.Mean != 50 {
		t.Errorf("SN = %+v", sn)
	}
	if lw.Category != "LW" || lw.Count != 1 || lw.Turnaround.Max != 14400 {
		t.Errorf("LW = %+v", lw)
	}
	if all.Category != Overall || all.Count != 3 || math.Abs(all.BSD.Mean-5.0/3) > 1e-12 {
		t.Errorf("all = %+v", all)
	}
	if got[1].Count != 0 || got[1].BSD.Mean != 0 {
		t.Errorf("empty SW = %+v", got[1])
	}
}

func TestStats(t *testing.T) {
	recs := []Record{
		{Submit: 0, End: 100, Runtime: 100, Procs: 5},
		{Submit: 50, End: 200, Runtime: 100, Procs: 10},
	}
	s := Stats(10, recs)
	// (500 + 1000) / (10 * 200)
	if s.Makespan != 200 || s.Utilization != 0.75 {
		t.Errorf("Stats = %+v, want makespan 200 utilization 0.75", s)
	}
}

// TestRejected: a rejected job has no start or end and stays out of the
// aggregates and of utilization.
func TestRejected(t *testing.T) {
	task := &sim.Task{Job: sim.Job{ID: 8, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 10}, State: sim.Rejected, FirstStart: -1, End: -1}
	r := NewRecord(task)
	if !r.Rejected || r.Start != -1 || r.End != -1 || r.Wait != 0 || r.BSD != 0 || r.Turnaround != 0 {
		t.Errorf("NewRecord(rejected) = %+v", r)
	}
	recs := []Record{{Submit: 50, End: 200, Runtime: 100, Procs: 10, BSD: 2}, r}
	s := Stats(10, recs)
	if s.Jobs != 2 || s.Makespan != 150 || math.Abs(s.Utilization-1000.0/1500) > 1e-12 {
		t.Errorf("Stats = %+v, want 2 jobs, makespan 150, utilization 2/3", s)
	}
	ss4, _ := LookupScheme("ss4")
	agg := Summarize(ss4, recs)
	if all := agg[len(agg)-1]; all.Count != 2 || all.Admitted != 1 || all.BSD.Mean != 2 || all.ResourceCharge != 1000 {
		t.Errorf("overall = %+v, want 2 jobs, one admitted of bsd 2 and resource charge 1000", all)
	}
}
