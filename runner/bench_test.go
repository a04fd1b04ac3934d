package runner_test

import (
	"context"
	"testing"

	"github.com/schedfarm/schedfarm/runner"
)

// BenchmarkExecute runs EASY on 5000 CTC jobs with the workload cached:
// the per-task cost a worker pays besides transport.
func BenchmarkExecute(b *testing.B) {
	ts, path := MustTasks(b, "name: b\nworkloads: [{trace: ctc, count: 5000, estimates: accurate}]\npolicies: [{name: easy}]\n")
	c := runner.NewCache(1)
	if _, err := c.Execute(context.Background(), &ts[0], path); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Execute(context.Background(), &ts[0], path); err != nil {
			b.Fatal(err)
		}
	}
}
