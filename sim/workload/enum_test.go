package workload

import (
	"errors"
	"testing"
)

// TestEnum_Names checks the names, text round trips and the texts of
// values without a name of both option types.
func TestEnum_Names(t *testing.T) {
	for _, tt := range []struct {
		value interface {
			String() string
			MarshalText() ([]byte, error)
		}
		want string
	}{
		{EstimateTrace, "trace"},
		{EstimateAccurate, "accurate"},
		{EstimateModel(7), "EstimateModel(7)"},
		{LoadArrival, "arrival"},
		{LoadDuplicate, "duplicate"},
		{LoadMode(9), "LoadMode(9)"},
	} {
		if got := tt.value.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		b, err := tt.value.MarshalText()
		switch {
		case tt.want[len(tt.want)-1] == ')':
			if !errors.Is(err, ErrInvalidOption) {
				t.Errorf("MarshalText(%s) error %v, want ErrInvalidOption", tt.want, err)
			}
		case err != nil || string(b) != tt.want:
			t.Errorf("MarshalText(%s) = %q, %v", tt.want, b, err)
		}
	}
	var m LoadMode
	if err := m.UnmarshalText([]byte("arrival_scale")); err != nil || m != LoadArrival {
		t.Errorf("UnmarshalText(arrival_scale) = %v, %v, want arrival", m, err)
	}
	var e EstimateModel
	if err := e.UnmarshalText([]byte("accurate")); err != nil || e != EstimateAccurate {
		t.Errorf("UnmarshalText(accurate) = %v, %v, want accurate", e, err)
	}
}
