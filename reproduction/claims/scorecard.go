package claims

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/internal/gendoc"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Scorecard file names, written into a paper's output folder.
const (
	ScorecardMD      = "scorecard.md"
	ScorecardCSV     = "scorecard.csv"
	ScorecardParquet = "scorecard.parquet"
)

// NoReason is the reason column of a claim that does not agree and has no
// reason in its claims file.
const NoReason = "MISSING: a claim that does not agree needs a reason in claims.yaml"

// Row is one graded claim.
type Row struct {
	ID, Figure, Quote string
	Kind              Kind
	Must              bool
	// Expected describes what the paper says, with the tolerances.
	Expected string
	// Ours is the reproduction's figure(s) as text; Value is the number
	// graded (the value, ratio, a/b for orders, Spearman's rho for
	// trends, the worst row for invariants, the number of values where
	// a count's order holds); NaN on error.
	Ours    string
	Value   float64
	Verdict Verdict
	// Reason is the claims file's reason.
	Reason string
	// Error says why the claim could not be evaluated (Verdict Error).
	Error string
	// Word, Class and Departure are the claims file's; Source is the
	// claim's id before each expanded it.
	Word      string
	Class     Class
	Departure string
	Source    string
	// LowPower marks a single-run claim whose test could not reject a
	// value 2x off ours: it is shown but not counted in the figures.
	LowPower bool
	// Target is the paper's number of a value claim (NaN when it states
	// none), for the published-numbers figure.
	Target float64
}

// NeedsReason reports whether the row does not agree and has no reason.
func (r *Row) NeedsReason() bool {
	return r.Verdict != Agree && r.Verdict != Error && r.Reason == ""
}

// MustFails reports whether the row is a must claim that does not agree.
func (r *Row) MustFails() bool { return r.Must && r.Verdict != Agree }

// Scorecard is the graded claims of one paper.
type Scorecard struct {
	Paper string
	// Rows are the evaluated claims, in file order.
	Rows []Row
	// NotRun are the ids of the claims whose figure groups have no
	// outputs.
	NotRun []string
	// Headlines are the paper's headline results, from its claims file.
	Headlines []Headline
}

// Count returns the number of rows with verdict v.
func (s *Scorecard) Count(v Verdict) int {
	n := 0
	for i := range s.Rows {
		if s.Rows[i].Verdict == v {
			n++
		}
	}
	return n
}

// Summary returns the one-line summary, for example
// "kettimuthu2005: headlines 4/6 · statements 88/132 agree, 20 partly ·
// published numbers 24/36 within 10% · setup 40/40 · invariants hold
// (292 claims; 3 departures)", with departures from the words' rules,
// errors, failed must claims, missing reasons and claims not run added
// inside the parentheses when there are any.
func (s *Scorecard) Summary() string {
	t := s.Tally()
	extra := []string{fmt.Sprintf("%d claims", len(s.Rows))}
	if t.Departures > 0 {
		extra = append(extra, fmt.Sprintf("%d departures from their word's rule", t.Departures))
	}
	if n := s.Count(Error); n > 0 {
		extra = append(extra, fmt.Sprintf("%d could not be evaluated", n))
	}
	var must []string
	noReason := 0
	for i := range s.Rows {
		if s.Rows[i].MustFails() {
			must = append(must, s.Rows[i].ID)
		}
		if s.Rows[i].NeedsReason() {
			noReason++
		}
	}
	if len(must) > 0 {
		extra = append(extra, "must claims failed: "+strings.Join(must, ", "))
	}
	if noReason > 0 {
		extra = append(extra, fmt.Sprintf("%d without a reason", noReason))
	}
	if len(s.NotRun) > 0 {
		extra = append(extra, fmt.Sprintf("%d not run", len(s.NotRun)))
	}
	return fmt.Sprintf("%s: %s (%s)", s.Paper, t, strings.Join(extra, "; "))
}

