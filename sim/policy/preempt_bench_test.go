package policy_test

import (
	"testing"

	"github.com/schedfarm/schedfarm/sim/workload"
)

// The preemptive policies over the whole CTC trace (77k jobs, 338
// processors). The TSS baseline (an EASY run) is cached after the first
// iteration, so the TSS figures are the policy's own.
// TSS runs under its default reading and under the formula reading.
// Run: go test ./sim/policy -run '^$' -bench 'CTC_(SS|TSS|IS)' -benchmem -cpu 1
func BenchmarkCTC_SS_Accurate(b *testing.B) { benchPolicy(b, "ss", workload.EstimateAccurate, nil) }
func BenchmarkCTC_SS_Trace(b *testing.B)    { benchPolicy(b, "ss", workload.EstimateTrace, nil) }
func BenchmarkCTC_SS_Overhead(b *testing.B) {
	benchPolicy(b, "ss", workload.EstimateAccurate, map[string]any{"overhead": true})
}
func BenchmarkCTC_TSS_Accurate(b *testing.B) { benchPolicy(b, "tss", workload.EstimateAccurate, nil) }
func BenchmarkCTC_TSS_Formula(b *testing.B) {
	benchPolicy(b, "tss", workload.EstimateAccurate, map[string]any{"tss_protect_victim": false})
}
func BenchmarkCTC_IS_Accurate(b *testing.B) { benchPolicy(b, "is", workload.EstimateAccurate, nil) }
func BenchmarkCTC_IS_Overhead(b *testing.B) {
	benchPolicy(b, "is", workload.EstimateAccurate, map[string]any{"overhead": true})
}

// BenchmarkCTC_IS_PriorityFactor2 is IS with resumption by priority and
// resume_factor 2, the reading of the Kettimuthu et al. specs, over the
// whole trace.
func BenchmarkCTC_IS_PriorityFactor2(b *testing.B) {
	benchPolicy(b, "is", workload.EstimateAccurate, map[string]any{"resume_preempt": true, "resume_factor": 2.0})
}
