// Package sweep reads sweep specs (YAML), validates them and expands them
// into [Task]s, each identified by the hash of its canonical description.
//
// A spec names workloads (a trace plus a subset, an estimate model and a
// load factor), policies with grids of parameter values, a number of
// replications and the category schemes to report. [Load] or [Parse]
// checks everything before anything runs and reports every problem at
// once, each prefixed by its key path in the spec, for example
//
//	workloads[0].trace: unknown trace "ctcx" (valid: ctc, kth, sdsc, sdsc-par, or a file path relative to the spec)
//	policies[1].params.suspension_factor[0]: must be >= 1, got 0.5
//	workloads[0].lod: unknown key
//
// The format, with an example per field, is in docs/specs.md.
//
// # Expansion
//
// [Spec.Tasks] returns the tasks in a fixed order: for each workload entry,
// for each point of its grid; for each policy entry, for each point of its
// parameter grid; for each replication. A grid is the cartesian product of
// its axes, the last axis varying fastest; axes joined by a zip group move
// together and take the place of the group's first member. Workload axes
// come in the order trace, procs, skip, count, estimates, load_mode, load,
// sigma, range_factor;
// parameter axes in the order they are written in the spec.
//
// A task's seed is derived from the spec's base seed, the workload and the
// replication, and not from the policy, so every policy of a sweep sees the
// same jobs. A task's ID ([Task.ComputeID]) is the hash of everything that
// can change its result and nothing else, so equal tasks of different
// sweeps share their cached results.
//
// # Typed tasks
//
// A task carries its policy parameters as the registry's check typed and
// validated them (policy.Values: float64, int64, bool or string by the
// parameter's kind). They travel typed in the task's JSON (an int64 stays
// an exact integer) and the runner builds the policy from them with
// policy.Build, which matches names and kinds but validates nothing
// again. Their canonical text (policy.Values.Canonical, [Task.ParamString])
// is the params column of the outputs and the text of the tables. The
// task ID hashes the same typed values, each number written as the
// shortest text of its float64 value and a string prefixed by its type,
// as IDs were computed before the values were typed: cached results keep
// their IDs (for an Int parameter the two texts differ only from 1e+06 up).
//
// # Cost
//
// Parsing hashes every trace file the spec uses and reads each trace once
// per machine size to check that every subset has enough jobs (about a
// tenth of a second for the full CTC trace); both are cached in the
// process, so parsing the same spec again is cheap. It then expands the
// whole grid, checking each point's parameters with the policy registry.
// A spec may expand to at most [MaxTasks] tasks.
//
// Cross-parameter rules that a policy checks only when it is built (for
// example a minimum above a maximum) are not checked here; such a task
// fails when it runs.
package sweep
