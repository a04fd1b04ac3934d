package reproduction

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/reproduction/readings"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sweep"
)

// ReadingsDir is the folder of a paper's readings outputs, one folder per
// reading: OUT/PAPER/readings/ID/GROUP/sweep.
const ReadingsDir = "readings"

// Run is what `schedfarm reproduce` does, given its settings: run figure
// groups, make their tables and figures, grade the papers' claims and
// readings, and record the results.
type Run struct {
	// Root is the repository holding specs/ and traces/.
	Root string
	// Out is the output root: each group goes to Out/PAPER/GROUP.
	Out string
	// Record stores the scorecards and readings tables under specs/ and
	// regenerates the docs made from them.
	Record bool
	// W receives the progress and summary lines.
	W io.Writer
	// RunSweep runs a spec into the sweep output folder outDir and says
	// how many of its tasks came from the result cache.
	RunSweep func(spec *sweep.Spec, outDir string) (cached, total int, err error)

	// readings are the papers' readings files LoadReadings checked.
	readings map[string]*paperReadings
}

// paperReadings is a paper's checked readings file and the figure groups
// it was checked against.
type paperReadings struct {
	groups []readings.Group
	file   *readings.File
}

// LoadReadings loads and checks the readings file of each of the papers
// that has one, against the paper's specs, and keeps them for
// [Run.GradeReadings]: called before the figure groups run, a bad
// readings file (an unknown parameter, a value out of range) stops the
// command with its file, line and key path before anything runs, not
// after the whole base reproduction.
func (run *Run) LoadReadings(papers []string) error {
	for _, paper := range Papers() {
		if !slices.Contains(papers, paper) {
			continue
		}
		pr, err := run.loadReadings(paper)
		if err != nil {
			return err
		}
		if run.readings == nil {
			run.readings = map[string]*paperReadings{}
		}
		run.readings[paper] = pr
	}
	return nil
}

