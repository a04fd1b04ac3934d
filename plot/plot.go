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
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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
	// "auto": the first corner free of data, or outside the plot area).
	Legend string
}

// XY is one named line. Err, when not nil, holds each point's error
// bar half-width (drawn from Y - Err to Y + Err; NaN draws none).
type XY struct {
	Name string
	X, Y []float64
	Err  []float64
}

// Lines is a line chart with points, drawn in the order of each series'
// points. A title may have several lines ("\n").
type Lines struct {
	Title, XLabel, YLabel string
	Series                []XY
	LogY, AutoLog         bool
	// Legend is the legend's position (see [LegendPositions]; "" is
	// "auto": the first corner free of data, or outside the plot area).
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
	ch, w, h, err := b.chart()
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return save(ch, w, h, path)
}

// newPlot returns an empty plot with a grid (under the data drawn later),
// a title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Add(plotter.NewGrid())
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	return p
}

// chart builds the plot and says its size.
func (b *Bars) chart() (*chart, vg.Length, vg.Length, error) {
	if len(b.Series) == 0 || len(b.Categories) == 0 {
		return nil, 0, 0, errors.New("no data")
	}
	p := newPlot(b.Title, b.XLabel, b.YLabel)
	var all []float64
	for _, s := range b.Series {
		if len(s.Values) != len(b.Categories) {
			return nil, 0, 0, fmt.Errorf("series %q has %d values for %d categories", s.Name, len(s.Values), len(b.Categories))
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
	var drawn []*plotter.BarChart
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
			return nil, 0, 0, err
		}
		bars.Color = colour(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(s.Name, bars)
		drawn = append(drawn, bars)
	}
	// Headroom above the tallest bar, where the legend usually fits.
	p.Y.Max += 0.18 * (p.Y.Max - math.Min(p.Y.Min, 0))
	if !logY {
		p.Y.Tick.Marker = niceTicks{}
	}
	p.NominalX(b.Categories...)
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	w := vg.Length(math.Max(6, 0.5*float64(len(b.Categories)))) * vg.Inch
	ch := &chart{p: p, legend: b.Legend, prefer: []string{"top-right", "top-left", "bottom-right", "bottom-left"},
		marks: func(p *plot.Plot, dc draw.Canvas) marks { return barMarks(p, dc, drawn) }}
	return ch, w, 4.5 * vg.Inch, nil
}

// barMarks returns the boxes of the bars as BarChart.Plot draws them.
func barMarks(p *plot.Plot, dc draw.Canvas, charts []*plotter.BarChart) marks {
	var m marks
	trX, trY := p.Transforms(&dc)
	for _, b := range charts {
		for i, v := range b.Values {
			if v == 0 {
				continue // draws nothing
			}
			x := trX(b.XMin+float64(i)) - b.Width/2 + b.Offset
			y0, y1 := trY(0), trY(v)
			if y0 > y1 {
				y0, y1 = y1, y0
			}
			y0, y1 = max(y0, dc.Min.Y), min(y1, dc.Max.Y)
			if y1 < y0 {
				continue
			}
			m.boxes = append(m.boxes, vg.Rectangle{Min: vg.Point{X: x, Y: y0}, Max: vg.Point{X: x + b.Width, Y: y1}})
		}
	}
	return m
}

// lineMarks returns the segments and marker boxes of lines as
// plotter.Line and plotter.Scatter draw them.
func lineMarks(p *plot.Plot, dc draw.Canvas, lines []*plotter.Scatter) marks {
	var m marks
	trX, trY := p.Transforms(&dc)
	for _, s := range lines {
		r := s.GlyphStyle.Radius
		var prev vg.Point
		for k, xy := range s.XYs {
			pt := vg.Point{X: trX(xy.X), Y: trY(xy.Y)}
			m.boxes = append(m.boxes, vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}})
			if k > 0 {
				m.segs = append(m.segs, [2]vg.Point{prev, pt})
			}
			prev = pt
		}
	}
	return m
}

