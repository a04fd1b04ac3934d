package sweep_test

import (
	"fmt"

	"github.com/schedfarm/schedfarm/sweep"
)

func ExampleParse() {
	spec := `
name: example
workloads:
  - trace: tiny.swf      # relative to the base directory
    count: 8
    load: [1, 1.5]
policies:
  - name: fcfs
  - name: ss
    params: {suspension_factor: [2, 5]}
`
	s, err := sweep.Parse([]byte(spec), "testdata")
	if err != nil {
		fmt.Println(err)
		return
	}
	tasks, _ := s.Tasks()
	for _, t := range tasks {
		fmt.Println(t.Index, t.Workload.Load, t.Name(), t.Params["suspension_factor"])
	}
	// Output:
	// 0 1 fcfs <nil>
	// 1 1 ss 2
	// 2 1 ss 5
	// 3 1.5 fcfs <nil>
	// 4 1.5 ss 2
	// 5 1.5 ss 5
}

func ExampleParse_errors() {
	spec := `
name: example
workloads:
  - trace: ctcx
    lod: 1.2
policies:
  - name: ss
    params: {suspension_factor: [2, 0.5]}
`
	_, err := sweep.Parse([]byte(spec), "testdata")
	fmt.Println(err)
	// Output:
	// workloads[0].trace: unknown trace "ctcx" (valid: ctc, kth, sdsc, sdsc-par, or a file path relative to the spec)
	// workloads[0].lod: unknown key
	// policies[0].params.suspension_factor[1]: must be >= 1, got 0.5
}
