package results

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sweep"
)

// The column tables. Each output file's columns are declared once below:
// name, type (from the Go type of the value), nullability, unit,
// description, how the value is taken from a job, task or aggregate and
// how it is read back. The wire format of task results, the Parquet
// writers and readers, the CSV writer of `schedfarm sim` and
// docs/columns.md are all made from these tables. A policy family adds
// its columns as entries in its part of a table (the order of the
// entries is the order of the columns), nothing else.

// rec is a job record: the source and the destination of the job columns.
type rec = metrics.Record

// jobCol is a column of jobs.parquet (and of the wire format).
type jobCol = colAccess[rec, rec]

// jdef and jopt declare a job column that is never null and one that may
// be (see [def], [opt]).
func jdef[T cellValue](name, unit, doc string, get func(*rec) T, set func(*rec, T)) *col[rec, rec, T] {
	return def(name, unit, doc, get, set)
}

func jopt[T cellValue](name, unit, doc string, get func(*rec) (T, bool), set func(*rec, T)) *col[rec, rec, T] {
	return opt(name, unit, doc, get, set)
}

// rejected reports whether a job was rejected by admission control: the
// columns a rejected job has no value for are null in jobs.parquet (in
// the wire format they hold the engine's values).
func rejected(j *rec) bool { return j.Rejected }

// baseJobColumns are the columns of every job.
var baseJobColumns = []jobCol{
	jdef("job_id", "", "SWF job number (field 1); copies made by `load_mode: duplicate` get ids above the trace's largest",
		func(j *rec) int64 { return j.JobID }, func(j *rec, v int64) { j.JobID = v }),
	jdef("submit", "s", "submit time, re-based so the subset's first job submits at 0, after the load transform",
		func(j *rec) int64 { return int64(j.Submit) }, func(j *rec, v int64) { j.Submit = sim.Time(v) }),
	jdef("start", "s", "first start (a preempted job may run in several pieces); null for a job rejected by admission control (`admitted` false), likewise `end`, `wait`, `turnaround`, `bsd` and `slowdown`",
		func(j *rec) int64 { return int64(j.Start) }, func(j *rec, v int64) { j.Start = sim.Time(v) }).
		nullIfIn(rejected, func(j *rec) { j.Start = -1 }),
	jdef("end", "s", "completion time",
		func(j *rec) int64 { return int64(j.End) }, func(j *rec, v int64) { j.End = sim.Time(v) }).
		nullIfIn(rejected, func(j *rec) { j.End = -1 }),
	jdef("wait", "s", "`end - submit - runtime`: all time not running (queued, suspended, suspend/resume overhead, work lost to kills)",
		func(j *rec) int64 { return int64(j.Wait) }, func(j *rec, v int64) { j.Wait = sim.Time(v) }).
		nullIfIn(rejected, nil),
	jdef("runtime", "s", "actual runtime (SWF field 4) on `procs_chosen` processors: for a moldable job T(procs_chosen) = max(1, ceil(`work` / S(procs_chosen) - 1e-6)), the trace's runtime when `procs_chosen` = `procs`",
		func(j *rec) int64 { return int64(j.Runtime) }, func(j *rec, v int64) { j.Runtime = sim.Time(v) }),
	jdef("estimate", "s", "runtime estimate the scheduler saw (by `estimates`), on `procs_chosen` processors (for a moldable job E(k), scaled like `runtime` from the estimated sequential work)",
		func(j *rec) int64 { return int64(j.Estimate) }, func(j *rec, v int64) { j.Estimate = sim.Time(v) }),
	jdef("procs", "processors", "processors the job requests in the trace (SWF field 8, else field 5); for a moldable job the scheduler may choose another size (`procs_chosen`)",
		func(j *rec) int64 { return int64(j.Procs) }, func(j *rec, v int64) { j.Procs = int(v) }),
	jdef("turnaround", "s", "`end - submit`",
		func(j *rec) int64 { return int64(j.Turnaround) }, func(j *rec, v int64) { j.Turnaround = sim.Time(v) }).
		nullIfIn(rejected, nil),
	jdef("bsd", "", "bounded slowdown `(wait + max(runtime, 10)) / max(runtime, 10)`",
		func(j *rec) float64 { return j.BSD }, func(j *rec, v float64) { j.BSD = v }).
		nullIfIn(rejected, nil),
	jdef("slowdown", "", "slowdown `1 + wait / runtime`",
		func(j *rec) float64 { return j.Slowdown }, func(j *rec, v float64) { j.Slowdown = v }).
		nullIfIn(rejected, nil),
	jdef("suspensions", "", "times the job was suspended",
		func(j *rec) int64 { return int64(j.Suspensions) }, func(j *rec, v int64) { j.Suspensions = int(v) }),
	jdef("suspended_time", "s", "total time suspended",
		func(j *rec) int64 { return int64(j.SuspendedTime) }, func(j *rec, v int64) { j.SuspendedTime = sim.Time(v) }),
	jdef("overhead_time", "s", "total time spent suspending and resuming (processors held, no work done)",
		func(j *rec) int64 { return int64(j.OverheadTime) }, func(j *rec, v int64) { j.OverheadTime = sim.Time(v) }),
	jdef("kills", "", "times the job was killed and restarted from scratch",
		func(j *rec) int64 { return int64(j.Kills) }, func(j *rec, v int64) { j.Kills = int(v) }),
}

// queued reports whether the multiqueue policy placed the job in a queue.
func queued(j *rec) bool { return j.MQ.Queue != 0 }

