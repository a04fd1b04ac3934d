package runnertest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sweep"
)

const spec = `name: sweeptest
workloads:
  - synthetic: parsons1997
    gen: {mean_interarrival: 150, tagged: 20, horizon: 10000}
policies:
  - {name: lsf-rtc, label: RTC}
replications: 2
`

func TestRun(t *testing.T) {
	s, err := sweep.Parse([]byte(spec), ".")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := s.Tasks()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), s, tasks)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].TaskID != tasks[0].ID || res[1].TaskID != tasks[1].ID || res[0].Err != "" {
		t.Errorf("Run() = %v, want a result of each of the 2 tasks in order", res)
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(spec, ".", dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{results.SummaryFile, results.TasksFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if err := Write("name: x\n", ".", dir); err == nil {
		t.Error("Write(spec without workloads) succeeded")
	}
}
