package report

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Figure kinds of [PlotOptions].
const (
	// KindBars draws, per workload, grouped bars per category: one bar
	// per setting, the metric on y (Kettimuthu et al. Figs 7-34).
	KindBars = "bars"
	// KindLoad draws, per category of each workload without its load,
	// the metric against the load factor, one line per setting (Figs
	// 37-40).
	KindLoad = "load"
	// KindUtil draws, per workload without its load, the utilization
	// against the load factor, one line per setting (Figs 35-36).
	KindUtil = "util"
	// KindUtilMetric draws, per category of each workload without its
	// load, the metric against the utilization, one line per setting
	// whose points follow the load factor (Figs 41-44).
	KindUtilMetric = "util-metric"
)

// Kinds lists the figure kinds.
var Kinds = []string{KindBars, KindLoad, KindUtil, KindUtilMetric, KindTransient, KindParam, KindTimeseries, KindGantt}

// Formats lists the figure file formats.
var Formats = []string{"png", "svg"}

// PlotOptions choose the figures of [Plots].
type PlotOptions struct {
	// Kind is one of [Kinds] (default [KindBars]).
	Kind string
	// Metric and Scheme are as in [CollateOptions] (default: the
	// spec's, see the package doc); [KindUtil] ignores them.
	Metric, Scheme string
	// Where keeps the rows that pass every filter.
	Where []Filter
	// Formats are file formats among [Formats] (default: all of them).
	Formats []string
	// OutDir is where the files go (default: the "figures" folder of the
	// sweep's directory); it is created if needed.
	OutDir string
	// Baseline is the setting [KindTransient] compares with, and Batch
	// its batch size in jobs (default [DefaultBatch]). With [KindBars],
	// Baseline makes each bar the percent change 100 (setting - baseline)
	// / baseline of the category's metric (Srinivasan et al. Figs 1-11),
	// and the baseline itself is not drawn.
	Baseline string
	Batch    int
	// Compare is how bars with a Baseline compare: [ComparePct]
	// (the default) or [CompareR] (Lawson and Smirni's slowdown
	// ratio R of each setting against the baseline, positive when the
	// setting is better).
	Compare string
	// X and Series are [KindParam]'s parameter on the x axis and the
	// parameter (or "load") whose values are its lines.
	X, Series string
	// Style forces the y scale and the legend position of every figure
	// (default: each figure's own choice).
	Style plot.Style
	// From and To bound the simulated time [KindTimeseries] and
	// [KindGantt] draw (To 0: to the end).
	From, To sim.Time
	// Task is the task_index [KindGantt] draws; Color what colours its
	// jobs: "" or "category" (Scheme's categories, default ss4) or a
	// numeric jobs.parquet column. SpecFile is the spec that made the
	// sweep, needed only when it names traces by relative path (the
	// outputs' metadata hold the spec's text, not its place).
	Task     int
	Color    string
	SpecFile string
}

// figure is one chart and its file name without extension.
type figure struct {
	name  string
	chart interface{ Save(path string) error }
}

// Plots reads the sweep in dir and draws its figures (see [Sweep.Plots]).
func Plots(dir string, opts PlotOptions) ([]string, error) {
	return PlotsContext(context.Background(), dir, opts)
}

// PlotsContext is [Plots] with a context, which ends the simulation a
// Gantt chart runs.
func PlotsContext(ctx context.Context, dir string, opts PlotOptions) ([]string, error) {
	s, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return s.PlotsContext(ctx, opts)
}

// Plots draws the figures chosen by opts and returns the paths written, in
// a fixed order. File names are made of the kind, the metric, the scheme,
// the workload and the category, for example
// "bars-bsd_mean-ss16-ctc-sp2-1996-3.1-cln-0+5000-p430-accurate-load1.svg":
// the same sweep and options always give the same names, and figures made
// with other filters into the same folder overwrite each other's files.
func (s *Sweep) Plots(opts PlotOptions) ([]string, error) {
	return s.PlotsContext(context.Background(), opts)
}

// PlotsContext is [Sweep.Plots] with a context, which ends the
// simulation a Gantt chart runs.
func (s *Sweep) PlotsContext(ctx context.Context, opts PlotOptions) ([]string, error) {
	if err := s.plotDefaults(&opts); err != nil {
		return nil, err
	}
	figs, err := s.drawFigures(ctx, opts)
	if err != nil {
		return nil, err
	}
	if len(figs) == 0 {
		return nil, fmt.Errorf("no %s figure to draw: no results", opts.Kind)
	}
	if err := mkdir(opts.OutDir); err != nil {
		return nil, err
	}
	return saveFigures(figs, opts)
}

