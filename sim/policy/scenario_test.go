package policy_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"github.com/schedfarm/schedfarm/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

var update = flag.Bool("update", false, "rewrite golden files with the current schedules")

// readScenario reads a hand-made scenario: "procs N", then lines
// "id submit runtime estimate procs"; '#' starts a comment.
func readScenario(t *testing.T, path string) (int, []sim.Job) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var procs int
	var jobs []sim.Job
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if _, err := fmt.Sscanf(text, "procs %d", &procs); err == nil {
			continue
		}
		var j sim.Job
		if _, err := fmt.Sscan(text, &j.ID, &j.Submit, &j.Runtime, &j.Estimate, &j.Procs); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		jobs = append(jobs, j)
	}
	if procs == 0 {
		t.Fatalf("%s: no procs line", path)
	}
	return procs, jobs
}

// schedule prints a run as "id start end" lines in job ID order.
func schedule(res *sim.Result) string {
	var b strings.Builder
	b.WriteString("# id start end\n")
	tasks := append([]sim.Task(nil), res.Tasks...)
	for i := range tasks {
		for j := i + 1; j < len(tasks); j++ {
			if tasks[j].ID < tasks[i].ID {
				tasks[i], tasks[j] = tasks[j], tasks[i]
			}
		}
	}
	for _, t := range tasks {
		fmt.Fprintf(&b, "%d %d %d\n", t.ID, t.FirstStart, t.End)
	}
	return b.String()
}

// TestScenarios runs every scenario under testdata/scenarios against every
// policy that has a golden file for it (<scenario>.<policy>.golden).
// Rerun one case with: go test ./sim/policy -run 'TestScenarios/compress/easy'
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/*.jobs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".jobs")
		goldens, _ := filepath.Glob(strings.TrimSuffix(file, ".jobs") + ".*.golden")
		if len(goldens) == 0 {
			t.Errorf("%s: no golden files", file)
		}
		for _, gf := range goldens {
			pol := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(gf), name+"."), ".golden")
			t.Run(name+"/"+pol, func(t *testing.T) {
				procs, jobs := readScenario(t, file)
				p, err := policy.New(pol, nil, policy.Env{Procs: procs, Jobs: jobs})
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
				if err != nil {
					t.Fatal(err)
				}
				if err := simcheck.Check(jobs, res); err != nil {
					t.Errorf("invariants: %v", err)
				}
				golden.Check(t, gf, schedule(res), *update)
			})
		}
	}
}
