package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GanttBox is one interval in which a job held a contiguous range of
// processors: a job on scattered processors has one box per range.
type GanttBox struct {
	// Label is drawn inside the box when it fits (the job's ID), except
	// on an overhead.
	Label string
	// Start and End are on the chart's x axis; Lo and Hi the processors
	// [Lo, Hi).
	Start, End float64
	Lo, Hi     int
	// Class indexes [Gantt.Classes] (the fill colour); -1 marks an
	// overhead (suspend, resume, checkpoint or dispatch delay: the job
	// holds the processors and does no work), drawn grey.
	Class int
	// Stopped marks a box after which the job stopped (suspended,
	// killed or checkpointed) and ran again later; Restarted a box of a
	// job that had run before.
	Stopped, Restarted bool
}

// Gantt draws a schedule: time on x, processors on y, one box per job and
// processor range. The legend names the classes, "overhead" (a suspend,
// resume or checkpoint overhead or a dispatch delay: the job holds the
// processors and does no work), "stopped" (suspended, killed or
// checkpointed) and "ran again" (resumed, restarted or migrated). Fills are light tints of the palette by class; a
// stop is a thick black right edge, a restart a thick dashed left edge,
// so a suspended, killed, checkpointed or migrated job reads as boxes
// joined by those marks (a migrated one on other processors).
type Gantt struct {
	Title, XLabel string
	// Procs is the machine size; From and To the x range drawn (boxes
	// are clipped to it).
	Procs    int
	From, To float64
	// Classes name the fill colours in the legend.
	Classes []string
	Boxes   []GanttBox
}

// Save draws the chart to path (.png or .svg).
func (g *Gantt) Save(path string) error {
	if err := g.check(); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	p := newPlot(g.Title, g.XLabel, "processors")
	p.X.Min, p.X.Max = g.From, g.To
	p.Y.Min, p.Y.Max = 0, float64(g.Procs)
	p.X.Tick.Marker = niceTicks{}
	p.Y.Tick.Marker = niceTicks{}
	p.Add(ganttPlotter{g})
	leg := plot.NewLegend()
	for i, name := range g.Classes {
		leg.Add(name, swatch{fill: classColour(i, len(g.Classes))})
	}
	if g.hasOverhead() {
		leg.Add("overhead", swatch{fill: overheadFill})
	}
	if g.hasStops() {
		leg.Add("stopped", edgeMark{})
		leg.Add("ran again", edgeMark{dashed: true})
	}
	p.Legend = leg
	return saveDrawing(func(c draw.Canvas) { drawPanels(c, []*plot.Plot{p}, leg) }, 10*vg.Inch, 6*vg.Inch, path)
}

// check verifies the boxes against the machine and the classes.
func (g *Gantt) check() error {
	if g.Procs <= 0 || !(g.To > g.From) {
		return fmt.Errorf("no schedule to draw: %d processors, time %g to %g", g.Procs, g.From, g.To)
	}
	if len(g.Boxes) == 0 {
		return errors.New("no job in the window")
	}
	for _, b := range g.Boxes {
		if b.Lo < 0 || b.Hi > g.Procs || b.Lo >= b.Hi || !(b.End >= b.Start) || b.Class < -1 || b.Class >= len(g.Classes) {
			return fmt.Errorf("box %+v does not fit %d processors and %d classes", b, g.Procs, len(g.Classes))
		}
	}
	return nil
}

func (g *Gantt) hasOverhead() bool {
	for _, b := range g.Boxes {
		if b.Class < 0 {
			return true
		}
	}
	return false
}

func (g *Gantt) hasStops() bool {
	for _, b := range g.Boxes {
		if b.Stopped || b.Restarted {
			return true
		}
	}
	return false
}

// overheadFill is the fill of overhead boxes: darker than any class's.
var overheadFill = color.Gray{Y: 70}

// classColour is the fill of class i of n: up to 7, the palette's
// colours (black left out) mixed half with white, light enough for the
// black marks and labels drawn over them; beyond, n hues evenly around
// the colour wheel, alternately lighter and darker, so that neighbouring
// classes (the categories of one row of a grid) differ.
func classColour(i, n int) color.Color {
	if n <= len(palette)-1 {
		r, g, b, _ := palette[i].RGBA()
		mix := func(v uint32) uint8 { return uint8((v>>8 + 255) / 2) }
		return color.RGBA{mix(r), mix(g), mix(b), 255}
	}
	light := 0.62
	if i%2 == 1 {
		light = 0.8
	}
	return hsl(float64(i)/float64(n), 0.65, light)
}

// hsl converts a hue (0..1), saturation and lightness to RGB.
func hsl(h, s, l float64) color.Color {
	c := (1 - math.Abs(2*l-1)) * s
	hp := h * 6
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch int(hp) % 6 {
	case 0:
		r, g = c, x
	case 1:
		r, g = x, c
	case 2:
		g, b = c, x
	case 3:
		g, b = x, c
	case 4:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	v := func(f float64) uint8 { return uint8(math.Round(255 * (f + m))) }
	return color.RGBA{v(r), v(g), v(b), 255}
}

// ganttPlotter draws a Gantt's boxes in the data area.
type ganttPlotter struct{ g *Gantt }

var (
	outline  = draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.4)}
	stopLine = draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
	runLine  = draw.LineStyle{Color: color.Black, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(2), vg.Points(1.5)}}
)

// Plot draws each box clipped to the data area, its marks and, when it
// fits, its label.
func (gp ganttPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	label := text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, 7), Handler: plt.TextHandler,
		XAlign: draw.XCenter, YAlign: draw.YCenter}
	em := label.Rectangle("0")
	for _, b := range gp.g.Boxes {
		x0, x1 := trX(math.Max(b.Start, plt.X.Min)), trX(math.Min(b.End, plt.X.Max))
		if x1 < x0 || b.End < plt.X.Min || b.Start > plt.X.Max {
			continue
		}
		y0, y1 := trY(float64(b.Lo)), trY(float64(b.Hi))
		rect := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
		var fill color.Color = overheadFill
		if b.Class >= 0 {
			fill = classColour(b.Class, len(gp.g.Classes))
		}
		c.FillPolygon(fill, rect)
		c.StrokeLines(outline, rect)
		if b.Stopped && b.End <= plt.X.Max {
			c.StrokeLine2(stopLine, x1, y0, x1, y1)
		}
		if b.Restarted && b.Start >= plt.X.Min {
			c.StrokeLine2(runLine, x0, y0, x0, y1)
		}
		if b.Label != "" && b.Class >= 0 && x1-x0 >= label.Width(b.Label)+4 && y1-y0 >= em.Max.Y+2 {
			c.FillText(label, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, b.Label)
		}
	}
}

// swatch is a legend thumbnail filled with one colour.
type swatch struct{ fill color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Min.Y}}
	c.FillPolygon(s.fill, pts)
	c.StrokeLines(outline, pts)
}

// edgeMark is a legend thumbnail of a stop (solid) or restart (dashed)
// mark.
type edgeMark struct{ dashed bool }

func (e edgeMark) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	sty := stopLine
	if e.dashed {
		sty = runLine
	}
	c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
}
