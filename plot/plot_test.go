package plot

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBars_Save(t *testing.T) {
	dir := t.TempDir()
	b := &Bars{
		Title: "CTC, accurate estimates\nmean bounded slowdown by ss16 category", XLabel: "ss16 category", YLabel: "mean bounded slowdown",
		Categories: []string{"VS Seq", "VS N", "VS W", "VS VW"},
		Series: []Series{
			{Name: "NS", Values: []float64{2.6, 4.76, 13.01, 34.07}},
			{Name: "SS SF=2", Values: []float64{1.5, 2.1, math.NaN(), 2.9}},
		},
		AutoLog: true,
	}
	for _, ext := range []string{"png", "svg"} {
		path := filepath.Join(dir, "bars."+ext)
		if err := b.Save(path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil || len(data) < 1000 {
			t.Fatalf("%s: %d bytes, err %v", path, len(data), err)
		}
		if ext == "png" {
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil || img.Bounds().Dx() < MinPNGWidth {
				t.Fatalf("png: %v %v", err, img.Bounds())
			}
		} else {
			for _, want := range []string{"NS", "SS SF=2", "VS VW", "mean bounded slowdown", "ss16 category", "CTC, accurate estimates"} {
				if !strings.Contains(string(data), want) {
					t.Errorf("svg lacks %q", want)
				}
			}
		}
	}
}

func TestLines_Save(t *testing.T) {
	dir := t.TempDir()
	l := &Lines{
		Title: "utilization against load", XLabel: "load factor", YLabel: "utilization",
		Series: []XY{{Name: "NS", X: []float64{1, 1.1, 1.2}, Y: []float64{0.6, 0.65, 0.7}}},
	}
	path := filepath.Join(dir, "lines.svg")
	if err := l.Save(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "load factor") {
		t.Errorf("svg lacks the x label")
	}
	if err := l.Save(filepath.Join(dir, "x.pdf")); err == nil {
		t.Errorf("Save(.pdf) succeeded")
	}
	bad := &Lines{Series: []XY{{Name: "a", X: []float64{1}, Y: nil}}}
	if err := bad.Save(filepath.Join(dir, "bad.png")); err == nil {
		t.Errorf("mismatched series saved")
	}
}

// TestBars_LogBase: on a log axis, bars grow from one decade below the
// smallest value, so a value of 1 draws a bar, and the ticks still name
// the values (1 at the height of log10(1) - base).
func TestBars_LogBase(t *testing.T) {
	b := &Bars{Categories: []string{"a", "b"}, Series: []Series{{Name: "x", Values: []float64{1, 1000}}}, LogY: true}
	if err := b.Save(filepath.Join(t.TempDir(), "b.svg")); err != nil {
		t.Fatal(err)
	}
	ticks := powTicks{base: -1}.Ticks(0, 4)
	labels := map[float64]string{}
	for _, tk := range ticks {
		if tk.Label != "" {
			labels[tk.Value] = tk.Label
		}
	}
	if labels[0] != "0.1" || labels[1] != "1" || labels[4] != "1000" {
		t.Errorf("tick labels %v, want 0.1 at 0, 1 at 1, 1000 at 4", labels)
	}
}

// TestStyle_Apply: --log, --linear and --legend reach the charts, and bad
// values are named.
func TestStyle_Apply(t *testing.T) {
	b := &Bars{AutoLog: true}
	Style{YScale: ScaleLinear, Legend: "bottom-left"}.Apply(b)
	if b.LogY || b.AutoLog || b.Legend != "bottom-left" {
		t.Errorf("linear: %+v", b)
	}
	l := &Lines{}
	Style{YScale: ScaleLog}.Apply(l)
	if !l.LogY || l.Legend != "" {
		t.Errorf("log: %+v", l)
	}
	if err := (Style{Legend: "middle"}).Check(); err == nil || !strings.Contains(err.Error(), `"middle"`) {
		t.Errorf("Check(legend middle)=%v", err)
	}
	for _, pos := range LegendPositions {
		l := &Lines{Series: []XY{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 3}}}, Legend: pos}
		if err := l.Save(filepath.Join(t.TempDir(), "l.svg")); err != nil {
			t.Errorf("legend %s: %v", pos, err)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	var labels []string
	for _, tk := range (niceTicks{}).Ticks(0, 1600) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0 500 1000 1500" {
		t.Errorf("ticks of [0, 1600]: %s, want 0 500 1000 1500", got)
	}
	labels = nil
	for _, tk := range (niceTicks{}).Ticks(0.9, 1.35) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.9 1 1.1 1.2 1.3" {
		t.Errorf("ticks of [0.9, 1.35]: %s", got)
	}
}
