package schedfarm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/readings"
)

// The tiny paper of the readings test: two figure groups of the
// synthetic Parsons and Sevcik workload (20 tagged jobs, no arrivals
// after them), one claim each, and one reading that changes only RTC in
// g1 (each start idles its processors 200,000 s, so RTC's makespan
// passes the claim's bound).
const (
	tinyG1 = `name: tinypaper-g1
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 300, tagged: 20, horizon: 0}
policies:
  - name: lsf-rtc
    label: RTC
  - name: lsf-mig
    label: MIG
replications: 2
`
	tinyG2 = `name: tinypaper-g2
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 300, tagged: 20, horizon: 0}
policies:
  - name: lsf-mig
    label: MIG
replications: 2
`
	tinyClaims = `paper: tinypaper
claims:
  - id: rtc-quick
    figure: Fig 1
    quote: "RTC finishes the tagged jobs within 150000 seconds."
    kind: value
    word: number
    class: result
    departure: tests the claim's own tolerances
    select: {group: g1, metric: makespan_tagged, setting: RTC}
    expected: "< 150000"
    grade: {agree: 0}
  - id: mig-quick
    figure: Fig 2
    quote: "MIG finishes the tagged jobs within 150000 seconds."
    kind: value
    word: number
    class: result
    departure: tests the claim's own tolerances
    select: {group: g2, metric: makespan_tagged, setting: MIG}
    expected: "< 150000"
    grade: {agree: 0}
`
	tinyReadings = `paper: tinypaper
readings:
  - id: slow_rtc
    summary: "RTC: each start idles its processors 200000 s"
    set:
      - policy: lsf-rtc
        groups: [g1]
        params: {dispatch_delay: 200000}
`
	tinyDoc = "# R\n\n<!-- begin scorecard tinypaper: Fig 1; Fig 2 -->\n<!-- end scorecard -->\n\n<!-- begin readings tinypaper -->\nstale\n<!-- end readings -->\n"
)

