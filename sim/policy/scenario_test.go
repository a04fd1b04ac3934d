package policy_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

var update = flag.Bool("update", false, "rewrite golden files with the current schedules")

// scenario is a hand-made scenario.
type scenario struct {
	procs int
	jobs  []sim.Job
	// deadlines holds the optional sixth column (requested deadlines);
	// nil when no job line has one.
	deadlines map[int64]sim.Time
	// params holds the parameters of each "policy" or "policy@variant".
	params map[string]map[string]string
}

// readScenario reads a hand-made scenario: "procs N", optional lines
// "params POLICY[@VARIANT] name=value ..." (parameters of that policy, or
// of one variant of it, in this scenario), then lines
// "id submit runtime estimate procs [deadline]"; '#' starts a comment.
func readScenario(t *testing.T, path string) scenario {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := scenario{params: map[string]map[string]string{}}
	lines := bufio.NewScanner(f)
	for line := 1; lines.Scan(); line++ {
		text, _, _ := strings.Cut(lines.Text(), "#")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if _, err := fmt.Sscanf(text, "procs %d", &sc.procs); err == nil {
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
			sc.params[fields[1]] = m
			continue
		}
		var j sim.Job
		var d sim.Time
		n, err := fmt.Sscan(text, &j.ID, &j.Submit, &j.Runtime, &j.Estimate, &j.Procs, &d)
		switch {
		case n == 6:
			if sc.deadlines == nil {
				sc.deadlines = map[int64]sim.Time{}
			}
			sc.deadlines[j.ID] = d
		case n < 5:
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		sc.jobs = append(sc.jobs, j)
	}
	if sc.procs == 0 {
		t.Fatalf("%s: no procs line", path)
	}
	return sc
}

// schedule prints a run as "id start end" lines in job ID order. Under
// multiqueue each line also has the job's queue, delay and partition at
// start. When the policy decided admissions, each line also has the
// guaranteed deadline (-1: none or rejected); a rejected job has start
// and end -1.
func schedule(res *sim.Result, p sim.Policy) string {
	recs := metrics.Records(res)
	st := metrics.Stats(res.Procs, recs)
	mq := false
	if a, ok := p.(metrics.Annotator); ok {
		a.Annotate(recs, &st)
		mq = st.MultiQueue != nil
	}
	decided := false
	for i := range res.Tasks {
		decided = decided || res.Tasks[i].Decided >= 0
	}
	var b strings.Builder
	b.WriteString("# id start end")
	if mq {
		b.WriteString(" queue delay partition_at_start")
	}
	if decided {
		b.WriteString(" deadline")
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
		if decided {
			fmt.Fprintf(&b, " %d", res.Tasks[i].Deadline)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestScenarios runs every scenario under testdata/scenarios against every
// policy that has a golden file for it (<scenario>.<policy>.golden, or
// <scenario>.<policy>@<variant>.golden with the parameters of the
// scenario's "params <policy>@<variant>" line).
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
			variant := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(gf), name+"."), ".golden")
			pol, _, _ := strings.Cut(variant, "@")
			t.Run(name+"/"+variant, func(t *testing.T) {
				scen := readScenario(t, file)
				procs, jobs := scen.procs, scen.jobs
				e, err := policy.Lookup(pol)
				if err != nil {
					t.Fatal(err)
				}
				v, err := e.ParseStrings(scen.params[variant])
				if err != nil {
					t.Fatal(err)
				}
				p, err := e.Build(v, policy.Env{Procs: procs, Jobs: jobs, Deadlines: scen.deadlines})
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
