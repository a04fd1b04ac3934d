package sweep_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// TestParse_IntOverflow checks that integer parameters past int64 or past
// their maximum, and absurd overheads, are problems of the spec, each with
// its key path and line, rather than failures at run time.
func TestParse_IntOverflow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(specDir, "bad-overflow.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sweep.Parse(data, specDir)
	var ve *yamlerr.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Parse()=%v, want a *ValidationError", err)
	}
	want := []struct {
		path string
		line int
		text string
	}{
		{"policies[0].params.interval", 9, "must be <= 31536000, got 9223372036854775807"},
		{"policies[1].params.timeslice[0]", 12, "must be <= 31536000, got 9223372036854774000"},
		{"policies[1].params.timeslice[1]", 12, "out of range"},
		{"policies[2].params.mem_max", 15, "mem_max / overhead_rate = 1e+18 s, want at most 86400 s"},
	}
	for _, w := range want {
		found := false
		for _, p := range ve.Problems {
			if p.Path == w.path && strings.Contains(p.Error(), w.text) {
				found = true
				if p.Line != w.line {
					t.Errorf("%s: line %d, want %d", w.path, p.Line, w.line)
				}
				if !errors.Is(p, policy.ErrBadParam) {
					t.Errorf("%s: %v does not wrap ErrBadParam", w.path, p)
				}
			}
		}
		if !found {
			t.Errorf("no problem %s: ...%s...; got:\n%v", w.path, w.text, err)
		}
	}
}
