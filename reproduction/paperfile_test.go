package reproduction

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// TestPapers: the paper files built into the binary are valid, name every
// paper with a claims file, and are the files of the specs folder.
func TestPapers(t *testing.T) {
	if RecipesErr != nil {
		t.Fatal(RecipesErr)
	}
	got, err := LoadPapers(os.DirFS(filepath.Join("..", "specs")))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(Recipes) || len(got) == 0 {
		t.Fatalf("%d groups in specs/, %d built in", len(got), len(Recipes))
	}
	for i := range got {
		if got[i].Name != Recipes[i].Name || !reflect.DeepEqual(got[i].Tables, Recipes[i].Tables) {
			t.Errorf("group %d: %s in specs/, %s built in", i, got[i].Name, Recipes[i].Name)
		}
	}
	claimsFiles, _ := filepath.Glob(filepath.Join("..", "specs", "*", "claims.yaml"))
	for _, c := range claimsFiles {
		if p := filepath.Base(filepath.Dir(c)); !slices.Contains(Papers(), p) {
			t.Errorf("%s: paper %s is not in specs/papers.yaml", c, p)
		}
	}
}

// TestPaperData_EndToEnd: a paper added as data alone (testdata/paperdata:
// papers.yaml, toy/paper.yaml and its spec, no Go) is loaded, its spec
// run and its group made: the tables and figures its paper file declares,
// each table the same bytes as report writes for the same options.
func TestPaperData_EndToEnd(t *testing.T) {
	root := filepath.Join("testdata", "paperdata")
	rs, err := LoadPapers(os.DirFS(filepath.Join(root, "specs")))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Name != "toy/fig01" || rs[0].Spec != "specs/toy/small.yaml" {
		t.Fatalf("recipes %+v, want toy/fig01 from specs/toy/small.yaml", rs)
	}
	r := rs[0]
	spec, err := os.ReadFile(filepath.Join(root, r.Spec))
	if err != nil {
		t.Fatal(err)
	}
	sweepDir := filepath.Join(t.TempDir(), "sweep")
	if err := runnertest.Write(string(spec), root, sweepDir); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	files, err := r.Make(root, sweepDir, out)
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, f := range files {
		p, _ := filepath.Rel(out, f)
		rel = append(rel, filepath.ToSlash(p))
	}
	for _, want := range []string{"tables/fig01-slowdown.md", "tables/fig01-slowdown.csv", "tables/fig01-vs-fcfs.md", "tables/fig01-vs-fcfs.csv"} {
		if !slices.Contains(rel, want) {
			t.Errorf("Make wrote %v, without %s", rel, want)
		}
	}
	figs := 0
	for _, f := range rel {
		if strings.HasPrefix(f, "figures/") {
			figs++
		}
	}
	if figs == 0 {
		t.Errorf("Make wrote %v: no figure", rel)
	}
	s, err := report.Load(sweepDir)
	if err != nil {
		t.Fatal(err)
	}
	direct := t.TempDir()
	for _, tj := range r.Tables {
		if _, err := s.WriteTables(filepath.Join(direct, tj.Name), tj.Opts); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".md", ".csv"} {
			a, errA := os.ReadFile(filepath.Join(out, "tables", tj.Name+ext))
			b, errB := os.ReadFile(filepath.Join(direct, tj.Name+ext))
			if errA != nil || errB != nil || string(a) != string(b) {
				t.Errorf("%s%s differs from report's table of the same options (%v, %v)", tj.Name, ext, errA, errB)
			}
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "tables", "fig01-vs-fcfs.md"))
	if !strings.Contains(string(md), "EASY") {
		t.Errorf("fig01-vs-fcfs.md does not compare EASY:\n%s", md)
	}
}

