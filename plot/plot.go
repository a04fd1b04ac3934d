// Package plot draws schedfarm's figures as PNG or SVG with gonum/plot
// (pure Go, no system libraries): grouped bars per category for several
// policies, and lines against a numeric axis (load factor, utilization).
// The file format follows the extension of the path given to Save.
//
// Values that are NaN are left out (an empty category draws no bar). A
// logarithmic y axis is used when asked, or automatically when the
// positive values span more than two decades.
package plot

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is one named sequence of values, one per category.
type Series struct {
	Name   string
	Values []float64
}

// Bars is a grouped bar chart: one group per category, one bar per series.
// A title may have several lines ("\n").
type Bars struct {
	Title, XLabel, YLabel string
	Categories            []string
	Series                []Series
	// LogY forces a logarithmic y axis; AutoLog lets the data decide.
	LogY, AutoLog bool
	// Legend is the legend's position (see [LegendPositions]; "" is
	// top-right).
	Legend string
}

// XY is one named line.
type XY struct {
	Name string
	X, Y []float64
}

// Lines is a line chart with points, drawn in the order of each series'
// points. A title may have several lines ("\n").
type Lines struct {
	Title, XLabel, YLabel string
	Series                []XY
	LogY, AutoLog         bool
	// Legend is the legend's position (see [LegendPositions]; "" is
	// top-left).
	Legend string
}

// palette is a colour-blind-safe set (Okabe-Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{240, 228, 66, 255}, color.RGBA{0, 0, 0, 255},
}

func colour(i int) color.Color { return palette[i%len(palette)] }

// spansDecades reports whether the positive values span more than two decades.
func spansDecades(vals []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		if v > 0 && !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return hi > 0 && hi/lo > 100
}

func logAxis(p *plot.Plot, vals []float64) {
	lo := math.Inf(1)
	for _, v := range vals {
		if v > 0 && !math.IsNaN(v) {
			lo = min(lo, v)
		}
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	if !math.IsInf(lo, 1) {
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
	}
}

// Save draws the chart to path (.png or .svg).
func (b *Bars) Save(path string) error {
	if len(b.Series) == 0 || len(b.Categories) == 0 {
		return fmt.Errorf("plot %s: no data", path)
	}
	p := plot.New()
	p.Title.Text = b.Title
	p.X.Label.Text = b.XLabel
	p.Y.Label.Text = b.YLabel
	var all []float64
	for _, s := range b.Series {
		if len(s.Values) != len(b.Categories) {
			return fmt.Errorf("plot %s: series %q has %d values for %d categories", path, s.Name, len(s.Values), len(b.Categories))
		}
		all = append(all, s.Values...)
	}
	// A log axis for bars draws log10 of the values from a base of 1
	// (slowdowns are >= 1), with ticks labelled as powers of ten.
	logY := b.LogY || (b.AutoLog && spansDecades(all))
	// Bars on a log axis grow from one decade below the smallest value,
	// so that a value near the bottom decade (a slowdown of 1) still
	// draws a bar.
	base := 0.0
	if logY {
		lo := math.Inf(1)
		for _, v := range all {
			if v > 0 && !math.IsInf(v, 0) {
				lo = min(lo, v)
			}
		}
		if !math.IsInf(lo, 1) {
			base = math.Floor(math.Log10(lo)) - 1
		}
		p.Y.Tick.Marker = powTicks{base: base}
		p.Y.Label.Text += " (log scale)"
	}
	n := len(b.Series)
	width := vg.Points(math.Max(3, math.Min(14, 300/float64(n*len(b.Categories)))))
	for i, s := range b.Series {
		vals := make(plotter.Values, len(s.Values))
		for j, v := range s.Values {
			switch {
			case math.IsNaN(v) || (logY && v <= 0):
				vals[j] = 0
			case logY:
				vals[j] = math.Log10(v) - base
			default:
				vals[j] = v
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		bars.Color = colour(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(s.Name, bars)
	}
	p.Legend.Top = true
	placeLegend(p, b.Legend)
	// Headroom above the tallest bar for the legend.
	p.Y.Max += 0.18 * (p.Y.Max - math.Min(p.Y.Min, 0))
	if !logY {
		p.Y.Tick.Marker = niceTicks{}
	}
	p.NominalX(b.Categories...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Add(plotter.NewGrid())
	w := vg.Length(math.Max(6, 0.5*float64(len(b.Categories)))) * vg.Inch
	return save(p, w, 4.5*vg.Inch, path)
}

// Save draws the chart to path (.png or .svg).
func (l *Lines) Save(path string) error {
	if len(l.Series) == 0 {
		return fmt.Errorf("plot %s: no data", path)
	}
	p := plot.New()
	p.Title.Text = l.Title
	p.X.Label.Text = l.XLabel
	p.Y.Label.Text = l.YLabel
	var all []float64
	for _, s := range l.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plot %s: series %q has %d x and %d y values", path, s.Name, len(s.X), len(s.Y))
		}
		all = append(all, s.Y...)
	}
	logY := l.LogY || (l.AutoLog && spansDecades(all))
	if logY {
		logAxis(p, all)
	}
	for i, s := range l.Series {
		var pts plotter.XYs
		for k := range s.X {
			if math.IsNaN(s.Y[k]) || (logY && s.Y[k] <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[k], Y: s.Y[k]})
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		line.Color = colour(i)
		line.Width = vg.Points(1.5)
		points.Color = colour(i)
		points.Shape = shapes[i%len(shapes)]
		p.Add(line, points)
		p.Legend.Add(s.Name, line, points)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	placeLegend(p, l.Legend)
	if !logY {
		p.Y.Max += 0.15 * (p.Y.Max - p.Y.Min)
		p.Y.Tick.Marker = niceTicks{}
	}
	padX(p, 0.04)
	p.Add(plotter.NewGrid())
	return save(p, 6*vg.Inch, 4.5*vg.Inch, path)
}

// powTicks labels an axis of log10(value) - base with powers of ten.
type powTicks struct{ base float64 }

func (t powTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(lo); k <= math.Ceil(hi); k++ {
		ts = append(ts, plot.Tick{Value: k, Label: strconv.FormatFloat(math.Pow(10, k+t.base), 'g', -1, 64)})
		for m := 2.0; m < 10; m++ {
			if v := k + math.Log10(m); v <= hi {
				ts = append(ts, plot.Tick{Value: v})
			}
		}
	}
	return ts
}

var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}

func save(p *plot.Plot, w, h vg.Length, path string) error {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext != "png" && ext != "svg" {
		return fmt.Errorf("plot %s: format %q not supported (use .png or .svg)", path, ext)
	}
	if ext == "png" {
		// Enough dots per inch for at least MinPNGWidth pixels.
		dpi := max(96, int(math.Ceil(MinPNGWidth/float64(w/vg.Inch))))
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
		p.Draw(draw.New(c))
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
			f.Close()
			return fmt.Errorf("plot %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		return nil
	}
	if err := p.Save(w, h, path); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return nil
}

// MinPNGWidth is the least width of a PNG figure, in pixels.
const MinPNGWidth = 1600
