// Package workload reads job traces in the Standard Workload Format (SWF) of
// the Parallel Workloads Archive and turns them into the [sim.Job] lists the
// simulator replays.
//
// Reading ([Read], [Parse]) and building ([Trace.Build]) are separate steps:
// a [Trace] is read once and can build many [Workload]s (subsets, estimate
// models, load factors). [Load] does both. All steps are pure and
// deterministic: the only randomness is the duplicate load transform, which
// draws from a PCG generator seeded with [Options.Seed].
//
// # Input
//
// Files may be plain SWF or gzipped SWF; gzip is recognised by its magic
// bytes, whatever the file name. Lines starting with ';' are header
// comments: a line "; Key: value" sets Key (letters, digits and '_') to
// value, a comment line without a key continues the previous key, and a
// repeated key or a continuation is appended to the value after a newline
// ([Trace.Header]). Blank lines are skipped. Every other line is one job of
// exactly 18 whitespace-separated numeric fields, -1 meaning unknown.
// Fields may be integers or decimals ("3.5"); exponents are not accepted,
// and absolute values must not exceed [MaxValue]. Decimal times (submit,
// wait, runtime, requested time, think time) are rounded up to whole
// seconds; job ids, processor counts, statuses and the numbers of fields
// 12-17 must be whole numbers.
//
// # Fields used
//
//	1 job id (unique, >= 0)         5 allocated procs    11 status (-1, 0..5)
//	2 submit time (>= 0)            8 requested procs    12 user, 13 group
//	3 wait time                     9 requested time     14 executable
//	4 runtime                                            15 queue, 16 partition
//	                                                     17 preceding job
//	                                                     18 think time
//
// A job's size is field 8 if it is positive, else field 5. Its trace
// estimate is field 9 if it is positive. Fields 11-18 are each -1
// (unknown) or a value the format allows (a status of 0..5, numbers and
// the think time >= 0, fields 12-16 below 2^31); they reach the job as
// [sim.Job.Info], for policies that group jobs by user. Fields 6, 7 and
// 10 are checked to be numbers and otherwise ignored.
//
// # Machine size and dropped jobs
//
// The machine size is the caller's override if it is positive, else the
// leading integer of the header's MaxProcs, else of its MaxNodes; a trace
// with none of these is an error ([ErrNoMachineSize]). Jobs whose runtime is
// <= 0, whose size is <= 0 (fields 5 and 8 both unknown) or whose size
// exceeds the machine are dropped and counted in a [DropReport], under the
// first of these reasons that applies. Dropping is never silent: the report
// travels with the [Trace] and the [Workload].
//
// # Errors
//
// Malformed input gives a [*ParseError] naming the file, line and field,
// which wraps one of the sentinel errors ([ErrFieldCount], [ErrNotNumber],
// ...) for [errors.Is]. Reading never returns a partly loaded trace: on
// error the trace is nil.
//
// # Building a workload
//
// [Trace.Build] applies, in this order:
//
//  1. Order: jobs sorted by submit time, ties kept in input order.
//  2. Subset: [Options.Skip] jobs are skipped and the next [Options.Count]
//     taken (all when 0). Skip and Count count jobs that remain after
//     dropping, so a subset always holds exactly Count valid jobs.
//  3. Re-basing: submit times are shifted so the first job submits at 0
//     (always, with or without a subset).
//  4. Estimates: [EstimateTrace] uses max(field 9, runtime), or the runtime
//     when field 9 is unknown; [EstimateAccurate] uses the runtime.
//  5. Load: with a load factor LF ([Options.Load]) other than 0 or 1,
//     [LoadArrival] divides inter-arrival times by LF (submit' =
//     round(submit/LF), after re-basing; LF < 1 stretches), and
//     [LoadDuplicate] gives each job floor(LF-1) copies plus one more with
//     probability frac(LF-1), at the same submit time, right after the
//     original. Copies get the ids maxID+1, maxID+2, ... in order, where
//     maxID is the largest job id of the whole trace. A copy's
//     [sim.Job.Origin] is its original's id; originals leave it 0, which
//     means their own id.
//  6. Moldability: with [Options.Moldable], every job gets a size range
//     and Downey's speedup ([Annotate]); without it the workload is rigid.
//
// # Limits and cost
//
// Reading streams the input: memory grows with the jobs kept (about 80
// bytes per job), never with a count taken from the input, and the input
// is hashed ([Trace.SHA256]) as it is read. [Limits] bound the text after
// decompression, the length of a line, the number of job lines and the
// header; an input past a limit (a gzip bomb, an endless line) fails with
// [ErrTooLarge] or [ErrLineTooLong] at the line where it crossed it.
// [ReadContext] and [ParseContext] stop soon after their context is done.
// A UTF-8 byte order mark at the start is skipped; CR line endings
// (classic Mac OS) fail with [ErrCRLineEndings]. The full CTC trace (77k
// jobs, 1.5 MB gzipped) reads in about 0.1 s.
package workload
