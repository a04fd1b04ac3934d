// Package reproduction is the home of the paper reproductions: a paper is
// a folder specs/<paper>/ holding its sweep specs, its paper file
// (paper.yaml: its figure groups), its claims file (claims.yaml) and its
// readings file (readings.yaml), and `schedfarm reproduce` runs its figure
// groups, makes their tables and figures and grades the claims against
// them. Its sub-packages are the grading steps: [claims] reads a paper's
// claims, grades them against the outputs and writes the scorecard;
// [readings] runs and compares the paper's alternative readings, each a
// set of parameter overrides on its specs.
//
// # Papers as data
//
// specs/papers.yaml lists the papers in order (papers: [a, b]); each
// paper's paper.yaml lists its figure groups ([Recipe]), read by
// [LoadPapers] and built into the binary ([Recipes]):
//
//	groups:
//	  - name: fig05                # the group: reproduce PAPER/fig05
//	    spec: fig05-07.yaml        # a spec of the paper's folder
//	    doc: "Fig 5: ..."          # one line on what it reproduces
//	    tables:                    # tables/NAME.md and .csv (report.TableOptions)
//	      - {name: fig05-r, metric: slowdown_mean, scheme: len4, layout: wide,
//	         baseline: single, compare: r, where: {label: [single, multi]}}
//	    plots:                     # figures/ (report.PlotOptions)
//	      - {kind: bars, metric: slowdown_mean, scheme: len4, baseline: single,
//	         compare: r, batch: 1000, yscale: log, legend: top-left, where: {...}}
//	    panels:                    # a param figure and its table per panel
//	      - {name: fig03a, caption: "Fig 3a: ...", metric: acceptance,
//	         x: tolerance, series: load, where: {random_tf: ["false"]}}
//	    steps: [transient-summary] # registered Go steps, by name
//	tss_paper_limits:              # optional: TSS means read from claims.yaml
//	  - {procs: 430, table: Table 4, trace: ctc}
//
// layout is grid or wide; compare ratio, pct or r; kind one of the
// plot kinds of package report; where maps a task column to the values it
// keeps (a scalar or a list), in file order. A paper whose figures are
// such tables and plots needs no Go: a folder with its specs, paper.yaml
// and claims.yaml, its name in specs/papers.yaml, and a new build (the
// paper files are embedded by package specs; go test ./specs checks them). Only steps that compute something new
// (Parsons and Sevcik's Table 3 beside the paper's numbers, the transient
// R per batch, workload statistics) are Go, entries of the step table
// (steps.go) named from the paper file. Every problem of a paper file is
// reported at once with its file, line and key path
// ("specs/p/paper.yaml: line 7: groups[0].tables[0].layout: ...").
//
// Paper numbers have one source, the paper's claims file: the Table 3 step
// reads the paper's cells from the expected values of its claims, and the
// TSS limits of Kettimuthu et al.'s Tables 4 and 5 are read from the
// claims of those tables when a spec is loaded ([LoadSpec]): every TSS
// entry that sets tss_paper_limits gets them as its tss_limits parameter,
// by machine size, as the paper file's tss_paper_limits names the tables
// ([LimitsTable]). The simulator holds no paper's numbers, and the specs
// do not copy them. The run, coordinator and status commands load a spec
// in a paper's folder (specs/PAPER/NAME.yaml) the same way
// ([LoadSpecFile]); a copy elsewhere must give tss_limits, and says so
// when it does not.
//
// [claims]: https://pkg.go.dev/github.com/schedfarm/schedfarm/reproduction/claims
// [readings]: https://pkg.go.dev/github.com/schedfarm/schedfarm/reproduction/readings
package reproduction
