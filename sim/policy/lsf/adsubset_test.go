package lsf_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// TestGolden_RTCAdaptive is a hand-derived schedule of LSF-RTC-AD and
// LSF-RTC-ADSUBSET (no knowledge: pending jobs in arrival order) on 32
// processors, unit 8, δ = 5, all jobs f = 0 (T(k) = D/k) and maximum 32,
// against §5.1's definitions. Job 1 (min 32, D 3200) runs [0,100); jobs
// 2-5 arrive at 10, 20, 30, 40 with minimums 16, 24, 8, 16 and demands
// 1600, 2400, 800, 1760.
//
// LSF-RTC-AD at 100: first fit on minimum sizes takes 2 (16) and 4 (8);
// the leftover unit goes to the smaller allocation, 4 (16 processors:
// [100,150)); 2 runs [100,200). At 150, 5 fits the 16 free processors
// ([150,260)); 3 (24) waits for 260 and gets all 32 ([260,335)).
//
// LSF-RTC-ADSUBSET at 100: L = 4 jobs in the system, N_ff = 2 (2 and 4),
// so N' = floor(2·max(1 − 4/10, 0)) = 1 commits 2 (16); the subset of the
// remaining minimums {24, 8, 16} with the largest sum within the other 16
// processors is {16}: 5 runs [100,210) beside 2 [100,200). At 200, L = 3
// (3, 4 and the running 5) and N_ff = 1 (4), so N' = floor(1·max(1 −
// 3/5, 0)) = 0: the subset-sum over {24, 8} within 16 takes 4, which gets
// the leftover unit ([200,250) on 16). At 250, 3 runs alone on 32
// ([250,325)).
func TestGolden_RTCAdaptive(t *testing.T) {
	mk := func(id int64, submit sim.Time, min int, d float64) sim.Job {
		rt := sim.Time(d / float64(min))
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: min,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: min, Max: 32, Unit: 8, Tagged: true}}
	}
	jobs := []sim.Job{mk(1, 0, 32, 3200), mk(2, 10, 16, 1600), mk(3, 20, 24, 2400), mk(4, 30, 8, 800), mk(5, 40, 16, 1760)}
	for _, tc := range []struct {
		disc lsf.Discipline
		want string
	}{
		{lsf.RTCAD, "1 [0,100) 32 work\n4 [100,150) 16 work\n2 [100,200) 16 work\n5 [150,260) 16 work\n3 [260,335) 32 work\n"},
		{lsf.RTCADSubset, "1 [0,100) 32 work\n2 [100,200) 16 work\n5 [100,210) 16 work\n4 [200,250) 16 work\n3 [250,325) 32 work\n"},
	} {
		t.Run(tc.disc.String(), func(t *testing.T) {
			if got := byStart(segments(run(t, tc.disc, 32, jobs, nil))); got != tc.want {
				t.Errorf("segments:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
