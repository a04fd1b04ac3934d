package sim

import "math"

// Time is simulated time in whole seconds. Workloads start at or after 0.
type Time int64

// Never is a time later than any event of a simulation.
const Never Time = math.MaxInt64
