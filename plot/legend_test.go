package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// legendCases are charts of both kinds whose data sit where a fixed
// legend would go: tall bars in every category, many series, lines
// through every corner, log axes.
func legendCases() map[string]interface {
	chart() (*chart, vg.Length, vg.Length, error)
} {
	names := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("setting %d", i+1))
		}
		return s
	}
	flat := func(n, k int, v float64) []Series {
		var out []Series
		for i, name := range names(n) {
			vals := make([]float64, k)
			for j := range vals {
				vals[j] = v * (1 + 0.01*float64(i+j))
			}
			out = append(out, Series{Name: name, Values: vals})
		}
		return out
	}
	cats := func(k int) []string {
		var s []string
		for j := range k {
			s = append(s, fmt.Sprintf("cat %d", j))
		}
		return s
	}
	rising := XY{Name: "rising", X: []float64{0, 1, 2, 3, 4}, Y: []float64{0, 1, 2, 3, 4}}
	falling := XY{Name: "falling", X: []float64{0, 1, 2, 3, 4}, Y: []float64{4, 3, 2, 1, 0}}
	return map[string]interface {
		chart() (*chart, vg.Length, vg.Length, error)
	}{
		"bars/tall-8-series":   &Bars{Title: "t", Categories: cats(4), Series: flat(8, 4, 100)},
		"bars/one-series":      &Bars{Categories: cats(3), Series: flat(1, 3, 5)},
		"bars/log":             &Bars{Categories: cats(6), Series: []Series{{Name: "NS", Values: []float64{1, 10, 100, 1000, 5, 50}}, {Name: "SS", Values: []float64{2, 3, 4, 900, 1, 1}}}, LogY: true},
		"bars/short-then-tall": &Bars{Categories: cats(5), Series: []Series{{Name: "a", Values: []float64{1, 2, 3, 4, 100}}, {Name: "b", Values: []float64{100, 4, 3, 2, 1}}}},
		"lines/cross":          &Lines{Title: "t", Series: []XY{rising, falling}},
		"lines/rising":         &Lines{Series: []XY{rising}},
		"lines/flat-top":       &Lines{Series: []XY{{Name: "top", X: []float64{0, 1, 2}, Y: []float64{5, 5, 5}}, {Name: "bottom", X: []float64{0, 1, 2}, Y: []float64{0, 0, 0}}}},
		"lines/log":            &Lines{Series: []XY{{Name: "a long series name, with its parameters", X: []float64{1, 2, 3}, Y: []float64{1, 100, 10000}}}, AutoLog: true},
	}
}

// randomCharts returns n charts of each kind with random data (seeded).
func randomCharts(n int) []interface {
	chart() (*chart, vg.Length, vg.Length, error)
} {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []interface {
		chart() (*chart, vg.Length, vg.Length, error)
	}
	value := func() float64 {
		if rng.IntN(3) == 0 {
			return math.Pow(10, 4*rng.Float64())
		}
		return 1 + 10*rng.Float64()
	}
	for range n {
		ns, k := 1+rng.IntN(8), 1+rng.IntN(12)
		b := &Bars{AutoLog: rng.IntN(2) == 0, Title: strings.Repeat("title\n", rng.IntN(3))}
		for j := range k {
			b.Categories = append(b.Categories, fmt.Sprintf("c%d", j))
		}
		for i := range ns {
			s := Series{Name: strings.Repeat("x", 1+rng.IntN(30)) + fmt.Sprint(i)}
			for range k {
				s.Values = append(s.Values, value())
			}
			b.Series = append(b.Series, s)
		}
		out = append(out, b)
		l := &Lines{AutoLog: rng.IntN(2) == 0}
		for i := range ns {
			s := XY{Name: strings.Repeat("y", 1+rng.IntN(30)) + fmt.Sprint(i)}
			for x := range 2 + rng.IntN(10) {
				s.X = append(s.X, float64(x))
				s.Y = append(s.Y, value())
			}
			l.Series = append(l.Series, s)
		}
		out = append(out, l)
	}
	return out
}

// TestLegend_NoOverlap: with the default placement, a legend's box never
// touches a bar, marker or line segment, and stays on the canvas, for
// every kind of chart (bars, lines) on the hard cases and on random data.
func TestLegend_NoOverlap(t *testing.T) {
	check := func(name string, c interface {
		chart() (*chart, vg.Length, vg.Length, error)
	}) string {
		ch, w, h, err := c.chart()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		canvas := draw.New(vgimg.New(w, h))
		l := ch.layout(canvas)
		if l.pos == "none" {
			t.Errorf("%s: no legend", name)
		}
		if l.data.hits(l.box) {
			t.Errorf("%s: legend at %s %v overlaps the data", name, l.pos, l.box)
		}
		if l.box.Min.X < canvas.Min.X || l.box.Max.X > canvas.Max.X || l.box.Min.Y < canvas.Min.Y || l.box.Max.Y > canvas.Max.Y {
			t.Errorf("%s: legend at %s %v leaves the canvas %v", name, l.pos, l.box, canvas.Rectangle)
		}
		if len(l.data.boxes) == 0 {
			t.Errorf("%s: no marks", name)
		}
		return l.pos
	}
	used := map[string]int{}
	for name, c := range legendCases() {
		used[check(name, c)]++
	}
	for i, c := range randomCharts(100) {
		used[check(fmt.Sprintf("random %d (%T)", i, c), c)]++
	}
	// The cases must exercise both a corner and the outside column.
	if used[legendOutside] == 0 || used["top-right"]+used["top-left"] == 0 {
		t.Errorf("placements used %v, want corners and outside", used)
	}
	t.Logf("placements: %v", used)
}

