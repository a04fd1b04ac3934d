package readings

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/internal/gendoc"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// File names of a readings table: OUT/<paper>/readings.{md,csv} after a
// run, specs/<paper>/readings.csv when recorded.
const (
	TableMD  = "readings.md"
	TableCSV = "readings.csv"
)

// DefaultSummary is the summary of a table's default row.
const DefaultSummary = "the specs as committed"

// Row is one reading's scorecard, summed up against the default's.
type Row struct {
	// ID is the reading's id, [DefaultID] for the specs as committed.
	ID, Summary string
	// Set is the reading's overrides as text ([Reading.SetText]; "" for
	// the default).
	Set string
	// Agree, Partly, Disagree and Errors count the claims by verdict.
	Agree, Partly, Disagree, Errors int
	// Gained and Lost are the claims whose verdict is better or worse
	// than under the default, in claims file order, each as
	// "id (from -> to)".
	Gained, Lost []string
}

// Table is the readings table of a paper: the default row first, then
// one row per reading in file order.
type Table struct {
	Paper string
	Rows  []Row
}

// rank orders verdicts from worst to best.
func rank(v claims.Verdict) int {
	switch v {
	case claims.Agree:
		return 3
	case claims.Partly:
		return 2
	case claims.Disagree:
		return 1
	}
	return 0
}

// Compare sums up a reading's scorecard against the default's: the
// counts by verdict, and the claims whose verdict moves. Both must grade
// the same claims.
func Compare(r *Reading, def, sc *claims.Scorecard) (Row, error) {
	id := r.ID
	row := Row{ID: id, Summary: r.Summary, Set: r.SetText(), Agree: sc.Count(claims.Agree), Partly: sc.Count(claims.Partly),
		Disagree: sc.Count(claims.Disagree), Errors: sc.Count(claims.Error)}
	if len(def.NotRun) > 0 || len(sc.NotRun) > 0 {
		return row, fmt.Errorf("reading %s: claims not run (%d in the default, %d in the reading): grade whole papers", id, len(def.NotRun), len(sc.NotRun))
	}
	if len(def.Rows) != len(sc.Rows) {
		return row, fmt.Errorf("reading %s: %d claims graded, the default %d", id, len(sc.Rows), len(def.Rows))
	}
	for i := range sc.Rows {
		d, r := &def.Rows[i], &sc.Rows[i]
		if d.ID != r.ID {
			return row, fmt.Errorf("reading %s: claim %d is %s, in the default %s", id, i+1, r.ID, d.ID)
		}
		move := fmt.Sprintf("%s (%s -> %s)", r.ID, d.Verdict, r.Verdict)
		switch {
		case rank(r.Verdict) > rank(d.Verdict):
			row.Gained = append(row.Gained, move)
		case rank(r.Verdict) < rank(d.Verdict):
			row.Lost = append(row.Lost, move)
		}
	}
	return row, nil
}

// DefaultRow returns the default row of a table: the counts of the
// scorecard of the specs as committed.
func DefaultRow(def *claims.Scorecard) Row {
	return Row{ID: DefaultID, Summary: DefaultSummary, Agree: def.Count(claims.Agree), Partly: def.Count(claims.Partly),
		Disagree: def.Count(claims.Disagree), Errors: def.Count(claims.Error)}
}

// csvHeader is the header of readings.csv.
var csvHeader = []string{"paper", "reading", "summary", "set", "agree", "partly", "disagree", "errors", "gained", "lost"}

// sep joins the claims of the gained and lost columns.
const sep = "; "

// WriteCSV writes the table as CSV, one row per reading.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range t.Rows {
		rec := []string{t.Paper, r.ID, r.Summary, r.Set, strconv.Itoa(r.Agree), strconv.Itoa(r.Partly), strconv.Itoa(r.Disagree),
			strconv.Itoa(r.Errors), strings.Join(r.Gained, sep), strings.Join(r.Lost, sep)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a table written by [Table.WriteCSV].
func ReadCSV(path string) (*Table, error) {
	rows, err := gendoc.ReadCSV(path, "readings table", csvHeader)
	if err != nil {
		return nil, err
	}
	t := &Table{}
	for i, rec := range rows {
		var n [4]int
		for j := range n {
			if n[j], err = strconv.Atoi(rec[4+j]); err != nil {
				return nil, fmt.Errorf("read readings table %s: row %d: %s: %w", path, i+2, csvHeader[4+j], err)
			}
		}
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, sep)
		}
		t.Paper = rec[0]
		t.Rows = append(t.Rows, Row{ID: rec[1], Summary: rec[2], Set: rec[3], Agree: n[0], Partly: n[1], Disagree: n[2], Errors: n[3],
			Gained: split(rec[8]), Lost: split(rec[9])})
	}
	return t, nil
}

