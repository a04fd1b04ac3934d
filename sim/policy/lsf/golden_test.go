package lsf_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

// goldenJobs is the hand-computed scenario: 16 processors, unit 8, f = 0,
// no knowledge. A: submit 0, D 16000, min 8, desired = max = 16; B: submit
// 700, D 1600, same sizes.
func goldenJobs() []sim.Job {
	mk := func(id int64, submit sim.Time, d float64) sim.Job {
		return sim.Job{ID: id, Submit: submit, Runtime: sim.Time(d / 16), Estimate: sim.Time(d / 16), Procs: 16,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: 8, Max: 16, Unit: 8, Tagged: true}}
	}
	return []sim.Job{mk(1, 0, 16000), mk(2, 700, 1600)}
}

func run(t *testing.T, d lsf.Discipline, procs int, jobs []sim.Job, tweak func(*lsf.Config)) *sim.Result {
	t.Helper()
	cfg := lsf.DefaultConfig(d)
	if tweak != nil {
		tweak(&cfg)
	}
	p, err := lsf.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// segments prints a run's segments as "id [start,end) procs kind".
func segments(res *sim.Result) string {
	var b strings.Builder
	for _, s := range res.Segments {
		kind := "work"
		if !s.Working {
			kind = "idle"
		}
		fmt.Fprintf(&b, "%d [%d,%d) %d %s\n", res.Tasks[s.Task].ID, s.Start, s.End, s.Set.Len(), kind)
	}
	return b.String()
}

func mrt(res *sim.Result) float64 {
	sum := 0.0
	for _, t := range res.Tasks {
		sum += float64(t.End - t.Submit)
	}
	return sum / float64(len(res.Tasks))
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		d                sim.Time
		disc             lsf.Discipline
		want             string
		mrt              float64
		migr, reconf, ck int
	}{
		{disc: lsf.RTC, want: "1 [0,1000) 16 work\n2 [1000,1100) 16 work\n", mrt: 700},
		{disc: lsf.Mig, want: "1 [0,700) 16 work\n1 [700,760) 16 idle\n2 [760,860) 16 work\n1 [860,1160) 16 work\n",
			mrt: 660, migr: 1, ck: 1},
		{disc: lsf.MallAD, want: "1 [0,700) 16 work\n1 [700,760) 16 idle\n2 [760,960) 8 work\n1 [760,1360) 8 work\n",
			mrt: 810, reconf: 1, ck: 1},
	} {
		t.Run(tc.disc.String(), func(t *testing.T) {
			res := run(t, tc.disc, 16, goldenJobs(), nil)
			if got := segments(res); got != tc.want {
				t.Errorf("segments:\n%s\nwant:\n%s", got, tc.want)
			}
			if got := mrt(res); got != tc.mrt {
				t.Errorf("MRT %v, want %v", got, tc.mrt)
			}
			a := res.Tasks[0].Flex
			if a.Migrations != tc.migr || a.Reconfigurations != tc.reconf || a.Checkpoints != tc.ck {
				t.Errorf("job A: %d migrations, %d reconfigurations, %d checkpoints; want %d, %d, %d",
					a.Migrations, a.Reconfigurations, a.Checkpoints, tc.migr, tc.reconf, tc.ck)
			}
		})
	}
}

func TestNPrime(t *testing.T) {
	for _, tc := range []struct{ l, nff, want int }{{10, 4, 2}, {20, 4, 0}, {1, 1, 0}, {5, 10, 9}, {0, 0, 0}} {
		if got := lsf.NPrime(tc.l, tc.nff, 5); got != tc.want {
			t.Errorf("NPrime(L=%d, Nff=%d) = %d, want %d", tc.l, tc.nff, got, tc.want)
		}
	}
}

func TestSubsetSum(t *testing.T) {
	got := lsf.SubsetSum([]int{3, 5, 2, 4}, 7)
	if fmt.Sprint(got) != "[0 3]" {
		t.Errorf("SubsetSum = %v, want [0 3]", got)
	}
	if got := lsf.SubsetSum([]int{8, 9}, 7); len(got) != 0 {
		t.Errorf("SubsetSum none = %v", got)
	}
	if got := lsf.SubsetSum([]int{1, 6, 3, 3}, 6); fmt.Sprint(got) != "[1]" {
		t.Errorf("SubsetSum = %v, want [1] (6 is lexicographically before 3+3)", got)
	}
	if got := lsf.SubsetSum([]int{2, 2, 2}, 5); fmt.Sprint(got) != "[0 1]" {
		t.Errorf("SubsetSum = %v, want [0 1]", got)
	}
}

// TestGolden_PreemptFill is a hand-computed LSF-PREEMPT schedule with
// demand knowledge (16 processors, unit 8, f = 0): A (submit 0, D 16000,
// desired 16: 1000 s on 16) is preempted at 100 s, when its remaining
// demand is 14400, by B (submit 100, D 800, desired 16: 50 s), whose demand
// is below 0.9 of it; C (submit 120, D 1600, desired 8: 200 s) waits, since
// it has another size. When B ends at 150 s all of A's processors are free.
// With resume_first A resumes then and ends at 1050 s, and C starts when A
// ends: [1050, 1250). With rtc_order C comes first (remaining demand 1600
// against A's 14400) and takes 8 of A's processors, [150, 350); A resumes
// when C ends and ends at 1250 s.
func TestGolden_PreemptFill(t *testing.T) {
	mk := func(id int64, submit sim.Time, d float64, desired int) sim.Job {
		rt := sim.Time(d / float64(desired))
		return sim.Job{ID: id, Submit: submit, Runtime: rt, Estimate: rt, Procs: desired,
			Elastic: &sim.Elastic{Work: d, SeqFrac: 0, Min: 8, Max: 16, Unit: 8, Tagged: true}}
	}
	jobs := func() []sim.Job {
		return []sim.Job{mk(1, 0, 16000, 16), mk(2, 100, 800, 16), mk(3, 120, 1600, 8)}
	}
	for _, tc := range []struct {
		fill lsf.Fill
		want string
		mrt  float64
	}{
		{fill: lsf.FillResumeFirst, want: "1 [0,100) 16 work\n2 [100,150) 16 work\n1 [150,1050) 16 work\n3 [1050,1250) 8 work\n",
			mrt: (1050 + 50 + 1130) / 3.0},
		{fill: lsf.FillRTCOrder, want: "1 [0,100) 16 work\n2 [100,150) 16 work\n3 [150,350) 8 work\n1 [350,1250) 16 work\n",
			mrt: (1250 + 50 + 230) / 3.0},
	} {
		t.Run(string(tc.fill), func(t *testing.T) {
			res := run(t, lsf.Preempt, 16, jobs(), func(c *lsf.Config) { c.KnowDemand, c.Fill = true, tc.fill })
			if got := segments(res); got != tc.want {
				t.Errorf("segments:\n%s\nwant:\n%s", got, tc.want)
			}
			if got := mrt(res); got != tc.mrt {
				t.Errorf("MRT %v, want %v", got, tc.mrt)
			}
			if a := res.Tasks[0]; a.Suspensions != 1 {
				t.Errorf("job A suspended %d times, want 1", a.Suspensions)
			}
		})
	}
}