// TestLegend_MatchesDrawing checks the geometry the placement works with
// against the pixels drawn: each bar's and marker's centre has its
// series' colour, and everything the legend adds to a figure lies inside
// the legend's box.
func TestLegend_MatchesDrawing(t *testing.T) {
	const dpi = 144 // two pixels per point
	render := func(ch *chart, w, h vg.Length) (*image.RGBA, layout) {
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
		dc := draw.New(c)
		l := ch.layout(dc)
		ch.draw(dc)
		return c.Image().(*image.RGBA), l
	}
	pixel := func(img *image.RGBA, pt vg.Point) color.RGBA {
		b := img.Bounds()
		return img.RGBAAt(int(math.Floor(float64(pt.X)*dpi/72)), b.Max.Y-1-int(math.Floor(float64(pt.Y)*dpi/72)))
	}
	same := func(a color.RGBA, b color.Color) bool {
		r, g, bl, _ := b.RGBA()
		return a.R == uint8(r>>8) && a.G == uint8(g>>8) && a.B == uint8(bl>>8)
	}
	for name, c := range legendCases() {
		ch, w, h, err := c.chart()
		if err != nil {
			t.Fatal(err)
		}
		with, l := render(ch, w, h)
		ch.legend = "none"
		without, bare := render(ch, w, h)

		// Marks: points inside bars (markers may be hollow) and along
		// line segments must have a series colour; grid lines cross some
		// points, so each mark is probed at three places and one must
		// match.
		at := []float64{0.3, 0.43, 0.61}
		var probes [][]vg.Point
		if strings.HasPrefix(name, "bars/") {
			for _, b := range bare.data.boxes {
				if b.Max.X-b.Min.X >= 3 && b.Max.Y-b.Min.Y >= 3 {
					var ps []vg.Point
					for _, f := range at {
						ps = append(ps, vg.Point{X: b.Min.X + vg.Length(f)*(b.Max.X-b.Min.X), Y: b.Min.Y + vg.Length(1-f)*(b.Max.Y-b.Min.Y)})
					}
					probes = append(probes, ps)
				}
			}
		}
		for _, sg := range bare.data.segs {
			var ps []vg.Point
			for _, f := range at {
				ps = append(ps, vg.Point{X: sg[0].X + vg.Length(f)*(sg[1].X-sg[0].X), Y: sg[0].Y + vg.Length(f)*(sg[1].Y-sg[0].Y)})
			}
			probes = append(probes, ps)
		}
		checked := 0
		for _, ps := range probes {
			ok := false
			var got []color.RGBA
			for _, pt := range ps {
				c := pixel(without, pt)
				got = append(got, c)
				for i := range palette {
					ok = ok || same(c, colour(i))
				}
			}
			if !ok {
				t.Errorf("%s: the mark through %v is drawn %v, not a series colour", name, ps, got)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no mark was big enough to check", name)
		}

		// The legend: pixels that differ lie in its box (for a legend
		// outside, the plot is narrower, so only its column is compared).
		box := grow(l.box, 2)
		diff := 0
		for y := with.Bounds().Min.Y; y < with.Bounds().Max.Y; y++ {
			for x := with.Bounds().Min.X; x < with.Bounds().Max.X; x++ {
				pt := vg.Point{X: (vg.Length(x) + 0.5) * 72 / dpi, Y: (vg.Length(with.Bounds().Max.Y-1-y) + 0.5) * 72 / dpi}
				if l.pos == legendOutside && pt.X <= l.area.Max.X {
					continue
				}
				a, b := with.RGBAAt(x, y), without.RGBAAt(x, y)
				if l.pos == legendOutside {
					b = color.RGBA{255, 255, 255, 255}
				}
				if a != b {
					diff++
					if pt.X < box.Min.X || pt.X > box.Max.X || pt.Y < box.Min.Y || pt.Y > box.Max.Y {
						t.Errorf("%s: the legend (%s) drew at %v, outside its box %v", name, l.pos, pt, l.box)
						break
					}
				}
			}
		}
		if diff == 0 {
			t.Errorf("%s: the legend drew nothing", name)
		}
	}
}
