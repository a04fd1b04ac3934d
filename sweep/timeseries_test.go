package sweep_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

func TestParse_Timeseries(t *testing.T) {
	tasks := func(spec string) []sweep.Task {
		t.Helper()
		s, err := sweep.Parse([]byte(spec), "testdata")
		if err != nil {
			t.Fatal(err)
		}
		ts, err := s.Tasks()
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	plain := tasks(ok)
	if plain[0].SeriesStep != 0 {
		t.Errorf("SeriesStep without outputs.timeseries = %d, want 0", plain[0].SeriesStep)
	}
	for _, tc := range []struct {
		name, given string
		want        int64
	}{
		{"Default", "outputs: {timeseries: {}}\n", sweep.DefaultSeriesStep},
		{"Step", "outputs:\n  timeseries:\n    step: 600\n", 600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := tasks(ok + tc.given)
			if ts[0].SeriesStep != tc.want {
				t.Errorf("SeriesStep = %d, want %d", ts[0].SeriesStep, tc.want)
			}
			if ts[0].ID == plain[0].ID {
				t.Errorf("a task with a series has the ID of the task without")
			}
		})
	}
	for _, tc := range []struct {
		name, given, want string
		err               error
	}{
		{"TooSmall", "outputs: {timeseries: {step: 59}}\n", "outputs.timeseries.step: 59 seconds, want 60 to 31622400", yamlerr.ErrValue},
		{"Type", "outputs: {timeseries: {step: 1h}}\n", "outputs.timeseries.step: must be a whole number, got \"1h\"", yamlerr.ErrType},
		{"UnknownKey", "outputs: {timeseries: {every: 60}}\n", "outputs.timeseries.every: unknown key", yamlerr.ErrUnknownKey},
		{"NotMapping", "outputs: {timeseries: 3600}\n", "outputs.timeseries: must be a mapping, got 3600", yamlerr.ErrType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sweep.Parse([]byte(ok+tc.given), "testdata")
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want %q (%v)", err, tc.want, tc.err)
			}
		})
	}
}
