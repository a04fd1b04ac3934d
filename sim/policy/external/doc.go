// Package external runs a scheduling policy written in any language as a
// child process and speaks the schedfarm policy protocol with it:
// newline-delimited JSON over the child's standard input and output,
// version [Version], mirroring [sim.Policy] and [sim.Machine] one to one.
// docs/protocol.md describes the protocol with a full example exchange.
//
// The engine sends a handshake (protocol version, machine size, number of
// jobs, the policy's own parameters, the seed) and reads the policy's
// answer (its name and the optional events it wants). Then, each time the
// engine would call [sim.Policy.Schedule], it sends one "instant" message
// with the events since the last one, in the engine's order (completions,
// ends of overheads, arrivals, timers), and reads one "decisions" message,
// whose decisions it applies in order through the same [sim.Machine]
// methods the built-in policies call. At the end of the run it sends
// "end" and waits for the child to exit.
//
// Failures are bounded: a decision the machine refuses, a line that is not
// a protocol message (including stray prints to standard output), a child
// that exits, or one that stays silent past the per-instant limit
// ([Config.InstantLimit]) or the per-run limit ([Config.TaskLimit]) ends
// the run with an [*Error] naming the simulated instant, the message, and
// the last lines of the child's standard error. The child runs in its own
// process group, which is killed on every failure and at [Policy.Close].
//
// Arrivals carry what a policy may see: the job's index (its handle in
// decisions), trace ID, submit time, estimate and size, and the moldable
// or elastic bounds where present; never the actual runtime.
package external
