package workload

import (
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// Trace is an SWF file as read: its header, the machine size and the jobs
// that were not dropped, in file order. A Trace is not changed by
// [Trace.Build] and may be shared by goroutines that only read it.
type Trace struct {
	// Name is the file's base name without ".gz" and ".swf", for example
	// "CTC-SP2-1996-3.1-cln".
	Name string
	// File is the path or name the trace was read from.
	File string
	// Procs is the machine size: the caller's override, else the header's
	// MaxProcs, else its MaxNodes.
	Procs int
	// Header holds every "; Key: value" header line. A repeated key or a
	// continuation line is appended to the value after a newline.
	Header map[string]string
	// Records are the kept jobs in file order.
	Records []Record
	// Drops counts the jobs left out of Records, by reason.
	Drops DropReport
	// SHA256 is the hex sha256 of the input as stored (the gzipped bytes
	// for a .swf.gz file).
	SHA256 string
}

// Record is one job line of an SWF file: the fields the simulator uses,
// with times rounded up to whole seconds and -1 for unknown.
type Record struct {
	Line       int      // 1-based line number in the file
	ID         int64    // field 1
	Submit     sim.Time // field 2, >= 0
	Wait       sim.Time // field 3
	Runtime    sim.Time // field 4
	AllocProcs int      // field 5
	ReqProcs   int      // field 8
	ReqTime    sim.Time // field 9
	Status     int      // field 11, -1 or 0..5
	User       int32    // field 12, -1 or >= 0
	Group      int32    // field 13, -1 or >= 0
	Executable int32    // field 14, -1 or >= 0
	Queue      int32    // field 15, -1 or >= 0
	Partition  int32    // field 16, -1 or >= 0
	Preceding  int64    // field 17, -1 or >= 0
	ThinkTime  sim.Time // field 18, -1 or >= 0
}

// Info returns the record's fields 11-18 as a job carries them.
func (r *Record) Info() sim.JobInfo {
	return sim.JobInfo{
		Status: int32(r.Status), User: r.User, Group: r.Group, Executable: r.Executable,
		Queue: r.Queue, Partition: r.Partition, Preceding: r.Preceding, ThinkTime: r.ThinkTime,
	}
}

// Procs returns the job's size: the requested processors if known, else the
// allocated ones.
func (r Record) Procs() int {
	if r.ReqProcs > 0 {
		return r.ReqProcs
	}
	return r.AllocProcs
}

// DropReport counts the jobs left out of a trace, by reason. A job is
// counted once, under the first reason that applies, in the order of the
// fields.
type DropReport struct {
	// Runtime counts jobs with runtime <= 0 (field 4).
	Runtime int
	// Procs counts jobs with size <= 0 (fields 8 and 5 both unknown).
	Procs int
	// TooBig counts jobs larger than the machine.
	TooBig int
}

// Total returns the number of dropped jobs.
func (d DropReport) Total() int { return d.Runtime + d.Procs + d.TooBig }

// String returns the counts, for example
// "dropped 3 jobs: 2 with runtime <= 0, 1 with procs <= 0".
func (d DropReport) String() string {
	if d.Total() == 0 {
		return "dropped 0 jobs"
	}
	var parts []string
	add := func(n int, why string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d with %s", n, why))
		}
	}
	add(d.Runtime, "runtime <= 0")
	add(d.Procs, "procs <= 0")
	add(d.TooBig, "procs > machine size")
	return fmt.Sprintf("dropped %d %s: %s", d.Total(), plural(d.Total(), "job"), strings.Join(parts, ", "))
}

// reason returns a pointer to the count r falls under on a machine of
// procs processors, or nil when r is kept.
func (d *DropReport) reason(r *Record, procs int) *int {
	switch p := r.Procs(); {
	case r.Runtime <= 0:
		return &d.Runtime
	case p <= 0:
		return &d.Procs
	case p > procs:
		return &d.TooBig
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