// TestParsePaper_Errors: a bad paper file reports every problem with its
// line and key path.
func TestParsePaper_Errors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
		sentinel   error
	}{
		{"unknown key", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    tabels: []\n", []string{"line 5: groups[0].tabels"}, yamlerr.ErrUnknownKey},
		{"missing spec", "groups:\n  - name: a\n    doc: d\n", []string{"line 2: groups[0].spec"}, yamlerr.ErrRequired},
		{"bad layout", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    tables:\n      - name: t\n        layout: tall\n", []string{"line 7: groups[0].tables[0].layout", `"tall"`}, yamlerr.ErrValue},
		{"bad kind", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    plots:\n      - kind: pie\n", []string{"line 6: groups[0].plots[0].kind"}, yamlerr.ErrValue},
		{"unknown step", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    steps: [lsf-tabel3]\n", []string{"line 5: groups[0].steps[0]", "lsf-table3"}, yamlerr.ErrValue},
		{"panel without x", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    panels:\n      - {name: p, caption: c, metric: m, series: load}\n", []string{"line 6: groups[0].panels[0].x"}, yamlerr.ErrRequired},
		{"empty where", "groups:\n  - name: a\n    spec: a.yaml\n    doc: d\n    plots:\n      - kind: bars\n        where: {label: []}\n", []string{"line 7: groups[0].plots[0].where.label"}, yamlerr.ErrRequired},
		{"twice", "groups:\n  - {name: a, spec: a.yaml, doc: d}\n  - {name: a, spec: b.yaml, doc: d}\n", []string{"line 3: groups[1].name", "named twice"}, yamlerr.ErrValue},
		{"syntax", "groups: [\n", []string{"line"}, yamlerr.ErrSyntax},
		{"limits without trace", "tss_paper_limits:\n  - {procs: 430, table: Table 4}\ngroups:\n  - {name: a, spec: a.yaml, doc: d}\n", []string{"line 2: tss_paper_limits[0].trace"}, yamlerr.ErrRequired},
		{"limits procs", "tss_paper_limits:\n  - {procs: 0.5, table: Table 4, trace: ctc}\ngroups:\n  - {name: a, spec: a.yaml, doc: d}\n", []string{"line 2: tss_paper_limits[0].procs", "0.5"}, yamlerr.ErrValue},
		{"limits twice", "tss_paper_limits:\n  - {procs: 430, table: Table 4, trace: ctc}\n  - {procs: 430, table: Table 5, trace: sdsc}\ngroups:\n  - {name: a, spec: a.yaml, doc: d}\n", []string{"line 3: tss_paper_limits[1].procs", "listed twice"}, yamlerr.ErrValue},
		{"limits key", "tss_paper_limits:\n  - {procs: 430, tabel: Table 4, trace: ctc}\ngroups:\n  - {name: a, spec: a.yaml, doc: d}\n", []string{"line 2: tss_paper_limits[0].tabel"}, yamlerr.ErrUnknownKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePaper("p", []byte(tc.text))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, tc.sentinel) {
				t.Errorf("err %v does not match ErrInvalid and %v", err, tc.sentinel)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q lacks %q", err, w)
				}
			}
		})
	}
	// LoadPapers names the file.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, PapersFile), []byte("papers: [p]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", PaperFile), []byte("groups:\n  - name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPapers(os.DirFS(dir)); err == nil || !strings.Contains(err.Error(), "specs/p/paper.yaml") || !strings.Contains(err.Error(), "groups[0].spec") {
		t.Errorf("LoadPapers: err = %v, want the file and the key path", err)
	}
}

// FuzzParsePaper: any input gives recipes or an invalid-file error, never
// a panic; what parses has a name, a spec and a doc per group.
func FuzzParsePaper(f *testing.F) {
	for _, p := range []string{"kettimuthu2005", "islam2004", "lawson2002", "parsons1997", "srinivasan2003"} {
		b, err := os.ReadFile(filepath.Join("..", "specs", p, PaperFile))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("groups:\n  - {name: a, spec: a.yaml, doc: d, plots: [{kind: bars, where: {label: x}}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParsePaper("p", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		for _, r := range rs {
			if r.Name == "p/" || r.Spec == "specs/p" || r.Doc == "" {
				t.Fatalf("accepted a group without name, spec or doc: %+v", r)
			}
		}
	})
}
