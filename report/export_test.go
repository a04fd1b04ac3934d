package report

// Exported for the tests of package report_test.
var (
	GanttBoxes = ganttBoxes
	Runs       = runs
	NewBins    = newBins
)

// Class and Labels expose bins for the tests.
func (b bins) Class(v float64) int        { return b.class(v) }
func (b bins) Labels(col string) []string { return b.labels(col) }