// tinyPaper adds the tiny paper's recipes for the test and writes its
// repository root; it returns the root.
func tinyPaper(t *testing.T) string {
	t.Helper()
	saved := reproduction.Recipes
	reproduction.Recipes = append(reproduction.Recipes[:len(saved):len(saved)],
		reproduction.Recipe{Name: "tinypaper/g1", Spec: "specs/tinypaper/g1.yaml", Doc: "tiny group 1"},
		reproduction.Recipe{Name: "tinypaper/g2", Spec: "specs/tinypaper/g2.yaml", Doc: "tiny group 2"})
	t.Cleanup(func() { reproduction.Recipes = saved })
	root := t.TempDir()
	for name, text := range map[string]string{
		"specs/tinypaper/g1.yaml":       tinyG1,
		"specs/tinypaper/g2.yaml":       tinyG2,
		"specs/tinypaper/claims.yaml":   tinyClaims,
		"specs/tinypaper/readings.yaml": tinyReadings,
		"REPRODUCING.md":                tinyDoc,
		"README.md":                     "# S\n",
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestReproduce_Readings runs a tiny paper with one reading end to end:
// the default scorecard, the reading's run (g1 rerun with RTC's tasks
// only, MIG's from the cache; g2 the default's outputs), the readings
// table with the claim the reading loses, the recorded table and the
// regenerated REPRODUCING.md section; then --claims-only re-grades the
// same outputs to the same table.
func TestReproduce_Readings(t *testing.T) {
	root := tinyPaper(t)
	state, out := t.TempDir(), t.TempDir()
	got, err := runApp(t, "reproduce", "-w", "1", "--root", root, "--state", state, "--out", out, "--readings", "--record", "tinypaper")
	if err != nil {
		t.Fatalf("reproduce: %v\n%s", err, got)
	}
	for _, want := range []string{
		"tinypaper: statements 2/2 agree, 0 partly (2 claims; 2 departures from their word's rule)\n",
		"== tinypaper reading slow_rtc: RTC: each start idles its processors 200000 s\n",
		"g1: 2 of 4 tasks from the result cache",
		"g2: unchanged by the reading, the default's outputs\n",
		"tinypaper reading default: 2 agree, 0 partly, 0 disagree\n",
		"tinypaper reading slow_rtc: 1 agree, 0 partly, 1 disagree (+0 -1)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output does not hold %q:\n%s", want, got)
		}
	}
	table, err := readings.ReadCSV(filepath.Join(root, "specs", "tinypaper", readings.TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Rows) != 2 || strings.Join(table.Rows[1].Lost, "|") != "rtc-quick (agree -> disagree)" || len(table.Rows[1].Gained) != 0 {
		t.Errorf("recorded table %+v", table.Rows)
	}
	if table.Rows[1].Set != "lsf-rtc in g1: dispatch_delay=200000" {
		t.Errorf("recorded overrides %q", table.Rows[1].Set)
	}
	doc, err := os.ReadFile(filepath.Join(root, "REPRODUCING.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "| slow_rtc | RTC: each start idles its processors 200000 s | lsf-rtc in g1: dispatch_delay=200000 | 1 | 0 | 1 |  | 1: rtc-quick (agree -> disagree) |\n"; !strings.Contains(string(doc), want) {
		t.Errorf("REPRODUCING.md does not hold %q:\n%s", want, doc)
	}
	if strings.Contains(string(doc), "stale") {
		t.Errorf("REPRODUCING.md's readings section was not regenerated:\n%s", doc)
	}
	if _, err := os.Stat(filepath.Join(out, "tinypaper", "readings", "slow_rtc", "scorecard.csv")); err != nil {
		t.Error(err)
	}
	csv1, err := os.ReadFile(filepath.Join(out, "tinypaper", readings.TableCSV))
	if err != nil {
		t.Fatal(err)
	}

	got, err = runApp(t, "reproduce", "--root", root, "--claims-only", out, "--readings")
	if err != nil {
		t.Fatalf("claims-only: %v\n%s", err, got)
	}
	if !strings.Contains(got, "tinypaper reading slow_rtc: 1 agree, 0 partly, 1 disagree (+0 -1)\n") {
		t.Errorf("claims-only output:\n%s", got)
	}
	csv2, err := os.ReadFile(filepath.Join(out, "tinypaper", readings.TableCSV))
	if err != nil || string(csv1) != string(csv2) {
		t.Errorf("claims-only readings.csv differs (%v):\n%s\n%s", err, csv1, csv2)
	}

	// A figure group is not a paper.
	if _, err := runApp(t, "reproduce", "--root", root, "--readings", "tinypaper/g1"); err == nil || !strings.Contains(err.Error(), "--readings takes papers") {
		t.Errorf("--readings with a group: %v", err)
	}
}

// TestReproduce_ReadingsCheckedFirst checks that a readings file with a
// value out of range stops reproduce --readings before the paper's figure
// groups run (it was found only after the whole base reproduction), with
// the file, line and key path.
func TestReproduce_ReadingsCheckedFirst(t *testing.T) {
	root := tinyPaper(t)
	path := filepath.Join(root, "specs", "tinypaper", readings.FileName)
	if err := os.WriteFile(path, []byte(strings.Replace(tinyReadings, "dispatch_delay: 200000", "dispatch_delay: -5", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	state, out := t.TempDir(), t.TempDir()
	got, err := runApp(t, "reproduce", "-w", "1", "--root", root, "--state", state, "--out", out, "--readings", "tinypaper")
	if err == nil || !strings.Contains(err.Error(), "readings.yaml") || !strings.Contains(err.Error(), "set[0].params.dispatch_delay") {
		t.Fatalf("reproduce --readings with a bad readings file: %v, want its file and key path\n%s", err, got)
	}
	if strings.Contains(got, "tasks") {
		t.Errorf("a sweep ran before the readings file was checked:\n%s", got)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("outputs written before the readings file was checked: %v", ents)
	}
}