// queueJobColumns are the multiqueue policy's per-job columns, null under
// other policies.
var queueJobColumns = []jobCol{
	jopt("queue", "", "`multiqueue`: the job's queue (class) 1-4 by its estimate (`class_bound_1..3`); null under other policies",
		func(j *rec) (int64, bool) { return int64(j.MQ.Queue), queued(j) }, func(j *rec, v int64) { j.MQ.Queue = int(v) }),
	jopt("delay", "s", "`multiqueue`: delay imposed on the job, `ceil(D)` at its submission for a class-4 job with `delay: true`, else 0; null under other policies",
		func(j *rec) (int64, bool) { return int64(j.MQ.Delay), queued(j) }, func(j *rec, v int64) { j.MQ.Delay = sim.Time(v) }),
	jopt("partition_at_start", "processors", "`multiqueue`: processors of the job's queue partition (P_q) just after it started (at least its `procs`); null under other policies",
		func(j *rec) (int64, bool) { return int64(j.MQ.PartitionAtStart), queued(j) }, func(j *rec, v int64) { j.MQ.PartitionAtStart = int(v) }),
}

// moldJobColumns are the columns of moldable scheduling: procs_chosen and
// base_runtime always, the annotation null for rigid jobs. Elastic jobs
// share them.
var moldJobColumns = []jobCol{
	jdef("procs_chosen", "processors", "processors the job ran on; equals `procs` for a rigid job; for an elastic job (LSF disciplines, `synthetic: parsons1997`) its first allocation (0 if it never ran)",
		func(j *rec) int64 { return int64(j.Chosen()) }, func(j *rec, v int64) { j.ProcsChosen = int(v) }),
	jdef("base_runtime", "s", "runtime on `procs` processors (the trace's); equals `runtime` for a rigid job. The `weight10` category uses `procs` x `base_runtime`, so a job's category is the same under every policy",
		func(j *rec) int64 { return int64(j.Base()) }, func(j *rec, v int64) { j.BaseRuntime = sim.Time(v) }),
	jopt("min_procs", "processors", "smallest size a moldable job may take (`floor((1-1/RF) procs + 1)`, 1 for a sequential job); null for a rigid workload; for an elastic job its smallest allocation (`procs` is its desired size)",
		func(j *rec) (int64, bool) { return int64(j.MinProcs), j.Moldable }, func(j *rec, v int64) { j.Moldable, j.MinProcs = true, int(v) }),
	jopt("max_procs", "processors", "largest size (`floor((machine - procs)/RF + procs)`, 1 for a sequential job), also Downey's average parallelism A; null for a rigid workload; for an elastic job its largest allocation",
		func(j *rec) (int64, bool) { return int64(j.MaxProcs), j.Moldable }, func(j *rec, v int64) { j.MaxProcs = int(v) }),
	jopt("work", "s", "sequential work L = `base_runtime` x S(`procs`) of a moldable job; null for a rigid workload; for an elastic job its demand D (s on one processor)",
		func(j *rec) (float64, bool) { return j.Work, j.Moldable }, func(j *rec, v float64) { j.Work = v }),
	jopt("speedup", "", "Downey speedup S(`procs_chosen`) of a moldable job; null for a rigid workload",
		func(j *rec) (float64, bool) { return j.Speedup, j.Moldable }, func(j *rec, v float64) { j.Speedup = v }),
}

// qos returns j's QoS annotation, made when absent: a job read back has
// one when any of its QoPS-only columns has a value.
func qos(j *rec) *metrics.QoS {
	if j.QoS == nil {
		j.QoS = &metrics.QoS{}
	}
	return j.QoS
}

// qosTime returns a QoS time of j and whether it is present (> 0).
func qosTime(j *rec, f func(q *metrics.QoS) sim.Time) (int64, bool) {
	if j.QoS == nil {
		return 0, false
	}
	t := f(j.QoS)
	return int64(t), t > 0
}

// qosJobColumns are the admission and charge columns of every job. Under
// policies without admission control every job is admitted without a
// deadline, and the QoPS-only columns are null.
var qosJobColumns = []jobCol{
	jdef("origin_id", "", "the `job_id` a `load_mode: duplicate` copy was made from; the job's own `job_id` otherwise",
		func(j *rec) int64 { return j.OriginID() }, func(j *rec, v int64) {
			if v != j.JobID {
				j.Origin = v
			}
		}),
	jdef("admitted", "", "false for a job rejected at its arrival by admission control (`qops`); true under every other policy. A rejected job never runs and is left out of every mean, maximum and utilization",
		func(j *rec) bool { return !j.Rejected }, func(j *rec, v bool) { j.Rejected = !v }),
	jdef("deadline_job", "", "`qops`: the job requested a deadline (see `deadline_fraction`); false under other policies",
		func(j *rec) bool { return j.QoS != nil && j.QoS.DeadlineJob }, func(j *rec, v bool) {
			if v {
				qos(j).DeadlineJob = true
			}
		}),
	jopt("deadline_requested", "s", "`qops`: the requested deadline d (absolute time, as `submit`); null for a job without one and under other policies",
		func(j *rec) (int64, bool) { return qosTime(j, func(q *metrics.QoS) sim.Time { return q.Requested }) },
		func(j *rec, v int64) { qos(j).Requested = sim.Time(v) }),
	jopt("deadline_earliest", "s", "`qops`: the earliest deadline E the feedback search found when d could not be met; null when no offer was made",
		func(j *rec) (int64, bool) { return qosTime(j, func(q *metrics.QoS) sim.Time { return q.Earliest }) },
		func(j *rec, v int64) { qos(j).Earliest = sim.Time(v) }),
	jopt("deadline_offered", "s", "`qops`: the deadline O offered to the user, `submit + ceil(slack x (E - submit))`; null when no offer was made",
		func(j *rec) (int64, bool) { return qosTime(j, func(q *metrics.QoS) sim.Time { return q.Offered }) },
		func(j *rec, v int64) { qos(j).Offered = sim.Time(v) }),
	jopt("deadline", "s", "the completion time guaranteed at admission: d, O, or the artificial deadline of a job without one; null for rejected jobs and under policies without deadlines. No job ends after it (`deadline_misses`)",
		func(j *rec) (int64, bool) { return int64(j.Deadline), j.Deadline > 0 }, func(j *rec, v int64) { j.Deadline = sim.Time(v) }),
	jopt("tolerance", "", "`qops`: the job's tolerance factor TF_j when an offer was made (accepted iff `O - submit <= TF_j x (d - submit)`); null otherwise",
		func(j *rec) (float64, bool) {
			if j.QoS == nil {
				return 0, false
			}
			return j.QoS.Tolerance, j.QoS.Tolerance > 0
		}, func(j *rec, v float64) { qos(j).Tolerance = v }),
	jopt("met_deadline", "", "`qops`: an admitted job that requested a deadline ended by its requested deadline d (false for jobs admitted on an offer later than d that ended after d); null for other jobs",
		func(j *rec) (bool, bool) { return j.MetDeadline() }, nil),
	jopt("category_bsd", "", "`qops`: mean bounded slowdown of the job's ss16 category under EASY on the same workload (the QoS charge's category slowdown); null under other policies",
		func(j *rec) (float64, bool) {
			if j.QoS == nil {
				return 0, false
			}
			return j.QoS.CategoryBSD, true
		}, func(j *rec, v float64) { qos(j).CategoryBSD = v }),
	jdef("resource_charge", "processor-seconds", "`procs_chosen x runtime` for an admitted job (the processor-seconds it used), 0 for a rejected one",
		func(j *rec) float64 { return j.ResourceCharge() }, nil),
	jdef("qos_charge", "", "`qops`: `category_bsd` / the bounded slowdown of ending exactly at `deadline`, for an admitted job that requested a deadline; 0 otherwise",
		func(j *rec) float64 { return j.QoSCharge() }, func(j *rec, v float64) {
			if v != 0 {
				qos(j).Charge = v
			}
		}),
	jdef("lost_work", "s", "work thrown away by kills (on `procs_chosen` processors)",
		func(j *rec) int64 { return int64(j.LostWork) }, func(j *rec, v int64) { j.LostWork = sim.Time(v) }),
}

