package lsf_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// BenchmarkDiscipline runs each discipline (no knowledge) on 20,000 tagged
// jobs of the parsons1997 workload at the calibrated rate (300 s), with no
// horizon. The workload is generated outside the timed region.
//
//	go test ./sim/policy/lsf -run XXX -bench Discipline -benchtime 1x -benchmem
func BenchmarkDiscipline(b *testing.B) {
	g := workload.NewParsons1997()
	g.MeanInterarrival, g.Tagged, g.Horizon, g.Seed = 300, 20000, 0, 1
	w, err := g.Generate()
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range lsf.Disciplines() {
		b.Run(d.String(), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				p, _ := lsf.New(lsf.DefaultConfig(d))
				if _, err := sim.Run(context.Background(), w.Procs, w.Jobs, p, sim.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
