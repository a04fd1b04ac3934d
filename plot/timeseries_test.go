package plot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/plot"
)

func TestTimeseries_Save(t *testing.T) {
	dir := t.TempDir()
	ts := &plot.Timeseries{Title: "t", XLabel: "days", QueueLabel: "queue", Lines: []plot.TimeLine{
		{Name: "a", T: []float64{0, 1, 2}, Queue: []float64{0, 5, 2}, Util: []float64{0.2, 1, 0.5}},
		{Name: "b", T: []float64{0, 1}, Queue: []float64{1, 1}, Util: []float64{0.1, 0.1}},
	}}
	for _, ext := range []string{"png", "svg"} {
		path := filepath.Join(dir, "ts."+ext)
		if err := ts.Save(path); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", path, err)
		}
	}
	for name, bad := range map[string]*plot.Timeseries{
		"NoData":  {},
		"Lengths": {Lines: []plot.TimeLine{{Name: "x", T: []float64{0, 1}, Queue: []float64{1}, Util: []float64{1, 1}}}},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".svg")
			if err := bad.Save(path); err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("Save = %v, want an error naming the file", err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("%s written despite the error", path)
			}
		})
	}
}
