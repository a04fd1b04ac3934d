package qops

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// TestQoPS_SearchReference runs QoPS with the insertion points' memoised
// earliest-fit searches, profiles built from the cheaper side and
// temporary lists merged from a sorted base, and the plain way (plain:
// scans from now, releases, whole sorts) on
// CTC workloads where schedules grow long: the islam2004 setting (430
// processors, duplicated load, accurate estimates) at loads 1.0 and 1.6
// and the trace's own estimates compressed to load 1.4, under the
// defaults, a tolerance of 4 (offers: many searches per arrival) and
// kill-and-restart. Every job's decision, deadline, start and end, and
// the counts of the runs, must be the same; and every base plan's profile
// must be the running jobs' profile plus its reservations, which the
// profiles built from the running jobs' side rely on.
func TestQoPS_SearchReference(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 800
	}
	type wlCase struct {
		name  string
		procs int
		opts  workload.Options
	}
	wls := []wlCase{
		{"islam-1.0", 430, workload.Options{Estimates: workload.EstimateAccurate, Count: count}},
		{"islam-1.6", 430, workload.Options{Estimates: workload.EstimateAccurate, Count: count, Load: 1.6, LoadMode: workload.LoadDuplicate, Seed: 3}},
		{"trace-1.4", 0, workload.Options{Estimates: workload.EstimateTrace, Skip: 2000, Count: count, Load: 1.4}},
	}
	cfgs := map[string]func(c *Config){
		"defaults":     func(*Config) {},
		"tolerance4":   func(c *Config) { c.Tolerance = 4 },
		"kill_restart": func(c *Config) { c.Tolerance, c.Slack, c.KillRestart = 4, 2, true },
	}
	for _, w := range wls {
		tr, err := workload.Read(filepath.Join("..", "..", "..", "traces", ctcFile), w.procs)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := tr.Build(w.opts)
		if err != nil {
			t.Fatal(err)
		}
		for name, change := range cfgs {
			bad := 0
			run := func(plain bool) (*sim.Result, Stats) {
				cfg := DefaultConfig()
				cfg.Stringency = 0.2
				change(&cfg)
				cfg.plain, cfg.checkBase = plain, !plain
				p, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				bad += p.in.badBases
				return res, p.Stats()
			}
			got, gs := run(false)
			want, ws := run(true)
			if bad > 0 {
				t.Errorf("%s/%s: %d base plans whose profile is not the running jobs' plus their reservations", w.name, name, bad)
			}
			if gs != ws {
				t.Errorf("%s/%s: stats %+v, want %+v", w.name, name, gs, ws)
			}
			diff := 0
			for i := range got.Tasks {
				a, b := &got.Tasks[i], &want.Tasks[i]
				if a.State != b.State || a.FirstStart != b.FirstStart || a.End != b.End || a.Deadline != b.Deadline || a.Kills != b.Kills {
					if diff == 0 {
						t.Errorf("%s/%s: job %d: state %v start %d end %d deadline %d kills %d, want %v %d %d %d %d",
							w.name, name, a.ID, a.State, a.FirstStart, a.End, a.Deadline, a.Kills, b.State, b.FirstStart, b.End, b.Deadline, b.Kills)
					}
					diff++
				}
			}
			if diff > 0 {
				t.Errorf("%s/%s: %d of %d jobs differ", w.name, name, diff, len(got.Tasks))
			}
			if ws.MaxN < 10 {
				t.Errorf("%s/%s: largest schedule %d: too small to test the searches", w.name, name, ws.MaxN)
			}
		}
	}
}
