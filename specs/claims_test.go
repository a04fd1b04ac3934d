package specs_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/reproduction"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner/runnertest"
	"github.com/schedfarm/schedfarm/sweep"
)

var update = flag.Bool("update", false, "regenerate the scorecard sections of REPRODUCING.md and README.md from the recorded scorecards")

// claimsFiles returns the papers with a claims file, each with its
// parsed file (validated against the paper's figure groups).
func claimsFiles(t *testing.T) map[string]*claims.File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("*", claims.FileName))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*claims.File{}
	for _, p := range paths {
		paper := filepath.Dir(p)
		groups := reproduction.PaperGroups(paper)
		if groups == nil {
			t.Errorf("%s: paper %s has no figure groups in report's recipes", p, paper)
			continue
		}
		f, err := claims.Load(p, claims.Options{Groups: groups})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out[paper] = f
	}
	return out
}

// TestClaims_Valid validates every specs/*/claims.yaml.
func TestClaims_Valid(t *testing.T) {
	for paper, f := range claimsFiles(t) {
		t.Logf("%s: %d claims", paper, len(f.Claims))
	}
}

// TestClaims_Recorded checks each paper's recorded scorecard against its
// claims file, and that no recorded claim failed to evaluate, no must
// claim fails and every claim that does not agree has a reason.
func TestClaims_Recorded(t *testing.T) {
	for paper, f := range claimsFiles(t) {
		t.Run(paper, func(t *testing.T) {
			path := filepath.Join(paper, claims.CommittedScorecard)
			sc, err := claims.ReadCSV(path)
			if err != nil {
				t.Fatalf("%v (record it: schedfarm reproduce --record %s)", err, paper)
			}
			if err := claims.CheckRecorded(sc, f); err != nil {
				t.Errorf("%s is stale; rerun schedfarm reproduce --record %s (or --claims-only out/reproduce --record):\n%v", path, paper, err)
			}
			for _, r := range sc.Rows {
				switch {
				case r.Verdict == claims.Error:
					t.Errorf("claim %s could not be evaluated: %s", r.ID, r.Error)
				case r.MustFails():
					t.Errorf("must claim %s is %s (expected %s, ours %s)", r.ID, r.Verdict, r.Expected, r.Ours)
				case r.NeedsReason():
					t.Errorf("claim %s is %s without a reason in %s", r.ID, r.Verdict, filepath.Join(paper, claims.FileName))
				}
			}
		})
	}
}

// TestDocs_UpToDate fails when the scorecard sections of README.md,
// REPRODUCING.md or the papers' pages (docs/papers) differ from what the recorded scorecards generate; -update
// rewrites them.
func TestDocs_UpToDate(t *testing.T) {
	root := ".."
	if *update {
		if _, err := claims.WriteDocs(root); err != nil {
			t.Fatal(err)
		}
	}
	docs, err := claims.Docs(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range docs {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if d := golden.Diff(string(got), want); d != "" {
			t.Errorf("%s is stale at %s\n(regenerate: go test ./specs -run TestDocs_UpToDate -update, or schedfarm reproduce --record)", name, d)
		}
	}
}

// TestClaims_Rerun runs each paper's cheapest figure group that has
// claims (at most maxRerunTasks simulations) through the real runner and
// checks that its claims grade as recorded, tying the recorded scorecard
// to the simulator as it is.
func TestClaims_Rerun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations")
	}
	const maxRerunTasks = 4
	for paper, f := range claimsFiles(t) {
		t.Run(paper, func(t *testing.T) {
			recorded, err := claims.ReadCSV(filepath.Join(paper, claims.CommittedScorecard))
			if err != nil {
				t.Fatal(err)
			}
			// The cheapest group with claims.
			var group string
			var spec *sweep.Spec
			var tasks []sweep.Task
			for _, g := range reproduction.PaperGroups(paper) {
				has := slices.ContainsFunc(f.Claims, func(c claims.Claim) bool { return slices.Equal(c.Groups(), []string{g}) })
				if !has {
					continue
				}
				r, err := reproduction.LookupRecipe(paper + "/" + g)
				if err != nil {
					t.Fatal(err)
				}
				s, err := reproduction.LoadSpec("..", r.Spec)
				if err != nil {
					t.Fatal(err)
				}
				ts, err := s.Tasks()
				if err != nil {
					t.Fatal(err)
				}
				if len(ts) <= maxRerunTasks && (tasks == nil || len(ts) < len(tasks)) {
					group, spec, tasks = g, s, ts
				}
			}
			if group == "" {
				t.Skipf("no figure group with claims has at most %d tasks", maxRerunTasks)
			}
			out := t.TempDir()
			res, err := runnertest.Run(context.Background(), spec, tasks)
			if err != nil {
				t.Fatal(err)
			}
			if err := results.WriteOutputs(filepath.Join(out, group, "sweep"), spec, tasks, res, "test", results.WithTables(report.Tables)); err != nil {
				t.Fatal(err)
			}
			sc := claims.Evaluate(f, claims.NewOutputs(out))
			byID := map[string]claims.Row{}
			for _, r := range recorded.Rows {
				byID[r.ID] = r
			}
			for _, r := range sc.Rows {
				want := byID[r.ID]
				if r.Ours != want.Ours || r.Verdict != want.Verdict {
					t.Errorf("claim %s: ours %s (%s), recorded %s (%s): rerun schedfarm reproduce --record %s", r.ID, r.Ours, r.Verdict, want.Ours, want.Verdict, paper)
				}
			}
			t.Logf("%s: %d claims of %s regraded as recorded", paper, len(sc.Rows), group)
		})
	}
}

// maxReproducingBytes bounds REPRODUCING.md, the document a reader reads
// whole: the figures lines, headline results, statements per figure and
// commands. A paper's method, readings and per-figure tables go on its
// page, docs/papers/<paper>.md.
const maxReproducingBytes = 32 << 10

// TestReproducingDoc_Short fails when REPRODUCING.md outgrows
// maxReproducingBytes or holds a per-figure statement table or a readings
// table, which belong on the papers' pages.
func TestReproducingDoc_Short(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", claims.ReproducingDoc))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > maxReproducingBytes {
		t.Errorf("%s is %d bytes, more than %d: move per-figure detail to the paper's page under %s", claims.ReproducingDoc, len(data), maxReproducingBytes, claims.PaperPages)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "<!-- begin readings ") || (strings.HasPrefix(line, "<!-- begin scorecard ") && strings.Contains(line, ":")) {
			t.Errorf("%s:%d: %s belongs on the paper's page under %s", claims.ReproducingDoc, i+1, line, claims.PaperPages)
		}
	}
}
