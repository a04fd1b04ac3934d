package backfill

// FullCompress makes c check every reservation at every compression
// (sim.Profile.Compress), as before the Compaction's filter: tests compare
// the two.
func FullCompress(c *Conservative) { c.full = true }

// PlainEASY makes e scan every waiting job at each pass, as before the
// wait index: tests compare the two.
func PlainEASY(e *EASY) { e.plain = true }
