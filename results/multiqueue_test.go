package results_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

const mqSpec = `
name: results-mq
workloads:
  - trace: ctc
    skip: 2000
    count: 400
    estimates: accurate
policies:
  - name: easy
  - name: multiqueue
    params:
      delay: true
      initial_delay: 600
      delay_batch: 20
categories: [len4]
`

// TestMultiqueueColumns checks that the multiqueue columns survive the
// wire format and the Parquet files, and are null under other policies.
func TestMultiqueueColumns(t *testing.T) {
	r := MustRun(t, mqSpec)
	mq := r.res[1]
	if mq.Stats.MultiQueue == nil || mq.Jobs[0].MQ.Queue == 0 || r.res[0].Stats.MultiQueue != nil || r.res[0].Jobs[0].MQ.Queue != 0 {
		t.Fatalf("multiqueue figures: easy %+v, multiqueue %+v", r.res[0].Stats.MultiQueue, mq.Stats.MultiQueue)
	}
	delayed := 0
	for _, j := range mq.Jobs {
		if j.MQ.Delay > 0 {
			delayed++
		}
	}
	if delayed == 0 || mq.Stats.MultiQueue.DelayUpdates == 0 {
		t.Fatalf("no job delayed (%d) or no delay update (%+v): the case tests nothing", delayed, mq.Stats.MultiQueue)
	}
	checkRoundTrip(t, r.res)
	dir, rows := writeReadJobs(t, r)
	k := 0
	for _, tr := range r.res {
		for _, j := range tr.Jobs {
			if rows[k].Job.MQ != j.MQ {
				t.Fatalf("task %d job %d: read %+v, wrote %+v", tr.Index, j.JobID, rows[k].Job.MQ, j.MQ)
			}
			k++
		}
	}
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	if tasks[0].Stats.MultiQueue != nil || !reflect.DeepEqual(tasks[1].Stats.MultiQueue, mq.Stats.MultiQueue) {
		t.Fatalf("tasks.parquet: easy %+v, multiqueue %+v, want nil and %+v", tasks[0].Stats.MultiQueue, tasks[1].Stats.MultiQueue, mq.Stats.MultiQueue)
	}
}
