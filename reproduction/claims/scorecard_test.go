package claims

import (
	"strings"
	"testing"
)

// TestMarkdownTable_Repeats checks that a table gives a repeated reason in
// full once and names that claim after, gives a repeated quote as "as
// above" only after the same quote, keeps short repeats whole, starts
// afresh in each table, and leaves the CSV rows whole.
func TestMarkdownTable_Repeats(t *testing.T) {
	long := "The paper's single run lies above our P95; see the long explanation here."
	quote := "Makespans decreased by nearly 50%."
	s := &Scorecard{Paper: "p", Rows: []Row{
		{ID: "a[1]", Figure: "Fig 1", Quote: quote, Expected: "e", Ours: "o", Verdict: Partly, Reason: long, Class: ClassResult, Word: "about"},
		{ID: "a[2]", Figure: "Fig 1", Quote: quote, Expected: "e", Ours: "o", Verdict: Disagree, Reason: long, Class: ClassResult, Word: "about"},
		{ID: "b", Figure: "Fig 1", Quote: "Other words.", Expected: "e", Ours: "o", Verdict: Partly, Reason: "short", Class: ClassResult, Word: "about"},
		{ID: "c", Figure: "Fig 1", Quote: quote, Expected: "e", Ours: "o", Verdict: Partly, Reason: "short", Class: ClassResult, Word: "about"},
		{ID: "d", Figure: "Fig 1", Quote: quote, Expected: "e", Ours: "o", Verdict: Partly, Reason: long, Class: ClassResult, Word: "about"},
		{ID: "e", Figure: "Fig 2", Quote: quote, Expected: "e", Ours: "o", Verdict: Partly, Reason: long, Class: ClassResult, Word: "about"},
	}}
	want := strings.Join([]string{
		"| claim | class | paper | word | expected | ours | grade | reason |",
		"|---|---|---|---|---|---|---|---|",
		"| a[1] | result | " + quote + " | about | e | o | **partly** | " + long + " |",
		"| a[2] | result | as above | about | e | o | **disagree** | as for a[1] |",
		"| b | result | Other words. | about | e | o | **partly** | short |",
		"| c | result | " + quote + " | about | e | o | **partly** | short |",
		"| d | result | as above | about | e | o | **partly** | as for a[1] |",
		"",
	}, "\n")
	if got := s.MarkdownTable("Fig 1"); got != want {
		t.Errorf("Fig 1 table:\n%s\nwant:\n%s", got, want)
	}
	// A table of its own gives the reason in full again.
	if got := s.MarkdownTable("Fig 2"); !strings.Contains(got, "| e | result | "+quote+" | about | e | o | **partly** | "+long+" |") {
		t.Errorf("Fig 2 table does not give the quote and reason in full:\n%s", got)
	}
	var csv strings.Builder
	if err := s.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv.String(), long); n != 4 {
		t.Errorf("CSV has the long reason %d times, want 4 (every row whole)", n)
	}
}