// plotDefaults fills in the kind (bars), formats (all) and folder
// (figures of the sweep's) opts leave out, and checks the kind and
// formats.
func (s *Sweep) plotDefaults(opts *PlotOptions) error {
	if opts.Kind == "" {
		opts.Kind = KindBars
	}
	if !slices.Contains(Kinds, opts.Kind) {
		return fmt.Errorf("unknown figure kind %q (valid: %s)", opts.Kind, strings.Join(Kinds, ", "))
	}
	if len(opts.Formats) == 0 {
		opts.Formats = Formats
	}
	for _, f := range opts.Formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("unknown figure format %q (valid: %s)", f, strings.Join(Formats, ", "))
		}
	}
	if opts.OutDir == "" {
		opts.OutDir = filepath.Join(s.Dir, "figures")
	}
	return nil
}

// drawFigures makes the charts of opts' kind.
func (s *Sweep) drawFigures(ctx context.Context, opts PlotOptions) ([]figure, error) {
	switch opts.Kind {
	case KindTransient:
		return s.transient(opts)
	case KindTimeseries:
		return s.timeseries(opts)
	case KindGantt:
		return s.gantt(ctx, opts)
	}
	f, err := s.collatedFigures(opts)
	if err != nil {
		return nil, err
	}
	switch opts.Kind {
	case KindBars:
		return f.bars(), nil
	case KindLoad:
		return f.lines(false), nil
	case KindUtil:
		return f.util(), nil
	case KindUtilMetric:
		return f.lines(true), nil
	case KindParam:
		return f.param(opts.X, opts.Series)
	}
	return nil, nil
}

// collatedFigures collates the sweep for opts (a metric or scheme left
// out is the spec's) and checks the bar comparison and baseline.
func (s *Sweep) collatedFigures(opts PlotOptions) (*figures, error) {
	metric, scheme := s.withDefaults(opts.Metric, opts.Scheme)
	c, err := Collate(s.Summary, s.Tasks, CollateOptions{Metric: metric, Scheme: scheme, Where: opts.Where})
	if err != nil {
		return nil, err
	}
	f := &figures{c: c, where: opts.Where, baseline: -1, compare: opts.Compare}
	if opts.Kind == KindLoad || opts.Kind == KindUtil {
		f.reps = s.replications(c, opts.Where)
	}
	switch opts.Compare {
	case "", ComparePct:
		f.compare = ComparePct
	case CompareR:
	default:
		return nil, fmt.Errorf("unknown bar comparison %q (valid: %s, %s)", opts.Compare, ComparePct, CompareR)
	}
	if opts.Compare != "" && (opts.Kind != KindBars || opts.Baseline == "") {
		return nil, fmt.Errorf("comparison %s: only bars with a baseline compare", opts.Compare)
	}
	if opts.Kind == KindBars && opts.Baseline != "" {
		if f.baseline, err = c.FindSetting(opts.Baseline); err != nil {
			return nil, fmt.Errorf("--baseline: %w", err)
		}
	}
	return f, nil
}

// saveFigures saves each figure, styled, in every format of opts and
// returns the paths written.
func saveFigures(figs []figure, opts PlotOptions) ([]string, error) {
	var out []string
	for _, fg := range figs {
		for _, ext := range opts.Formats {
			path := filepath.Join(opts.OutDir, fg.name+"."+ext)
			opts.Style.Apply(fg.chart)
			if err := fg.chart.Save(path); err != nil {
				return out, err
			}
			out = append(out, path)
		}
	}
	return out, nil
}

// figures makes the charts of one collation.
type figures struct {
	c     *Collation
	where []Filter
	// baseline is the setting bars are compared with (-1: none), and
	// compare how (ComparePct or CompareR).
	baseline int
	compare  string
	// reps are the per-replication values of load and util figures,
	// whose points get error bars (see errorBar).
	reps repValues
}

// errorBar returns the 95% confidence half-width across the
// replications of pair (wi, si) in category k (-1: utilization), NaN
// when there are fewer than two or the metric is a maximum.
func (f *figures) errorBar(wi, si, k int) float64 {
	if f.reps == nil || (k >= 0 && f.c.Metric.Max) {
		return math.NaN()
	}
	return MeanInterval(f.reps[[2]int{wi, si}][k]).Half
}

// errorBarsNote is the title line that says what error bars are, when a
// series has them.
func errorBarsNote(series []plot.XY) string {
	if slices.ContainsFunc(series, func(xy plot.XY) bool { return xy.Err != nil }) {
		return "\nerror bars: 95% confidence interval of the mean across replications (Student's t)"
	}
	return ""
}

// withErrors keeps xy's error bars only when one of them is a number.
func withErrors(xy plot.XY) plot.XY {
	if slices.ContainsFunc(xy.Err, func(e float64) bool { return !math.IsNaN(e) }) {
		return xy
	}
	xy.Err = nil
	return xy
}

