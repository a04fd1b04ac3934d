package results

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// TaskCols are the task columns every output file starts with; each field
// holds the column of the same name in snake case (TaskID is task_id).
type TaskCols struct {
	TaskID    string
	TaskIndex int
	Sweep     string
	Trace     string
	Policy    string
	Label     string
	// Params is the canonical name=value text of the parameters.
	Params string
	// ParamValues holds the non-null param_* columns by parameter name
	// (float64, int64, bool or string). Rows of one task share the map:
	// do not modify it.
	ParamValues map[string]any
	// MachineProcs is the machine size (0 when unknown: a failed task
	// without a machine size in its spec).
	MachineProcs int
	Load         float64
	LoadMode     string
	Estimates    string
	Skip, Count  int
	Replication  int
	Seed         uint64
	// Moldable is true for a moldable workload, whose sigma and
	// range_factor columns are Sigma and RangeFactor (else null and 0).
	Moldable           bool
	Sigma, RangeFactor float64
}

// JobRow is one row of jobs.parquet.
type JobRow struct {
	TaskCols
	// Job holds the job columns.
	Job metrics.Record
	// Categories maps a scheme name to the job's category label.
	Categories map[string]string
}

// SummaryRow is one row of summary.parquet.
type SummaryRow struct {
	TaskCols
	// Scheme names the category scheme; Aggregate holds category, row,
	// col, jobs (as Count) and the means and maxima.
	Scheme string
	metrics.Aggregate
}

// TaskRow is one row of tasks.parquet.
type TaskRow struct {
	TaskCols
	// Stats.Procs is MachineProcs.
	Stats metrics.RunStats
	// Drops and DropsDetail count the trace's dropped jobs.
	Drops       int
	DropsDetail string
	// Baseline is the JSON object of [TaskResult.Baseline] ("" when none).
	Baseline string
	// WallTime (to the microsecond) and Worker say how long and where
	// the task ran; Error is the failure of a failed task.
	WallTime time.Duration
	Worker   string
	Error    string
	// Build is the build identity of the worker that produced the result
	// ([TaskResult.Build]).
	Build string
}

// ReadMetadata returns the key-value metadata of a Parquet file.
func ReadMetadata(path string) (map[string]string, error) {
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("read metadata %s: %w", path, err)
	}
	defer rd.Close()
	out := map[string]string{}
	for _, kv := range rd.MetaData().KeyValueMetadata() {
		if kv.Value != nil {
			out[kv.Key] = *kv.Value
		} else {
			out[kv.Key] = ""
		}
	}
	return out, nil
}

// ReadJobs reads jobs.parquet.
func ReadJobs(path string) ([]JobRow, error) {
	var out []JobRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		r := JobRow{TaskCols: tc, Categories: map[string]string{}}
		j := &r.Job
		j.JobID = c.i64("job_id", i)
		j.Submit = sim.Time(c.i64("submit", i))
		j.Start = sim.Time(c.i64("start", i))
		j.End = sim.Time(c.i64("end", i))
		j.Wait = sim.Time(c.i64("wait", i))
		j.Runtime = sim.Time(c.i64("runtime", i))
		j.Estimate = sim.Time(c.i64("estimate", i))
		j.Procs = int(c.i64("procs", i))
		j.Turnaround = sim.Time(c.i64("turnaround", i))
		j.BSD = c.f64("bsd", i)
		j.Slowdown = c.f64("slowdown", i)
		j.Suspensions = int(c.i64("suspensions", i))
		j.SuspendedTime = sim.Time(c.i64("suspended_time", i))
		j.OverheadTime = sim.Time(c.i64("overhead_time", i))
		j.Kills = int(c.i64("kills", i))
		if c.valid("queue", i) {
			j.MQ = metrics.QueueInfo{Queue: int(c.i64("queue", i)), Delay: sim.Time(c.i64("delay", i)),
				PartitionAtStart: int(c.i64("partition_at_start", i))}
		}
		mc := make([]arrow.Array, len(moldFields))
		for k, f := range moldFields {
			mc[k] = c.byName[f.Name]
		}
		readMoldCols(mc, i, j)
		if c.valid("tagged", i) {
			j.Elastic = &metrics.ElasticInfo{
				Tagged: c.boolean("tagged", i), Finished: c.boolean("finished", i),
				SeqFraction: c.f64("seq_fraction", i), ProcsLast: int(c.i64("procs_last", i)),
				WorkDone: c.f64("work_done", i), Checkpoints: int(c.i64("checkpoints", i)),
				Migrations: int(c.i64("migrations", i)), Reconfigurations: int(c.i64("reconfigurations", i)),
			}
		}
		readQoSRow(c, i, j)
		for name := range c.byName {
			if s, ok := strings.CutPrefix(name, CategoryPrefix); ok {
				r.Categories[s] = c.str(name, i)
			}
		}
		out = append(out, r)
		return c.err
	})
	return out, err
}

