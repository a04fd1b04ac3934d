// Package results defines the output formats: it holds task results and
// writes them as a sweep's Parquet files (Apache Arrow Go), and reads
// them back. It lays out no presentation table: tables.md and tables.csv
// are package report's, written beside the Parquet files through a hook
// (see Tables below).
//
// # Task results
//
// A [TaskResult] is what a worker sends back for one task: the per-job
// [metrics.Record]s, the whole-run [metrics.RunStats] and the trace's
// dropped-job counts, or the error of a task that failed
// deterministically. [TaskResult.Marshal] encodes it as a small JSON
// header followed by the jobs as a zstd-compressed Arrow IPC stream
// (about 20 bytes per job); [Unmarshal] decodes it. Category labels and aggregates are not part of a result:
// they are computed from the records when outputs are written.
//
// # Columns
//
// Every column of the output files is declared once, in the column tables
// of columns.go: name, Arrow type, nullability, unit, description, how
// the value is taken from a job record, a task, a task result or a
// category aggregate, and how it is read back. The wire format of task
// results, the Parquet writers, the typed readers ([ReadJobs],
// [ReadSummary], [ReadTasks]), the CSV writer of `schedfarm sim`
// ([WriteJobsCSV]) and the tables of docs/columns.md ([UpdateColumnsDoc],
// [Columns]) are made from them. A policy family adds its per-job or
// per-task columns as entries in those tables, nothing else.
//
// # Output files
//
// [StreamOutputs] writes, rows ordered by task index and then by job,
// taking one task result at a time so that memory does not grow with the
// sweep ([WriteOutputs] is the same for results held in memory):
//
//   - jobs.parquet: one row per (task, job): the task columns, then
//     job_id, submit, start, end, wait, runtime, estimate, procs,
//     turnaround, bsd, slowdown, suspensions, suspended_time,
//     overhead_time, kills, then one label column per category scheme
//     (cat_ss16, ...).
//   - summary.parquet: one row per (task, scheme, category), the overall
//     row last with category "all" and row = col = -1: the task columns,
//     then scheme, category, row, col, jobs (the category's job count),
//     and the mean and max of bsd, turnaround, wait and slowdown
//     (bsd_mean, bsd_max, ...; 0 for an empty category).
//   - tasks.parquet: one row per task, failed ones included: the task
//     columns, then jobs, makespan, utilization, suspensions, kills,
//     drops, drops_detail, baseline, wall_time_ms, worker, error, the
//     multiqueue, elastic and QoS columns, and build (see
//     docs/columns.md).
//   - tables.md and tables.csv: the chosen metric per category of the
//     chosen scheme (sweep.Spec.Outputs.Tables) per (workload, policy
//     setting), replications combined; laid out by package report
//     (report.SweepTables) and written through the [Tables] hook.
//
// The task columns are task_id, task_index, sweep, trace, policy, label,
// params (sorted name=value text), one nullable param_<name> column per
// policy parameter of the sweep (typed from the policy registry; null
// where the task's policy has no such parameter), machine_procs, load,
// load_mode, estimates, skip, count, replication and seed.
//
// Row groups hold 65,536 rows each (the last one fewer), whatever the
// tasks' sizes, and carry min/max statistics on every column, so readers
// skip row groups on task or parameter predicates. Every Parquet file is
// zstd-compressed and carries key-value metadata:
// the spec (schedfarm.spec), its sha256, the sweep name, the tool and
// simulator versions, the traces' sha256 and the list of param_* columns
// (see the Meta* constants).
//
// # Determinism
//
// The same spec, tasks and results give byte-identical jobs.parquet,
// summary.parquet, tables.md and tables.csv, whatever the number of
// workers, their order or their timing. tasks.parquet is identical except
// for its worker, wall_time_ms and build columns, which say where, how
// long and by which build each task ran.
//
// # Reading
//
// [ReadJobs], [ReadSummary] and [ReadTasks] read the files back into Go
// values (for tests and for commands that make tables and figures);
// [ReadMetadata] returns a file's key-value metadata.
//
// # Tables
//
// results defines the formats only; it lays out no presentation table.
// [StreamOutputs] writes tables.md and tables.csv beside the Parquet
// files when the caller passes a [Tables] hook with [WithTables] (the
// coordinator and the test runner pass package report's): the hook's
// [TableSink] takes each task's row, as the Parquet files hold it, and
// its aggregates under the table scheme as results stream by, and writes
// its files once every task was written. Without the hook no tables are
// written.
package results
