package preempt

// denseIndexMax is the largest machine whose processor index (the owner
// and the held count of each processor) is kept as arrays, one entry per
// processor. A larger machine keeps both as lists of runs of processors
// with one value (runmap.Map), so that the index costs the runs of the
// jobs' sets, not the machine size. A variable so that tests can make small
// machines use the runs.
var denseIndexMax = 4096
