package qops

import (
	"errors"
	"slices"
	"testing"
)

func TestPoints(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{0, []int{0}},
		{1, []int{0, 1}},
		{2, []int{0, 1, 2}},
		{3, []int{0, 2, 3}},
		{8, []int{0, 4, 6, 7, 8}},
		{10, []int{0, 5, 8, 9, 10}},
	}
	for _, tt := range tests {
		if got := points(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("points(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

func TestRequestedDeadline(t *testing.T) {
	// EASY response 1000, S 0.2: floor(800) > runtime 100.
	if got := RequestedDeadline(50, 100, 1050, 0.2); got != 850 {
		t.Errorf("RequestedDeadline = %d, want 850", got)
	}
	// No wait under EASY: the runtime wins.
	if got := RequestedDeadline(50, 100, 150, 0.2); got != 150 {
		t.Errorf("RequestedDeadline = %d, want 150", got)
	}
}

func TestUnit(t *testing.T) {
	n, sum := 10000, 0.0
	for id := range n {
		u := unit(7, streamTolerance, int64(id))
		if u < 0 || u >= 1 {
			t.Fatalf("unit = %v", u)
		}
		sum += u
	}
	if m := sum / float64(n); m < 0.48 || m > 0.52 {
		t.Errorf("mean of %d draws = %v, want about 0.5", n, m)
	}
	if unit(7, streamTolerance, 3) == unit(8, streamTolerance, 3) || unit(7, streamTolerance, 3) == unit(7, streamDeadline, 3) {
		t.Errorf("draws do not depend on the seed and stream")
	}
}

func TestConfig_Validate(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
	}{
		{"ErrInvalidConfig/stringency", func(c *Config) { c.Stringency = 1.5 }},
		{"ErrInvalidConfig/k_factor", func(c *Config) { c.KFactor = -1 }},
		{"ErrInvalidConfig/retry_count", func(c *Config) { c.RetryCount = 41 }},
		{"ErrInvalidConfig/tolerance", func(c *Config) { c.Tolerance = 0.5 }},
		{"ErrInvalidConfig/slack", func(c *Config) { c.Slack = 0 }},
		{"ErrInvalidConfig/deadline_fraction", func(c *Config) { c.DeadlineFraction = -0.1 }},
		{"ErrInvalidConfig/nodeadline_slack", func(c *Config) { c.NodeadlineSlack = 0.9 }},
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig().Validate() = %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			if _, err := New(c); !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("New() error = %v, want %v", err, ErrInvalidConfig)
			}
		})
	}
}
