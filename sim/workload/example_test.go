package workload_test

import (
	"errors"
	"fmt"

	"github.com/schedfarm/schedfarm/sim/workload"
)

func ExampleLoad() {
	w, err := workload.Load("testdata/read/drops.swf", workload.Options{
		Estimates: workload.EstimateAccurate,
		Skip:      1, // valid jobs, counted after dropping
		Count:     2,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.Name, w.Procs, w.Drops)
	for _, j := range w.Jobs {
		fmt.Printf("job %d: submit %d, runtime %d, estimate %d, procs %d\n", j.ID, j.Submit, j.Runtime, j.Estimate, j.Procs)
	}
	// Output:
	// drops 4 dropped 5 jobs: 3 with runtime <= 0, 1 with procs <= 0, 1 with procs > machine size
	// job 6: submit 0, runtime 10, estimate 10, procs 4
	// job 7: submit 1, runtime 10, estimate 10, procs 1
}

func ExampleRead_errors() {
	_, err := workload.Read("testdata/read/not-number.swf", 0)
	fmt.Println(err)
	var pe *workload.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Line, pe.Field, errors.Is(err, workload.ErrNotNumber))
	}
	// Output:
	// testdata/read/not-number.swf:4: field 4 (runtime): "abc" is not a number
	// 4 4 true
}

func ExampleTrace_Build() {
	t, err := workload.Read("testdata/read/ok.swf", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Double the load by halving inter-arrival times.
	w, err := t.Build(workload.Options{Load: 2, LoadMode: workload.LoadArrival})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range w.Jobs {
		fmt.Print(j.Submit, " ")
	}
	fmt.Println()
	// Output:
	// 0 3 5 5
}
