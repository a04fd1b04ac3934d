// Package readings compares the readings of a paper that the project
// keeps as parameters. Where a paper is ambiguous the specs implement one
// reading; a paper's readings file (specs/<paper>/readings.yaml) lists
// the others worth comparing, each as parameter overrides on the paper's
// specs, and `schedfarm reproduce --readings` runs the paper's figure
// groups under each and grades the same claims against them, so which
// reading reproduces the paper is a computed comparison, not prose.
//
// A reading ([Reading]) has an id, a one-line summary, optionally the
// paper's words it rests on, and a list of overrides ([Override]): every
// policy entry of a policy name (narrowed by label and figure groups)
// gets the parameters set. [Load] and [Parse] report every problem of a
// file at once, each with its line and key path ([yamlerr.ValidationError]);
// given the paper's specs ([Options.Groups]; package reproduction loads them) they apply
// each reading to every spec and parse the result with package sweep, so
// an unknown policy, a parameter the policy does not have or a bad value
// is reported at the override that sets it. [Reading.Apply] gives the
// spec a reading runs.
//
// [Compare] sums up a reading's scorecard against the default's: the
// counts by verdict and the claims gained and lost. A paper's [Table]
// (the default row, then one row per reading) is written as
// readings.{md,csv}; the recorded copy, specs/<paper>/readings.csv
// ([Record]), generates the readings sections of REPRODUCING.md
// ([UpdateDoc], [WriteDoc]), and [CheckRecorded] ties it to the readings
// file and to the recorded scorecard (its default row must have the
// scorecard's counts). The format is in docs/claims.md.
package readings