// subtitle is the second line of a title: what is drawn, and the
// filters.
func (f *figures) subtitle(what string) string {
	if len(f.where) > 0 {
		what += ", where " + whereText(f.where)
	}
	return what
}

// CategoryAxis names the categories of the scheme, for an x axis.
func CategoryAxis(s *metrics.Scheme) string {
	var parts []string
	for _, t := range []string{s.RowTitle, s.ColTitle} {
		if t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return s.Name + " category"
	}
	return s.Name + " category (" + strings.Join(parts, ", ") + ")"
}

// rowGroup is a run of grid rows drawn as one figure.
type rowGroup struct {
	name     string // "" for the whole grid
	from, to int    // rows [from, to)
}

// rowGroups splits a grid whose row names all have a first word (est2:
// "well VS", ..., "bad VL") into one group per first word; other grids
// are one group.
func rowGroups(s *metrics.Scheme) []rowGroup {
	var gs []rowGroup
	for i, r := range s.Rows {
		word, _, ok := strings.Cut(r, " ")
		if !ok {
			return []rowGroup{{from: 0, to: len(s.Rows)}}
		}
		if len(gs) == 0 || gs[len(gs)-1].name != word {
			gs = append(gs, rowGroup{name: word, from: i})
		}
		gs[len(gs)-1].to = i + 1
	}
	if len(gs) < 2 {
		return []rowGroup{{from: 0, to: len(s.Rows)}}
	}
	return gs
}

// bars makes one grouped bar chart per workload (and row group).
func (f *figures) bars() []figure {
	c := f.c
	s := c.Scheme
	var out []figure
	for wi, w := range c.Workloads {
		for _, g := range rowGroups(s) {
			var cats []string
			for i := g.from; i < g.to; i++ {
				for j := range s.Cols {
					cats = append(cats, s.Label(i, j))
				}
			}
			b := &plot.Bars{
				XLabel: CategoryAxis(s), YLabel: c.Metric.Title, Categories: cats, AutoLog: true,
			}
			what := fmt.Sprintf("%s by %s category", c.Metric.Title, s.Name)
			name := fmt.Sprintf("%s-%s-%s-%s", KindBars, c.Metric.Name, s.Name, slug(workloadSlug(w)))
			var base []Cell
			if f.baseline >= 0 {
				if base = c.Cells(wi, f.baseline); base == nil {
					continue
				}
				bn := c.Settings[f.baseline].Name
				b.YLabel, b.AutoLog = "% change of "+c.Metric.Title+" vs "+bn, false
				what = fmt.Sprintf("%% change of %s vs %s by %s category", c.Metric.Title, bn, s.Name)
				name += "-vs-" + slug(bn)
				if f.compare == CompareR {
					b.YLabel = "R of " + c.Metric.Title + " vs " + bn + " (> 0: better)"
					what = fmt.Sprintf("slowdown ratio R of %s vs %s by %s category", c.Metric.Title, bn, s.Name)
					name += "-r"
				}
			}
			if g.name != "" {
				what += ", " + g.name + " " + groupNoun(s)
				name += "-" + slug(g.name)
			}
			b.Title = w.String() + "\n" + f.subtitle(what)
			for si, st := range c.Settings {
				cells := c.Cells(wi, si)
				if cells == nil || si == f.baseline {
					continue
				}
				vals := make([]float64, 0, len(cats))
				for i := g.from; i < g.to; i++ {
					for j := range s.Cols {
						v := cells[i*len(s.Cols)+j].Value
						switch {
						case base != nil && f.compare == CompareR:
							v = SlowdownRatio(base[i*len(s.Cols)+j].Value, v)
						case base != nil:
							v = pctChange(v, base[i*len(s.Cols)+j].Value)
						}
						vals = append(vals, v)
					}
				}
				if allNaN(vals) {
					continue
				}
				b.Series = append(b.Series, plot.Series{Name: st.Name, Values: vals})
			}
			if len(b.Series) > 0 {
				out = append(out, figure{name: name, chart: b})
			}
		}
	}
	return out
}

// pctChange returns 100 (v - base) / base; NaN when base is 0 or NaN.
func pctChange(v, base float64) float64 {
	if base == 0 || math.IsNaN(base) {
		return math.NaN()
	}
	return 100 * (v - base) / base
}

// groupNoun names what a row group holds.
func groupNoun(s *metrics.Scheme) string {
	if s.Name == "est2" {
		return "estimated jobs"
	}
	return "rows"
}

// loadGroup is the workloads that differ only in their load factor, in
// increasing load.
type loadGroup struct {
	key       Workload
	workloads []int
}

