package policy_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"github.com/schedfarm/schedfarm/internal/golden"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

var update = flag.Bool("update", false, "rewrite golden files with the current schedules")

// readScenario reads a hand-made scenario: "procs N", optional lines
// "params POLICY name=value ..." (parameters of that policy in this
// scenario), then lines "id submit runtime estimate procs"; '#' starts a
// comment.
func readScenario(t *testing.T, path string) (int, []sim.Job, map[string]map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var procs int
	var jobs []sim.Job
	params := map[string]map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if _, err := fmt.Sscanf(text, "procs %d", &procs); err == nil {
			continue
		}
		if fields := strings.Fields(text); fields[0] == "params" {
			if len(fields) < 2 {
				t.Fatalf("%s:%d: params without a policy", path, line)
			}
			m := map[string]string{}
			for _, kv := range fields[2:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("%s:%d: %q is not name=value", path, line, kv)
				}
				m[k] = v
			}
			params[fields[1]] = m
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
	return procs, jobs, params
}

// schedule prints a run as "id start end" lines in job ID order. Under
// multiqueue each line also has the job's queue, delay and partition at
// start.
func schedule(res *sim.Result, p sim.Policy) string {
	recs := metrics.Records(res)
	st := metrics.Stats(res.Procs, recs)
	mq := false
	if a, ok := p.(metrics.Annotator); ok {
		a.Annotate(recs, &st)
		mq = st.MultiQueue != nil
	}
	var b strings.Builder
	b.WriteString("# id start end")
	if mq {
		b.WriteString(" queue delay partition_at_start")
	}
	b.WriteByte('\n')
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return recs[order[a]].JobID < recs[order[b]].JobID })
	for _, i := range order {
		r := &recs[i]
		fmt.Fprintf(&b, "%d %d %d", r.JobID, r.Start, r.End)
		if mq {
			fmt.Fprintf(&b, " %d %d %d", r.MQ.Queue, r.MQ.Delay, r.MQ.PartitionAtStart)
		}
		b.WriteByte('\n')
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
				procs, jobs, params := readScenario(t, file)
				e, err := policy.Lookup(pol)
				if err != nil {
					t.Fatal(err)
				}
				v, err := e.ParseStrings(params[pol])
				if err != nil {
					t.Fatal(err)
				}
				p, err := e.Build(v, policy.Env{Procs: procs, Jobs: jobs})
				if err != nil {
					t.Fatal(err)
				}
				// Policies with their own consistency checks run them.
				sc, selfCheck := p.(interface {
					EnableSelfCheck()
					Err() error
				})
				if selfCheck {
					sc.EnableSelfCheck()
				}
				res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
				if err != nil {
					t.Fatal(err)
				}
				if err := simcheck.Check(jobs, res); err != nil {
					t.Errorf("invariants: %v", err)
				}
				if selfCheck {
					if err := sc.Err(); err != nil {
						t.Errorf("self-check: %v", err)
					}
				}
				golden.Check(t, gf, schedule(res, p), *update)
			})
		}
	}
}
