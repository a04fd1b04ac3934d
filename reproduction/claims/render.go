package claims

import (
	"fmt"
	"strings"
)

// HeadlineTable returns the Markdown table of the paper's headline
// results: each with its verdict and its statements' verdicts.
func (s *Scorecard) HeadlineTable() string {
	hs := s.HeadlineResults()
	if len(hs) == 0 {
		return "No headline results are named in the claims file.\n"
	}
	var b strings.Builder
	b.WriteString("| headline result | statements | agree | partly | disagree | verdict |\n|---|---|---|---|---|---|\n")
	for _, h := range hs {
		var ids []string
		for _, st := range h.Statements {
			ids = append(ids, st.Sources[0])
		}
		ids = append(ids, h.Missing...)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | **%s** |\n", cell(h.Text), cell(strings.Join(ids, ", ")),
			h.Agree, h.Partly, h.Disagree+len(h.Missing), h.Verdict)
	}
	return b.String()
}

// StatementSummaryTable returns the Markdown table of the paper's
// statements per figure: how many agree, are partly and disagree.
func (s *Scorecard) StatementSummaryTable() string {
	type tally struct{ n, agree, partly, disagree int }
	var order []string
	by := map[string]*tally{}
	total := tally{}
	for _, st := range s.Statements() {
		t := by[st.Figure]
		if t == nil {
			t = &tally{}
			by[st.Figure] = t
			order = append(order, st.Figure)
		}
		for _, x := range []*tally{t, &total} {
			x.n++
			switch st.Verdict {
			case Agree:
				x.agree++
			case Partly:
				x.partly++
			default:
				x.disagree++
			}
		}
	}
	var b strings.Builder
	b.WriteString("| figure | statements | agree | partly | disagree |\n|---|---|---|---|---|\n")
	for _, f := range order {
		t := by[f]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", cell(f), t.n, t.agree, t.partly, t.disagree)
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d |\n", total.n, total.agree, total.partly, total.disagree)
	f := s.Tally()
	var apart []string
	if f.Setup > 0 {
		apart = append(apart, fmt.Sprintf("setup checks %d/%d agree", f.SetupAgree, f.Setup))
	}
	if f.Invariants > 0 {
		apart = append(apart, fmt.Sprintf("invariants %d/%d hold", f.InvariantsHold, f.Invariants))
	}
	if len(apart) > 0 {
		fmt.Fprintf(&b, "\nNot counted above: %s.\n", strings.Join(apart, ", "))
	}
	return b.String()
}

// maxListed bounds the claim ids a statement row lists as not agreeing.
const maxListed = 4

// StatementTable returns the Markdown table of the statements of the
// given figures (all when none are given): the quote, its claims and
// their verdicts, and the first claims that do not agree.
func (s *Scorecard) StatementTable(figures ...string) string {
	var b strings.Builder
	b.WriteString("| statement | claims | agree | partly | disagree | verdict | not agreeing |\n|---|---|---|---|---|---|---|\n")
	n := 0
	for _, st := range s.Statements() {
		if len(figures) > 0 && !containsString(figures, st.Figure) {
			continue
		}
		n++
		na := st.NotAgreeing
		if len(na) > maxListed {
			na = append(append([]string(nil), na[:maxListed]...), fmt.Sprintf("and %d more", len(st.NotAgreeing)-maxListed))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | **%s** | %s |\n", cell(st.Quote), cell(strings.Join(st.Sources, ", ")),
			st.Agree, st.Partly, st.Disagree+st.Errors, st.Verdict, cell(strings.Join(na, ", ")))
	}
	if n == 0 {
		return "No result claims (only setup checks or invariants; see the paper's scorecard).\n"
	}
	return b.String()
}

// DepartureTable returns the Markdown table of the claims that depart
// from their word's rule, with why ("" when none do).
func (s *Scorecard) DepartureTable() string {
	var b strings.Builder
	seen := map[string]bool{}
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Departure == "" || seen[r.Source] {
			continue
		}
		seen[r.Source] = true
		if b.Len() == 0 {
			b.WriteString("| claim | word | expected | departure |\n|---|---|---|---|\n")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(r.Source), cell(r.Word), cell(r.Expected), cell(r.Departure))
	}
	return b.String()
}
