package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
)

// Y axis scales a caller may force (see [Style]).
const (
	ScaleAuto   = "auto"   // logarithmic when the values span more than two decades
	ScaleLog    = "log"    // always logarithmic
	ScaleLinear = "linear" // always linear
)

// LegendPositions are the legend positions (see [Style]): "auto" (the
// default) puts the legend in the first corner of the plot area where it
// covers no bar, marker or line, or outside the plot area, to its right,
// when every corner holds data; "outside" always puts it there; a corner
// is honoured as given, even over data; "none" draws no legend.
var LegendPositions = []string{"auto", "top-right", "top-left", "bottom-right", "bottom-left", "outside", "none"}

// Style is what a user may choose about a chart's look: the y scale
// ([ScaleAuto], [ScaleLog], [ScaleLinear]; "" is auto) and the legend
// position (one of [LegendPositions]; "" keeps the chart's default).
type Style struct {
	YScale string
	Legend string
}

// Check returns an error naming the bad field.
func (s Style) Check() error {
	if s.YScale != "" && !slices.Contains([]string{ScaleAuto, ScaleLog, ScaleLinear}, s.YScale) {
		return fmt.Errorf("y scale %q: want auto, log or linear", s.YScale)
	}
	if s.Legend != "" && !slices.Contains(LegendPositions, s.Legend) {
		return fmt.Errorf("legend %q: want one of %v", s.Legend, LegendPositions)
	}
	return nil
}

// Apply sets the style on a chart (*Bars or *Lines; others are left
// alone). A chart that chose a linear axis itself (AutoLog off, LogY off)
// keeps it under ScaleAuto.
func (s Style) Apply(chart any) {
	var logY, autoLog *bool
	var legend *string
	switch c := chart.(type) {
	case *Bars:
		logY, autoLog, legend = &c.LogY, &c.AutoLog, &c.Legend
	case *Lines:
		logY, autoLog, legend = &c.LogY, &c.AutoLog, &c.Legend
	default:
		return
	}
	switch s.YScale {
	case ScaleLog:
		*logY, *autoLog = true, false
	case ScaleLinear:
		*logY, *autoLog = false, false
	}
	if s.Legend != "" {
		*legend = s.Legend
	}
}

// niceTicks labels a linear axis at multiples of 1, 2 or 5 times a power
// of ten, about five of them, with unlabelled minor ticks between (the
// default ticker may pick steps such as 300, giving 300/900/1500).
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	minor := step / 5
	if step/mag == 2 {
		minor = step / 4
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/minor) * minor; v <= hi+minor*1e-9; v += minor {
		k := math.Round(v/minor) * minor
		if r := math.Mod(math.Abs(k), step); r < step*1e-9 || step-r < step*1e-9 {
			ts = append(ts, plot.Tick{Value: k, Label: strconv.FormatFloat(k, 'g', 10, 64)})
		} else {
			ts = append(ts, plot.Tick{Value: k})
		}
	}
	return ts
}

// padX widens the x range by frac of it on both sides, so markers at the
// ends do not sit on the frame.
func padX(p *plot.Plot, frac float64) {
	if d := p.X.Max - p.X.Min; d > 0 {
		p.X.Min -= frac * d
		p.X.Max += frac * d
	}
}
