package policy_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
)

// TestParseStrings_Int checks that integer parameters are parsed as
// integers (never through a float), that every one has a finite maximum,
// and that overflowing values are rejected with their exact text.
func TestParseStrings_Int(t *testing.T) {
	is, err := policy.Lookup("is")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		value, want string
		got         int64
	}{
		{"600", "", 600},
		{"1e3", "", 1000},
		{"9223372036854775807", "must be <= 31536000, got 9223372036854775807", 0},
		{"9223372036854774000", "must be <= 31536000, got 9223372036854774000", 0},
		{"9223372036854775808", "9223372036854775808 is out of range", 0},
		{"-9223372036854775808", "must be >= 1, got -9223372036854775808", 0},
		{"1e300", "1e300 is out of range", 0},
		{"2.5", "2.5 is not a whole number", 0},
		{"x", `"x" is not a number`, 0},
	}
	for _, tt := range tests {
		v, err := is.ParseStrings(map[string]string{"timeslice": tt.value})
		if tt.want == "" {
			if err != nil || v.Int("timeslice") != tt.got {
				t.Errorf("timeslice=%s: %v, %v, want %d", tt.value, v, err, tt.got)
			}
			continue
		}
		if !errors.Is(err, policy.ErrBadParam) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("timeslice=%s: %v, want %q", tt.value, err, tt.want)
		}
	}
	for _, e := range policy.Entries() {
		for _, p := range e.Params {
			if p.Kind != policy.Int {
				continue
			}
			if lo, hi := p.IntRange(); hi > policy.MaxInt || lo > hi {
				t.Errorf("%s.%s: range [%d, %d], want a maximum <= %d", e.Name, p.Name, lo, hi, policy.MaxInt)
			}
			if _, err := e.Check(map[string]any{p.Name: uint64(math.MaxUint64)}); !errors.Is(err, policy.ErrBadParam) {
				t.Errorf("%s.%s=MaxUint64: %v, want ErrBadParam", e.Name, p.Name, err)
			}
		}
	}
}

// TestCheck_OverheadBound checks that absurd suspension overheads are
// rejected when the overhead is on, and ignored when it is off.
func TestCheck_OverheadBound(t *testing.T) {
	ss, err := policy.Lookup("ss")
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]string{"overhead": "true", "mem_min": "1e15", "mem_max": "1e15", "overhead_rate": "0.001"}
	if _, err := ss.ParseStrings(raw); !errors.Is(err, policy.ErrBadParam) || !strings.Contains(err.Error(), "want at most 86400 s") {
		t.Errorf("absurd overhead: %v, want the bound", err)
	}
	raw["overhead"] = "false"
	if _, err := ss.ParseStrings(raw); err != nil {
		t.Errorf("absurd overhead settings with overhead off: %v, want nil", err)
	}
}
