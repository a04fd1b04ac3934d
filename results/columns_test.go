package results_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
)

// columnsDoc is the column dictionary these tests keep honest.
var columnsDoc = filepath.Join("..", "docs", "columns.md")

// docColumn is one documented column.
type docColumn struct {
	name, typ string
	nullable  bool
}

// docSections returns, per "## " section of the doc, its text.
func docSections(t *testing.T) (map[string]string, string) {
	t.Helper()
	data, err := os.ReadFile(columnsDoc)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, sec := range strings.Split("\n"+string(data), "\n## ")[1:] {
		title, body, _ := strings.Cut(sec, "\n")
		out[title] = body
	}
	return out, string(data)
}

// tableColumns returns the rows of the Markdown tables of a section whose
// first cell is a backquoted name: the name (or names) and the type cell.
func tableColumns(body string) []docColumn {
	var out []docColumn
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		typ := ""
		if len(cells) > 1 {
			typ = strings.TrimSpace(cells[1])
		}
		for _, name := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[0], -1) {
			out = append(out, docColumn{name: name[1], typ: strings.TrimSuffix(typ, ", nullable"), nullable: strings.HasSuffix(typ, ", nullable")})
		}
	}
	return out
}

// typeName names an Arrow type as the doc does.
func typeName(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.STRING:
		return "string"
	case arrow.BOOL:
		return "bool"
	}
	return dt.Name()
}

// fileColumns returns the columns of a Parquet file, the param_* and
// cat_* columns folded into the doc's param_<name> and cat_<scheme>.
func fileColumns(t *testing.T, path string) []docColumn {
	t.Helper()
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := fr.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var out []docColumn
	for _, f := range schema.Fields() {
		c := docColumn{name: f.Name, typ: typeName(f.Type), nullable: f.Nullable}
		switch {
		case strings.HasPrefix(f.Name, results.ParamPrefix):
			c.name, c.typ = results.ParamPrefix+"<name>", "float64, int64, bool or string"
		case strings.HasPrefix(f.Name, results.CategoryPrefix):
			c.name = results.CategoryPrefix + "<scheme>"
		}
		if len(out) > 0 && out[len(out)-1] == c {
			continue
		}
		out = append(out, c)
	}
	return out
}

func TestColumns_Documented(t *testing.T) {
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	secs, _ := docSections(t)
	taskCols := tableColumns(secs["Task columns"])
	if len(taskCols) == 0 {
		t.Fatalf("%s: no task columns found", columnsDoc)
	}
	for _, f := range []string{results.JobsFile, results.SummaryFile, results.TasksFile} {
		t.Run(f, func(t *testing.T) {
			want := append(slices.Clone(taskCols), tableColumns(secs[f])...)
			got := fileColumns(t, filepath.Join(dir, f))
			for i := range max(len(got), len(want)) {
				var g, w docColumn
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Errorf("%s column %d: file has %+v, %s documents %+v", f, i, g, columnsDoc, w)
				}
			}
		})
	}
	t.Run("Metadata", func(t *testing.T) {
		md, err := results.ReadMetadata(filepath.Join(dir, results.JobsFile))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range md {
			got = append(got, k)
		}
		var want []string
		for _, c := range tableColumns(secs["File metadata"]) {
			want = append(want, c.name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("metadata keys %q, %s documents %q", got, columnsDoc, want)
		}
	})
	t.Run(results.TablesCSV, func(t *testing.T) {
		var want []string
		for _, c := range tableColumns(secs[results.TablesCSV]) {
			want = append(want, c.name)
		}
		if !slices.Equal(report.TablesCSVHeader, want) {
			t.Errorf("tables.csv header %q, %s documents %q", report.TablesCSVHeader, columnsDoc, want)
		}
	})
}

// codeBlocks returns the fenced code blocks of a language in text.
func codeBlocks(text, lang string) []string {
	var out []string
	for _, part := range strings.Split(text, "```"+lang+"\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		out = append(out, block)
	}
	return out
}

// TestColumns_NotebookExamples checks that every quoted name in the
// Python examples that looks like a column is one, and runs the DuckDB
// examples on real outputs when node and the interop project are there.
func TestColumns_NotebookExamples(t *testing.T) {
	r := MustRun(t, realSpec)
	dir := MustWrite(t, r, r.res)
	_, doc := docSections(t)
	names := map[string]bool{}
	for _, f := range []string{results.JobsFile, results.SummaryFile, results.TasksFile} {
		rd, err := file.OpenParquetFile(filepath.Join(dir, f), false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rd.MetaData().Schema.NumColumns() {
			names[rd.MetaData().Schema.Column(i).Name()] = true
		}
		rd.Close()
	}
	// Quoted lowercase words in the Python code are column names, except
	// these values (pandas aggregations, a scheme, the overall category, a
	// policy label of the quickstart).
	notColumns := map[string]bool{"mean": true, "max": true, "ss16": true, "all": true, "easy": true}
	py := codeBlocks(doc, "python")
	if len(py) < 2 {
		t.Fatalf("%s: %d Python examples, want pandas and polars", columnsDoc, len(py))
	}
	quoted := regexp.MustCompile(`"([a-z][a-z0-9_]*)"`)
	for _, block := range py {
		for _, m := range quoted.FindAllStringSubmatch(block, -1) {
			if !names[m[1]] && !notColumns[m[1]] {
				t.Errorf("%s: the Python examples use %q, which is no column", columnsDoc, m[1])
			}
		}
	}

	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(interopDir, "node_modules", "@duckdb", "node-api"))
	}
	if err != nil {
		msg := "running the DuckDB examples needs node and interop/node_modules (cd interop && npm ci): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	sql := codeBlocks(doc, "sql")
	if len(sql) != 1 {
		t.Fatalf("%s: %d SQL blocks, want 1", columnsDoc, len(sql))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`out/[a-z0-9-]+/`)
	for _, stmt := range strings.Split(sql[0], ";") {
		stmt = strings.TrimSpace(paths.ReplaceAllString(stmt, filepath.ToSlash(abs)+"/"))
		if stmt == "" {
			continue
		}
		script := `import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const res = await conn.runAndReadAll(process.env.SCHEDFARM_SQL);
if (res.getRowObjectsJS().length === 0) { console.error('no rows'); process.exit(1); }
conn.closeSync(); db.closeSync();`
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, node, "--input-type=module", "-e", script)
		cmd.Dir = interopDir
		cmd.Env = append(os.Environ(), "SCHEDFARM_SQL="+stmt)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("DuckDB example failed: %v\n%s\n%s", err, stmt, out)
		}
	}
}
