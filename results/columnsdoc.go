package results

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/schedfarm/schedfarm/internal/gendoc"
)

// ColumnsDoc is the column dictionary, relative to the repository root:
// its tables of columns are generated from the column tables
// ([UpdateColumnsDoc]).
const ColumnsDoc = "docs/columns.md"

// Markers of the generated tables in [ColumnsDoc]: the text between a
// begin marker and the next end marker is the table of the task columns
// or of a file's columns after them.
//
//	<!-- begin columns task -->
//	<!-- begin columns jobs.parquet -->  (likewise summary.parquet, tasks.parquet, timeseries.parquet)
//	<!-- end columns -->
var (
	columnsBeginRE = regexp.MustCompile(`<!-- begin columns ([a-z.]+) -->`)
	columnsEnd     = "<!-- end columns -->"
)

// Columns returns the description of the columns of an output file in
// order: "task" for the task columns every Parquet file starts with (one
// entry stands for the param_<name> columns), or JobsFile, SummaryFile,
// TasksFile or TimeseriesFile for the columns after them (in JobsFile one
// entry stands for the cat_<scheme> columns). The columns of jobs.parquet are also those
// of `schedfarm sim --out x.csv`, and of the wire format of task results
// (without the category columns).
func Columns(file string) ([]Column, error) {
	switch file {
	case "task":
		return concat(columnsOf(taskHeadColumns), []Column{paramColumn}, columnsOf(taskTailColumns)), nil
	case JobsFile:
		return append(columnsOf(jobColumns), categoryColumn), nil
	case SummaryFile:
		return columnsOf(summaryColumns), nil
	case TasksFile:
		return columnsOf(tasksColumns), nil
	case TimeseriesFile:
		return columnsOf(seriesColumns), nil
	}
	return nil, fmt.Errorf("no columns of %q (want task, %s, %s, %s or %s)", file, JobsFile, SummaryFile, TasksFile, TimeseriesFile)
}

// typeText names a column's type as the doc does.
func typeText(c *Column) string {
	t := "float64, int64, bool or string"
	switch {
	case c.Type == nil:
	case c.Type.ID() == arrow.STRING:
		t = "string"
	case c.Type.ID() == arrow.BOOL:
		t = "bool"
	default:
		t = c.Type.Name()
	}
	if c.Nullable {
		t += ", nullable"
	}
	return t
}

// MarkdownTable returns the Markdown table of columns: name, type, unit
// and meaning.
func MarkdownTable(cs []Column) string {
	var b strings.Builder
	b.WriteString("| column | type | unit | meaning |\n|---|---|---|---|\n")
	for i := range cs {
		c := &cs[i]
		unit := " |"
		if c.Unit != "" {
			unit = " " + c.Unit + " |"
		}
		fmt.Fprintf(&b, "| `%s` | %s |%s %s |\n", c.Name, typeText(c), unit, c.Doc)
	}
	return b.String()
}

// UpdateColumnsDoc returns text, the column dictionary, with the tables
// between its markers generated from the column tables.
func UpdateColumnsDoc(text string) (string, error) {
	return gendoc.Replace(text, columnsBeginRE, columnsEnd, func(m gendoc.Marker) (string, error) {
		cs, err := Columns(m.Groups[0])
		if err != nil {
			return "", fmt.Errorf("line %d: %w", m.Line, err)
		}
		return "\n\n" + MarkdownTable(cs) + "\n", nil
	})
}

// WriteColumnsDoc regenerates the tables of root/docs/columns.md and
// reports whether the file changed.
func WriteColumnsDoc(root string) (bool, error) {
	path := filepath.Join(root, ColumnsDoc)
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	text, err := UpdateColumnsDoc(string(data))
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return gendoc.Write(path, text)
}
