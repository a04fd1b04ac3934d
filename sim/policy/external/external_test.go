package external_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sim/simcheck"
)

func needPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is needed by the external policy tests: ", err)
	}
}

// scripted runs jobs on procs processors under testdata/scripted.py
// answering with script, and returns the result, the messages the policy
// received and the run's error.
func scripted(t *testing.T, procs int, jobs []sim.Job, script []string, cfg external.Config) (*sim.Result, []string, error) {
	t.Helper()
	needPython(t)
	dir := t.TempDir()
	sc, lg := filepath.Join(dir, "script"), filepath.Join(dir, "log")
	if err := os.WriteFile(sc, []byte(strings.Join(script, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs("testdata/scripted.py")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Command = []string{"python3", abs, sc, lg}
	cfg.Seed = 7
	if cfg.Params == nil {
		cfg.Params = map[string]any{"alpha": 0.5}
	}
	p, err := external.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), procs, jobs, p, sim.Options{Segments: true, CheckEvery: 1})
	p.Close()
	b, rerr := os.ReadFile(lg)
	if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		t.Error(rerr)
	}
	log := strings.Split(strings.TrimSpace(string(b)), "\n")
	if err == nil {
		if cerr := simcheck.Check(jobs, res); cerr != nil {
			t.Errorf("simcheck: %v", cerr)
		}
	}
	return res, log, err
}

