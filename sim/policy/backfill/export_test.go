package backfill

import "github.com/schedfarm/schedfarm/sim"

// FullCompress makes c check every reservation at every compression
// (sim.Profile.Compress), as before the Compaction's filter: tests compare
// the two.
func FullCompress(c *Conservative) { c.full = true }

// PlainEASY makes e scan every waiting job at each pass, as before the
// wait index: tests compare the two.
func PlainEASY(e *EASY) { e.plain = true }

// PredictionBasis makes e call f with every prediction it makes and the
// indices of the jobs it made it from, and returns a function that gives
// the current prediction of a job.
func PredictionBasis(e *EASY, f func(t *sim.Task, from []int)) func(t *sim.Task) sim.Time {
	e.basis = f
	return func(t *sim.Task) sim.Time { return e.pr.estimate(t) }
}

// SortAllEASY makes e sort its whole queue at every pass and skip none,
// as before scheduleDynamic: tests compare the two.
func SortAllEASY(e *EASY) { e.sortAll = true }

// EagerCorrections makes e put each correction of a prediction into its
// profile when it is made and read the profile at every pass it may skip,
// as before corrections were flushed when needed: tests compare the two.
func EagerCorrections(e *EASY) { e.eager = true }