// ReadSummary reads summary.parquet.
func ReadSummary(path string) ([]SummaryRow, error) {
	var out []SummaryRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		st := func(name string) metrics.Stat {
			// Percentile columns are absent from files written before
			// them (read as 0) and for the slowdown.
			opt := func(col string) float64 {
				if c.valid(col, i) {
					return c.f64(col, i)
				}
				return 0
			}
			return metrics.Stat{Mean: c.f64(name+"_mean", i), Max: c.f64(name+"_max", i),
				P50: opt(name + "_p50"), P90: opt(name + "_p90"), P99: opt(name + "_p99")}
		}
		out = append(out, SummaryRow{
			TaskCols: tc,
			Scheme:   c.str("scheme", i),
			Aggregate: metrics.Aggregate{
				Category: c.str("category", i),
				Row:      int(c.i64("row", i)), Col: int(c.i64("col", i)),
				Count: int(c.i64("jobs", i)),
				BSD:   st("bsd"), Turnaround: st("turnaround"), Wait: st("wait"), Slowdown: st("slowdown"),
				Admitted:       int(c.i64("admitted", i)),
				ResourceCharge: c.f64("resource_charge", i), QoSCharge: c.f64("qos_charge", i),
				DeadlineMisses: int(c.i64("deadline_misses", i)),
			},
		})
		return c.err
	})
	return out, err
}

// ReadTasks reads tasks.parquet.
func ReadTasks(path string) ([]TaskRow, error) {
	var out []TaskRow
	err := readRows(path, func(c *cols, i int, tc TaskCols) error {
		var mq *metrics.QueueStats
		if c.valid("partition_mean_1", i) {
			mq = &metrics.QueueStats{
				ProcMoves: c.i64("proc_moves", i), DelayUpdates: int(c.i64("delay_updates", i)),
				DelayMax: c.f64("delay_max", i), DelayFinal: c.f64("delay_final", i),
			}
			for q := range mq.PartitionMean {
				mq.PartitionMean[q] = c.f64(fmt.Sprintf("partition_mean_%d", q+1), i)
			}
		}
		var qs *metrics.QoPSStats
		if c.valid("offers", i) {
			qs = &metrics.QoPSStats{Offers: int(c.i64("offers", i)), OffersTaken: int(c.i64("offers_taken", i)),
				MeanN: c.f64("schedule_mean_n", i), MaxN: int(c.i64("schedule_max_n", i))}
		}
		var es *metrics.ElasticStats
		if c.valid("mrt", i) {
			es = &metrics.ElasticStats{MRT: c.f64("mrt", i), MakespanTagged: c.i64("makespan_tagged", i),
				Unfinished: int(c.i64("unfinished", i)), MaxQueue: int(c.i64("max_queue", i)),
				MakespanLB: c.i64("makespan_lb", i), QueueP90: int(c.i64("queue_p90", i)), QueueMean: c.f64("queue_mean", i)}
		}
		out = append(out, TaskRow{
			TaskCols: tc,
			Stats: metrics.RunStats{
				Jobs: int(c.i64("jobs", i)), Procs: tc.MachineProcs,
				Makespan:    sim.Time(c.i64("makespan", i)),
				Utilization: c.f64("utilization", i),
				Suspensions: int(c.i64("suspensions", i)),
				Kills:       int(c.i64("kills", i)),
				MultiQueue:  mq,
				QoPS:        qs,
				Admitted:    int(c.i64("admitted", i)),
				ProcSeconds: c.f64("proc_seconds", i), ResourceCharge: c.f64("resource_charge", i),
				QoSCharge: c.f64("qos_charge", i), DeadlineMisses: int(c.i64("deadline_misses", i)),
				WastedProcSeconds: c.f64("wasted_proc_seconds", i),
				Elastic:           es,
			},
			Drops:       int(c.i64("drops", i)),
			DropsDetail: c.str("drops_detail", i),
			Baseline:    c.str("baseline", i),
			WallTime:    time.Duration(c.f64("wall_time_ms", i) * float64(time.Millisecond)),
			Worker:      c.str("worker", i),
			Error:       c.str("error", i),
			Build:       c.str("build", i),
		})
		return c.err
	})
	return out, err
}