// loadReadings loads the paper's readings file, or returns nil if it has
// none.
func (run *Run) loadReadings(paper string) (*paperReadings, error) {
	if pr, ok := run.readings[paper]; ok {
		return pr, nil
	}
	path := filepath.Join(run.Root, "specs", paper, readings.FileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	groups, err := ReadingGroups(run.Root, paper)
	if err != nil {
		return nil, err
	}
	rf, err := readings.Load(path, readings.Options{Paper: paper, Groups: groups})
	if err != nil {
		return nil, err
	}
	return &paperReadings{groups: groups, file: rf}, nil
}

// Resolve resolves figure group names, paper names and all into recipes,
// each once, in the order named.
func Resolve(names []string) ([]*Recipe, error) {
	if RecipesErr != nil {
		return nil, RecipesErr
	}
	var out []*Recipe
	add := func(r *Recipe) {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, name := range names {
		switch {
		case name == "all":
			for i := range Recipes {
				add(&Recipes[i])
			}
		case PaperGroups(name) != nil:
			for i := range Recipes {
				if p, _ := Paper(Recipes[i].Name); p == name {
					add(&Recipes[i])
				}
			}
		default:
			r, err := LookupRecipe(name)
			if err != nil {
				return nil, err
			}
			add(r)
		}
	}
	return out, nil
}

// LoadInputs loads the spec of every recipe and the claims file of every
// paper they belong to (the papers in recipe order), so a bad file stops
// the reproduction before any run.
func LoadInputs(root string, recipes []*Recipe) ([]*sweep.Spec, []string, map[string]*claims.File, error) {
	specs := make([]*sweep.Spec, len(recipes))
	var papers []string
	for i, r := range recipes {
		s, err := LoadSpec(root, r.Spec)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		specs[i] = s
		if p, _ := Paper(r.Name); !slices.Contains(papers, p) {
			papers = append(papers, p)
		}
	}
	files, err := LoadClaims(root, papers)
	if err != nil {
		return nil, nil, nil, err
	}
	return specs, papers, files, nil
}

// RunRecipes runs each recipe's sweep (specs[i] is recipes[i]'s) into
// Out/GROUP/sweep and makes its tables and figures in Out/GROUP. A recipe
// whose spec file an earlier one ran shares that one's sweep outputs
// instead of running it again.
func (run *Run) RunRecipes(recipes []*Recipe, specs []*sweep.Spec) error {
	w := run.W
	began := time.Now()
	written := map[string]string{} // spec -> sweep folder written by this reproduce
	for i, r := range recipes {
		dir := filepath.Join(run.Out, filepath.FromSlash(r.Name))
		sweepDir := filepath.Join(dir, "sweep")
		start := time.Now()
		fmt.Fprintf(w, "== %s: %s\n", r.Name, r.Doc)
		if prev, ok := written[r.Spec]; ok {
			if err := shareSweep(prev, sweepDir); err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			fmt.Fprintf(w, "%s: sweep outputs of %s shared (same spec)\n", r.Name, prev)
		} else {
			if _, _, err := run.RunSweep(specs[i], sweepDir); err != nil {
				return fmt.Errorf("%s: %w", r.Name, err)
			}
			written[r.Spec] = sweepDir
		}
		files, err := r.Make(run.Root, sweepDir, dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d tables and figures in %s (%v)\n", r.Name, len(files), dir, time.Since(start).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "reproduced %s in %v\n", count(len(recipes), "figure group"), time.Since(began).Round(time.Second))
	return nil
}

// count returns "1 figure group", "2 figure groups".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// LoadClaims loads the claims file of each paper that has one; a paper
// without one maps to nil.
func LoadClaims(root string, papers []string) (map[string]*claims.File, error) {
	out := map[string]*claims.File{}
	var errs []error
	for _, p := range papers {
		path := filepath.Join(root, "specs", p, claims.FileName)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			out[p] = nil
			continue
		}
		f, err := claims.Load(path, claims.Options{Groups: PaperGroups(p)})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[p] = f
	}
	return out, errors.Join(errs...)
}

// Grade evaluates each paper's claims against the outputs under Out,
// writes the scorecards into Out/<paper>, prints the summary lines and,
// with Record, stores the scorecards and regenerates the docs. only
// limits a paper's groups (nil: every group with outputs). It returns the
// scorecards by paper, and fails when a claim cannot be evaluated or a
// must claim does not agree.
func (run *Run) Grade(files map[string]*claims.File, only map[string][]string) (map[string]*claims.Scorecard, error) {
	w := run.W
	cards := map[string]*claims.Scorecard{}
	var errs []error
	for _, paper := range Papers() {
		f, ok := files[paper]
		if !ok {
			continue
		}
		if f == nil {
			fmt.Fprintf(w, "%s: no claims (specs/%s/%s)\n", paper, paper, claims.FileName)
			continue
		}
		o := claims.NewOutputs(filepath.Join(run.Out, paper))
		o.Only = only[paper]
		sc := claims.Evaluate(f, o)
		cards[paper] = sc
		if _, err := sc.WriteFiles(o.Dir); err != nil {
			return nil, err
		}
		fmt.Fprintln(w, sc.Summary())
		if err := sc.Err(); err != nil {
			errs = append(errs, err)
		}
		if run.Record {
			path, err := claims.Record(run.Root, sc)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(w, "recorded %s\n", path)
		}
	}
	if run.Record {
		changed, err := claims.WriteDocs(run.Root)
		if err != nil {
			return nil, err
		}
		for _, p := range changed {
			fmt.Fprintf(w, "regenerated the scorecard sections of %s\n", p)
		}
	}
	return cards, errors.Join(errs...)
}

// OutputsIn says what a folder of existing outputs holds: dir is the
// reproduction's output root, a paper's folder or a figure group's
// folder. It returns the papers, the output root, and for a group's
// folder the one group of its paper to grade.
func OutputsIn(dir string) (papers []string, outRoot string, only map[string][]string, err error) {
	only = map[string][]string{}
	isGroup := func(d string) bool {
		_, err := os.Stat(filepath.Join(d, "sweep", results.SummaryFile))
		return err == nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, "", nil, err
	}
	switch base := filepath.Base(abs); {
	case isGroup(abs):
		paperDir := filepath.Dir(abs)
		paper := filepath.Base(paperDir)
		papers, outRoot = []string{paper}, filepath.Dir(paperDir)
		only[paper] = []string{base}
	case PaperGroups(base) != nil:
		papers, outRoot = []string{base}, filepath.Dir(abs)
	default:
		outRoot = abs
		for _, p := range Papers() {
			if st, err := os.Stat(filepath.Join(abs, p)); err == nil && st.IsDir() {
				papers = append(papers, p)
			}
		}
	}
	if len(papers) == 0 {
		return nil, "", nil, fmt.Errorf("%s holds no reproduction outputs (want the output folder of schedfarm reproduce, a paper's folder in it, or a figure group's)", dir)
	}
	return papers, outRoot, only, nil
}

// GradeReadings grades, for each of the papers that has a readings file,
// every reading's outputs (run first when runFirst) with the paper's
// claims, compares each scorecard with the default's (cards), writes
// Out/PAPER/readings.{md,csv} and each reading's scorecard in its folder,
// prints the table's summary lines and, with Record, records
// specs/PAPER/readings.csv and regenerates the readings sections of
// REPRODUCING.md and the papers' pages. A must claim failing under a reading does not fail it: a
// reading's verdicts are findings. It uses the files [Run.LoadReadings]
// checked, and loads the others.
func (run *Run) GradeReadings(papers []string, files map[string]*claims.File, cards map[string]*claims.Scorecard, runFirst bool) error {
	w := run.W
	graded := 0
	for _, paper := range Papers() {
		if !slices.Contains(papers, paper) {
			continue
		}
		pr, err := run.loadReadings(paper)
		if err != nil {
			return err
		}
		if pr == nil {
			fmt.Fprintf(w, "%s: no readings (specs/%s/%s)\n", paper, paper, readings.FileName)
			continue
		}
		groups, rf := pr.groups, pr.file
		cf, def := files[paper], cards[paper]
		if cf == nil || def == nil {
			return fmt.Errorf("%s: readings need the paper's claims (specs/%s/%s)", paper, paper, claims.FileName)
		}
		table := &readings.Table{Paper: paper, Rows: []readings.Row{readings.DefaultRow(def)}}
		for i := range rf.Readings {
			r := &rf.Readings[i]
			dir := filepath.Join(run.Out, paper, ReadingsDir, r.ID)
			if runFirst {
				fmt.Fprintf(w, "== %s reading %s: %s\n", paper, r.ID, r.Summary)
				if err := run.runReading(paper, groups, r, dir); err != nil {
					return err
				}
			} else if _, err := os.Stat(dir); err != nil {
				return fmt.Errorf("%s reading %s: no outputs in %s (run schedfarm reproduce --readings %s)", paper, r.ID, dir, paper)
			}
			sc := claims.Evaluate(cf, claims.NewOutputs(dir))
			if _, err := sc.WriteFiles(dir); err != nil {
				return err
			}
			row, err := readings.Compare(r, def, sc)
			if err != nil {
				return fmt.Errorf("%s: %w", paper, err)
			}
			table.Rows = append(table.Rows, row)
		}
		if _, err := table.WriteFiles(filepath.Join(run.Out, paper)); err != nil {
			return err
		}
		fmt.Fprint(w, table.Summary())
		graded++
		if run.Record {
			p, err := readings.Record(run.Root, table)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "recorded %s\n", p)
		}
	}
	if run.Record && graded > 0 {
		changed, err := readings.WriteDocs(run.Root)
		if err != nil {
			return err
		}
		for _, p := range changed {
			fmt.Fprintf(w, "regenerated the readings sections of %s\n", p)
		}
	}
	return nil
}

// runReading runs each figure group of the paper with the reading's
// overrides applied into dir/GROUP/sweep. A group the reading leaves
// unchanged shares the default's outputs (Out/PAPER/GROUP/sweep), and a
// group whose spec an earlier group of the same reading ran shares that
// one's; tasks the reading does not change come from the result cache.
func (run *Run) runReading(paper string, groups []readings.Group, r *readings.Reading, dir string) error {
	w := run.W
	written := map[string]string{} // spec file -> sweep folder of this reading
	for _, g := range groups {
		rec, err := LookupRecipe(paper + "/" + g.Name)
		if err != nil {
			return err
		}
		spec := rec.Spec
		sweepDir := filepath.Join(dir, g.Name, "sweep")
		applied, changed, err := r.Apply(g.Name, g.Spec)
		if err != nil {
			return err
		}
		switch prev, ok := written[spec]; {
		case !changed:
			if err := shareSweep(filepath.Join(run.Out, paper, g.Name, "sweep"), sweepDir); err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			fmt.Fprintf(w, "%s: unchanged by the reading, the default's outputs\n", g.Name)
		case ok:
			if err := shareSweep(prev, sweepDir); err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			fmt.Fprintf(w, "%s: sweep outputs of %s shared (same spec)\n", g.Name, prev)
		default:
			start := time.Now()
			cached, total, err := run.RunSweep(applied, sweepDir)
			if err != nil {
				return fmt.Errorf("reading %s, group %s: %w", r.ID, g.Name, err)
			}
			written[spec] = sweepDir
			fmt.Fprintf(w, "%s: %d of %d tasks from the result cache (%v)\n", g.Name, cached, total, time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}
