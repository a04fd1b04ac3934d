package sim

// Version identifies the simulator's behaviour. It is part of every task's
// identity in a sweep, so cached results are not reused across versions
// that may schedule differently: bump it with any change that can change a
// schedule or a metric.
const Version = "0.14.0"