// Err returns an error listing the claims that could not be evaluated and
// the must claims that failed, or nil.
func (s *Scorecard) Err() error {
	var errs []error
	for i := range s.Rows {
		r := &s.Rows[i]
		switch {
		case r.Verdict == Error:
			errs = append(errs, errors.New(r.Error))
		case r.MustFails():
			errs = append(errs, fmt.Errorf("must claim %s (%s) is %s: expected %s, ours %s", r.ID, r.Figure, r.Verdict, r.Expected, r.Ours))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %w", s.Paper, errors.Join(errs...))
}

// csvHeader is the header of scorecard.csv.
var csvHeader = []string{"paper", "id", "source", "figure", "quote", "kind", "word", "class", "must", "expected", "target", "ours", "value", "grade", "reason", "departure", "low_power"}

// reasonText is the reason column: the reason, the error, or [NoReason].
func (r *Row) reasonText() string {
	switch {
	case r.Verdict == Error:
		return r.Error
	case r.NeedsReason():
		return NoReason
	}
	return r.Reason
}

// WriteCSV writes the scorecard as CSV, one row per claim.
func (s *Scorecard) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		num := func(x float64) string {
			if math.IsNaN(x) {
				return ""
			}
			return strconv.FormatFloat(x, 'g', 6, 64)
		}
		if err := cw.Write([]string{s.Paper, r.ID, r.Source, r.Figure, r.Quote, string(r.Kind), r.Word, string(r.Class), strconv.FormatBool(r.Must),
			r.Expected, num(r.Target), r.Ours, num(r.Value), string(r.Verdict), r.reasonText(), r.Departure, strconv.FormatBool(r.LowPower)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a scorecard written by [Scorecard.WriteCSV].
func ReadCSV(path string) (*Scorecard, error) {
	rows, err := gendoc.ReadCSV(path, "scorecard", csvHeader)
	if err != nil {
		return nil, err
	}
	s := &Scorecard{}
	for n, rec := range rows {
		must, err := strconv.ParseBool(rec[8])
		if err != nil {
			return nil, fmt.Errorf("read scorecard %s: line %d: must: %w", path, n+2, err)
		}
		num := func(i int, what string) (float64, error) {
			if rec[i] == "" {
				return math.NaN(), nil
			}
			x, err := strconv.ParseFloat(rec[i], 64)
			if err != nil {
				return 0, fmt.Errorf("read scorecard %s: line %d: %s: %w", path, n+2, what, err)
			}
			return x, nil
		}
		v, err := num(12, "value")
		if err != nil {
			return nil, err
		}
		t, err := num(10, "target")
		if err != nil {
			return nil, err
		}
		low, err := strconv.ParseBool(rec[16])
		if err != nil {
			return nil, fmt.Errorf("read scorecard %s: line %d: low_power: %w", path, n+2, err)
		}
		r := Row{LowPower: low, ID: rec[1], Source: rec[2], Figure: rec[3], Quote: rec[4], Kind: Kind(rec[5]), Word: rec[6], Class: Class(rec[7]),
			Must: must, Expected: rec[9], Target: t, Ours: rec[11], Value: v, Verdict: Verdict(rec[13]), Reason: rec[14], Departure: rec[15]}
		switch {
		case r.Verdict == Error:
			r.Error, r.Reason = r.Reason, ""
		case r.Reason == NoReason:
			r.Reason = ""
		}
		s.Paper = rec[0]
		s.Rows = append(s.Rows, r)
	}
	return s, nil
}

// WriteMarkdown writes the scorecard as a Markdown document: the summary
// line, then one table per figure in order of first appearance.
func (s *Scorecard) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Scorecard: %s\n\n%s\n", s.Paper, s.Summary())
	if len(s.NotRun) > 0 {
		fmt.Fprintf(&b, "\nNot run (their figure groups have no outputs): %s.\n", strings.Join(s.NotRun, ", "))
	}
	fmt.Fprintf(&b, "\n## Headline results\n\n%s", s.HeadlineTable())
	fmt.Fprintf(&b, "\n## Statements\n\nEvery result claim with one quote is one statement: it agrees when all its claims agree, disagrees when most disagree, and is partly otherwise. Setup checks and invariants are not counted.\n\n%s", s.StatementSummaryTable())
	b.WriteString("\n" + s.StatementTable())
	if d := s.DepartureTable(); d != "" {
		fmt.Fprintf(&b, "\n## Departures from the words' rules\n\n%s", d)
	}
	for _, fig := range s.Figures() {
		fmt.Fprintf(&b, "\n## %s\n\n", fig)
		b.WriteString(s.MarkdownTable(fig))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Figures returns the figures of the rows in order of first appearance.
func (s *Scorecard) Figures() []string {
	var out []string
	seen := map[string]bool{}
	for i := range s.Rows {
		if f := s.Rows[i].Figure; !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// MarkdownTable returns the Markdown table of the rows of the given
// figures (all rows when none are given). A reason given in full on an
// earlier row of the table is not repeated: the row names that claim
// instead ("as for ID"), and a quote the row before has is given as
// "as above" (each only where it is shorter). The CSV and Parquet scorecards keep every row whole.
func (s *Scorecard) MarkdownTable(figures ...string) string {
	var b strings.Builder
	b.WriteString("| claim | class | paper | word | expected | ours | grade | reason |\n|---|---|---|---|---|---|---|---|\n")
	firstWith := map[string]string{} // reason -> the first claim of the table that gives it
	prevQuote := ""
	for i := range s.Rows {
		r := &s.Rows[i]
		if len(figures) > 0 && !containsString(figures, r.Figure) {
			continue
		}
		id := r.ID
		if r.Must {
			id += " (must)"
		}
		quote := r.Quote
		if quote == prevQuote && len(quote) > len("as above") {
			quote = "as above"
		}
		prevQuote = r.Quote
		reason := r.reasonText()
		if first, ok := firstWith[reason]; ok && len(reason) > len(first)+len("as for ") {
			reason = "as for " + first
		} else if !ok {
			firstWith[reason] = r.ID
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | **%s** | %s |\n", cell(id), cell(string(r.Class)), cell(quote), cell(r.Word), cell(r.Expected), cell(r.Ours),
			r.Verdict, cell(reason))
	}
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func cell(s string) string { return metrics.EscapeCell(s) }

// parquetSchema is the schema of scorecard.parquet.
var parquetSchema = arrow.NewSchema([]arrow.Field{
	{Name: "paper", Type: arrow.BinaryTypes.String},
	{Name: "id", Type: arrow.BinaryTypes.String},
	{Name: "figure", Type: arrow.BinaryTypes.String},
	{Name: "quote", Type: arrow.BinaryTypes.String},
	{Name: "kind", Type: arrow.BinaryTypes.String},
	{Name: "must", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "expected", Type: arrow.BinaryTypes.String},
	{Name: "ours", Type: arrow.BinaryTypes.String},
	{Name: "value", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "grade", Type: arrow.BinaryTypes.String},
	{Name: "reason", Type: arrow.BinaryTypes.String},
	{Name: "source", Type: arrow.BinaryTypes.String},
	{Name: "word", Type: arrow.BinaryTypes.String},
	{Name: "class", Type: arrow.BinaryTypes.String},
	{Name: "departure", Type: arrow.BinaryTypes.String},
	{Name: "low_power", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// WriteParquet writes the scorecard as Parquet with the columns of the
// CSV (value is null when the claim has no number).
func (s *Scorecard) WriteParquet(w io.Writer) error {
	b := array.NewRecordBuilder(memory.DefaultAllocator, parquetSchema)
	defer b.Release()
	str := func(i int, v string) { b.Field(i).(*array.StringBuilder).Append(v) }
	for k := range s.Rows {
		r := &s.Rows[k]
		str(0, s.Paper)
		str(1, r.ID)
		str(2, r.Figure)
		str(3, r.Quote)
		str(4, string(r.Kind))
		b.Field(5).(*array.BooleanBuilder).Append(r.Must)
		str(6, r.Expected)
		str(7, r.Ours)
		if math.IsNaN(r.Value) {
			b.Field(8).AppendNull()
		} else {
			b.Field(8).(*array.Float64Builder).Append(r.Value)
		}
		str(9, string(r.Verdict))
		str(10, r.reasonText())
		str(11, r.Source)
		str(12, r.Word)
		str(13, string(r.Class))
		str(14, r.Departure)
		b.Field(15).(*array.BooleanBuilder).Append(r.LowPower)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(false))
	// The Parquet writer closes a sink that is an io.Closer; the caller
	// owns w.
	fw, err := pqarrow.NewFileWriter(parquetSchema, struct{ io.Writer }{w}, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// WriteFiles writes scorecard.md, scorecard.csv and scorecard.parquet
// into dir and returns their paths.
func (s *Scorecard) WriteFiles(dir string) ([]string, error) {
	var out []string
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{ScorecardMD, s.WriteMarkdown}, {ScorecardCSV, s.WriteCSV}, {ScorecardParquet, s.WriteParquet}} {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, f.write); err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	return out, nil
}
