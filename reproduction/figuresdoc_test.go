package reproduction

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

var update = flag.Bool("update", false, "rewrite the list of our figures in docs/figures.md")

const (
	figuresDoc   = "../docs/figures.md"
	figuresBegin = "<!-- our figures: generated from the recipes by TestFiguresDoc (go test ./reproduction -run TestFiguresDoc -update) -->"
	figuresEnd   = "<!-- end of our figures -->"
)

// ourFigures lists every figure the recipes draw, one table row each: what
// is on the x and y axes, the y scale and the series, as the code draws
// them.
func ourFigures(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("| group | figure | x axis | y axis | y scale | series |\n|---|---|---|---|---|---|\n")
	for _, r := range Recipes {
		spec, err := LoadSpec("..", r.Spec)
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, p := range spec.Policies {
			labels = append(labels, p.Label)
		}
		kept := func(o report.PlotOptions) []string {
			var out []string
			for _, l := range labels {
				ok := l != o.Baseline
				for _, f := range o.Where {
					if f.Key == "label" && !slices.Contains(f.Values, l) {
						ok = false
					}
				}
				if ok {
					out = append(out, l)
				}
			}
			return out
		}
		title := func(name string) string {
			m, err := metrics.LookupMetric(name)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			return m.Title
		}
		scale := func(o report.PlotOptions, auto bool) string {
			switch o.Style.YScale {
			case plot.ScaleLog:
				return "log"
			case plot.ScaleLinear:
				return "linear"
			}
			if auto {
				return "log when the values span > 2 decades, else linear"
			}
			return "linear"
		}
		row := func(fig, x, y, sc, series string) {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.Name, fig, x, y, sc, series)
		}
		for i, o := range r.Plots {
			metric, schemeName := o.Metric, o.Scheme
			if metric == "" {
				metric = "bsd_mean"
			}
			if schemeName == "" && len(spec.Categories) > 0 {
				schemeName = spec.Categories[0]
			}
			series := strings.Join(kept(o), ", ")
			fig := fmt.Sprintf("plot %d: %s", i+1, o.Kind)
			switch o.Kind {
			case report.KindBars:
				sch, err := metrics.LookupScheme(schemeName)
				if err != nil {
					t.Fatal(err)
				}
				y, auto := title(metric), true
				if o.Baseline != "" {
					y, auto = "% change of "+title(metric)+" vs "+o.Baseline, false
					if o.Compare == report.CompareR {
						y = "R of " + title(metric) + " vs " + o.Baseline
					}
				}
				row(fig, report.CategoryAxis(sch)+", one figure per workload", y, scale(o, auto), series)
			case report.KindLoad:
				row(fig, "load factor, one figure per workload and "+schemeName+" category", title(metric), scale(o, true), series)
			case report.KindUtilMetric:
				row(fig, "utilization, one figure per workload and "+schemeName+" category", title(metric), scale(o, true), series)
			case report.KindUtil:
				row(fig, "load factor, one figure per trace", "utilization", scale(o, false), series)
			case report.KindTransient:
				row(fig, "submit time of the batch's first job (days), batches of 1000 jobs", "R = (s1 - sm) / min(s1, sm) vs "+o.Baseline, scale(o, false), series)
			default:
				t.Fatalf("%s: plot kind %s not described", r.Name, o.Kind)
			}
		}
		for _, p := range r.Panels {
			row("panel "+p.Name, p.Plot.X, title(p.Plot.Metric), scale(p.Plot, false), "one line per "+p.Plot.Series+" value")
		}
		for _, s := range r.Steps {
			row("step: "+s.Name, "(drawn by the step)", "(drawn by the step)", "-", "-")
		}
	}
	return b.String()
}

// TestFiguresDoc checks docs/figures.md: its list of our figures is the
// one the recipes draw (axes, scale, series), and its comparison with the
// papers names every recipe group.
func TestFiguresDoc(t *testing.T) {
	doc, err := os.ReadFile(figuresDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := bytes.Cut(doc, []byte(figuresBegin+"\n"))
	if !ok {
		t.Fatalf("%s: no line %q", figuresDoc, figuresBegin)
	}
	got, after, ok := bytes.Cut(rest, []byte(figuresEnd))
	if !ok {
		t.Fatalf("%s: no line %q", figuresDoc, figuresEnd)
	}
	want := ourFigures(t)
	if *update {
		out := append(append(append(append([]byte{}, before...), figuresBegin+"\n"...), want...), figuresEnd...)
		if err := os.WriteFile(figuresDoc, append(out, after...), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(got) != want {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s: our figures differ from the recipes (run go test ./reproduction -run TestFiguresDoc -update and review the comparison); first difference in line %d of the list:\n got: %s\nwant: %s", figuresDoc, i+1, g, w)
			}
		}
	}
	comparison := string(before)
	for _, r := range Recipes {
		if len(r.Plots)+len(r.Panels)+len(r.Steps) == 0 {
			continue
		}
		if !strings.Contains(comparison, "`"+r.Name+"`") {
			t.Errorf("%s: the comparison with the papers does not name `%s`", figuresDoc, r.Name)
		}
	}
}
