package readings

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// tinySpec is a figure group's spec for the tests: two entries of one
// policy and one of another, no traces needed.
const tinySpec = `# a comment the reading keeps
name: tiny-g1
workloads:
  - synthetic: parsons1997
    gen:
      mean_interarrival: 300
      tagged: 20
policies:
  - name: lsf-rtc
    label: RTC
    params:
      know_demand: [false, true]
  - name: lsf-rtc
    label: RTC one
    params:
      rtc_scan: one
      know_speedup: true
  - name: lsf-mig
    label: MIG
replications: 2
seed: 7
`

// otherSpec is a second group with only lsf-mig.
const otherSpec = `name: tiny-g2
workloads:
  - synthetic: parsons1997
    gen:
      mean_interarrival: 300
      tagged: 20
policies:
  - name: lsf-mig
    label: MIG
`

func tinyGroups(t *testing.T) []Group {
	t.Helper()
	var out []Group
	for _, g := range []struct{ name, text string }{{"g1", tinySpec}, {"g2", otherSpec}} {
		s, err := sweep.Parse([]byte(g.text), ".")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Group{Name: g.name, Spec: s})
	}
	return out
}

func taskIDs(t *testing.T, s *sweep.Spec) map[string][]string {
	t.Helper()
	tasks, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, task := range tasks {
		out[task.Label] = append(out[task.Label], task.ID)
	}
	return out
}

