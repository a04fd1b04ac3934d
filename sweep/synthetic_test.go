package sweep_test

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
)

func TestParse_Synthetic(t *testing.T) {
	s := MustParse(t, "name: s\nworkloads:\n  - synthetic: parsons1997\n    gen: {mean_interarrival: [300, 250], tagged: 20}\npolicies: [{name: lsf-rtc}]\nreplications: 2\n")
	tasks := MustTasks(t, s)
	if len(tasks) != 4 || len(s.Traces()) != 0 {
		t.Fatalf("%d tasks, %d traces; want 4, 0", len(tasks), len(s.Traces()))
	}
	w := tasks[0].Workload
	if w.Synthetic != "parsons1997" || w.Gen["mean_interarrival"] != 300 || w.Gen["tagged"] != 20 || w.TraceSHA256 != "" {
		t.Errorf("workload %+v", w)
	}
	if tasks[0].Seed == tasks[1].Seed || tasks[0].Seed == tasks[2].Seed {
		t.Error("replications or rates share a seed")
	}
}

func TestParse_SyntheticErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"workloads:\n  - synthetic: parsons1997\n    gen: {mean_interarrival: 300, demand_cv: 0.5}\n", "workloads[0].gen.demand_cv: must be >= 1, got 0.5"},
		{"workloads:\n  - synthetic: parsons1997\n    procs: 100\n    gen: {mean_interarrival: 300}\n", "workloads[0].gen.unit: must divide procs 100, got 8"},
		{"workloads:\n  - synthetic: parsons1997\n    gen: {mean_interarrival: 300, horizon: -5}\n", "workloads[0].gen.horizon: must be 0 (no cut-off)"},
		{"workloads:\n  - synthetic: parsons1997\n    gen: {demand_mean: 10}\n", "workloads[0].gen.mean_interarrival: must be > 0 (required), got 0"},
		{"workloads:\n  - synthetic: parsons1997\n    gen: {mean_interarrival: 300, good_fraction: [0.5, 2]}\n", "workloads[0].gen.good_fraction[1]: must be in [0, 1], got 2"},
		{"workloads:\n  - synthetic: downey\n", `workloads[0].synthetic: unknown synthetic workload "downey"`},
		{"workloads:\n  - trace: tiny.swf\n    gen: {unit: 8}\n", "workloads[0].gen: gen: needs synthetic:"},
	} {
		_, err := sweep.Parse([]byte("name: s\n"+tc.spec+"policies: [{name: lsf-rtc, params: {acquired_ratio: 0}}]\n"), "testdata")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spec %q:\n got %v\nwant %q", tc.spec, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "policies[0].params.acquired_ratio") {
			t.Errorf("acquired_ratio 0 not reported: %v", err)
		}
	}
}

// TestParse_Lublin: the Lublin-Feitelson model as a synthetic workload,
// its keys checked with their key paths.
func TestParse_Lublin(t *testing.T) {
	s := MustParse(t, "name: s\nworkloads:\n  - synthetic: lublin\n    procs: 256\n    load: [1, 1.2]\n    gen: {jobs: 2000, a1_batch: 6}\npolicies: [{name: easy}]\n")
	tasks := MustTasks(t, s)
	if len(tasks) != 2 || tasks[0].Workload.Synthetic != "lublin" || tasks[0].Workload.Gen["jobs"] != 2000 {
		t.Fatalf("tasks %+v", tasks)
	}
	for _, tc := range []struct{ spec, want string }{
		{"workloads:\n  - synthetic: lublin\n    gen: {jobz: 10}\n", "workloads[0].gen.jobz: unknown key"},
		{"workloads:\n  - synthetic: lublin\n    gen: {uprob_interactive: 1.5}\n", "workloads[0].gen.uprob_interactive: must be in 0..1, got 1.5"},
		{"workloads:\n  - synthetic: lublin\n    gen: {jobs: 0}\n", "workloads[0].gen.jobs: must be a whole number in 1..16777216, got 0"},
	} {
		_, err := sweep.Parse([]byte("name: s\n"+tc.spec+"policies: [{name: easy}]\n"), "testdata")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("spec %q:\n got %v\nwant %q", tc.spec, err, tc.want)
		}
	}
}
