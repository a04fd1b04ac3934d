// Package gendoc regenerates the generated sections of the project's
// Markdown documents (REPRODUCING.md, README.md) from files recorded per
// paper under specs/. A section is the text between a begin marker and
// the next end marker; the claims package fills the scorecard sections
// and the readings package the readings sections.
package gendoc

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
)

// ByPaper reads every root/specs/<paper>/<name> with read and returns the
// values by paper. paper gives a value's paper key: an empty key is set
// to the folder's name, and another name than the folder's is an error.
func ByPaper[T any](root, name string, read func(path string) (T, error), paper func(T) *string) (map[string]T, error) {
	paths, err := filepath.Glob(filepath.Join(root, "specs", "*", name))
	if err != nil {
		return nil, err
	}
	out := map[string]T{}
	for _, p := range paths {
		v, err := read(p)
		if err != nil {
			return nil, err
		}
		folder := filepath.Base(filepath.Dir(p))
		key := paper(v)
		if *key == "" {
			*key = folder
		}
		if *key != folder {
			return nil, fmt.Errorf("%s: rows are of paper %q", p, *key)
		}
		out[folder] = v
	}
	return out, nil
}

// ReadCSV reads a recorded CSV file whose first row must be header and
// returns the rows after it. kind names the file in errors ("read
// scorecard specs/p/scorecard.csv: ...").
func ReadCSV(path, kind string, header []string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", kind, err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", kind, path, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		return nil, fmt.Errorf("read %s %s: header is not %s", kind, path, strings.Join(header, ","))
	}
	return recs[1:], nil
}

// Marker is one begin marker that [Replace] found.
type Marker struct {
	// Text is the marker as written.
	Text string
	// Line is the marker's line in the document, from 1.
	Line int
	// Groups are the texts of the begin pattern's parenthesised
	// subexpressions, in order; "" for one that did not match.
	Groups []string
}

// Replace returns text with the section after each match of begin, up to
// the next end, replaced by what gen returns for that marker; the markers
// stay. A begin marker without an end after it is an error at once ("line
// N: MARKER has no END"); the errors of gen are gathered and returned
// together, joined, after the whole text was read.
func Replace(text string, begin *regexp.Regexp, end string, gen func(m Marker) (string, error)) (string, error) {
	var b strings.Builder
	var errs []error
	rest := text
	for {
		loc := begin.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(rest)
			break
		}
		m := Marker{
			Text: rest[loc[0]:loc[1]],
			Line: 1 + strings.Count(text[:len(text)-len(rest)+loc[0]], "\n"),
		}
		for i := 2; i < len(loc); i += 2 {
			g := ""
			if loc[i] >= 0 {
				g = rest[loc[i]:loc[i+1]]
			}
			m.Groups = append(m.Groups, g)
		}
		b.WriteString(rest[:loc[1]])
		after := rest[loc[1]:]
		stop := strings.Index(after, end)
		if stop < 0 {
			return "", fmt.Errorf("line %d: %s has no %s", m.Line, m.Text, end)
		}
		section, err := gen(m)
		if err != nil {
			errs = append(errs, err)
		}
		b.WriteString(section)
		b.WriteString(end)
		rest = after[stop+len(end):]
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	return b.String(), nil
}

// Write replaces the file at path with text when its content differs
// and reports whether it did. A missing file is an error: a document
// with generated sections is written by hand first.
func Write(path, text string) (bool, error) {
	old, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	if bytes.Equal(old, []byte(text)) {
		return false, nil
	}
	if err := writeText(path, text); err != nil {
		return false, err
	}
	return true, nil
}

func writeText(path, text string) error {
	return atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
}

// WriteAll writes each of docs, regenerated documents by slash-separated
// name relative to root, with [Write], in name order, and returns the
// paths of the files it wrote. Unlike Write it creates a document whose
// file does not exist yet (a paper's scorecard.md, wholly generated, is
// new with its first recording).
func WriteAll(root string, docs map[string]string) ([]string, error) {
	var changed []string
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		path := filepath.Join(root, filepath.FromSlash(name))
		wrote, err := Write(path, docs[name])
		if errors.Is(err, fs.ErrNotExist) {
			wrote, err = true, writeText(path, docs[name])
		}
		if err != nil {
			return nil, err
		}
		if wrote {
			changed = append(changed, path)
		}
	}
	return changed, nil
}
