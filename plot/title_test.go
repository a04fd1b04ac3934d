package plot

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// longTitle is a load figure's title as the report makes it for a sweep
// with long labels and a filter: its lines are wider than a 6-inch canvas.
const longTitle = "workload trace=SDSC-SP2-1998-4.2-cln, estimates=predicted, policy=easy order=wfp3 backfill_order=sjf\n" +
	"mean bounded slowdown against load factor, all jobs (ss16), where policy in {easy, conservative, fcfs, priority}\n" +
	"error bars: 95% confidence interval of the mean across replications (Student's t)"

// TestTitle_FitsCanvas draws load and bar figures with long titles on a
// recording canvas and measures every piece of the title's text drawn:
// each lies wholly inside the canvas, and together they hold every word
// of the title in order.
func TestTitle_FitsCanvas(t *testing.T) {
	lines := &Lines{Title: longTitle, XLabel: "load factor", YLabel: "BSD",
		Series: []XY{{Name: "easy", X: []float64{1, 1.2, 1.4}, Y: []float64{3, 8, 30}, Err: []float64{0.5, 1, 4}}}}
	bars := &Bars{Title: longTitle, XLabel: "ss4 category", YLabel: "BSD",
		Categories: []string{"SN", "SW", "LN", "LW"}, Series: []Series{{Name: "easy", Values: []float64{1, 2, 3, 4}}}}
	for name, build := range map[string]func() (*chart, vg.Length, vg.Length, error){"lines": lines.chart, "bars": bars.chart} {
		ch, w, h, err := build()
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder.Canvas{}
		ch.draw(draw.NewCanvas(rec, w, h))
		if ch.p.Title.Text != longTitle {
			t.Errorf("%s: drawing changed the plot's title to %q", name, ch.p.Title.Text)
		}
		words := strings.Fields(longTitle)
		var drawn []string
		for _, a := range rec.Actions {
			fs, ok := a.(*recorder.FillString)
			if !ok || !strings.Contains(longTitle, fs.String) || len(fs.String) < 12 {
				continue // not a piece of the title (tick labels, legend)
			}
			face := font.DefaultCache.Lookup(fs.Font, fs.Size)
			x0, x1 := fs.Point.X, fs.Point.X+face.Width(fs.String)
			if x0 < 0 || x1 > w {
				t.Errorf("%s: title line %q drawn from x = %.1f to %.1f pt, outside the canvas (0 to %.1f)", name, fs.String, x0, x1, w)
			}
			drawn = append(drawn, strings.Fields(fs.String)...)
		}
		if strings.Join(drawn, " ") != strings.Join(words, " ") {
			t.Errorf("%s: title drawn as %q, want every word of %q", name, drawn, longTitle)
		}
	}
}

// TestWrapText: lines that fit are kept; a long one breaks at spaces into
// the fewest lines that fit; a word wider than the line is cut.
func TestWrapText(t *testing.T) {
	sty := newPlot("", "", "").Title.TextStyle
	w := sty.Width("abcd efgh")
	if got := wrapText(sty, "abcd efgh\nab", w); got != "abcd efgh\nab" {
		t.Errorf("fitting lines: %q", got)
	}
	if got := wrapText(sty, "abcd efgh ijkl mnop q", w); got != "abcd efgh\nijkl mnop q" && got != "abcd efgh\nijkl mnop\nq" {
		t.Errorf("long line: %q", got)
	}
	for _, l := range strings.Split(wrapText(sty, "abcdefghijklmnopqrstuvwxyz", w), "\n") {
		if sty.Width(l) > w || l == "" {
			t.Errorf("cut word: line %q (%.1f pt > %.1f)", l, sty.Width(l), w)
		}
	}
}
