package readings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/claims"
	"github.com/schedfarm/schedfarm/internal/atomicfile"
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
	paths, err := filepath.Glob(filepath.Join(root, "specs", "*", TableCSV))
	if err != nil {
		return nil, err
	}
	out := map[string]*Table{}
	for _, p := range paths {
		t, err := ReadCSV(p)
		if err != nil {
			return nil, err
		}
		paper := filepath.Base(filepath.Dir(p))
		if t.Paper == "" {
			t.Paper = paper
		}
		if t.Paper != paper {
			return nil, fmt.Errorf("%s: rows are of paper %q", p, t.Paper)
		}
		out[paper] = t
	}
	return out, nil
}

// UpdateDoc regenerates the readings sections of a Markdown document from
// the tables and returns the new text and the papers it has a section
// for. A marker naming a paper without a table is an error.
func UpdateDoc(text string, tables map[string]*Table) (string, []string, error) {
	var b strings.Builder
	var covered []string
	var errs []error
	rest := text
	for {
		loc := beginRE.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(rest)
			break
		}
		line := 1 + strings.Count(text[:len(text)-len(rest)+loc[0]], "\n")
		begin := rest[loc[0]:loc[1]]
		paper := rest[loc[2]:loc[3]]
		b.WriteString(rest[:loc[1]])
		after := rest[loc[1]:]
		end := strings.Index(after, endText)
		if end < 0 {
			return "", nil, fmt.Errorf("line %d: %s has no %s", line, begin, endText)
		}
		if t := tables[paper]; t == nil {
			errs = append(errs, fmt.Errorf("line %d: no readings table for paper %s (specs/%s/%s)", line, paper, paper, TableCSV))
		} else {
			b.WriteString("\n\n" + t.MarkdownTable() + "\n")
			covered = append(covered, paper)
		}
		b.WriteString(endText)
		rest = after[end+len(endText):]
	}
	if len(errs) > 0 {
		return "", nil, errors.Join(errs...)
	}
	return b.String(), covered, nil
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
	old, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if bytes.Equal(old, []byte(text)) {
		return "", nil
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return "", err
	}
	return path, nil
}
