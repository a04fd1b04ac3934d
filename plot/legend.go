package plot

import (
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Legend placement. A position the user chose (see [LegendPositions]) is
// honoured as given. Otherwise ("" or "auto") the legend goes in the first
// corner of the plot area where its box touches no bar, marker or line
// segment, in the chart's order of preference; when every corner holds
// data, it goes outside the plot area, in a column to the right of it.

// legendOutside is the placement that puts the legend to the right of the
// plot area.
const legendOutside = "outside"

// legendGap is the space between the plot area and a legend outside it,
// and the margin kept around a legend's box when testing it against the
// data.
const legendGap = vg.Length(4)

// marks is what a chart draws in its plot area, in canvas coordinates:
// filled boxes (bars, markers) and line segments.
type marks struct {
	boxes []vg.Rectangle
	segs  [][2]vg.Point
}

// hits reports whether r touches any box or segment.
func (m *marks) hits(r vg.Rectangle) bool {
	for _, b := range m.boxes {
		if b.Min.X <= r.Max.X && r.Min.X <= b.Max.X && b.Min.Y <= r.Max.Y && r.Min.Y <= b.Max.Y {
			return true
		}
	}
	for _, s := range m.segs {
		if segmentHits(s[0], s[1], r) {
			return true
		}
	}
	return false
}

// segmentHits reports whether the segment a-b touches r (Liang-Barsky
// clipping).
func segmentHits(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)},
		{dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)},
		{dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// chart is a plot ready to draw, with what it needs to place its legend.
type chart struct {
	p *plot.Plot
	// legend is the user's position ("" or "auto": automatic).
	legend string
	// prefer lists the corners to try, best first.
	prefer []string
	// marks returns the chart's marks drawn in the data canvas dc.
	marks func(p *plot.Plot, dc draw.Canvas) marks
}

// layout is where a chart's legend goes on a canvas.
type layout struct {
	pos string // a corner, legendOutside or "none"
	// box is the legend's box (empty when there is no legend); area is
	// the canvas the plot (title, axes, data) is drawn in; in is the
	// canvas the legend is drawn in, at its corner pos (top-left for
	// legendOutside).
	box, area, in vg.Rectangle
	// data are the chart's marks as drawn in area.
	data marks
}

// layout places the legend on canvas c.
func (ch *chart) layout(c draw.Canvas) layout {
	p := ch.p
	full := p.Legend.Rectangle(c)
	w, h := full.Max.X-full.Min.X, full.Max.Y-full.Min.Y
	l := layout{pos: "none", area: c.Rectangle}
	if w <= 0 || h <= 0 || ch.legend == "none" {
		l.data = ch.marks(p, p.DataCanvas(c))
		return l
	}
	// Inside, the legend is drawn in the data canvas.
	inside := p.DataCanvas(c)
	l.data = ch.marks(p, inside)
	l.in = inside.Rectangle
	switch ch.legend {
	case "", "auto":
		for _, pos := range ch.prefer {
			box := cornerBox(p, inside, pos, w, h)
			if !l.data.hits(grow(box, legendGap)) {
				l.pos, l.box = pos, box
				return l
			}
		}
	case legendOutside:
	default:
		l.pos, l.box = ch.legend, cornerBox(p, inside, ch.legend, w, h)
		return l
	}
	// Outside: the plot keeps the canvas less a column for the legend,
	// whose top is level with the top of the data canvas.
	l.pos = legendOutside
	l.area.Max.X -= w + 2*legendGap
	dc := p.DataCanvas(draw.Canvas{Canvas: c.Canvas, Rectangle: l.area})
	l.data = ch.marks(p, dc)
	l.in = vg.Rectangle{
		Min: vg.Point{X: l.area.Max.X + legendGap, Y: dc.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: dc.Max.Y},
	}
	l.box = cornerBox(p, draw.Canvas{Canvas: c.Canvas, Rectangle: l.in}, "top-left", w, h)
	return l
}

// draw draws the chart on c with its legend placed by layout, its title
// wrapped to the canvas's width.
func (ch *chart) draw(c draw.Canvas) {
	p := ch.p
	title := p.Title.Text
	p.Title.Text = wrapText(p.Title.TextStyle, title, c.Max.X-c.Min.X-2*titleMargin)
	defer func() { p.Title.Text = title }()
	l := ch.layout(c)
	legend := p.Legend
	p.Legend = plot.NewLegend() // drawn below, where layout put it
	p.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: l.area})
	p.Legend = legend
	if l.pos == "none" {
		return
	}
	pos := l.pos
	if pos == legendOutside {
		pos = "top-left"
	}
	legend.Top = pos == "top-left" || pos == "top-right"
	legend.Left = pos == "top-left" || pos == "bottom-left"
	legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: l.in})
}

// cornerBox is the box a legend of size w x h takes at corner pos of the
// canvas c, as gonum/plot's Legend.Draw places it (its own Rectangle
// method gives the size, but mirrors left and right).
func cornerBox(p *plot.Plot, c draw.Canvas, pos string, w, h vg.Length) vg.Rectangle {
	var r vg.Rectangle
	left := pos == "top-left" || pos == "bottom-left"
	top := pos == "top-left" || pos == "top-right"
	if left {
		r.Min.X = c.Min.X
	} else {
		r.Min.X = c.Max.X - w
	}
	if top {
		r.Min.Y = c.Max.Y - p.Legend.TextStyle.FontExtents().Descent - h
	} else {
		r.Min.Y = c.Min.Y
	}
	r.Min.X += p.Legend.XOffs
	r.Min.Y += p.Legend.YOffs
	r.Max = vg.Point{X: r.Min.X + w, Y: r.Min.Y + h}
	return r
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

// titleMargin is the least space kept between a title's line and the
// canvas's left and right edges.
const titleMargin = vg.Length(6)

// wrapText breaks each line of txt that is wider than width in sty at
// spaces, as few times as it can (greedy), so that no line is wider
// than width; a single word wider than width is broken between
// characters. gonum/plot centres a title on the canvas, so a line wider
// than the canvas loses both ends.
func wrapText(sty text.Style, txt string, width vg.Length) string {
	if width <= 0 {
		return txt
	}
	var out []string
	for _, line := range strings.Split(txt, "\n") {
		if sty.Width(line) <= width {
			out = append(out, line)
			continue
		}
		cur := ""
		for _, w := range strings.Fields(line) {
			if cur != "" && sty.Width(cur+" "+w) <= width {
				cur += " " + w
				continue
			}
			if cur != "" {
				out = append(out, cur)
			}
			cur = w
			for sty.Width(cur) > width { // a word wider than the line
				r := []rune(cur)
				k := len(r) - 1
				for k > 1 && sty.Width(string(r[:k])) > width {
					k--
				}
				out = append(out, string(r[:k]))
				cur = string(r[k:])
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
