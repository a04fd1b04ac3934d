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

// Markers in REPRODUCING.md: the text between a begin marker and the next
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

// Doc returns REPRODUCING.md under root with its readings sections
// regenerated from the recorded tables. Every recorded table must have a
// section.
func Doc(root string) (string, error) {
	tables, err := LoadTables(root)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(root, claims.ReproducingDoc))
	if err != nil {
		return "", err
	}
	text, covered, err := UpdateDoc(string(data), tables)
	if err != nil {
		return "", fmt.Errorf("%s: %w", claims.ReproducingDoc, err)
	}
	var missing []string
	for p := range tables {
		if !slices.Contains(covered, p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return "", fmt.Errorf("%s: no readings section for %s (add <!-- begin readings PAPER --> and %s in the paper's section)",
			claims.ReproducingDoc, strings.Join(missing, ", "), endText)
	}
	return text, nil
}

// WriteDoc regenerates the readings sections of REPRODUCING.md under root;
// it returns the file's path when it changed, else "".
func WriteDoc(root string) (string, error) {
	text, err := Doc(root)
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, claims.ReproducingDoc)
	wrote, err := gendoc.Write(path, text)
	if err != nil || !wrote {
		return "", err
	}
	return path, nil
}
