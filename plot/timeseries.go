package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TimeLine is one task's time series: at each time T[k] (in the unit of
// the chart's x axis), the queue length Queue[k] and the utilization
// Util[k] (0..1).
type TimeLine struct {
	Name           string
	T, Queue, Util []float64
}

// Timeseries draws time series in two panels over one time axis: the
// queue length above, the utilization below, one line per task, with the
// legend to the right of both. A title may have several lines ("\n").
type Timeseries struct {
	Title, XLabel, QueueLabel string
	Lines                     []TimeLine
}

// Save draws the chart to path (.png or .svg).
func (ts *Timeseries) Save(path string) error {
	if len(ts.Lines) == 0 {
		return fmt.Errorf("plot %s: no data", path)
	}
	queue := newPlot(ts.Title, "", ts.QueueLabel)
	util := newPlot("", ts.XLabel, "utilization")
	for i, l := range ts.Lines {
		if len(l.T) != len(l.Queue) || len(l.T) != len(l.Util) {
			return fmt.Errorf("plot %s: line %q has %d times, %d queue lengths and %d utilizations", path, l.Name, len(l.T), len(l.Queue), len(l.Util))
		}
		q, err := stepLine(l.T, l.Queue, colour(i))
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		u, err := stepLine(l.T, l.Util, colour(i))
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		queue.Add(q)
		util.Add(u)
		queue.Legend.Add(l.Name, q)
	}
	util.Y.Min, util.Y.Max = 0, 1.05
	queue.Y.Min = 0
	queue.Y.Max *= 1.05
	queue.Y.Tick.Marker = niceTicks{}
	util.Y.Tick.Marker = niceTicks{}
	for _, p := range []*plot.Plot{queue, util} {
		p.X.Min = math.Min(queue.X.Min, util.X.Min)
		p.X.Max = math.Max(queue.X.Max, util.X.Max)
		p.X.Tick.Marker = niceTicks{}
	}
	w, h := 9*vg.Inch, 6*vg.Inch
	return saveDrawing(func(c draw.Canvas) { drawPanels(c, []*plot.Plot{queue, util}, queue.Legend) }, w, h, path)
}

// stepLine is a line of width 1 through the points (x[k], y[k]), NaNs
// left out.
func stepLine(x, y []float64, c color.Color) (*plotter.Line, error) {
	pts := make(plotter.XYs, 0, len(x))
	for k := range x {
		if !math.IsNaN(y[k]) {
			pts = append(pts, plotter.XY{X: x[k], Y: y[k]})
		}
	}
	if len(pts) == 0 {
		return nil, errors.New("a line without values")
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = c
	l.Width = vg.Points(1)
	return l, nil
}

// drawPanels draws plots one above the other on c with their data areas
// aligned, and legend in a column to their right, level with the top of
// the first plot's data area.
func drawPanels(c draw.Canvas, plots []*plot.Plot, legend plot.Legend) {
	r := legend.Rectangle(c)
	lw := r.Max.X - r.Min.X
	area := c
	if lw > 0 {
		area.Max.X -= lw + 3*legendGap
	}
	grid := make([][]*plot.Plot, len(plots))
	for i, p := range plots {
		p.Legend = plot.NewLegend()
		grid[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	canvases := plot.Align(grid, tiles, area)
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	if lw <= 0 {
		return
	}
	top := plots[0].DataCanvas(canvases[0][0])
	in := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: area.Max.X + 2*legendGap, Y: c.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: top.Max.Y},
	}}
	legend.Top, legend.Left = true, true
	legend.Draw(in)
}
