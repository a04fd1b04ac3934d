package claims

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/internal/gendoc"
)

// Committed scorecards and the documents generated from them.
const (
	// CommittedScorecard is the name of a paper's recorded scorecard in
	// its specs folder: specs/<paper>/scorecard.csv.
	CommittedScorecard = "scorecard.csv"
	// ReproducingDoc holds every paper's summary line, headline results
	// and statements per figure.
	ReproducingDoc = "REPRODUCING.md"
	// PaperPages is the folder of the papers' pages, docs/papers/<paper>.md:
	// the method, the readings and the per-figure statement tables of one
	// paper, which REPRODUCING.md links.
	PaperPages = "docs/papers"
	// ReadmeDoc holds the summary lines.
	ReadmeDoc = "README.md"
)

// Markers in Markdown documents. The text between a begin marker and the
// next end marker is generated:
//
//	<!-- begin scorecard PAPER: FIGURE; FIGURE -->  the table of the statements of those figures
//	<!-- begin scorecard PAPER -->                  the paper's summary line
//	<!-- begin scorecard -->                        every paper's summary line
//	<!-- begin headlines PAPER -->                  the paper's headline results
//	<!-- begin statements PAPER -->                 the paper's statements per figure
//	<!-- end scorecard -->
var (
	beginRE = regexp.MustCompile(`<!-- begin (scorecard|headlines|statements)( [a-z0-9_-]+)?(:[^>]*)? -->`)
	endText = "<!-- end scorecard -->"
)

// LoadScorecards reads the committed scorecards under root/specs, by
// paper.
func LoadScorecards(root string) (map[string]*Scorecard, error) {
	cards, err := gendoc.ByPaper(root, CommittedScorecard, ReadCSV, func(s *Scorecard) *string { return &s.Paper })
	if err != nil {
		return nil, err
	}
	for paper, sc := range cards {
		f, err := Load(filepath.Join(root, "specs", paper, FileName), Options{})
		if err != nil {
			return nil, err
		}
		sc.Headlines = f.Headlines
	}
	return cards, nil
}

// PaperScorecardDoc is the per-claim scorecard of a paper kept beside its
// recorded CSV, generated from it: specs/<paper>/scorecard.md.
const PaperScorecardDoc = "scorecard.md"

// UpdateDoc regenerates the scorecard sections of a Markdown document
// from the scorecards and returns the new text and the figures it covers
// (by paper). A marker naming a paper without a scorecard or a figure
// without claims is an error.
func UpdateDoc(text string, cards map[string]*Scorecard) (string, map[string][]string, error) {
	covered := map[string][]string{}
	out, err := gendoc.Replace(text, beginRE, endText, func(m gendoc.Marker) (string, error) {
		what, paper := m.Groups[0], strings.TrimSpace(m.Groups[1])
		if what != "scorecard" {
			switch {
			case paper == "" || m.Groups[2] != "":
				return "", fmt.Errorf("line %d: %s names one paper and no figures", m.Line, m.Text)
			case cards[paper] == nil:
				return "", fmt.Errorf("line %d: no scorecard for paper %s (specs/%s/%s)", m.Line, paper, paper, CommittedScorecard)
			case what == "headlines":
				return "\n\n" + cards[paper].HeadlineTable() + "\n", nil
			}
			return "\n\n" + cards[paper].StatementSummaryTable() + "\n", nil
		}
		var figures []string
		for f := range strings.SplitSeq(strings.TrimPrefix(m.Groups[2], ":"), ";") {
			if f = strings.TrimSpace(f); f != "" {
				figures = append(figures, f)
			}
		}
		switch {
		case paper == "":
			var papers []string
			for p := range cards {
				papers = append(papers, p)
			}
			slices.Sort(papers)
			var lines []string
			for _, p := range papers {
				lines = append(lines, cards[p].Summary())
			}
			return "\n\n```text\n" + strings.Join(lines, "\n") + "\n```\n\n", nil
		case cards[paper] == nil:
			return "", fmt.Errorf("line %d: no scorecard for paper %s (specs/%s/%s)", m.Line, paper, paper, CommittedScorecard)
		case len(figures) == 0:
			return "\n\n" + cards[paper].Summary() + "\n\n", nil
		}
		sc := cards[paper]
		have := sc.Figures()
		var errs []error
		for _, f := range figures {
			if !slices.Contains(have, f) {
				errs = append(errs, fmt.Errorf("line %d: paper %s has no claims of figure %q (have: %s)", m.Line, paper, f, strings.Join(have, "; ")))
			}
			covered[paper] = append(covered[paper], f)
		}
		return "\n\n" + sc.StatementTable(figures...) + "\n", errors.Join(errs...)
	})
	if err != nil {
		return "", nil, err
	}
	return out, covered, nil
}