// readRows reads a Parquet file written by WriteOutputs and calls row for
// each row with its task columns.
func readRows(path string, row func(c *cols, i int, tc TaskCols) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, parquet.NewReaderProperties(memory.DefaultAllocator),
		pqarrow.ArrowReadProperties{BatchSize: rowGroupRows}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, rowGroupRows)
	defer tr.Release()
	var prev TaskCols
	havePrev := false
	for tr.Next() {
		rec := tr.RecordBatch()
		c := newCols(rec)
		for i := 0; i < int(rec.NumRows()); i++ {
			var tc TaskCols
			if id := c.str("task_id", i); havePrev && id == prev.TaskID {
				tc = prev
			} else {
				tc = c.taskCols(i)
				prev, havePrev = tc, true
			}
			if err := row(c, i, tc); err != nil {
				return fmt.Errorf("read %s: %w", path, err)
			}
		}
		if c.err != nil {
			return fmt.Errorf("read %s: %w", path, c.err)
		}
	}
	if err := tr.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// cols gives typed access to a record batch's columns by name; the first
// missing column or type mismatch is kept in err and reads give zero.
type cols struct {
	rec    arrow.RecordBatch
	byName map[string]arrow.Array
	err    error
}

func newCols(rec arrow.RecordBatch) *cols {
	c := &cols{rec: rec, byName: map[string]arrow.Array{}}
	for i, f := range rec.Schema().Fields() {
		c.byName[f.Name] = rec.Column(i)
	}
	return c
}

func colAs[T arrow.Array](c *cols, name string) (T, bool) {
	var zero T
	a, ok := c.byName[name]
	if !ok {
		if c.err == nil {
			c.err = fmt.Errorf("no column %q", name)
		}
		return zero, false
	}
	t, ok := a.(T)
	if !ok {
		if c.err == nil {
			c.err = fmt.Errorf("column %q is %s", name, a.DataType())
		}
		return zero, false
	}
	return t, true
}

// valid reports whether column name exists and row i is not null.
func (c *cols) valid(name string, i int) bool {
	a, ok := c.byName[name]
	return ok && a.IsValid(i)
}

func (c *cols) boolean(name string, i int) bool {
	if a, ok := colAs[*array.Boolean](c, name); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return false
}

func (c *cols) str(name string, i int) string {
	if a, ok := colAs[*array.String](c, name); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return ""
}

func (c *cols) i64(name string, i int) int64 {
	if a, ok := colAs[*array.Int64](c, name); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return 0
}

func (c *cols) f64(name string, i int) float64 {
	if a, ok := colAs[*array.Float64](c, name); ok && a.IsValid(i) {
		return a.Value(i)
	}
	return 0
}

func (c *cols) taskCols(i int) TaskCols {
	tc := TaskCols{
		TaskID:       c.str("task_id", i),
		TaskIndex:    int(c.i64("task_index", i)),
		Sweep:        c.str("sweep", i),
		Trace:        c.str("trace", i),
		Policy:       c.str("policy", i),
		Label:        c.str("label", i),
		Params:       c.str("params", i),
		ParamValues:  map[string]any{},
		MachineProcs: int(c.i64("machine_procs", i)),
		Load:         c.f64("load", i),
		LoadMode:     c.str("load_mode", i),
		Estimates:    c.str("estimates", i),
		Skip:         int(c.i64("skip", i)),
		Count:        int(c.i64("count", i)),
		Replication:  int(c.i64("replication", i)),
	}
	if a, ok := colAs[*array.Uint64](c, "seed"); ok {
		tc.Seed = a.Value(i)
	}
	if a, ok := colAs[*array.Float64](c, "sigma"); ok && a.IsValid(i) {
		tc.Moldable, tc.Sigma, tc.RangeFactor = true, a.Value(i), c.f64("range_factor", i)
	}
	for name, a := range c.byName {
		p, ok := strings.CutPrefix(name, ParamPrefix)
		if !ok || !a.IsValid(i) {
			continue
		}
		switch a := a.(type) {
		case *array.Float64:
			tc.ParamValues[p] = a.Value(i)
		case *array.Int64:
			tc.ParamValues[p] = a.Value(i)
		case *array.Boolean:
			tc.ParamValues[p] = a.Value(i)
		case *array.String:
			tc.ParamValues[p] = a.Value(i)
		}
	}
	return tc
}
