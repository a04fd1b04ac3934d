package claims_test

import (
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/runner/runnertest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtureSpec is a small real sweep: 300 CTC jobs at three loads and 300
// SDSC jobs, EASY, FCFS and SS at three suspension factors, two
// replications.
const fixtureSpec = `
name: claims-fixture
workloads:
  - trace: ctc
    procs: 430
    count: 300
    estimates: accurate
    load: [1, 1.2, 1.4]
  - trace: sdsc
    count: 300
    estimates: accurate
policies:
  - name: easy
    label: NS
  - name: fcfs
    label: FCFS
  - name: ss
    label: SS
    params: {suspension_factor: [1.5, 2, 5]}
replications: 2
categories: [ss16, ss4]
`

// fixtureReps is a second small real sweep with enough replications for
// single_run claims: 12 synthetic Parsons-Sevcik workloads of 40 measured
// jobs under run-to-completion LSF, whose mean response time and makespan
// vary from workload to workload.
const fixtureReps = `
name: claims-fixture-reps
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 300, tagged: 40, horizon: 0}
policies:
  - name: lsf-rtc
    label: RTC
replications: 12
seed: 7
`

// fixturePaired is a third small sweep for paired single-run ratios: two
// disciplines that see the same 12 synthetic workloads, as the
// disciplines of one Parsons-Sevcik experiment saw one job sequence.
const fixturePaired = `
name: claims-fixture-paired
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 6000, tagged: 200, horizon: 0}
policies:
  - name: lsf-rtc
    label: RTC
  - name: lsf-mig
    label: MIG
replications: 12
seed: 7
`

// fixturePaper and fixtureGroup name the fixture's outputs:
// <dir>/fixture/g1/sweep; fixtureRepsGroup is fixtureReps's group,
// <dir>/fixture/g2/sweep.
const (
	fixturePaper     = "fixture"
	fixtureGroup     = "g1"
	fixtureRepsGroup = "g2"
	fixturePairGroup = "g3"
)

var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixtureErr  error
)

// fixture runs fixtureSpec and fixtureReps once per test binary through
// the real runner and writes their outputs; it returns the paper's output
// folder.
func fixture(tb testing.TB) string {
	tb.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "claims-fixture-")
		if err != nil {
			fixtureErr = err
			return
		}
		fixtureDir = filepath.Join(dir, fixturePaper)
		fixtureErr = writeSweep(fixtureSpec, filepath.Join(fixtureDir, fixtureGroup, "sweep"))
		if fixtureErr == nil {
			fixtureErr = writeSweep(fixtureReps, filepath.Join(fixtureDir, fixtureRepsGroup, "sweep"))
		}
		if fixtureErr == nil {
			fixtureErr = writeSweep(fixturePaired, filepath.Join(fixtureDir, fixturePairGroup, "sweep"))
		}
	})
	if fixtureErr != nil {
		tb.Fatal(fixtureErr)
	}
	return fixtureDir
}

// writeSweep runs every task of a spec in this process and writes the
// sweep's outputs into dir.
func writeSweep(spec, dir string) error { return runnertest.Write(spec, ".", dir) }

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(filepath.Dir(fixtureDir))
	}
	os.Exit(code)
}
