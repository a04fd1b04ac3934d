package schedfarm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// scorecardClaims grades the cli fixture sweep (NS and FCFS on 100 CTC
// jobs at loads 1 and 1.4) as if it were the table4-5 group.
const scorecardClaims = `
paper: kettimuthu2005
defaults: {group: table4-5, scheme: ss16, category: all, metric: bsd_mean, where: {load: 1}}
claims:
  - id: easy-beats-fcfs
    figure: Table 4
    quote: "EASY beats FCFS."
    kind: order
    word: better
    class: result
    departure: tests the claim's own tolerances
    a: {setting: NS}
    b: {setting: FCFS}
    op: "<="
  - id: made-up
    figure: Table 4
    quote: "The overall slowdown is 100."
    kind: value
    word: number
    class: result
    departure: tests the claim's own tolerances
    select: {setting: NS}
    expected: 100
    grade: {agree: 10%}
    reason: made up to disagree
  - id: other-group
    figure: Fig 7
    quote: "A claim of a group that did not run."
    kind: value
    word: number
    class: result
    departure: tests the claim's own tolerances
    select: {group: fig07-14, setting: NS}
    expected: "> 0"
`

// scorecardRoot writes a repository root with the claims file and the
// documents --record regenerates, and an output folder holding the
// fixture sweep as kettimuthu2005/table4-5; it returns both.
func scorecardRoot(t *testing.T, claimsYAML string) (root, out string) {
	t.Helper()
	base := t.TempDir()
	root, out = filepath.Join(base, "repo"), filepath.Join(base, "out")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "specs", "kettimuthu2005", "claims.yaml"), claimsYAML)
	write(filepath.Join(root, "REPRODUCING.md"), "# R\n\n<!-- begin scorecard kettimuthu2005: Table 4 -->\nstale\n<!-- end scorecard -->\n")
	write(filepath.Join(root, "README.md"), "# S\n\n<!-- begin scorecard -->\n<!-- end scorecard -->\n")
	group := filepath.Join(out, "kettimuthu2005", "table4-5")
	if err := os.MkdirAll(group, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(mustSweepDir(t), filepath.Join(group, "sweep")); err != nil {
		t.Fatal(err)
	}
	return root, out
}

func TestReproduce_ClaimsOnly(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		root, out := scorecardRoot(t, scorecardClaims)
		got, err := runApp(t, "reproduce", "--root", root, "--claims-only", out)
		if err != nil {
			t.Fatalf("reproduce: %v\n%s", err, got)
		}
		want := "kettimuthu2005: statements 1/2 agree, 0 partly · published numbers 0/1 within 10% (2 claims; 2 departures from their word's rule; 1 not run)"
		if !strings.Contains(got, want+"\n") {
			t.Errorf("output %q does not hold the summary line %q", got, want)
		}
		dir := filepath.Join(out, "kettimuthu2005")
		for _, name := range []string{"scorecard.md", "scorecard.csv", "scorecard.parquet"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Error(err)
			}
		}
		rd, err := file.OpenParquetFile(filepath.Join(dir, "scorecard.parquet"), false)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		if n := rd.NumRows(); n != 2 {
			t.Errorf("scorecard.parquet has %d rows, want 2", n)
		}
		// A group's folder grades only that group's claims.
		got, err = runApp(t, "reproduce", "--root", root, "--claims-only", filepath.Join(dir, "table4-5"))
		if err != nil || !strings.Contains(got, "(2 claims; 2 departures from their word's rule; 1 not run)") {
			t.Errorf("group folder: %v\n%s", err, got)
		}
	})
	t.Run("ErrMustFails", func(t *testing.T) {
		root, out := scorecardRoot(t, strings.Replace(scorecardClaims, "    reason: made up to disagree\n", "    must: true\n", 1))
		got, err := runApp(t, "reproduce", "--root", root, "--claims-only", out)
		if err == nil {
			t.Fatalf("reproduce succeeded with a failing must claim:\n%s", got)
		}
		if !strings.Contains(err.Error(), "must claim made-up (Table 4) is disagree") {
			t.Errorf("error %q does not name the must claim", err)
		}
		if !strings.Contains(got, "must claims failed: made-up; 1 without a reason") {
			t.Errorf("summary line does not report it:\n%s", got)
		}
	})
	t.Run("ErrNoMatch", func(t *testing.T) {
		root, out := scorecardRoot(t, strings.Replace(scorecardClaims, "select: {setting: NS}", "select: {setting: SS}", 1))
		got, err := runApp(t, "reproduce", "--root", root, "--claims-only", out)
		if err == nil {
			t.Fatalf("reproduce succeeded with a selection that matches nothing:\n%s", got)
		}
		for _, want := range []string{"claim made-up", "setting=SS", `no row of table4-5/sweep/summary.parquet with setting "SS"`} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
	})
	t.Run("ErrBadClaims", func(t *testing.T) {
		root, out := scorecardRoot(t, strings.Replace(scorecardClaims, "kind: order", "kind: ordr", 1))
		_, err := runApp(t, "reproduce", "--root", root, "--claims-only", out)
		if err == nil || !strings.Contains(err.Error(), `line 8: claims[0].kind: unknown kind "ordr"`) {
			t.Errorf("error %v, want the line and key path of the bad kind", err)
		}
	})
	t.Run("ErrNoOutputs", func(t *testing.T) {
		_, err := runApp(t, "reproduce", "--claims-only", t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "holds no reproduction outputs") {
			t.Errorf("error %v", err)
		}
	})
}

