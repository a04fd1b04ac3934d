package gendoc

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var testBegin = regexp.MustCompile(`<!-- begin x( [a-z]+)?(:[^>]*)? -->`)

const testEnd = "<!-- end x -->"

func TestReplace(t *testing.T) {
	text := "top\n<!-- begin x a: f1 -->\nold\n<!-- end x -->\nmid\n<!-- begin x -->stale<!-- end x -->\nbottom\n"
	var got []Marker
	out, err := Replace(text, testBegin, testEnd, func(m Marker) (string, error) {
		got = append(got, m)
		return "[" + strings.Join(m.Groups, "|") + "]", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "top\n<!-- begin x a: f1 -->[ a|: f1]<!-- end x -->\nmid\n<!-- begin x -->[|]<!-- end x -->\nbottom\n"
	if out != want {
		t.Errorf("Replace()=%q, want %q", out, want)
	}
	if len(got) != 2 || got[0].Line != 2 || got[1].Line != 6 || got[1].Text != "<!-- begin x -->" {
		t.Errorf("markers %+v, want lines 2 and 6", got)
	}

	// A document without markers is returned as it is.
	if out, err := Replace("plain\n", testBegin, testEnd, nil); err != nil || out != "plain\n" {
		t.Errorf("Replace(plain)=%q, %v", out, err)
	}
}

func TestReplace_Errors(t *testing.T) {
	errA, errB := errors.New("line 1: a"), errors.New("line 3: b")
	text := "<!-- begin x a -->\n<!-- end x -->\n<!-- begin x b -->\n<!-- end x -->\n"
	_, err := Replace(text, testBegin, testEnd, func(m Marker) (string, error) {
		if m.Line == 1 {
			return "", errA
		}
		return "", errB
	})
	if !errors.Is(err, errA) || !errors.Is(err, errB) || err.Error() != "line 1: a\nline 3: b" {
		t.Errorf("Replace()=%v, want both errors gathered", err)
	}

	// A begin marker without an end stops at once, whatever gen said before.
	text = "<!-- begin x a -->\n<!-- end x -->\n\n<!-- begin x b -->\n"
	_, err = Replace(text, testBegin, testEnd, func(Marker) (string, error) { return "", errA })
	if err == nil || err.Error() != "line 4: <!-- begin x b --> has no <!-- end x -->" {
		t.Errorf("Replace(unterminated)=%v", err)
	}
}

type rec struct{ paper, body string }

func readRec(path string) (*rec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	paper, body, _ := strings.Cut(string(data), ",")
	return &rec{paper, body}, nil
}

func TestByPaper(t *testing.T) {
	root := t.TempDir()
	write := func(paper, text string) {
		t.Helper()
		dir := filepath.Join(root, "specs", paper)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "rec.csv"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p1", ",one")
	write("p2", "p2,two")
	paper := func(r *rec) *string { return &r.paper }
	got, err := ByPaper(root, "rec.csv", readRec, paper)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["p1"].paper != "p1" || got["p1"].body != "one" || got["p2"].body != "two" {
		t.Errorf("ByPaper()=%v", got)
	}

	write("p3", "other,three")
	_, err = ByPaper(root, "rec.csv", readRec, paper)
	if err == nil || !strings.HasSuffix(err.Error(), `rec.csv: rows are of paper "other"`) {
		t.Errorf("ByPaper(mismatch)=%v", err)
	}
}

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text  string
		wrote bool
	}{{"new\n", true}, {"new\n", false}} {
		wrote, err := Write(path, c.text)
		if err != nil || wrote != c.wrote {
			t.Errorf("Write(%q)=%v, %v, want %v", c.text, wrote, err, c.wrote)
		}
		if data, _ := os.ReadFile(path); string(data) != c.text {
			t.Errorf("file holds %q, want %q", data, c.text)
		}
	}
	if _, err := Write(filepath.Join(t.TempDir(), "missing.md"), "x"); err == nil {
		t.Error("Write(missing file) succeeded")
	}
}

func TestReadCSV(t *testing.T) {
	dir := t.TempDir()
	header := []string{"a", "b"}
	for _, c := range []struct {
		name, text string
		rows       int
		err        string // the error's text after the path, "" for none
	}{
		{"ok.csv", "a,b\n1,2\n3,4\n", 2, ""},
		{"header.csv", "a,c\n1,2\n", 0, ": header is not a,b"},
		{"empty.csv", "", 0, ": header is not a,b"},
		{"ragged.csv", "a,b\n1\n", 0, ": record on line 2: wrong number of fields"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := ReadCSV(path, "table", header)
		switch {
		case c.err == "" && (err != nil || len(rows) != c.rows):
			t.Errorf("%s: ReadCSV()=%v, %v, want %d rows", c.name, rows, err, c.rows)
		case c.err != "" && (err == nil || err.Error() != "read table "+path+c.err):
			t.Errorf("%s: ReadCSV() error %v, want %q", c.name, err, "read table "+path+c.err)
		}
	}
	if _, err := ReadCSV(filepath.Join(dir, "missing.csv"), "table", header); err == nil || !strings.HasPrefix(err.Error(), "read table: open ") {
		t.Errorf("ReadCSV(missing) error %v", err)
	}
}

// TestWriteAll: a document whose file holds its text is left alone, a
// changed one is rewritten and a missing one created; the paths written
// come back in name order.
func TestWriteAll(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"same.md": "kept\n", "docs/old.md": "before\n"} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := map[string]string{"same.md": "kept\n", "docs/old.md": "after\n", "docs/new.md": "new\n"}
	changed, err := WriteAll(root, docs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "docs", "new.md"), filepath.Join(root, "docs", "old.md")}
	if !slices.Equal(changed, want) {
		t.Errorf("WriteAll wrote %q, want %q", changed, want)
	}
	for name, text := range docs {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want %q", name, got, err, text)
		}
	}
	if changed, err := WriteAll(root, docs); err != nil || len(changed) != 0 {
		t.Errorf("second WriteAll wrote %q, %v; want nothing", changed, err)
	}
}