func job(id int64, submit, runtime, estimate sim.Time, procs int) sim.Job {
	return sim.Job{ID: id, Submit: submit, Runtime: runtime, Estimate: estimate, Procs: procs}
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStart_Exchange: job 10 (4 processors, 10 s, estimate 20) arrives at
// 0 and starts; job 11 (2 processors) arrives at 5 and waits; at 10 job 10
// ends and job 11 starts on processors 2 and 3, ending at 13. The messages
// are exactly those of the protocol's documentation.
func TestStart_Exchange(t *testing.T) {
	jobs := []sim.Job{job(10, 0, 10, 20, 4), job(11, 5, 3, 4, 2)}
	res, log, err := scripted(t, 4, jobs, []string{
		`[{"op":"start","job":0}]`,
		`[]`,
		`[{"op":"start","job":1,"set":[2,3]}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, log, []string{
		`{"type":"init","version":1,"procs":4,"jobs":2,"seed":7,"params":{"alpha":0.5}}`,
		`{"type":"instant","now":0,"events":[{"type":"arrive","job":0,"id":10,"submit":0,"estimate":20,"procs":4}],"free":4}`,
		`{"type":"instant","now":5,"events":[{"type":"arrive","job":1,"id":11,"submit":5,"estimate":4,"procs":2}],"free":0}`,
		`{"type":"instant","now":10,"events":[{"type":"finish","job":0}],"free":4}`,
		`{"type":"instant","now":13,"events":[{"type":"finish","job":1}],"free":4}`,
		`{"type":"end","now":13}`,
	})
	if s := res.Tasks[1]; s.FirstStart != 10 || s.End != 13 || !(s.Set.Len() == 2 && s.Set.Has(2) && s.Set.Has(3)) {
		t.Errorf("job 11: start %d end %d set %v, want 10, 13, {2,3}", s.FirstStart, s.End, s.Set)
	}
}

// TestSuspendResume_Timer: job 0 (10 s) starts at 0 with a timer at 3;
// at 3 it is suspended with an overhead of 1; the overhead's end at 4 is
// an event, and the policy resumes it with no overhead: it has 7 s left
// and ends at 11.
func TestSuspendResume_Timer(t *testing.T) {
	jobs := []sim.Job{job(1, 0, 10, 10, 2)}
	res, log, err := scripted(t, 2, jobs, []string{
		`[{"op":"start","job":0},{"op":"timer","at":3,"tag":7}]`,
		`[{"op":"suspend","job":0,"overhead":1}]`,
		`[{"op":"resume","job":0}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, log[1:], []string{
		`{"type":"instant","now":0,"events":[{"type":"arrive","job":0,"id":1,"submit":0,"estimate":10,"procs":2}],"free":2}`,
		`{"type":"instant","now":3,"events":[{"type":"timer","tag":7}],"free":0}`,
		`{"type":"instant","now":4,"events":[{"type":"overhead","job":0,"state":"suspended"}],"free":2}`,
		`{"type":"instant","now":11,"events":[{"type":"finish","job":0}],"free":2}`,
		`{"type":"end","now":11}`,
	})
	if tk := res.Tasks[0]; tk.End != 11 || tk.Suspensions != 1 || tk.OverheadTime != 1 {
		t.Errorf("end %d suspensions %d overhead %d, want 11, 1, 1", tk.End, tk.Suspensions, tk.OverheadTime)
	}
}

// TestKill_CancelTimer: job 0 (10 s) starts at 0 with timers tagged 1
// (at 4) and 2 (at 6); job 1 arrives at 2 and the policy cancels tag 1;
// at 6 (tag 2) it kills job 0 and restarts it on the processors of a
// given set with a dispatch delay of 2: it works 8..18. Job 1 starts on
// the other processor at 6 too.
func TestKill_CancelTimer(t *testing.T) {
	jobs := []sim.Job{job(1, 0, 10, 10, 1), job(2, 2, 5, 5, 1)}
	res, log, err := scripted(t, 2, jobs, []string{
		`[{"op":"start","job":0,"set":[0]},{"op":"timer","at":4,"tag":1},{"op":"timer","at":6,"tag":2}]`,
		`[{"op":"cancel_timer","tag":1}]`,
		`[{"op":"kill","job":0},{"op":"start","job":0,"set":[1],"delay":2},{"op":"start","job":1}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, log[1:4], []string{
		`{"type":"instant","now":0,"events":[{"type":"arrive","job":0,"id":1,"submit":0,"estimate":10,"procs":1}],"free":2}`,
		`{"type":"instant","now":2,"events":[{"type":"arrive","job":1,"id":2,"submit":2,"estimate":5,"procs":1}],"free":1}`,
		`{"type":"instant","now":6,"events":[{"type":"timer","tag":2}],"free":1}`,
	})
	a, b := res.Tasks[0], res.Tasks[1]
	if a.Kills != 1 || a.End != 18 || a.LostWork != 6 || b.FirstStart != 6 || b.End != 11 {
		t.Errorf("job 1: kills %d end %d lost %d; job 2: start %d end %d; want 1, 18, 6; 6, 11", a.Kills, a.End, a.LostWork, b.FirstStart, b.End)
	}
}

// TestAdmitReject_Promise: job 0 is admitted with deadline 50 and
// promised a start at 0, job 1 (same instant) is rejected.
func TestAdmitReject_Promise(t *testing.T) {
	jobs := []sim.Job{job(1, 0, 10, 10, 1), job(2, 0, 5, 5, 1)}
	res, _, err := scripted(t, 1, jobs, []string{
		`[{"op":"admit","job":0,"deadline":50},{"op":"promise","job":0,"at":0},{"op":"reject","job":1},{"op":"start","job":0}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Decisions) != 2 || !res.Decisions[0].Admitted || res.Decisions[0].Deadline != 50 || res.Decisions[1].Admitted {
		t.Errorf("decisions %+v", res.Decisions)
	}
	if res.Tasks[1].State != sim.Rejected || res.Tasks[0].Promise != 0 || res.Tasks[0].End != 10 {
		t.Errorf("job 2 %v, job 1 promise %d end %d", res.Tasks[1].State, res.Tasks[0].Promise, res.Tasks[0].End)
	}
}

// TestMold: a moldable job (2 processors, 100 s, linear speedup up to 4)
// is molded to 4 and takes 50 s; its arrival lists its estimate on each
// size.
func TestMold(t *testing.T) {
	a, err := sim.NewMoldable(2, 100, 120, 1, 4, sim.Downey{A: 8, Sigma: 0})
	if err != nil {
		t.Fatal(err)
	}
	j := job(1, 0, 100, 120, 2)
	j.Mold = a
	res, log, err := scripted(t, 4, []sim.Job{j}, []string{
		`[{"op":"mold","job":0,"procs":4},{"op":"start","job":0}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"instant","now":0,"events":[{"type":"arrive","job":0,"id":1,"submit":0,"estimate":120,"procs":2,` +
		`"mold":{"min":1,"max":4,"estimates":[240,120,80,60]}}],"free":4}`
	sameLines(t, log[1:2], []string{want})
	if tk := res.Tasks[0]; tk.Procs != 4 || tk.End != 50 {
		t.Errorf("procs %d end %d, want 4, 50", tk.Procs, tk.End)
	}
}

// TestCheckpoint: an elastic job (D 1600, f 0, 8..16) starts on 16, is
// checkpointed at 50 with cost 10, molded to 8 and restarted at 60: 800 s
// of work on 8 processors, it ends at 160.
func TestCheckpoint(t *testing.T) {
	e := &sim.Elastic{Work: 1600, SeqFrac: 0, Min: 8, Max: 16, Unit: 1}
	rt := e.Duration(1600, 16)
	j := sim.Job{ID: 1, Runtime: rt, Estimate: rt, Procs: 16, Elastic: e}
	res, log, err := scripted(t, 16, []sim.Job{j}, []string{
		`[{"op":"start","job":0},{"op":"timer","at":50,"tag":1}]`,
		`[{"op":"checkpoint","job":0,"cost":10}]`,
		`[{"op":"mold","job":0,"procs":8},{"op":"start","job":0}]`,
	}, external.Config{})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, log[1:4], []string{
		`{"type":"instant","now":0,"events":[{"type":"arrive","job":0,"id":1,"submit":0,"estimate":100,"procs":16,"elastic":{"min":8,"max":16,"unit":1,"seq_frac":0}}],"free":16}`,
		`{"type":"instant","now":50,"events":[{"type":"timer","tag":1}],"free":0}`,
		`{"type":"instant","now":60,"events":[{"type":"overhead","job":0,"state":"stopped"}],"free":16}`,
	})
	if tk := res.Tasks[0]; tk.End != 160 || tk.Flex.Checkpoints != 1 || tk.Flex.LastProcs != 8 {
		t.Errorf("end %d checkpoints %d last %d, want 160, 1, 8", tk.End, tk.Flex.Checkpoints, tk.Flex.LastProcs)
	}
}

// failure runs a script that must fail and checks the error names the
// instant and holds each of wants.
func failure(t *testing.T, script []string, cfg external.Config, wants ...string) {
	t.Helper()
	jobs := []sim.Job{job(10, 0, 10, 20, 4), job(11, 5, 3, 4, 2)}
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, _, err = scripted(t, 4, jobs, script, cfg)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run hangs")
	}
	if err == nil {
		t.Fatal("no error")
	}
	var pe *external.Error
	if !errors.As(err, &pe) || !errors.Is(err, external.ErrProtocol) || (pe.Instant >= 0 && !errors.Is(err, sim.ErrPolicy)) {
		t.Fatalf("error %v (%T) is not an *external.Error wrapping sim.ErrPolicy", err, err)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\nwants %q", err, w)
		}
	}
}

func TestFail_Refused(t *testing.T) {
	failure(t, []string{`[{"op":"start","job":0}]`, `ERR about to overcommit`, `[{"op":"start","job":1}]`}, external.Config{},
		"at t=5:", "the engine refused a decision", "start job 11: needs 2 processors, 0 free",
		`message: {"type":"decisions","decisions":[{"op":"start","job":1}]}`, "| about to overcommit")
}

func TestFail_ResumeNotSuspended(t *testing.T) {
	failure(t, []string{`[{"op":"resume","job":0}]`}, external.Config{}, "at t=0:", "resume job 10: job is waiting")
}

func TestFail_Garbage(t *testing.T) {
	failure(t, []string{`RAW starting my scheduler`}, external.Config{}, "at t=0:", "outside the protocol", "message: starting my scheduler")
}

func TestFail_Malformed(t *testing.T) {
	failure(t, []string{`RAW {"type":"decisions","decisions":[{"op":"start","job":0,"nodes":3}]}`}, external.Config{},
		"at t=0:", `unknown field "nodes"`)
	failure(t, []string{`RAW {"type":"decisions","decisions":[{"op":"fly","job":0}]}`}, external.Config{},
		"at t=0:", `unknown op "fly"`)
	failure(t, []string{`[{"op":"start","job":7}]`}, external.Config{}, "at t=0:", "no job 7")
	failure(t, []string{`[{"op":"start","job":1}]`}, external.Config{}, "at t=0:", "job 1 has not arrived")
	failure(t, []string{`[{"op":"start","job":0,"set":[0,1,2,9]}]`}, external.Config{}, "processor 9 outside the machine")
	failure(t, []string{`[{"op":"timer","at":-1,"tag":1}]`}, external.Config{}, "timer at -1 is before now")
}

func TestFail_Exit(t *testing.T) {
	failure(t, []string{`[{"op":"start","job":0}]`, `EXIT`}, external.Config{},
		"at t=5:", "the policy exited: exit status 3", "| policy gives up", `"now":5`)
}

func TestFail_Hang(t *testing.T) {
	failure(t, []string{`[{"op":"start","job":0}]`, `HANG`}, external.Config{InstantLimit: 2 * time.Second},
		"at t=5:", "no answer within the per-instant limit of 2s", "| thinking hard")
}

func TestFail_TaskLimit(t *testing.T) {
	failure(t, []string{`[{"op":"start","job":0}]`, `HANG`}, external.Config{InstantLimit: time.Minute, TaskLimit: 5 * time.Second},
		"used up the run's limit of 5s")
}

func TestFail_Handshake(t *testing.T) {
	failure(t, []string{`READY {"type":"ready","version":2,"name":"x"}`}, external.Config{},
		"handshake:", "protocol version 2, this engine 1")
	failure(t, []string{`READY hello`}, external.Config{}, "handshake:", "outside the protocol")
	failure(t, []string{`READY {"type":"ready","version":1,"events":["gossip"]}`}, external.Config{}, `unknown optional event "gossip"`)
}

func TestFail_NoProgram(t *testing.T) {
	p, err := external.New(external.Config{Command: []string{"/nonexistent/policy"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.Run(context.Background(), 4, []sim.Job{job(1, 0, 1, 1, 1)}, p, sim.Options{})
	p.Close()
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/policy") {
		t.Fatalf("error %v, want one naming the program", err)
	}
}

// TestFail_NotReading: a policy that answers the handshake and then reads
// no more: the engine's first instant message (5,000 arrivals, more than
// a pipe holds) cannot be written; the watchdog ends the run at the
// per-instant limit with an error saying the policy does not read.
func TestFail_NotReading(t *testing.T) {
	needPython(t)
	jobs := make([]sim.Job, 5000)
	for i := range jobs {
		jobs[i] = job(int64(i+1), 0, 10, 10, 1)
	}
	p, err := external.New(external.Config{
		Command: []string{"python3", "-c", `import sys, time
sys.stdin.readline()
print('{"type":"ready","version":1,"name":"deaf"}', flush=True)
sys.stderr.write("not listening\n")
sys.stderr.flush()
time.sleep(3600)`},
		InstantLimit: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := sim.Run(context.Background(), 4, jobs, p, sim.Options{})
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run hangs")
	}
	p.Close()
	for _, w := range []string{"at t=0:", "the policy does not read its input", "per-instant limit of 1s", "| not listening"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v\nwants %q", err, w)
		}
	}
}
