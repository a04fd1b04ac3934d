package results_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

// swfSpec runs the hand-made trace whose jobs carry SWF fields 11-18.
const swfSpec = "name: results-swf\nworkloads: [{trace: users.swf, estimates: trace}]\npolicies: [{name: easy}]\ncategories: [ss4]\n"

// TestJobs_SWFFields: fields 11-18 of the trace reach jobs.parquet as the
// trace gives them; -1 is null in the file and reads back as -1.
func TestJobs_SWFFields(t *testing.T) {
	dir, rows := writeReadJobs(t, MustRun(t, swfSpec))
	if len(rows) != 8 {
		t.Fatalf("%d jobs, want 8", len(rows))
	}
	want := map[int64]sim.JobInfo{
		1: {Status: 1, User: 1, Group: 1, Executable: 3, Queue: 1, Partition: 1, Preceding: -1, ThinkTime: -1},
		3: {Status: 0, User: 2, Group: 1, Executable: 4, Queue: 0, Partition: 2, Preceding: -1, ThinkTime: -1},
		4: {Status: 5, User: 3, Group: 2, Executable: 5, Queue: 1, Partition: 1, Preceding: -1, ThinkTime: -1},
		5: {Status: 1, User: 2, Group: 1, Executable: 4, Queue: 1, Partition: 2, Preceding: 2, ThinkTime: 15},
		8: sim.UnknownInfo(),
	}
	for _, r := range rows {
		if w, ok := want[r.Job.JobID]; ok && r.Job.Info != w {
			t.Errorf("job %d: info %+v, want %+v", r.Job.JobID, r.Job.Info, w)
		}
	}
	f, err := results.ReadFrame(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	jf, err := results.ReadJobsFrame(filepath.Join(dir, results.JobsFile), f.Tasks, "job_id", "user_id", "think_time", "status")
	if err != nil {
		t.Fatal(err)
	}
	for i := range jf.Len() {
		id := jf.Num["job_id"][i]
		nullUser, nullThink := math.IsNaN(jf.Num["user_id"][i]), math.IsNaN(jf.Num["think_time"][i])
		if nullUser != (id == 8) || nullThink != (id != 5) {
			t.Errorf("job %v: user_id %v, think_time %v in the file", id, jf.Num["user_id"][i], jf.Num["think_time"][i])
		}
		if id == 3 && jf.Num["status"][i] != 0 {
			t.Errorf("job 3: status %v, want 0 (failed, not null)", jf.Num["status"][i])
		}
	}
}

// TestTasks_Fairness: tasks.parquet holds Jain's index over the users of
// the jobs in jobs.parquet (three users; job 8's unknown user left out),
// and null for a workload without users.
func TestTasks_Fairness(t *testing.T) {
	dir, rows := writeReadJobs(t, MustRun(t, swfSpec))
	recs := make([]metrics.Record, len(rows))
	for i := range rows {
		recs[i] = rows[i].Job
	}
	want := metrics.Fairness(recs)
	tasks, err := results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	got := tasks[0].Stats.Fairness
	if got == nil || want == nil || *got != *want || got.Users != 3 || got.JainBSD <= 1.0/3 || got.JainBSD > 1 {
		t.Fatalf("fairness in tasks.parquet %+v, from the jobs %+v (3 users)", got, want)
	}
	r := MustRun(t, "name: results-nousers\nworkloads: [{synthetic: lublin, procs: 64, gen: {jobs: 50}}]\npolicies: [{name: easy}]\n")
	dir = MustWrite(t, r, r.res)
	tasks, err = results.ReadTasks(filepath.Join(dir, results.TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	if tasks[0].Stats.Fairness != nil {
		t.Errorf("a workload without users has fairness %+v, want null", tasks[0].Stats.Fairness)
	}
}

// TestSummary_UserScheme: with categories [ss4, user], summary.parquet
// has one row per user of the task (users 1, 2, 3 and unknown, whose
// means are those of jobs.parquet's rows of that user), jobs.parquet a
// cat_user column, and the tables stay on ss4.
func TestSummary_UserScheme(t *testing.T) {
	spec := strings.Replace(swfSpec, "categories: [ss4]", "categories: [user, ss4]", 1)
	r := MustRun(t, spec)
	dir, rows := writeReadJobs(t, r)
	type mean struct {
		n         int
		bsd, wait float64
	}
	byUser := map[string]*mean{}
	for _, j := range rows {
		c := j.Categories["user"]
		if byUser[c] == nil {
			byUser[c] = &mean{}
		}
		m := byUser[c]
		m.n++
		m.bsd += j.Job.BSD
		m.wait += float64(j.Job.Wait)
	}
	if len(byUser) != 4 || byUser["user 2"] == nil || byUser["user 2"].n != 3 || byUser[metrics.UnknownUser] == nil {
		t.Fatalf("cat_user of the jobs: %v", byUser)
	}
	sum, err := results.ReadSummary(filepath.Join(dir, results.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var cats []string
	for _, s := range sum {
		if s.Scheme != "user" {
			continue
		}
		cats = append(cats, s.Category)
		if s.Category == metrics.Overall {
			continue
		}
		m := byUser[s.Category]
		if m == nil || s.Aggregate.Count != m.n || math.Abs(s.Aggregate.BSD.Mean-m.bsd/float64(m.n)) > 1e-12 || math.Abs(s.Aggregate.Wait.Mean-m.wait/float64(m.n)) > 1e-9 {
			t.Errorf("summary %s: %d jobs, bsd %v, wait %v; jobs.parquet %+v", s.Category, s.Aggregate.Count, s.Aggregate.BSD.Mean, s.Aggregate.Wait.Mean, m)
		}
	}
	if strings.Join(cats, ",") != "user 1,user 2,user 3,unknown,all" {
		t.Errorf("user categories %q", cats)
	}
	md, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "by ss4 category") {
		t.Errorf("tables.md is not on ss4:\n%s", md)
	}
	_, err = report.BuildTables(sum, nil, report.TableOptions{Scheme: "user"})
	if err == nil || !strings.Contains(err.Error(), "one category per user") {
		t.Errorf("tables of the user scheme: error %v", err)
	}
}
