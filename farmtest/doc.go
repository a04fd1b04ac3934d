// Package farmtest holds the farm's integration tests: they build the
// schedfarm binary and a nats-server binary (from the module cache) and
// run sweeps with real processes, killing workers and coordinators with
// SIGKILL in the middle, feeding bad specs and poisoned tasks, and
// checking that the outputs are byte-identical to a clean run's.
//
// Run them with `go test ./farmtest`; -short skips the crash tests. The
// package has no code besides tests.
package farmtest
