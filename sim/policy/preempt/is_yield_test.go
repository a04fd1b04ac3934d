package preempt

import (
	"testing"
)

// TestIS_TimesliceYieldReference runs IS with TimesliceYield and
// resumption by priority (factor 2, as the Kettimuthu et al. specs) on
// real traces, with the suspended jobs' bounds and with the plain routine
// (every suspended job at every minute), and requires the same schedule
// job by job: jobs that yield join the suspended jobs the bounds follow.
func TestIS_TimesliceYieldReference(t *testing.T) {
	compareISOnTraces(t, []isTraceCase{
		{"ctc430", "CTC-SP2-1996-3.1-cln.swf.gz", 430, false, 2, 1.2},
		{"sdsc/overhead", "SDSC-SP2-1998-4.2-cln.swf.gz", 0, true, 2, 1.2},
	}, func(c *ISConfig) { c.TimesliceYield = true })
}
