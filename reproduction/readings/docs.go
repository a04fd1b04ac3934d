package readings

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/internal/gendoc"
	"github.com/schedfarm/schedfarm/reproduction/claims"
)

// Markers in REPRODUCING.md and the papers' pages: the text between a begin marker and the next
// end marker is the paper's recorded readings table.
//
//	<!-- begin readings PAPER -->
//	<!-- end readings -->
var (
	beginRE = regexp.MustCompile(`<!-- begin readings ([a-z0-9_-]+) -->`)
	endText = "<!-- end readings -->"
)

// LoadTables reads the recorded readings tables under root/specs, by
// paper.
func LoadTables(root string) (map[string]*Table, error) {
	return gendoc.ByPaper(root, TableCSV, ReadCSV, func(t *Table) *string { return &t.Paper })
}

// UpdateDoc regenerates the readings sections of a Markdown document from
// the tables and returns the new text and the papers it has a section
// for. A marker naming a paper without a table is an error.
func UpdateDoc(text string, tables map[string]*Table) (string, []string, error) {
	var covered []string
	out, err := gendoc.Replace(text, beginRE, endText, func(m gendoc.Marker) (string, error) {
		paper := m.Groups[0]
		t := tables[paper]
		if t == nil {
			return "", fmt.Errorf("line %d: no readings table for paper %s (specs/%s/%s)", m.Line, paper, paper, TableCSV)
		}
		covered = append(covered, paper)
		return "\n\n" + t.MarkdownTable() + "\n", nil
	})
	if err != nil {
		return "", nil, err
	}
	return out, covered, nil
}

// Docs returns REPRODUCING.md and the papers' pages under root with their
// readings sections regenerated from the recorded tables, by file name
// (slash-separated, relative to root). Every recorded table must have a
// section in one of them.
func Docs(root string) (map[string]string, error) {
	tables, err := LoadTables(root)
	if err != nil {
		return nil, err
	}
	names, err := claims.ReproductionDocs(root)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	var covered []string
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		text, cov, err := UpdateDoc(string(data), tables)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		covered = append(covered, cov...)
		out[name] = text
	}
	var missing []string
	for p := range tables {
		if !slices.Contains(covered, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("%s and %s/*.md: no readings section for %s (add <!-- begin readings PAPER --> and %s in the paper's page)",
			claims.ReproducingDoc, claims.PaperPages, strings.Join(missing, ", "), endText)
	}
	return out, nil
}

// WriteDocs regenerates the readings sections of REPRODUCING.md and the
// papers' pages under root; it returns the paths of the files that
// changed.
func WriteDocs(root string) ([]string, error) {
	docs, err := Docs(root)
	if err != nil {
		return nil, err
	}
	return gendoc.WriteAll(root, docs)
}