// TestApply applies a reading to a small spec: the entries it matches get
// the parameters (replaced or added), the others keep their task IDs (so
// their results come from the cache), the sweep is renamed, and a group
// the reading does not touch gives the spec itself.
func TestApply(t *testing.T) {
	groups := tinyGroups(t)
	f, err := Parse([]byte(`paper: p
readings:
  - id: strict
    summary: RTC scans in order
    set:
      - policy: lsf-rtc
        label: RTC
        groups: [g1]
        params: {rtc_scan: in_order, dispatch_delay: [0, 10]}
      - policy: lsf-rtc
        label: RTC one
        params: {rtc_scan: in_order}
`), Options{Paper: "p", Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	r := &f.Readings[0]
	got, changed, err := r.Apply("g1", groups[0].Spec)
	if err != nil || !changed {
		t.Fatalf("Apply g1: changed %v, %v", changed, err)
	}
	if got.Name != "tiny-g1-strict" {
		t.Errorf("name %q, want tiny-g1-strict", got.Name)
	}
	want := map[string][]map[string]any{
		"RTC":     {{"rtc_scan": "in_order", "dispatch_delay": 0}, {"rtc_scan": "in_order", "dispatch_delay": 10}},
		"RTC one": {{"rtc_scan": "in_order", "know_speedup": true}},
		"MIG":     {{"rtc_scan": "first_fit", "dispatch_delay": 0}},
	}
	tasks, err := got.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	// 2 x 2 RTC (know_demand x dispatch_delay) + 1 RTC one + 1 MIG, x 2 replications.
	if len(tasks) != 12 {
		t.Fatalf("%d tasks, want 12", len(tasks))
	}
	for _, task := range tasks {
		found := false
		for _, w := range want[task.Label] {
			ok := true
			for k, v := range w {
				if gv, has := task.Params[k]; !has || !equalParam(gv, v) {
					ok = false
				}
			}
			found = found || ok
		}
		if !found {
			t.Errorf("task %s (%s): params %v match none of %v", task.ID[:8], task.Label, task.Params, want[task.Label])
		}
	}
	before, after := taskIDs(t, groups[0].Spec), taskIDs(t, got)
	if !equalStrings(before["MIG"], after["MIG"]) {
		t.Errorf("MIG task IDs changed: %v -> %v", before["MIG"], after["MIG"])
	}
	if equalStrings(before["RTC one"], after["RTC one"]) {
		t.Errorf("RTC one task IDs did not change")
	}

	// g2 has no lsf-rtc entry: the spec itself, unchanged.
	same, changed, err := r.Apply("g2", groups[1].Spec)
	if err != nil || changed || same != groups[1].Spec {
		t.Errorf("Apply g2: changed %v, same spec %v, %v", changed, same == groups[1].Spec, err)
	}
	if s := r.SetText(); s != `lsf-rtc "RTC" in g1: rtc_scan=in_order, dispatch_delay=[0, 10]; lsf-rtc "RTC one": rtc_scan=in_order` {
		t.Errorf("SetText %q", s)
	}
}

// TestApply_AddsParams checks a parameter an entry does not have (or an
// entry with no params at all) is added, in every group, and the
// untouched entries keep their task IDs.
func TestApply_AddsParams(t *testing.T) {
	groups := tinyGroups(t)
	f, err := Parse([]byte("paper: p\nreadings:\n  - {id: mig, summary: s, set: [{policy: lsf-mig, params: {quantum: 120}}]}\n"), Options{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		got, changed, err := f.Readings[0].Apply(g.Name, g.Spec)
		if err != nil || !changed {
			t.Fatalf("%s: changed %v, %v", g.Name, changed, err)
		}
		tasks, _ := got.Tasks()
		for _, task := range tasks {
			if task.Label == "MIG" && !equalParam(task.Params["quantum"], 120) {
				t.Errorf("%s: MIG quantum %v", g.Name, task.Params["quantum"])
			}
		}
		if before, after := taskIDs(t, g.Spec), taskIDs(t, got); g.Name == "g1" && !equalStrings(before["RTC"], after["RTC"]) {
			t.Errorf("RTC task IDs changed")
		}
	}
}

func equalParam(a, b any) bool {
	fa, oka := num(a)
	fb, okb := num(b)
	if oka && okb {
		return fa == fb
	}
	return a == b
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestParse_Errors checks the problems of bad readings files: each with
// its line and key path, and the sentinel it wraps.
func TestParse_Errors(t *testing.T) {
	groups := tinyGroups(t)
	cases := []struct {
		name, text string
		want       []string // each a substring of one problem, in order
		sentinel   error
	}{
		{"unknown policy", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: lsf-nope
        params: {quantum: 1}
`, []string{`line 6: readings[0].set[0].policy: no entry of policy lsf-nope in groups g1, g2 (entries: lsf-rtc "RTC", lsf-rtc "RTC one", lsf-mig "MIG")`}, ErrNoMatch},
		{"unknown label", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: lsf-rtc
        label: RTC two
        params: {quantum: 1}
`, []string{`line 6: readings[0].set[0].policy: no entry of policy lsf-rtc labelled RTC two`}, ErrNoMatch},
		{"one label of a list", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: [lsf-rtc, lsf-mall-ad]
        label: [RTC, RTC two]
        params: {quantum: 1}
`, []string{`line 6: readings[0].set[0].policy: policy lsf-mall-ad matches no entry`,
			`line 7: readings[0].set[0].label: label "RTC two" matches no entry`}, ErrNoMatch},
		{"unknown param", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: lsf-mig
        params:
          quantum: 60
          quantums: 1
`, []string{`line 9: readings[0].set[0].params.quantums: group g1: policies[2].params.quantums: unknown parameter`,
			`line 9: readings[0].set[0].params.quantums: group g2: policies[0].params.quantums: unknown parameter`}, ErrSpec},
		{"bad value", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: lsf-rtc
        label: RTC
        groups: [g1]
        params: {rtc_scan: sideways}
`, []string{`line 9: readings[0].set[0].params.rtc_scan: group g1: policies[0].params.rtc_scan: sideways is not one of first_fit, in_order, one`}, ErrSpec},
		{"unknown group", `paper: p
readings:
  - id: a
    summary: s
    set:
      - policy: lsf-mig
        groups: [g1, g3]
        params: {quantum: 60}
`, []string{`line 7: readings[0].set[0].groups[1]: unknown group "g3" (valid: g1, g2)`}, yamlerr.ErrValue},
		{"duplicate id", `paper: p
readings:
  - {id: a, summary: s, set: [{policy: lsf-mig, params: {quantum: 60}}]}
  - {id: a, summary: t, set: [{policy: lsf-mig, params: {quantum: 90}}]}
`, []string{`line 4: readings[1].id: duplicate id "a" (also readings[0])`}, yamlerr.ErrValue},
		{"default id", `paper: p
readings:
  - {id: default, summary: s, set: [{policy: lsf-mig, params: {quantum: 60}}]}
`, []string{`line 3: readings[0].id: "default" names the row of the specs as committed`}, yamlerr.ErrValue},
		{"missing keys", `paper: p
readings:
  - id: a
    set:
      - policy: lsf-mig
`, []string{`line 3: readings[0].summary: required`, `line 5: readings[0].set[0].params: required`}, yamlerr.ErrRequired},
		{"two sentences", `paper: p
readings:
  - id: a
    summary: s
    text: "One sentence. Two sentences."
    set: [{policy: lsf-mig, params: {quantum: 60}}]
`, []string{`line 5: readings[0].text: more than one sentence`}, yamlerr.ErrValue},
		{"unknown key", `paper: p
readings:
  - id: a
    summary: s
    sets: []
`, []string{`line 3: readings[0].set: required`, `line 5: readings[0].sets: unknown key`}, yamlerr.ErrUnknownKey},
		{"set twice", `paper: p
readings:
  - id: a
    summary: s
    set:
      - {policy: lsf-mig, params: {quantum: 60}}
      - {policy: [lsf-rtc, lsf-mig], params: {quantum: 90}}
`, []string{`line 7: readings[0].set[1].params.quantum: group g1: entry lsf-mig "MIG": quantum is set by another override`}, yamlerr.ErrValue},
		{"value shape", `paper: p
readings:
  - id: a
    summary: s
    set: [{policy: lsf-mig, params: {quantum: {x: 1}}}]
`, []string{`line 5: readings[0].set[0].params.quantum: must be a value or a non-empty list of values, got a mapping`}, yamlerr.ErrType},
		{"paper", `paper: q
readings: []
`, []string{`line 1: paper: "q", but the file is in the folder of paper "p"`, `line 2: readings: must list at least one reading`}, yamlerr.ErrValue},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), Options{Paper: "p", Groups: groups})
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want a yamlerr.ValidationError, got %v", err)
			}
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, c.sentinel) {
				t.Errorf("error does not match ErrInvalid and %v: %v", c.sentinel, err)
			}
			msgs := strings.Split(err.Error(), "\n")
			if len(msgs) != len(c.want) {
				t.Errorf("%d problems, want %d:\n%v", len(msgs), len(c.want), err)
			}
			for i, w := range c.want {
				if i < len(msgs) && !strings.Contains(msgs[i], w) {
					t.Errorf("problem %d:\n got %s\nwant %s", i, msgs[i], w)
				}
			}
		})
	}
}