// elastic returns j's elastic annotation, made when absent.
func elastic(j *rec) *metrics.ElasticInfo {
	if j.Elastic == nil {
		j.Elastic = &metrics.ElasticInfo{}
	}
	return j.Elastic
}

// ejopt declares an elastic job column: null for a rigid job.
func ejopt[T cellValue](name, unit, doc string, get func(e *metrics.ElasticInfo) T, set func(e *metrics.ElasticInfo, v T)) jobCol {
	return jopt(name, unit, doc, func(j *rec) (T, bool) {
		if j.Elastic == nil {
			var zero T
			return zero, false
		}
		return get(j.Elastic), true
	}, func(j *rec, v T) { set(elastic(j), v) })
}

// elasticJobColumns are the per-job columns of elastic jobs (the LSF
// disciplines on the parsons1997 workload), null for rigid jobs.
var elasticJobColumns = []jobCol{
	ejopt("tagged", "", "elastic jobs (LSF disciplines, `synthetic: parsons1997`): the job is measured (the first `gen.tagged` jobs); null for rigid jobs (likewise below)",
		func(e *metrics.ElasticInfo) bool { return e.Tagged }, func(e *metrics.ElasticInfo, v bool) { e.Tagged = v }),
	ejopt("finished", "", "the job completed; false when the run ended first (at `gen.horizon`, or when every tagged job was done): its `end` is then the run's end, a lower bound, and `runtime` the time it worked",
		func(e *metrics.ElasticInfo) bool { return e.Finished }, func(e *metrics.ElasticInfo, v bool) { e.Finished = v }),
	ejopt("seq_fraction", "", "Amdahl sequential fraction f: speedup S(k) = 1/(f + (1-f)/k)",
		func(e *metrics.ElasticInfo) float64 { return e.SeqFraction }, func(e *metrics.ElasticInfo, v float64) { e.SeqFraction = v }),
	ejopt("procs_last", "processors", "its last allocation",
		func(e *metrics.ElasticInfo) int64 { return int64(e.ProcsLast) }, func(e *metrics.ElasticInfo, v int64) { e.ProcsLast = int(v) }),
	ejopt("work_done", "s", "sequential work done, sum of dt\u00b7S(k) over working time (at least `work` for a finished job)",
		func(e *metrics.ElasticInfo) float64 { return e.WorkDone }, func(e *metrics.ElasticInfo, v float64) { e.WorkDone = v }),
	ejopt("checkpoints", "", "checkpoints (migratable and malleable preemption); each holds the processors idle `checkpoint_cost` s, counted in `overhead_time` with the dispatch delays",
		func(e *metrics.ElasticInfo) int64 { return int64(e.Checkpoints) }, func(e *metrics.ElasticInfo, v int64) { e.Checkpoints = int(v) }),
	ejopt("migrations", "", "restarts after a checkpoint on the same number of processors",
		func(e *metrics.ElasticInfo) int64 { return int64(e.Migrations) }, func(e *metrics.ElasticInfo, v int64) { e.Migrations = int(v) }),
	ejopt("reconfigurations", "", "restarts after a checkpoint on another number of processors",
		func(e *metrics.ElasticInfo) int64 { return int64(e.Reconfigurations) }, func(e *metrics.ElasticInfo, v int64) { e.Reconfigurations = int(v) }),
}

// swfInfo declares a column of one of the trace's SWF fields 11-18: null
// where the trace gives -1 (unknown), and a null reads back as -1.
func swfInfo(name, unit, doc string, field func(i *sim.JobInfo) int64, set func(i *sim.JobInfo, v int64)) jobCol {
	c := jopt(name, unit, doc, func(j *rec) (int64, bool) {
		v := field(&j.Info)
		return v, v >= 0
	}, func(j *rec, v int64) { set(&j.Info, v) })
	c.null = func(j *rec) { set(&j.Info, -1) }
	return c
}

