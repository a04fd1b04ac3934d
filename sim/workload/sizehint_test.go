package workload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// TestRecordsHint checks the parser's starting capacity on the shipped
// traces (gzipped) and on a plain copy of one: at least the number of job
// lines, and at most 20% more, so that the list of records neither grows
// by copies nor holds much unused room; and 0 for a directory and within
// the limit on job lines.
func TestRecordsHint(t *testing.T) {
	for _, name := range []string{"CTC-SP2-1996-3.1-cln", "KTH-SP2-1996-2.1-cln", "SDSC-Par-1996-3.1-cln", "SDSC-SP2-1998-4.2-cln"} {
		path := filepath.Join(tracesDir, name+".swf.gz")
		lines, text := jobLines(t, path)
		check := func(what, p string) {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			h := recordsHint(f, Limits{}.withDefaults())
			if h < lines || float64(h) > 1.2*float64(lines) {
				t.Errorf("%s %s: hint %d for %d job lines", name, what, h, lines)
			}
		}
		check("gzip", path)
		plain := filepath.Join(t.TempDir(), name+".swf")
		if err := os.WriteFile(plain, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		check("plain", plain)
		f, err := os.Open(plain)
		if err != nil {
			t.Fatal(err)
		}
		if h := recordsHint(f, Limits{MaxJobs: 100}.withDefaults()); h != 100 {
			t.Errorf("%s with MaxJobs 100: hint %d", name, h)
		}
		f.Close()
	}
	d, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if h := recordsHint(d, Limits{}.withDefaults()); h != 0 {
		t.Errorf("directory: hint %d, want 0", h)
	}
}

// jobLines returns the number of job lines (not comments, not blank) of
// the gzipped SWF file at path, and its text.
func jobLines(t *testing.T, path string) (int, string) {
	t.Helper()
	text := string(testkit.Gunzip(t, path))
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, ";") {
			n++
		}
	}
	return n, text
}
