// Package reproduction is the home of the paper reproductions: a paper is
// a folder specs/<paper>/ holding its sweep specs, its claims file
// (claims.yaml) and its readings file (readings.yaml), and `schedfarm
// reproduce` runs its figure groups, makes their tables and figures and
// grades the claims against them.
//
// Its sub-packages are the steps of a reproduction: [claims] reads a
// paper's claims, grades them against the outputs and writes the
// scorecard; [readings] runs and compares the paper's alternative
// readings, each a set of parameter overrides on its specs. The figure
// groups of each paper (which spec, which tables and plots) are the
// recipes of package report.
//
// [claims]: https://pkg.go.dev/github.com/schedfarm/schedfarm/reproduction/claims
// [readings]: https://pkg.go.dev/github.com/schedfarm/schedfarm/reproduction/readings
package reproduction
