package report

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// KindParam draws a metric of all jobs (the overall row) against a policy
// parameter ([PlotOptions.X]), one line per value of [PlotOptions.Series]
// (another parameter, or "load"), one figure per workload (per workload
// without its load when the series is the load). Settings that share an
// (x, series) point are averaged (filter them apart with Where). Islam et
// al. 2004, Figs 3-11.
const KindParam = "param"

// paramPanel is the data of one param figure: for each series value (in
// increasing order), the metric at each x value (in increasing order).
type paramPanel struct {
	title  string
	slug   string
	xs     []float64
	series []string
	vals   map[string]map[float64][]float64 // series -> x -> values
}

// value returns the mean at (series, x), NaN when there is none.
func (p *paramPanel) value(s string, x float64) float64 {
	vs := p.vals[s][x]
	if len(vs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	return sum / float64(len(vs))
}

// settingParam returns the value of parameter name in a setting's
// canonical parameter text.
func settingParam(st Setting, name string) (string, bool) {
	for _, kv := range strings.Split(st.Params, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

// paramPanels gathers the param figures' data of a collation.
func (f *figures) paramPanels(x, series string) ([]*paramPanel, error) {
	if x == "" || series == "" {
		return nil, fmt.Errorf("a %s figure needs a parameter for x and one (or load) for the series", KindParam)
	}
	c := f.c
	all := len(c.Scheme.Rows) * len(c.Scheme.Cols)
	var panels []*paramPanel
	byKey := map[Workload]*paramPanel{}
	seen := false
	for wi, w := range c.Workloads {
		key := w
		if series == "load" {
			key = w.WithoutLoad()
		}
		for si, st := range c.Settings {
			cells := c.Cells(wi, si)
			if cells == nil || math.IsNaN(cells[all].Value) {
				continue
			}
			xs, ok := settingParam(st, x)
			if !ok {
				continue
			}
			xv, err := strconv.ParseFloat(xs, 64)
			if err != nil {
				return nil, fmt.Errorf("parameter %s = %q is not a number", x, xs)
			}
			sv := fmtNum(w.Load)
			if series != "load" {
				if sv, ok = settingParam(st, series); !ok {
					continue
				}
			}
			seen = true
			p := byKey[key]
			if p == nil {
				what := fmt.Sprintf("%s against %s, one line per %s", c.Metric.Title, x, series)
				p = &paramPanel{title: key.String() + "\n" + f.subtitle(what), slug: slug(workloadSlug(key)), vals: map[string]map[float64][]float64{}}
				byKey[key] = p
				panels = append(panels, p)
			}
			if p.vals[sv] == nil {
				p.vals[sv] = map[float64][]float64{}
				p.series = append(p.series, sv)
			}
			p.vals[sv][xv] = append(p.vals[sv][xv], cells[all].Value)
			if !slices.Contains(p.xs, xv) {
				p.xs = append(p.xs, xv)
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("no setting has both parameters %s and %s", x, series)
	}
	for _, p := range panels {
		slices.Sort(p.xs)
		slices.SortFunc(p.series, func(a, b string) int {
			fa, ea := strconv.ParseFloat(a, 64)
			fb, eb := strconv.ParseFloat(b, 64)
			if ea == nil && eb == nil {
				return cmp.Compare(fa, fb)
			}
			return strings.Compare(a, b)
		})
	}
	return panels, nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// param makes the param figures of a collation.
func (f *figures) param(x, series string) ([]figure, error) {
	panels, err := f.paramPanels(x, series)
	if err != nil {
		return nil, err
	}
	var out []figure
	for _, p := range panels {
		l := &plot.Lines{Title: p.title, XLabel: x, YLabel: f.c.Metric.Title}
		for _, s := range p.series {
			xy := plot.XY{Name: series + " " + s}
			for _, xv := range p.xs {
				if v := p.value(s, xv); !math.IsNaN(v) {
					xy.X = append(xy.X, xv)
					xy.Y = append(xy.Y, v)
				}
			}
			l.Series = append(l.Series, xy)
		}
		name := fmt.Sprintf("%s-%s-%s-by-%s-%s", KindParam, f.c.Metric.Name, slug(x), slug(series), p.slug)
		out = append(out, figure{name: name, chart: l})
	}
	return out, nil
}

// Panel is one panel of a paper's figure drawn as a [KindParam] figure,
// with a table of the same numbers: a row per x value, a column per
// series value.
type Panel struct {
	// Name names the files: tables/<Name>.md, tables/<Name>.csv and
	// figures/<Name>.png, .svg.
	Name string
	// Caption says which panel of the paper this is.
	Caption string
	// Plot chooses the data: Kind is [KindParam]; Metric, X, Series and
	// Where as in [PlotOptions].
	Plot PlotOptions
}

// WritePanel writes a panel's table and figure into dir/tables and
// dir/figures. The panel must select one workload group: one figure.
func (s *Sweep) WritePanel(p Panel, dir string) ([]string, error) {
	metric, scheme := s.withDefaults(p.Plot.Metric, p.Plot.Scheme)
	c, err := Collate(s.Summary, s.Tasks, CollateOptions{Metric: metric, Scheme: scheme, Where: p.Plot.Where})
	if err != nil {
		return nil, err
	}
	f := &figures{c: c, where: p.Plot.Where}
	panels, err := f.paramPanels(p.Plot.X, p.Plot.Series)
	if err != nil {
		return nil, err
	}
	if len(panels) != 1 {
		return nil, fmt.Errorf("panel %s selects %d workloads; narrow it with where", p.Name, len(panels))
	}
	pp := panels[0]
	formats := p.Plot.Formats
	if len(formats) == 0 {
		formats = Formats
	}
	var files []string
	tdir, fdir := filepath.Join(dir, "tables"), filepath.Join(dir, "figures")
	if err := mkdir(tdir); err != nil {
		return nil, err
	}
	if err := mkdir(fdir); err != nil {
		return nil, err
	}
	md, csvPath := filepath.Join(tdir, p.Name+".md"), filepath.Join(tdir, p.Name+".csv")
	if err := atomicfile.Write(md, func(w io.Writer) error { return pp.markdown(w, p, c.Metric, p.Plot.X, p.Plot.Series) }); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(csvPath, func(w io.Writer) error { return pp.csv(w, c.Metric, p.Plot.X, p.Plot.Series) }); err != nil {
		return nil, err
	}
	files = append(files, md, csvPath)
	figs, err := f.param(p.Plot.X, p.Plot.Series)
	if err != nil {
		return nil, err
	}
	for _, ext := range formats {
		path := filepath.Join(fdir, p.Name+"."+ext)
		if err := figs[0].chart.Save(path); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// markdown writes the panel as a Markdown table.
func (p *paramPanel) markdown(w io.Writer, pn Panel, m *metrics.Metric, x, series string) error {
	fmt.Fprintf(w, "# %s\n\n%s\n\n", pn.Caption, strings.ReplaceAll(p.title, "\n", "; "))
	fmt.Fprintf(w, "%s, all jobs; rows: %s; columns: %s (mean over replications)\n\n", m.Title, x, series)
	fmt.Fprintf(w, "| %s |", x)
	for _, s := range p.series {
		fmt.Fprintf(w, " %s %s |", series, s)
	}
	fmt.Fprint(w, "\n|---|")
	for range p.series {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, xv := range p.xs {
		fmt.Fprintf(w, "| %s |", fmtNum(xv))
		for _, s := range p.series {
			v := p.value(s, xv)
			if math.IsNaN(v) {
				fmt.Fprint(w, " |")
				continue
			}
			fmt.Fprintf(w, " "+m.Format+" |", v)
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// csv writes the panel in long form: x, series, metric value.
func (p *paramPanel) csv(w io.Writer, m *metrics.Metric, x, series string) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{x, series, m.Name})
	for _, s := range p.series {
		for _, xv := range p.xs {
			if v := p.value(s, xv); !math.IsNaN(v) {
				_ = cw.Write([]string{fmtNum(xv), s, strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
