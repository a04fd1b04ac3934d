package workload

import (
	"math"
	"testing"
)

// parsonsBound returns the makespan lower bound of a workload's tagged
// jobs: the largest submit + T(procs) (column makespan_lb).
func parsonsBound(w *Workload) float64 {
	var lb float64
	for _, j := range w.Jobs {
		e := j.Elastic
		if e.Tagged {
			lb = max(lb, float64(j.Submit+Amdahl(e.Work, e.SeqFrac, w.Procs)))
		}
	}
	return lb
}

// TestParsons1997_Calibration checks the arrival rate the parsons1997
// specs use (mean_interarrival 300 s) against the paper's "minimum
// makespan is 65412 seconds": the mean makespan lower bound over 2000
// workloads (generator seeds 1-2000) must lie within 3% of it. A
// 30-workload mean varies by about 3% (one workload's bound has a
// standard deviation near 11000 s), so the 30 workloads of a spec do not
// pin the rate; these do. Figures: 300 s 64694 s (-1.1%); 306 s, logged
// for comparison, 65809 s (+0.6%).
func TestParsons1997_Calibration(t *testing.T) {
	if testing.Short() {
		t.Skip("2000 workloads per gap")
	}
	const paper, n = 65412.0, 2000
	mean := func(gap float64) float64 {
		var sum float64
		for seed := 1; seed <= n; seed++ {
			g := NewParsons1997()
			g.MeanInterarrival, g.Seed, g.Horizon = gap, uint64(seed), 0
			w, err := g.Generate()
			if err != nil {
				t.Fatal(err)
			}
			sum += parsonsBound(w)
		}
		return sum / n
	}
	at300, at306 := mean(300), mean(306)
	t.Logf("mean makespan lower bound: 300 s %.0f (%+.2f%%), 306 s %.0f (%+.2f%%)", at300, 100*(at300/paper-1), at306, 100*(at306/paper-1))
	if d := at300/paper - 1; math.Abs(d) > 0.03 {
		t.Errorf("gap 300 s: mean bound %.0f s is %+.1f%% from the paper's %v s, want within 3%%", at300, 100*d, paper)
	}
}