// swfJobColumns are what the trace says of a job besides its size and
// times (SWF fields 11-18), last among the job columns. Synthetic
// workloads know none of them (null), except `synthetic: lublin`'s
// status and queue (its class).
var swfJobColumns = []jobCol{
	swfInfo("status", "", "SWF field 11: 1 completed, 0 failed, 5 cancelled, 2-4 the parts of a checkpointed job (the simulation runs every job to completion whatever its status); null where the trace gives -1 (likewise below)",
		func(i *sim.JobInfo) int64 { return int64(i.Status) }, func(i *sim.JobInfo, v int64) { i.Status = int32(v) }),
	swfInfo("user_id", "", "SWF field 12: the user's number (the `user` category scheme and the fairness index group jobs by it)",
		func(i *sim.JobInfo) int64 { return int64(i.User) }, func(i *sim.JobInfo, v int64) { i.User = int32(v) }),
	swfInfo("group_id", "", "SWF field 13: the user's group",
		func(i *sim.JobInfo) int64 { return int64(i.Group) }, func(i *sim.JobInfo, v int64) { i.Group = int32(v) }),
	swfInfo("executable", "", "SWF field 14: the application's number",
		func(i *sim.JobInfo) int64 { return int64(i.Executable) }, func(i *sim.JobInfo, v int64) { i.Executable = int32(v) }),
	swfInfo("queue_number", "", "SWF field 15: the trace's queue (0 interactive); `synthetic: lublin`: the job's class (0 interactive, 1 batch). Not the `multiqueue` policy's `queue`",
		func(i *sim.JobInfo) int64 { return int64(i.Queue) }, func(i *sim.JobInfo, v int64) { i.Queue = int32(v) }),
	swfInfo("partition_number", "", "SWF field 16: the trace's partition",
		func(i *sim.JobInfo) int64 { return int64(i.Partition) }, func(i *sim.JobInfo, v int64) { i.Partition = int32(v) }),
	swfInfo("preceding_job", "", "SWF field 17: the job this one waited for (a `job_id` of the trace)",
		func(i *sim.JobInfo) int64 { return i.Preceding }, func(i *sim.JobInfo, v int64) { i.Preceding = v }),
	swfInfo("think_time", "s", "SWF field 18: time from the end of the preceding job to this one's submission",
		func(i *sim.JobInfo) int64 { return int64(i.ThinkTime) }, func(i *sim.JobInfo, v int64) { i.ThinkTime = sim.Time(v) }),
}

// jobColumns are the job columns of jobs.parquet and of the wire format,
// after the task columns and before the category columns, in order.
var jobColumns = concat(baseJobColumns, queueJobColumns, moldJobColumns, qosJobColumns, elasticJobColumns, swfJobColumns)

// categoryColumn documents the category columns of jobs.parquet, one per
// scheme of the spec, after the job columns.
var categoryColumn = Column{Name: CategoryPrefix + "<scheme>", Type: arrow.BinaryTypes.String,
	Doc: "the job's category label under each scheme of the spec's `categories`, in spec order, e.g. `cat_ss16` = `VS Seq`"}

// taskSrc is what the task columns are taken from: a task of a sweep and
// its result (nil, or a failed one, when unknown).
type taskSrc struct {
	sweep string
	t     *sweep.Task
	r     *TaskResult
}

// taskCol is a task column.
type taskCol = colAccess[taskSrc, TaskCols]

func tdef[T cellValue](name, unit, doc string, get func(*taskSrc) T, set func(*TaskCols, T)) taskCol {
	return def(name, unit, doc, get, set)
}

func topt[T cellValue](name, unit, doc string, get func(*taskSrc) (T, bool), set func(*TaskCols, T)) taskCol {
	return opt(name, unit, doc, get, set)
}

// taskHeadColumns are the task columns before the parameter columns, and
// taskTailColumns those after them.
var (
	taskHeadColumns = []taskCol{
		tdef("task_id", "", "hex sha256 of the task's canonical description (workload with the trace's sha256, policy, every parameter value, replication, seed, simulator version): the same task has the same id in every sweep",
			func(s *taskSrc) string { return s.t.ID }, func(d *TaskCols, v string) { d.TaskID = v }),
		tdef("task_index", "", "position of the task in the spec's expansion, 0..n-1",
			func(s *taskSrc) int64 { return int64(s.t.Index) }, func(d *TaskCols, v int64) { d.TaskIndex = int(v) }),
		tdef("sweep", "", "the spec's `name`",
			func(s *taskSrc) string { return s.sweep }, func(d *TaskCols, v string) { d.Sweep = v }),
		tdef("trace", "", "trace file name without `.swf`/`.swf.gz`, e.g. `CTC-SP2-1996-3.1-cln`",
			func(s *taskSrc) string { return s.t.Workload.Trace }, func(d *TaskCols, v string) { d.Trace = v }),
		tdef("policy", "", "registered policy name, e.g. `easy`, `ss`, `is`",
			func(s *taskSrc) string { return s.t.Policy }, func(d *TaskCols, v string) { d.Policy = v }),
		tdef("label", "", "the policy entry's `label` in the spec (the policy name when it has none)",
			func(s *taskSrc) string { return s.t.Name() }, func(d *TaskCols, v string) { d.Label = v }),
		tdef("params", "", "every parameter of the policy as sorted `name=value` pairs joined by commas, defaults included (`\"\"` for a policy without parameters)",
			func(s *taskSrc) string { return s.t.ParamString() }, func(d *TaskCols, v string) { d.Params = v }),
	}
	taskTailColumns = []taskCol{
		topt("machine_procs", "processors", "machine size of the simulation (the spec's `procs`, else the trace header's); null only for a failed task whose spec gave no `procs`",
			func(s *taskSrc) (int64, bool) {
				procs := int64(s.t.Workload.Procs)
				if s.r != nil && s.r.Err == "" {
					procs = int64(s.r.Stats.Procs)
				}
				return procs, procs > 0
			}, func(d *TaskCols, v int64) { d.MachineProcs = int(v) }),
		tdef("load", "", "load factor (1: the trace's own load)",
			func(s *taskSrc) float64 { return s.t.Workload.Load }, func(d *TaskCols, v float64) { d.Load = v }),
		tdef("load_mode", "", "`arrival` (inter-arrival times divided by `load`) or `duplicate` (jobs duplicated)",
			func(s *taskSrc) string { return s.t.Workload.LoadMode }, func(d *TaskCols, v string) { d.LoadMode = v }),
		tdef("estimates", "", "estimate model: `trace` (user estimate, at least the runtime) or `accurate` (the runtime)",
			func(s *taskSrc) string { return s.t.Workload.Estimates }, func(d *TaskCols, v string) { d.Estimates = v }),
		tdef("skip", "jobs", "valid jobs skipped at the start of the trace",
			func(s *taskSrc) int64 { return int64(s.t.Workload.Skip) }, func(d *TaskCols, v int64) { d.Skip = int(v) }),
		tdef("count", "jobs", "valid jobs taken after `skip` (0: all); the subset size, not a category's job count (that is `jobs` in `summary.parquet`)",
			func(s *taskSrc) int64 { return int64(s.t.Workload.Count) }, func(d *TaskCols, v int64) { d.Count = int(v) }),
		tdef("replication", "", "replication number, 0..replications-1",
			func(s *taskSrc) int64 { return int64(s.t.Replication) }, func(d *TaskCols, v int64) { d.Replication = int(v) }),
		tdef("seed", "", "the task's seed, derived from the spec's seed, the workload and the replication (not the policy)",
			func(s *taskSrc) uint64 { return s.t.Seed }, func(d *TaskCols, v uint64) { d.Seed = v }),
		topt("sigma", "", "Downey variance of parallelism of a moldable workload (the spec's `sigma`); null for a rigid workload",
			func(s *taskSrc) (float64, bool) { return optFloat(s.t.Workload.Sigma) },
			func(d *TaskCols, v float64) { d.Moldable, d.Sigma = true, v }),
		topt("range_factor", "", "range factor RF of a moldable workload (the spec's `range_factor`); null for a rigid workload",
			func(s *taskSrc) (float64, bool) { return optFloat(s.t.Workload.RangeFactor) },
			func(d *TaskCols, v float64) { d.RangeFactor = v }),
	}
)

