package preempt

import (
	"errors"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// TestIS_ReclaimHold checks, on a hand-derived schedule, which running
// jobs a reclaim may suspend under resumption by priority with resume
// factor 2 (the Kettimuthu et al. specs' setting), on 4 processors:
//
//   - S (4 processors, 1500 s) starts at 0 on 0-3. R (2 processors, 3000
//     s) arrives at 1000 and suspends S (past its timeslice; work 1000),
//     taking processors 0-1. S cannot take them back before its
//     instantaneous xfactor x/1000 exceeds twice R's (1), at 2000.
//   - P (2 processors, 2000 s) arrives at 1700 and starts on the free
//     processors 2-3; it is in its first timeslice until 2300.
//   - B (2 processors, 100 s) arrives at 2000 and suspends R (work 1000;
//     P is in its timeslice), taking 0-1; it ends at 2100. S (xfactor
//     2.1) cannot resume (P holds 2-3, protected); R (1.1) resumes on its
//     free processors 0-1 at 2100.
//   - Under the timeslice reading R, (re)started at 2100, is protected
//     until 2700: at the minute 2700 S (2.7) takes its processors back
//     from R ((2700-1000)/1600 = 1.06) and P (1), and ends at 3200.
//   - Under the first reading R, past its first timeslice, is not
//     protected; P is until 2300, so at the next minute, 2340, S (2.34)
//     suspends R (1340/1240 = 1.08) and P (1) and ends at 2840.
//
// In both, R and P resume on their free processors when S ends and end at
// 4600 and 4200 (R and P have then done 1240 and 640 s under first, 1600
// and 1000 s under timeslice, and nothing suspends them again), and S
// is suspended for 1340 s or 1700 s.
func TestIS_ReclaimHold(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1500, Estimate: 1500, Procs: 4},    // S
		{ID: 2, Submit: 1000, Runtime: 3000, Estimate: 3000, Procs: 2}, // R
		{ID: 3, Submit: 1700, Runtime: 2000, Estimate: 2000, Procs: 2}, // P
		{ID: 4, Submit: 2000, Runtime: 100, Estimate: 100, Procs: 2},   // B
	}
	for _, tc := range []struct {
		hold      ReclaimHold
		endS      sim.Time
		suspS     sim.Time
		suspended [4]int
	}{
		{"", 3200, 1700, [4]int{1, 2, 1, 0}},
		{ReclaimHoldTimeslice, 3200, 1700, [4]int{1, 2, 1, 0}},
		{ReclaimHoldFirst, 2840, 1340, [4]int{1, 2, 1, 0}},
	} {
		cfg := DefaultISConfig()
		cfg.ResumePreempt, cfg.ResumeFactor, cfg.ReclaimHold = true, 2, tc.hold
		for _, ref := range []bool{false, true} {
			p, err := NewIS(cfg)
			if err != nil {
				t.Fatal(err)
			}
			p.reference = ref
			res := runISPolicy(t, 4, jobs, p, string(tc.hold))
			s, r, pp, b := &res.Tasks[0], &res.Tasks[1], &res.Tasks[2], &res.Tasks[3]
			if s.End != tc.endS || s.SuspendedTime != tc.suspS || r.End != 4600 || pp.End != 4200 || b.FirstStart != 2000 || b.End != 2100 {
				t.Errorf("hold %q (reference %v): S end %d suspended %d s, R end %d, P end %d, B %d-%d; want S %d, %d s, R 4600, P 4200, B 2000-2100",
					tc.hold, ref, s.End, s.SuspendedTime, r.End, pp.End, b.FirstStart, b.End, tc.endS, tc.suspS)
			}
			for i, want := range tc.suspended {
				if got := res.Tasks[i].Suspensions; got != want {
					t.Errorf("hold %q (reference %v): job %d suspended %d times, want %d", tc.hold, ref, i+1, got, want)
				}
			}
		}
	}
	cfg := DefaultISConfig()
	cfg.ReclaimHold = "second"
	if _, err := NewIS(cfg); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("reclaim hold %q: error %v, want ErrInvalidConfig", cfg.ReclaimHold, err)
	}
}

// TestIS_ReclaimHoldFirstReference runs IS with ReclaimHoldFirst and
// resumption by priority on real traces, with and without suspension
// overhead, at loads 1.0 to 1.4 and with resume factors 2 and 1, with the suspended jobs'
// bounds and with the plain routine (every suspended job at every minute),
// and requires the same schedule job by job: the bounds follow the
// shorter protection.
func TestIS_ReclaimHoldFirstReference(t *testing.T) {
	compareISOnTraces(t, []isTraceCase{
		{"ctc430/factor2/load1.4", "CTC-SP2-1996-3.1-cln.swf.gz", 430, false, 2, 1.4},
		{"sdsc/factor2/overhead", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, true, 2, 0},
		{"ctc430/factor2/overhead/load1.2", "CTC-SP2-1996-3.1-cln.swf.gz", 430, true, 2, 1.2},
		{"sdsc/factor1", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, false, 1, 0},
	}, func(c *ISConfig) { c.ReclaimHold = ReclaimHoldFirst })
}
