package readings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/reproduction/claims"
)

func card(verdicts ...claims.Verdict) *claims.Scorecard {
	sc := &claims.Scorecard{Paper: "p"}
	for i, v := range verdicts {
		sc.Rows = append(sc.Rows, claims.Row{ID: string(rune('a' + i)), Verdict: v})
	}
	return sc
}

// TestCompare counts a reading's verdicts and lists the claims whose
// grade rises or falls against the default, in claims order.
func TestCompare(t *testing.T) {
	def := card(claims.Agree, claims.Partly, claims.Disagree, claims.Agree, claims.Partly)
	sc := card(claims.Agree, claims.Agree, claims.Partly, claims.Disagree, claims.Disagree)
	r := &Reading{ID: "x", Summary: "s", Set: []Override{{Policies: []string{"ss"}, Params: nil}}}
	row, err := Compare(r, def, sc)
	if err != nil {
		t.Fatal(err)
	}
	if row.Agree != 2 || row.Partly != 1 || row.Disagree != 2 || row.Errors != 0 {
		t.Errorf("counts %d/%d/%d/%d, want 2/1/2/0", row.Agree, row.Partly, row.Disagree, row.Errors)
	}
	if got := strings.Join(row.Gained, "|"); got != "b (partly -> agree)|c (disagree -> partly)" {
		t.Errorf("gained %q", got)
	}
	if got := strings.Join(row.Lost, "|"); got != "d (agree -> disagree)|e (partly -> disagree)" {
		t.Errorf("lost %q", got)
	}
	if _, err := Compare(r, def, card(claims.Agree)); err == nil {
		t.Error("scorecards of different claims compared without an error")
	}
	notRun := card(claims.Agree, claims.Partly, claims.Disagree, claims.Agree, claims.Partly)
	notRun.NotRun = []string{"z"}
	if _, err := Compare(r, def, notRun); err == nil {
		t.Error("a scorecard with claims not run compared without an error")
	}
}

// TestTable_RecordAndDoc writes a table, reads it back, regenerates a
// document's readings section from it, and checks it against its
// readings file and scorecard.
func TestTable_RecordAndDoc(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "specs", "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	def := card(claims.Agree, claims.Partly)
	f := &File{Paper: "p", Readings: []Reading{{ID: "x", Summary: "the x | reading", Set: []Override{{Policies: []string{"ss"}}}}}}
	row, err := Compare(&f.Readings[0], def, card(claims.Agree, claims.Agree))
	if err != nil {
		t.Fatal(err)
	}
	table := &Table{Paper: "p", Rows: []Row{DefaultRow(def), row}}
	if _, err := Record(root, table); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(filepath.Join(root, "specs", "p", TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	if back.MarkdownTable() != table.MarkdownTable() {
		t.Errorf("read back:\n%s\nwant:\n%s", back.MarkdownTable(), table.MarkdownTable())
	}
	if err := CheckRecorded(back, f, def); err != nil {
		t.Errorf("CheckRecorded: %v", err)
	}
	// A scorecard re-recorded since, a reading renamed or its overrides
	// changed: each is reported.
	if err := CheckRecorded(back, f, card(claims.Agree, claims.Agree)); err == nil || !strings.Contains(err.Error(), "the default row counts 1 agree, 1 partly") {
		t.Errorf("default row against a changed scorecard: %v", err)
	}
	f2 := &File{Paper: "p", Readings: []Reading{{ID: "x", Summary: "the x | reading", Set: []Override{{Policies: []string{"is"}}}}}}
	if err := CheckRecorded(back, f2, def); err == nil || !strings.Contains(err.Error(), "reading x: overrides") {
		t.Errorf("changed overrides: %v", err)
	}

	doc := "# R\n\n<!-- begin readings p -->\nold\n<!-- end readings -->\nafter\n"
	if err := os.WriteFile(filepath.Join(root, claims.ReproducingDoc), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := WriteDocs(root); err != nil || len(p) != 1 {
		t.Fatalf("WriteDocs: %q, %v", p, err)
	}
	got, _ := os.ReadFile(filepath.Join(root, claims.ReproducingDoc))
	want := "# R\n\n<!-- begin readings p -->\n\n" + table.MarkdownTable() + "\n<!-- end readings -->\nafter\n"
	if string(got) != want {
		t.Errorf("document:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(string(got), "| x | the x \\| reading | ss:  | 2 | 0 | 0 | 1: b (partly -> agree) |  |") {
		t.Errorf("row of x missing or not escaped:\n%s", got)
	}
	if p, err := WriteDocs(root); err != nil || len(p) != 0 {
		t.Errorf("second WriteDocs changed the file: %q, %v", p, err)
	}
	// A table without a section, and a section without a table.
	if _, _, err := UpdateDoc("<!-- begin readings q -->\n<!-- end readings -->\n", map[string]*Table{"p": table}); err == nil {
		t.Error("a section of a paper without a table passed")
	}
	if err := os.WriteFile(filepath.Join(root, claims.ReproducingDoc), []byte("# R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Docs(root); err == nil || !strings.Contains(err.Error(), "no readings section for p") {
		t.Errorf("a table without a section: %v", err)
	}
	// The section on the paper's page counts.
	page := filepath.Join(root, "docs", "papers", "p.md")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := WriteDocs(root); err != nil || len(p) != 1 || p[0] != page {
		t.Fatalf("WriteDocs with the section on the page: %q, %v", p, err)
	}
	if got, _ := os.ReadFile(page); string(got) != want {
		t.Errorf("page:\n%s\nwant:\n%s", got, want)
	}
}