// optFloat returns *p and whether p is set.
func optFloat(p *float64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return *p, true
}

// paramColumn documents the parameter columns, between the head and the
// tail of the task columns.
var paramColumn = Column{Name: ParamPrefix + "<name>", Nullable: true, Unit: "the parameter's",
	Doc: "one column per parameter of any policy in the sweep, sorted by name, typed from the policy registry (int64 and float64 mixed across policies give float64; bool and number give string); null where the task's policy has no such parameter. The list of these columns is in the metadata key `schedfarm.params`"}

// summarySrc is what a row of summary.parquet is taken from.
type summarySrc struct {
	s *metrics.Scheme
	a *metrics.Aggregate
}

// summaryCol is a column of summary.parquet.
type summaryCol = colAccess[summarySrc, SummaryRow]

func sdef[T cellValue](name, unit, doc string, get func(*summarySrc) T, set func(*SummaryRow, T)) summaryCol {
	return def(name, unit, doc, get, set)
}

// sstat declares the mean or the max column of a statistic of a category.
func sstat(name, unit, doc string, st func(a *metrics.Aggregate) *metrics.Stat, max bool) summaryCol {
	if max {
		return sdef(name, unit, doc, func(s *summarySrc) float64 { return st(s.a).Max }, func(d *SummaryRow, v float64) { st(&d.Aggregate).Max = v })
	}
	return sdef(name, unit, doc, func(s *summarySrc) float64 { return st(s.a).Mean }, func(d *SummaryRow, v float64) { st(&d.Aggregate).Mean = v })
}

// summaryColumns are the columns of summary.parquet after the task
// columns (then the percentile columns, see allSummaryColumns). The number of jobs of a category is "jobs", as in
// tasks.parquet ("count" is the subset size among the task columns).
var baseSummaryColumns = []summaryCol{
	sdef("scheme", "", "category scheme, e.g. `ss16`, `ss4`, `est2`",
		func(s *summarySrc) string { return s.s.Name }, func(d *SummaryRow, v string) { d.Scheme = v }),
	sdef("category", "", "category label, e.g. `VS Seq`, `SN`, `well L W`, `user 17` (the `user` scheme: one per user of the task, then `unknown`); `all` for the overall row",
		func(s *summarySrc) string { return s.a.Category }, func(d *SummaryRow, v string) { d.Category = v }),
	sdef("row", "", "grid row of the category (runtime class for `ss16`); -1 for `all`",
		func(s *summarySrc) int64 { return int64(s.a.Row) }, func(d *SummaryRow, v int64) { d.Row = int(v) }),
	sdef("col", "", "grid column of the category (width class for `ss16`; for `user`, the category's rank among the task's users); -1 for `all`",
		func(s *summarySrc) int64 { return int64(s.a.Col) }, func(d *SummaryRow, v int64) { d.Col = int(v) }),
	sdef("jobs", "jobs", "number of jobs in the category, rejected ones included",
		func(s *summarySrc) int64 { return int64(s.a.Count) }, func(d *SummaryRow, v int64) { d.Aggregate.Count = int(v) }),
	sstat("bsd_mean", "", "mean bounded slowdown of the category's admitted jobs (the means and maxima below are over admitted jobs)",
		func(a *metrics.Aggregate) *metrics.Stat { return &a.BSD }, false),
	sstat("bsd_max", "", "largest bounded slowdown", func(a *metrics.Aggregate) *metrics.Stat { return &a.BSD }, true),
	sstat("turnaround_mean", "s", "mean turnaround time", func(a *metrics.Aggregate) *metrics.Stat { return &a.Turnaround }, false),
	sstat("turnaround_max", "s", "largest turnaround time", func(a *metrics.Aggregate) *metrics.Stat { return &a.Turnaround }, true),
	sstat("wait_mean", "s", "mean wait time", func(a *metrics.Aggregate) *metrics.Stat { return &a.Wait }, false),
	sstat("wait_max", "s", "largest wait time", func(a *metrics.Aggregate) *metrics.Stat { return &a.Wait }, true),
	sstat("slowdown_mean", "", "mean slowdown (`1 + wait / runtime`)", func(a *metrics.Aggregate) *metrics.Stat { return &a.Slowdown }, false),
	sstat("slowdown_max", "", "largest slowdown", func(a *metrics.Aggregate) *metrics.Stat { return &a.Slowdown }, true),
	sdef("admitted", "jobs", "jobs of the category that were admitted (all of them under policies without admission control)",
		func(s *summarySrc) int64 { return int64(s.a.Admitted) }, func(d *SummaryRow, v int64) { d.Admitted = int(v) }),
	sdef("resource_charge", "processor-seconds", "sum of the jobs' `resource_charge`: the accepted processor-seconds",
		func(s *summarySrc) float64 { return s.a.ResourceCharge }, func(d *SummaryRow, v float64) { d.ResourceCharge = v }),
	sdef("qos_charge", "", "sum of the jobs' `qos_charge`",
		func(s *summarySrc) float64 { return s.a.QoSCharge }, func(d *SummaryRow, v float64) { d.QoSCharge = v }),
	sdef("deadline_misses", "jobs", "admitted jobs that ended after their guaranteed `deadline` (0 when the policy keeps its promises)",
		func(s *summarySrc) int64 { return int64(s.a.DeadlineMisses) }, func(d *SummaryRow, v int64) { d.DeadlineMisses = int(v) }),
}