func TestReproduce_Record(t *testing.T) {
	root, out := scorecardRoot(t, scorecardClaims)
	// A scorecard with claims not run is refused: record whole papers.
	_, err := runApp(t, "reproduce", "--root", root, "--record", "--claims-only", out)
	if err == nil || !strings.Contains(err.Error(), "1 claims were not run (other-group...)") {
		t.Fatalf("record of a partial scorecard: %v", err)
	}
	// Without the claim of the group that did not run, it records and
	// regenerates the documents.
	only := scorecardClaims[:strings.Index(scorecardClaims, "  - id: other-group")]
	if err := os.WriteFile(filepath.Join(root, "specs", "kettimuthu2005", "claims.yaml"), []byte(only), 0o644); err != nil {
		t.Fatal(err)
	}
	// The figure's table on the paper's page, REPRODUCING.md with the
	// paper's figures line: both are regenerated.
	if err := os.WriteFile(filepath.Join(root, "REPRODUCING.md"), []byte("# R\n\n<!-- begin scorecard kettimuthu2005 -->\nstale\n<!-- end scorecard -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(root, "docs", "papers", "kettimuthu2005.md")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("# K\n\n<!-- begin scorecard kettimuthu2005: Table 4 -->\nstale\n<!-- end scorecard -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := runApp(t, "reproduce", "--root", root, "--record", "--claims-only", out)
	if err != nil {
		t.Fatalf("record: %v\n%s", err, got)
	}
	csv, err := os.ReadFile(filepath.Join(root, "specs", "kettimuthu2005", "scorecard.csv"))
	if err != nil || !strings.Contains(string(csv), "kettimuthu2005,made-up,made-up,Table 4,") {
		t.Errorf("recorded scorecard: %v\n%s", err, csv)
	}
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if want := "```text\nkettimuthu2005: statements 1/2 agree, 0 partly · published numbers 0/1 within 10% (2 claims; 2 departures from their word's rule)\n```"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md:\n%s\nwant the summary line %q", readme, want)
	}
	repro, _ := os.ReadFile(filepath.Join(root, "REPRODUCING.md"))
	if strings.Contains(string(repro), "stale") || !strings.Contains(string(repro), "\nkettimuthu2005: statements 1/2 agree") {
		t.Errorf("REPRODUCING.md not regenerated:\n%s", repro)
	}
	paper, _ := os.ReadFile(page)
	if strings.Contains(string(paper), "stale") || !strings.Contains(string(paper), "| The overall slowdown is 100. | made-up | 0 | 0 | 1 | **disagree** | made-up |") {
		t.Errorf("docs/papers/kettimuthu2005.md not regenerated:\n%s", paper)
	}
	// A figure with no table in REPRODUCING.md nor on a page is refused.
	if err := os.WriteFile(page, []byte("# K\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runApp(t, "reproduce", "--root", root, "--record", "--claims-only", out); err == nil || !strings.Contains(err.Error(), "no scorecard table for kettimuthu2005: Table 4") {
		t.Errorf("a figure without a table: %v", err)
	}
}
