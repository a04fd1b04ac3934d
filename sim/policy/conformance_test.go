package policy_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
	"github.com/schedfarm/schedfarm/sim/workload"
)

var traceFiles = map[string]string{
	"ctc":      "CTC-SP2-1996-3.1-cln.swf.gz",
	"sdsc":     "SDSC-SP2-1998-4.2-cln.swf.gz",
	"kth":      "KTH-SP2-1996-2.1-cln.swf.gz",
	"sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
}

var (
	traceMu    sync.Mutex
	traceCache = map[string]*workload.Trace{}
)

// loadSubset returns count jobs of a shipped trace after skip.
// A moldability, when given, annotates the jobs.
func loadSubset(tb testing.TB, name string, est workload.EstimateModel, skip, count int, mold ...*workload.Moldability) *workload.Workload {
	tb.Helper()
	traceMu.Lock()
	tr, ok := traceCache[name]
	if !ok {
		var err error
		tr, err = workload.Read(filepath.Join("..", "..", "traces", traceFiles[name]), 0)
		if err != nil {
			traceMu.Unlock()
			tb.Fatal(err)
		}
		traceCache[name] = tr
	}
	traceMu.Unlock()
	opts := workload.Options{Estimates: est, Skip: skip, Count: count}
	if len(mold) > 0 {
		opts.Moldable = mold[0]
	}
	wl, err := tr.Build(opts)
	if err != nil {
		tb.Fatal(err)
	}
	return wl
}

// TestConformance runs every registered policy with default parameters on
// subsets of the real traces, with accurate and trace estimates, and checks
// the invariants with an independent observer (package simcheck): no
// processor over-committed or double-booked, every job completes once
// with exactly its runtime of work, no start before arrival, resumed jobs
// on their own processors, and no job starting later than a reservation
// its policy promised (EASY's head job, every conservative job). It also
// checks that a second run gives byte-identical per-job output.
func TestConformance(t *testing.T) {
	count := 3000
	if testing.Short() {
		count = 800
	}
	for _, e := range policy.Entries() {
		if e.Family == "lsf" {
			// Needs elastic jobs; checked on its synthetic workload in
			// package lsf (invariants_test.go, and simcheck in simcheck_test.go).
			continue
		}
		for _, trace := range []string{"ctc", "sdsc", "kth", "sdsc-par"} {
			for _, est := range []workload.EstimateModel{workload.EstimateAccurate, workload.EstimateTrace} {
				t.Run(fmt.Sprintf("%s/%s/%v", e.Name, trace, est), func(t *testing.T) {
					t.Parallel()
					var mold []*workload.Moldability
					if e.Moldable {
						// Moldable policies need moldable jobs.
						mold = append(mold, &workload.Moldability{Sigma: 1, RangeFactor: 2})
					}
					wl := loadSubset(t, trace, est, 2000, count, mold...)
					var outs [2][]byte
					for i := range outs {
						res := runChecked(t, e.Name, nil, 1, wl, 97)
						var b bytes.Buffer
						if err := metrics.WriteCSV(&b, metrics.Records(res), metrics.Schemes()); err != nil {
							t.Fatal(err)
						}
						outs[i] = b.Bytes()
					}
					if !bytes.Equal(outs[0], outs[1]) {
						t.Errorf("two runs gave different per-job output")
					}
				})
			}
		}
	}
}

// TestReservationsKept: EASY and conservative promise start times, and the
// checker sees the promises (a run where no promise was ever made would
// make the reservation invariant vacuous).
func TestReservationsKept(t *testing.T) {
	wl := loadSubset(t, "ctc", workload.EstimateTrace, 0, 2000)
	for _, name := range []string{"easy", "conservative"} {
		p, _ := policy.New(name, nil, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs})
		res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		promised, early := 0, 0
		for _, tk := range res.Tasks {
			if tk.Promise >= 0 {
				promised++
				if tk.FirstStart < tk.Promise {
					early++
				}
			}
		}
		if promised < 100 {
			t.Errorf("%s: only %d jobs got a reservation", name, promised)
		}
		if name == "conservative" && promised != len(res.Tasks) {
			t.Errorf("conservative: %d of %d jobs got a reservation", promised, len(res.Tasks))
		}
		t.Logf("%s: %d reservations, %d jobs started before theirs", name, promised, early)
	}
}

// runChecked runs the policy name with params and seed on wl, recording
// segments, with the engine checking its bookkeeping every checkEvery
// instants, and checks the run's invariants with simcheck.
func runChecked(tb testing.TB, name string, params map[string]any, seed uint64, wl *workload.Workload, checkEvery int) *sim.Result {
	tb.Helper()
	p, err := policy.New(name, params, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{Segments: true, CheckEvery: checkEvery})
	if err != nil {
		tb.Fatal(err)
	}
	if err := simcheck.Check(wl.Jobs, res); err != nil {
		tb.Fatalf("invariants: %v", err)
	}
	return res
}