// spct declares a percentile column of a statistic (see metrics.Stat):
// p is 50, 90 or 99. Files written before these columns lack them.
func spct(name, unit, doc string, st func(a *metrics.Aggregate) *metrics.Stat, p int) summaryCol {
	at := func(s *metrics.Stat) *float64 {
		switch p {
		case 50:
			return &s.P50
		case 90:
			return &s.P90
		}
		return &s.P99
	}
	return def(name, unit, doc, func(s *summarySrc) float64 { return *at(st(s.a)) },
		func(d *SummaryRow, v float64) { *at(st(&d.Aggregate)) = v }).addedLater()
}

// summaryColumns are the columns of summary.parquet after the task
// columns, in order.
var summaryColumns = concat(baseSummaryColumns, percentileColumns)

// percentileColumns are the exact percentiles of summary.parquet, last.
var percentileColumns = func() []summaryCol {
	var out []summaryCol
	for _, q := range []struct {
		name, unit, what string
		st               func(a *metrics.Aggregate) *metrics.Stat
	}{
		{"bsd", "", "the admitted jobs' bounded slowdown, exact by nearest rank: the value at 1-based rank ceil(p n) of the n sorted values, as SQL's `percentile_disc` and DuckDB's `quantile_disc` give (0 for an empty category)",
			func(a *metrics.Aggregate) *metrics.Stat { return &a.BSD }},
		{"wait", "s", "the wait time, likewise", func(a *metrics.Aggregate) *metrics.Stat { return &a.Wait }},
		{"turnaround", "s", "the turnaround time, likewise", func(a *metrics.Aggregate) *metrics.Stat { return &a.Turnaround }},
	} {
		out = append(out,
			spct(q.name+"_p50", q.unit, "median of "+q.what, q.st, 50),
			spct(q.name+"_p90", q.unit, "90th percentile of "+q.what, q.st, 90),
			spct(q.name+"_p99", q.unit, "99th percentile of "+q.what, q.st, 99))
	}
	return out
}()

// tasksCol is a column of tasks.parquet after the task columns.
type tasksCol = colAccess[TaskResult, TaskRow]

func kdef[T cellValue](name, unit, doc string, get func(*TaskResult) T, set func(*TaskRow, T)) tasksCol {
	return def(name, unit, doc, get, set)
}

// baselineJSON returns r's baseline as a JSON object with sorted keys, ""
// when there is none.
func baselineJSON(r *TaskResult) (string, error) {
	if len(r.Baseline) == 0 {
		return "", nil
	}
	j, err := json.Marshal(r.Baseline) // keys sorted: deterministic
	return string(j), err
}

// baseTasksColumns are the whole-run columns of every task.
var baseTasksColumns = []tasksCol{
	kdef("jobs", "jobs", "jobs simulated",
		func(r *TaskResult) int64 { return int64(r.Stats.Jobs) }, func(d *TaskRow, v int64) { d.Stats.Jobs = int(v) }),
	kdef("makespan", "s", "last completion - first submit",
		func(r *TaskResult) int64 { return int64(r.Stats.Makespan) }, func(d *TaskRow, v int64) { d.Stats.Makespan = sim.Time(v) }),
	kdef("utilization", "", "useful processor-seconds / (`machine_procs` x `makespan`), 0..1",
		func(r *TaskResult) float64 { return r.Stats.Utilization }, func(d *TaskRow, v float64) { d.Stats.Utilization = v }),
	kdef("suspensions", "", "suspensions of all jobs",
		func(r *TaskResult) int64 { return int64(r.Stats.Suspensions) }, func(d *TaskRow, v int64) { d.Stats.Suspensions = int(v) }),
	kdef("kills", "", "kills of all jobs",
		func(r *TaskResult) int64 { return int64(r.Stats.Kills) }, func(d *TaskRow, v int64) { d.Stats.Kills = int(v) }),
	kdef("drops", "jobs", "jobs of the whole trace file left out when it was read (runtime <= 0, size <= 0 or wider than the machine)",
		func(r *TaskResult) int64 { return int64(r.Drops.Total()) }, func(d *TaskRow, v int64) { d.Drops = int(v) }),
	kdef("drops_detail", "", "the drops by reason, e.g. `dropped 3 jobs: 2 with runtime <= 0, 1 with procs <= 0` (`\"\"` for a failed task)",
		func(r *TaskResult) string {
			if r.Err != "" {
				return ""
			}
			return r.Drops.String()
		}, func(d *TaskRow, v string) { d.DropsDetail = v }),
	kdef("baseline", "", "JSON object of what the policy took from a reference run of the same workload: for TSS (`ss` with `tunable`, `tss`) and for `qops` (the category slowdowns of the QoS charge), each ss16 category's mean bounded slowdown under EASY, e.g. `{\"L N\":1.42,...}`; `\"\"` for other policies",
		func(r *TaskResult) string { s, _ := baselineJSON(r); return s }, func(d *TaskRow, v string) { d.Baseline = v }),
	kdef("wall_time_ms", "ms", "time the worker spent on the task (varies between runs)",
		func(r *TaskResult) float64 { return float64(r.WallTime.Microseconds()) / 1000 },
		func(d *TaskRow, v float64) { d.WallTime = time.Duration(v * float64(time.Millisecond)) }),
	kdef("worker", "", "name of the worker that ran it (varies between runs)",
		func(r *TaskResult) string { return r.Worker }, func(d *TaskRow, v string) { d.Worker = v }),
	kdef("error", "", "why the task failed; `\"\"` when it succeeded",
		func(r *TaskResult) string { return r.Err }, func(d *TaskRow, v string) { d.Error = v }),
}

