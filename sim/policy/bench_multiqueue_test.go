package policy_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim/workload"
)

func BenchmarkCTC_Multiqueue_Accurate(b *testing.B) {
	benchPolicy(b, "multiqueue", workload.EstimateAccurate, nil)
}
func BenchmarkCTC_MultiqueueDelay_Accurate(b *testing.B) {
	benchPolicy(b, "multiqueue", workload.EstimateAccurate, map[string]any{"delay": true})
}
func BenchmarkCTC_Multiqueue_Trace(b *testing.B) {
	benchPolicy(b, "multiqueue", workload.EstimateTrace, nil)
}
