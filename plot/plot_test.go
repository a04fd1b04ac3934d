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
			if err != nil || img.Bounds().Dx() < 400 {
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