func (f *figures) loadGroups() []loadGroup {
	var gs []loadGroup
	for wi, w := range f.c.Workloads {
		k := w.WithoutLoad()
		i := slices.IndexFunc(gs, func(g loadGroup) bool { return g.key == k })
		if i < 0 {
			gs = append(gs, loadGroup{key: k})
			i = len(gs) - 1
		}
		gs[i].workloads = append(gs[i].workloads, wi)
	}
	for _, g := range gs {
		slices.SortStableFunc(g.workloads, func(a, b int) int {
			la, lb := f.c.Workloads[a].Load, f.c.Workloads[b].Load
			switch {
			case la < lb:
				return -1
			case la > lb:
				return 1
			}
			return 0
		})
	}
	return gs
}

// lines makes one line chart per category (the overall one included) of
// each load group: the metric against the load factor, or against the
// utilization when vsUtil.
func (f *figures) lines(vsUtil bool) []figure {
	c := f.c
	s := c.Scheme
	kind, xLabel := KindLoad, "load factor"
	if vsUtil {
		kind, xLabel = KindUtilMetric, "utilization"
	}
	var out []figure
	for _, g := range f.loadGroups() {
		ncat := len(s.Rows)*len(s.Cols) + 1
		for k := range ncat {
			cat := metrics.Overall
			if k < ncat-1 {
				cat = s.Label(k/len(s.Cols), k%len(s.Cols))
			}
			catText := "category " + cat
			if cat == metrics.Overall {
				catText = "all jobs"
			}
			what := fmt.Sprintf("%s against %s, %s (%s)", c.Metric.Title, xLabel, catText, s.Name)
			l := &plot.Lines{
				Title:  g.key.String() + "\n" + f.subtitle(what),
				XLabel: xLabel, YLabel: c.Metric.Title, AutoLog: true,
			}
			for si, st := range c.Settings {
				var xy plot.XY
				xy.Name = st.Name
				for _, wi := range g.workloads {
					cells := c.Cells(wi, si)
					if cells == nil || math.IsNaN(cells[k].Value) {
						continue
					}
					x := c.Workloads[wi].Load
					if vsUtil {
						x = c.Utilization(wi, si)
						if math.IsNaN(x) {
							continue
						}
					}
					xy.X = append(xy.X, x)
					xy.Y = append(xy.Y, cells[k].Value)
					if !vsUtil {
						xy.Err = append(xy.Err, f.errorBar(wi, si, k))
					}
				}
				if len(xy.X) > 0 {
					l.Series = append(l.Series, withErrors(xy))
				}
			}
			if len(l.Series) > 0 {
				l.Title += errorBarsNote(l.Series)
				name := fmt.Sprintf("%s-%s-%s-%s-%s", kind, c.Metric.Name, s.Name, slug(workloadSlug(g.key)), slug(cat))
				out = append(out, figure{name: name, chart: l})
			}
		}
	}
	return out
}

// util makes one line chart per load group: the utilization against the
// load factor.
func (f *figures) util() []figure {
	c := f.c
	var out []figure
	for _, g := range f.loadGroups() {
		l := &plot.Lines{
			Title:  g.key.String() + "\n" + f.subtitle("utilization against load factor"),
			XLabel: "load factor", YLabel: "utilization",
		}
		for si, st := range c.Settings {
			xy := plot.XY{Name: st.Name}
			for _, wi := range g.workloads {
				if u := c.Utilization(wi, si); !math.IsNaN(u) {
					xy.X = append(xy.X, c.Workloads[wi].Load)
					xy.Y = append(xy.Y, u)
					xy.Err = append(xy.Err, f.errorBar(wi, si, -1))
				}
			}
			if len(xy.X) > 0 {
				l.Series = append(l.Series, withErrors(xy))
			}
		}
		if len(l.Series) > 0 {
			l.Title += errorBarsNote(l.Series)
			out = append(out, figure{name: KindUtil + "-" + slug(workloadSlug(g.key)), chart: l})
		}
	}
	return out
}

func allNaN(vs []float64) bool {
	for _, v := range vs {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// workloadSlug is the text a workload's file names are made from:
// trace, subset, machine size, estimates and load.
func workloadSlug(w Workload) string {
	parts := []string{w.Trace, fmt.Sprintf("%d+%d", w.Skip, w.Count)}
	if w.Procs > 0 {
		parts = append(parts, fmt.Sprintf("p%d", w.Procs))
	}
	parts = append(parts, w.Estimates)
	if w.Load != 0 {
		parts = append(parts, "load"+fmt.Sprint(w.Load))
	}
	if w.LoadMode != "" && w.LoadMode != "arrival" {
		parts = append(parts, w.LoadMode)
	}
	return strings.Join(parts, "-")
}

// slug lowercases s and keeps letters, digits, '.', '+' and '_',
// turning every other run of characters into one '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '+', r == '_':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	return b.String()
}

func mkdir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	return nil
}