// Save draws the chart to path (.png or .svg).
func (l *Lines) Save(path string) error {
	ch, w, h, err := l.chart()
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return save(ch, w, h, path)
}

// chart builds the plot and says its size.
func (l *Lines) chart() (*chart, vg.Length, vg.Length, error) {
	if len(l.Series) == 0 {
		return nil, 0, 0, errors.New("no data")
	}
	p := newPlot(l.Title, l.XLabel, l.YLabel)
	var all []float64
	for _, s := range l.Series {
		if len(s.X) != len(s.Y) {
			return nil, 0, 0, fmt.Errorf("series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
		}
		all = append(all, s.Y...)
	}
	logY := l.LogY || (l.AutoLog && spansDecades(all))
	if logY {
		logAxis(p, all)
	}
	var drawn []*plotter.Scatter
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
			return nil, 0, 0, err
		}
		line.Color = colour(i)
		line.Width = vg.Points(1.5)
		points.Color = colour(i)
		points.Shape = shapes[i%len(shapes)]
		p.Add(line, points)
		if bars, err := errorBars(s, logY); err != nil {
			return nil, 0, 0, err
		} else if bars != nil {
			bars.Color = colour(i)
			p.Add(bars)
		}
		p.Legend.Add(s.Name, line, points)
		drawn = append(drawn, points)
	}
	if !logY {
		p.Y.Max += 0.15 * (p.Y.Max - p.Y.Min)
		p.Y.Tick.Marker = niceTicks{}
	}
	padX(p, 0.04)
	ch := &chart{p: p, legend: l.Legend, prefer: []string{"top-left", "top-right", "bottom-right", "bottom-left"},
		marks: func(p *plot.Plot, dc draw.Canvas) marks { return lineMarks(p, dc, drawn) }}
	return ch, 6 * vg.Inch, 4.5 * vg.Inch, nil
}

// errorBars returns the error bars of s's points that have one (none
// reaching 0 or below on a log axis), or nil.
func errorBars(s XY, logY bool) (*plotter.YErrorBars, error) {
	if s.Err == nil {
		return nil, nil
	}
	if len(s.Err) != len(s.Y) {
		return nil, fmt.Errorf("series %q has %d error bars for %d points", s.Name, len(s.Err), len(s.Y))
	}
	var v struct {
		plotter.XYs
		plotter.YErrors
	}
	for k := range s.Y {
		e := s.Err[k]
		if math.IsNaN(e) || math.IsNaN(s.Y[k]) || (logY && s.Y[k]-e <= 0) {
			continue
		}
		v.XYs = append(v.XYs, plotter.XY{X: s.X[k], Y: s.Y[k]})
		v.YErrors = append(v.YErrors, struct{ Low, High float64 }{e, e})
	}
	if len(v.XYs) == 0 {
		return nil, nil
	}
	bars, err := plotter.NewYErrorBars(v)
	if err != nil {
		return nil, err
	}
	bars.LineStyle.Width = vg.Points(1)
	bars.CapWidth = vg.Points(5)
	return bars, nil
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

// save draws ch, w by h, to path (.png or .svg) through
// [atomicfile.Write], so a failed write leaves no partial figure.
func save(ch *chart, w, h vg.Length, path string) error {
	return saveDrawing(ch.draw, w, h, path)
}

// saveDrawing draws with drawFn on a canvas w by h and writes it to path
// (.png or .svg) as [save] does.
func saveDrawing(drawFn func(draw.Canvas), w, h vg.Length, path string) error {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch ext {
	case "png":
		// Enough dots per inch for at least MinPNGWidth pixels.
		dpi := max(96, int(math.Ceil(MinPNGWidth/float64(w/vg.Inch))))
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	case "svg":
		c = vgsvg.New(w, h)
	default:
		return fmt.Errorf("plot %s: format %q not supported (use .png or .svg)", path, ext)
	}
	drawFn(draw.New(c))
	err := atomicfile.Write(path, func(f io.Writer) error {
		_, err := c.WriteTo(f)
		return err
	})
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// MinPNGWidth is the least width of a PNG figure, in pixels.
const MinPNGWidth = 1600
