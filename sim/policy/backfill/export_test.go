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
// a job's prediction: the one made at its arrival until it starts, and
// for a job that has completed, that one with every correction that came
// due while it ran. (Under a static order a correction that could
// start no job is made only when a pass next reads the prediction, see
// correctionAlarm, and a job may complete first.)
func PredictionBasis(e *EASY, f func(t *sim.Task, from []int)) func(t *sim.Task) sim.Time {
	e.basis = f
	return func(t *sim.Task) sim.Time {
		pred, k := e.pr.estimate(t), int(e.pr.steps[t.Index])
		for pred < t.Estimate && t.FirstStart+pred < t.End {
			pred = corrected(pred, k, t.Estimate)
			k++
		}
		return pred
	}
}

// SortAllEASY makes e sort its whole queue at every pass and skip none,
// as before scheduleDynamic: tests compare the two.
func SortAllEASY(e *EASY) { e.sortAll = true }

// EagerCorrections makes e put each correction of a prediction into its
// profile when it is made and read the profile at every pass it may skip,
// as before corrections were flushed when needed: tests compare the two.
func EagerCorrections(e *EASY) { e.eager = true }