// taskFamily declares a task column of a family's whole-run figures: get
// reads them from a result's stats (null when the family's part is nil),
// set writes into the part of a row, made when absent.
func taskFamily[P any, T cellValue](name, unit, doc string, part func(st *metrics.RunStats) **P, get func(p *P) T, set func(p *P, v T)) tasksCol {
	return opt(name, unit, doc, func(r *TaskResult) (T, bool) {
		p := *part(&r.Stats)
		if p == nil {
			var zero T
			return zero, false
		}
		return get(p), true
	}, func(d *TaskRow, v T) {
		pp := part(&d.Stats)
		if *pp == nil {
			*pp = new(P)
		}
		set(*pp, v)
	})
}

func mq(st *metrics.RunStats) **metrics.QueueStats { return &st.MultiQueue }

// partitionMean declares the partition_mean column of queue q (from 0).
func partitionMean(q int, doc string) tasksCol {
	return taskFamily("partition_mean_"+strconv.Itoa(q+1), "processors", doc, mq,
		func(p *metrics.QueueStats) float64 { return p.PartitionMean[q] }, func(p *metrics.QueueStats, v float64) { p.PartitionMean[q] = v })
}

// queueTasksColumns are the multiqueue policy's per-task columns, null
// under other policies and for failed tasks.
var queueTasksColumns = []tasksCol{
	partitionMean(0, "`multiqueue`: time-averaged processors of queue 1's partition, from the first submission to the last completion; null under other policies and for failed tasks (likewise below)"),
	partitionMean(1, "the same for queue 2"),
	partitionMean(2, "the same for queue 3"),
	partitionMean(3, "the same for queue 4"),
	taskFamily("proc_moves", "processors", "`multiqueue`: processors moved from one partition to another (a job borrowing idle processors of other queues)", mq,
		func(p *metrics.QueueStats) int64 { return p.ProcMoves }, func(p *metrics.QueueStats, v int64) { p.ProcMoves = v }),
	taskFamily("delay_updates", "", "`multiqueue` with `delay: true`: batches of completions whose relative change of the queue-1 mean slowdown exceeded `delay_threshold`, so that D changed (0 without `delay` or `adaptive_delay`)", mq,
		func(p *metrics.QueueStats) int64 { return int64(p.DelayUpdates) }, func(p *metrics.QueueStats, v int64) { p.DelayUpdates = int(v) }),
	taskFamily("delay_max", "s", "`multiqueue`: the largest delay D of the run (0 without `delay`)", mq,
		func(p *metrics.QueueStats) float64 { return p.DelayMax }, func(p *metrics.QueueStats, v float64) { p.DelayMax = v }),
	taskFamily("delay_final", "s", "`multiqueue`: D at the end of the run (0 without `delay`)", mq,
		func(p *metrics.QueueStats) float64 { return p.DelayFinal }, func(p *metrics.QueueStats, v float64) { p.DelayFinal = v }),
}

func el(st *metrics.RunStats) **metrics.ElasticStats { return &st.Elastic }

// elasticTasksColumns are the per-task columns of a run of elastic jobs,
// null otherwise and for failed tasks.
var elasticTasksColumns = []tasksCol{
	taskFamily("mrt", "s", "runs of elastic jobs: mean turnaround of the tagged jobs, unfinished ones counted to the run's end (a lower bound); null otherwise and for failed tasks (likewise below)", el,
		func(p *metrics.ElasticStats) float64 { return p.MRT }, func(p *metrics.ElasticStats, v float64) { p.MRT = v }),
	taskFamily("makespan_tagged", "s", "last end of a tagged job minus the first submit (a lower bound when some are unfinished)", el,
		func(p *metrics.ElasticStats) int64 { return p.MakespanTagged }, func(p *metrics.ElasticStats, v int64) { p.MakespanTagged = v }),
	taskFamily("unfinished", "jobs", "tagged jobs the run left unfinished at `gen.horizon`", el,
		func(p *metrics.ElasticStats) int64 { return int64(p.Unfinished) }, func(p *metrics.ElasticStats, v int64) { p.Unfinished = int(v) }),
	taskFamily("max_queue", "jobs", "largest number of queued jobs (pending, suspended or stopped) after any instant", el,
		func(p *metrics.ElasticStats) int64 { return int64(p.MaxQueue) }, func(p *metrics.ElasticStats, v int64) { p.MaxQueue = int(v) }),
	taskFamily("makespan_lb", "s", "a lower bound of `makespan_tagged`: the largest submit + T(max_procs) of a tagged job", el,
		func(p *metrics.ElasticStats) int64 { return p.MakespanLB }, func(p *metrics.ElasticStats, v int64) { p.MakespanLB = v }),
	taskFamily("queue_p90", "jobs", "the queue length (pending, suspended or stopped) exceeded during at most a tenth of the run's time, from its first instant to its end", el,
		func(p *metrics.ElasticStats) int64 { return int64(p.QueueP90) }, func(p *metrics.ElasticStats, v int64) { p.QueueP90 = int(v) }),
	taskFamily("queue_mean", "jobs", "the time-average queue length over the same span", el,
		func(p *metrics.ElasticStats) float64 { return p.QueueMean }, func(p *metrics.ElasticStats, v float64) { p.QueueMean = v }),
}