// ReproductionDocs returns the documents of the reproductions under root,
// slash-separated and relative to it: REPRODUCING.md, then the papers'
// pages (docs/papers/*.md) in name order.
func ReproductionDocs(root string) ([]string, error) {
	pages, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(PaperPages), "*.md"))
	if err != nil {
		return nil, err
	}
	names := []string{ReproducingDoc}
	for _, p := range pages {
		names = append(names, PaperPages+"/"+filepath.Base(p))
	}
	slices.Sort(names[1:])
	return names, nil
}

// Docs returns the regenerated text of README.md, REPRODUCING.md and the
// papers' pages under root from the committed scorecards, by file name
// (slash-separated, relative to root). Every figure of every scorecard must
// have a table in REPRODUCING.md or a paper's page.
func Docs(root string) (map[string]string, error) {
	cards, err := LoadScorecards(root)
	if err != nil {
		return nil, err
	}
	docs, err := ReproductionDocs(root)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	covered := map[string][]string{}
	for _, name := range append([]string{ReadmeDoc}, docs...) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		text, cov, err := UpdateDoc(string(data), cards)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for p, figures := range cov {
			covered[p] = append(covered[p], figures...)
		}
		out[name] = text
	}
	var missing []string
	for p, sc := range cards {
		for _, f := range sc.Figures() {
			if !slices.Contains(covered[p], f) {
				missing = append(missing, p+": "+f)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("%s and %s/*.md: no scorecard table for %s (add <!-- begin scorecard PAPER: FIGURE --> and <!-- end scorecard --> where the figure is discussed)",
			ReproducingDoc, PaperPages, strings.Join(missing, ", "))
	}
	for paper, sc := range cards {
		var b strings.Builder
		if err := sc.WriteMarkdown(&b); err != nil {
			return nil, err
		}
		out[filepath.ToSlash(filepath.Join("specs", paper, PaperScorecardDoc))] = b.String()
	}
	return out, nil
}

// WriteDocs regenerates the scorecard sections of README.md,
// REPRODUCING.md and the papers' pages under root and returns the files that changed.
func WriteDocs(root string) ([]string, error) {
	docs, err := Docs(root)
	if err != nil {
		return nil, err
	}
	// A paper's scorecard.md is new with its first recording:
	// gendoc.WriteAll creates it.
	return gendoc.WriteAll(root, docs)
}

// Record writes a paper's scorecard to root/specs/<paper>/scorecard.csv,
// the committed copy REPRODUCING.md is generated from. It refuses a
// scorecard with claims not run.
func Record(root string, s *Scorecard) (string, error) {
	if len(s.NotRun) > 0 {
		return "", fmt.Errorf("%s: %d claims were not run (%s...): record a scorecard of every figure group of the paper",
			s.Paper, len(s.NotRun), s.NotRun[0])
	}
	path := filepath.Join(root, "specs", s.Paper, CommittedScorecard)
	return path, atomicfile.Write(path, s.WriteCSV)
}

// CheckRecorded compares a committed scorecard with its claims file: the
// same claims in the same order, with the figure, quote, kind, must,
// expectation and reason of the file. It returns every difference.
func CheckRecorded(s *Scorecard, f *File) error {
	var errs []error
	byID := map[string]*Row{}
	for i := range s.Rows {
		byID[s.Rows[i].ID] = &s.Rows[i]
	}
	var ids []string
	for i := range f.Claims {
		c := &f.Claims[i]
		ids = append(ids, c.ID)
		r := byID[c.ID]
		if r == nil {
			errs = append(errs, fmt.Errorf("claim %s is not in the scorecard", c.ID))
			continue
		}
		check := func(field, got, want string) {
			if got != want {
				errs = append(errs, fmt.Errorf("claim %s: %s is %q in the scorecard, %q in the claims file", c.ID, field, got, want))
			}
		}
		check("figure", r.Figure, c.Figure)
		check("quote", r.Quote, c.Quote)
		check("kind", string(r.Kind), string(c.Kind))
		check("must", fmt.Sprint(r.Must), fmt.Sprint(c.Must))
		check("expected", r.Expected, c.ExpectedText())
		check("word", r.Word, c.Word)
		check("class", string(r.Class), string(c.Class))
		check("departure", r.Departure, c.Departure)
		if r.Verdict != Error {
			check("reason", r.Reason, c.Reason)
		}
	}
	for i := range s.Rows {
		if !slices.Contains(ids, s.Rows[i].ID) {
			errs = append(errs, fmt.Errorf("claim %s is in the scorecard but not in the claims file", s.Rows[i].ID))
		}
	}
	if len(errs) == 0 {
		for i := range s.Rows {
			if s.Rows[i].ID != ids[i] {
				errs = append(errs, fmt.Errorf("the scorecard's claims are not in the claims file's order (row %d is %s, want %s)", i+1, s.Rows[i].ID, ids[i]))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// ExpectedText describes what the claim expects, with its tolerances, as
// the scorecard's expected column shows it.
func (c *Claim) ExpectedText() string { return expectedText(c) }
