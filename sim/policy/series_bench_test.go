package policy_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// BenchmarkCTC_Series measures what a time series costs over the whole
// CTC trace: each policy without a series ("off") and with a one-hour
// step ("3600"). FCFS, whose own work per instant is least, shows the
// largest share.
// Run: go test ./sim/policy -run '^$' -bench 'CTC_Series' -benchmem -cpu 1 -count 5
func BenchmarkCTC_Series(b *testing.B) {
	wl := loadSubset(b, "ctc", workload.EstimateTrace, 0, 0)
	for _, name := range []string{"fcfs", "easy", "ss"} {
		for _, step := range []struct {
			name string
			step sim.Time
		}{{"off", 0}, {"3600", 3600}} {
			b.Run(name+"/"+step.name, func(b *testing.B) {
				b.ReportAllocs()
				var samples int
				for i := 0; i < b.N; i++ {
					p, err := policy.New(name, nil, policy.Env{Procs: wl.Procs, Jobs: wl.Jobs, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					res, err := sim.Run(context.Background(), wl.Procs, wl.Jobs, p, sim.Options{SeriesStep: step.step})
					if err != nil {
						b.Fatal(err)
					}
					samples = len(res.Series)
				}
				b.ReportMetric(float64(samples), "samples")
			})
		}
	}
}
