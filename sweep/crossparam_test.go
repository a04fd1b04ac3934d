package sweep_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// TestParse_CrossParam checks that constraints between a policy's
// parameters are checked per grid point at validation and reported at the
// key path of the offending value.
func TestParse_CrossParam(t *testing.T) {
	base := ok + "  - name: multiqueue\n    label: mq\n    params:\n"
	tests := []struct {
		name, params string
		want         []string
	}{
		{"Below", "      class_bound_2: 50\n",
			[]string{"policies[1].params.class_bound_2: must be >= class_bound_1 (100), got 50"}},
		{"ListItem", "      class_bound_3: [20000, 500]\n",
			[]string{"policies[1].params.class_bound_3[1]: must be >= class_bound_2 (1000), got 500"}},
		{"Two", "      class_bound_1: 5000\n      class_bound_2: 2000\n      class_bound_3: 1500\n",
			[]string{"policies[1].params.class_bound_2: must be >= class_bound_1 (5000), got 2000",
				"policies[1].params.class_bound_3: must be >= class_bound_2 (2000), got 1500"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sweep.Parse([]byte(base+tc.params), "../results/testdata")
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %v, want a validation error", err)
			}
			var got []string
			for _, p := range ve.Problems {
				got = append(got, p.Error())
				if !errors.Is(p, policy.ErrBadParam) {
					t.Errorf("%v does not wrap ErrBadParam", p)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	if _, err := sweep.Parse([]byte(base+"      class_bound_1: 5000\n      class_bound_2: 50000\n      class_bound_3: 50000\n"), "../results/testdata"); err != nil {
		t.Errorf("valid bounds rejected: %v", err)
	}
}