// MarkdownTable returns the table in Markdown: one row per reading with
// its counts and the claims it gains and loses against the default.
func (t *Table) MarkdownTable() string {
	errs := slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Errors > 0 })
	var b strings.Builder
	b.WriteString("| reading | what it changes | overrides | agree | partly | disagree |")
	if errs {
		b.WriteString(" not evaluated |")
	}
	b.WriteString(" gained | lost |\n|---|---|---|---|---|---|")
	if errs {
		b.WriteString("---|")
	}
	b.WriteString("---|---|\n")
	list := func(ids []string) string {
		if len(ids) == 0 {
			return ""
		}
		return fmt.Sprintf("%d: %s", len(ids), metrics.EscapeCell(strings.Join(ids, sep)))
	}
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d |", r.ID, metrics.EscapeCell(r.Summary), metrics.EscapeCell(r.Set), r.Agree, r.Partly, r.Disagree)
		if errs {
			fmt.Fprintf(&b, " %d |", r.Errors)
		}
		fmt.Fprintf(&b, " %s | %s |\n", list(r.Gained), list(r.Lost))
	}
	return b.String()
}

// Summary returns one line per row: "kettimuthu2005 reading defer_start:
// 174 agree, 14 partly, 19 disagree (+9 -6)".
func (t *Table) Summary() string {
	var b strings.Builder
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "%s reading %s: %d agree, %d partly, %d disagree", t.Paper, r.ID, r.Agree, r.Partly, r.Disagree)
		if r.Errors > 0 {
			fmt.Fprintf(&b, ", %d not evaluated", r.Errors)
		}
		if r.ID != DefaultID {
			fmt.Fprintf(&b, " (+%d -%d)", len(r.Gained), len(r.Lost))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteFiles writes readings.md and readings.csv into dir and returns
// their paths.
func (t *Table) WriteFiles(dir string) ([]string, error) {
	md := filepath.Join(dir, TableMD)
	err := atomicfile.Write(md, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "# %s: readings\n\nEach row grades the paper's claims against a run of its figure groups with the reading's parameter overrides (specs/%s/%s).\n\n%s",
			t.Paper, t.Paper, FileName, t.MarkdownTable())
		return err
	})
	if err != nil {
		return nil, err
	}
	cp := filepath.Join(dir, TableCSV)
	if err := atomicfile.Write(cp, t.WriteCSV); err != nil {
		return nil, err
	}
	return []string{md, cp}, nil
}

// Record writes the table to root/specs/<paper>/readings.csv.
func Record(root string, t *Table) (string, error) {
	path := filepath.Join(root, "specs", t.Paper, TableCSV)
	return path, atomicfile.Write(path, t.WriteCSV)
}

// CheckRecorded compares a recorded table with its readings file and the
// paper's recorded scorecard: the default row first with the
// scorecard's counts, then the file's readings in order with their
// summaries. It returns every difference.
func CheckRecorded(t *Table, f *File, sc *claims.Scorecard) error {
	var errs []error
	if len(t.Rows) == 0 || t.Rows[0].ID != DefaultID {
		return fmt.Errorf("the first row is not the default (%s)", DefaultID)
	}
	d, want := t.Rows[0], DefaultRow(sc)
	if d.Agree != want.Agree || d.Partly != want.Partly || d.Disagree != want.Disagree || d.Errors != want.Errors {
		errs = append(errs, fmt.Errorf("the default row counts %d agree, %d partly, %d disagree, %d not evaluated; the recorded scorecard %d, %d, %d, %d",
			d.Agree, d.Partly, d.Disagree, d.Errors, want.Agree, want.Partly, want.Disagree, want.Errors))
	}
	rows := t.Rows[1:]
	if len(rows) != len(f.Readings) {
		errs = append(errs, fmt.Errorf("%d readings recorded, %d in the readings file", len(rows), len(f.Readings)))
	}
	for i := 0; i < min(len(rows), len(f.Readings)); i++ {
		r, fr := rows[i], f.Readings[i]
		if r.ID != fr.ID {
			errs = append(errs, fmt.Errorf("row %d is reading %s, the readings file has %s", i+2, r.ID, fr.ID))
			continue
		}
		if r.Summary != fr.Summary {
			errs = append(errs, fmt.Errorf("reading %s: summary is %q in the table, %q in the readings file", r.ID, r.Summary, fr.Summary))
		}
		if set := fr.SetText(); r.Set != set {
			errs = append(errs, fmt.Errorf("reading %s: overrides are %q in the table, %q in the readings file", r.ID, r.Set, set))
		}
	}
	return errors.Join(errs...)
}