func qp(st *metrics.RunStats) **metrics.QoPSStats { return &st.QoPS }

// qosTasksColumns are the admission and charge columns of tasks.parquet.
var qosTasksColumns = []tasksCol{
	kdef("admitted", "jobs", "jobs admitted (`jobs` under policies without admission control)",
		func(r *TaskResult) int64 { return int64(r.Stats.Admitted) }, func(d *TaskRow, v int64) { d.Stats.Admitted = int(v) }),
	kdef("resource_charge", "processor-seconds", "sum of the jobs' resource charges: the accepted processor-seconds",
		func(r *TaskResult) float64 { return r.Stats.ResourceCharge }, func(d *TaskRow, v float64) { d.Stats.ResourceCharge = v }),
	kdef("qos_charge", "", "sum of the jobs' QoS charges",
		func(r *TaskResult) float64 { return r.Stats.QoSCharge }, func(d *TaskRow, v float64) { d.Stats.QoSCharge = v }),
	kdef("deadline_misses", "jobs", "admitted jobs that ended after their guaranteed deadline",
		func(r *TaskResult) int64 { return int64(r.Stats.DeadlineMisses) }, func(d *TaskRow, v int64) { d.Stats.DeadlineMisses = int(v) }),
	kdef("acceptance", "", "`admitted / jobs`, 0..1 (0 for a failed task)",
		func(r *TaskResult) float64 {
			if r.Stats.Jobs == 0 {
				return 0
			}
			return float64(r.Stats.Admitted) / float64(r.Stats.Jobs)
		}, nil),
	kdef("proc_seconds", "processor-seconds", "`procs_chosen x runtime` summed over every submitted job, rejected ones included",
		func(r *TaskResult) float64 { return r.Stats.ProcSeconds }, func(d *TaskRow, v float64) { d.Stats.ProcSeconds = v }),
	kdef("wasted_proc_seconds", "processor-seconds", "work thrown away by kills (`procs x lost_work` summed)",
		func(r *TaskResult) float64 { return r.Stats.WastedProcSeconds }, func(d *TaskRow, v float64) { d.Stats.WastedProcSeconds = v }),
	taskFamily("offers", "jobs", "`qops`: jobs whose requested deadline could not be met and that got an offer; null under other policies and for failed tasks (likewise below)", qp,
		func(p *metrics.QoPSStats) int64 { return int64(p.Offers) }, func(p *metrics.QoPSStats, v int64) { p.Offers = int(v) }),
	taskFamily("offers_taken", "jobs", "`qops`: offers the user accepted", qp,
		func(p *metrics.QoPSStats) int64 { return int64(p.OffersTaken) }, func(p *metrics.QoPSStats, v int64) { p.OffersTaken = int(v) }),
	taskFamily("schedule_mean_n", "jobs", "`qops`: mean number N of admitted waiting jobs in the schedule at each run of the insertion routine", qp,
		func(p *metrics.QoPSStats) float64 { return p.MeanN }, func(p *metrics.QoPSStats, v float64) { p.MeanN = v }),
	taskFamily("schedule_max_n", "jobs", "`qops`: largest such N", qp,
		func(p *metrics.QoPSStats) int64 { return int64(p.MaxN) }, func(p *metrics.QoPSStats, v int64) { p.MaxN = int(v) }),
}

func fair(st *metrics.RunStats) **metrics.FairnessStats { return &st.Fairness }

// fairnessTasksColumns are the fairness figures between the trace's users
// (SWF field 12), null when no admitted job has a known user and for
// failed tasks.
var fairnessTasksColumns = []tasksCol{
	taskFamily("users", "", "users (SWF field 12) with an admitted job; null when the workload knows no user (synthetic workloads) and for failed tasks (likewise below)", fair,
		func(p *metrics.FairnessStats) int64 { return int64(p.Users) }, func(p *metrics.FairnessStats, v int64) { p.Users = int(v) }),
	taskFamily("jain_bsd", "", "Jain's fairness index `(sum x)^2 / (users x sum x^2)` over the users' mean bounded slowdown x (their admitted jobs'; jobs of unknown user left out): 1 when every user has the same mean, 1/`users` when one user has all of it",
		fair, func(p *metrics.FairnessStats) float64 { return p.JainBSD }, func(p *metrics.FairnessStats, v float64) { p.JainBSD = v }),
	taskFamily("jain_wait", "", "Jain's fairness index over the users' mean wait (1 when every mean is 0)",
		fair, func(p *metrics.FairnessStats) float64 { return p.JainWait }, func(p *metrics.FairnessStats, v float64) { p.JainWait = v }),
}

// provenanceTasksColumns say which build produced a task's result, last.
var provenanceTasksColumns = []tasksCol{
	def("build", "", "build identity of the worker that produced the result: its module version, VCS revision (`+dirty` for a modified tree) and the first 16 hex digits of its executable's sha256 (`\"\"` when not run by a worker; varies between builds)",
		func(r *TaskResult) string { return r.Build }, func(d *TaskRow, v string) { d.Build = v }).addedLater(),
}

// tasksColumns are the columns of tasks.parquet after the task columns,
// in order.
var tasksColumns = concat(baseTasksColumns, queueTasksColumns, elasticTasksColumns, qosTasksColumns, fairnessTasksColumns, provenanceTasksColumns)

// concat returns the parts one after the other.
func concat[T any](parts ...[]T) []T {
	var out []T
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
