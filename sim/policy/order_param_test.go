package policy_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
)

// TestOrderParam_Elided: the queue order parameters are left out of the
// values at their defaults (so tasks that do not set them keep their
// identity and columns), kept otherwise; conservative rejects an order
// with a compression order of its own.
func TestOrderParam_Elided(t *testing.T) {
	easy, err := policy.Lookup("easy")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw  map[string]any
		want string
	}{
		{nil, ""},
		{map[string]any{"order": "fcfs", "backfill_order": "queue"}, ""},
		{map[string]any{"order": "wfp3"}, "order=wfp3"},
		{map[string]any{"backfill_order": "sjf"}, "backfill_order=sjf"},
	} {
		v, err := easy.Check(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Canonical(); got != c.want {
			t.Errorf("easy %v: values %q, want %q", c.raw, got, c.want)
		}
	}
	cons, err := policy.Lookup("conservative")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := cons.Check(nil); err != nil || v.Canonical() != "compress=start_order" {
		t.Errorf("conservative defaults: %q, %v", v.Canonical(), err)
	}
	_, err = cons.Check(map[string]any{"order": "sjf", "compress": "queue_order"})
	if !errors.Is(err, policy.ErrBadParam) || !strings.HasPrefix(err.Error(), "compress: ") {
		t.Errorf("order with queue_order: %v", err)
	}
	if _, err := easy.Check(map[string]any{"order": "random"}); !errors.Is(err, policy.ErrBadParam) {
		t.Errorf("unknown order: %v", err)
	}
}
