// Package claims reads a paper's claims file (specs/<paper>/claims.yaml),
// grades each claim against the outputs of `schedfarm reproduce` and
// writes the scorecard: which of the paper's numbers and stated trends
// the reproduction agrees with, partly agrees with, or contradicts.
//
// A claim says what the paper states ([Claim.Quote]), which numbers of
// the outputs it reads (a [Selection]: a figure group, an output table,
// a metric column, a scheme and category, a policy setting and filters),
// and how it is graded: a value with tolerances, a ratio or an order of
// two selections, a monotonic trend along a parameter, an invariant, or
// a count of the values of a key (such as the categories) at which an
// order holds ("in most of the categories").
// A jobs selection can also read a series per batch of jobs or per week
// ([Selection.Per]) combined into one number ([Selection.Over]), and a
// ratio can compare two such series batch by batch ([Claim.Pairwise]).
// The sides of an order claim and the selection of a monotonic claim can
// each be compared with a baseline ([Selection.Baseline], in the claim's
// [Claim.Form]), so that an order compares two improvements ("much less
// than the improvement with accurate estimates") and a trend follows an
// improvement along a parameter ("more pronounced under high load").
// A value claim on a number the paper measured in a single run can ask
// instead whether that number is a plausible draw from our replications
// ([Claim.SingleRun]: agree within their central 90%, partly within their
// range).
// Every claim names the paper's word ([Claim.Word], from [Vocabulary]),
// whose rule grades it the same way in every paper, unless the claim
// says why it departs ([Claim.Departure]); and its class ([Claim.Class]):
// a result, a setup check or an invariant. Only results count in the
// figures ([Scorecard.Tally]), which count statements (all result claims
// with one quote, [Scorecard.Statements]) and the paper's headline results
// ([Headline]). A ratio claim with single_run compares a ratio of two
// numbers of the paper's one run with our per-replication ratios; a
// single-run claim whose test could not reject a value 2x off is shown but
// not counted ([Row.LowPower]).
// [Load] and [Parse] report every problem of a file at once, each with
// its line and key path ([yamlerr.ValidationError]). The format, with an example
// per kind, is in docs/claims.md.
//
// [Evaluate] grades a file's claims against an [Outputs] (a paper's
// output folder) and returns a [Scorecard], written as Markdown, CSV and
// Parquet ([Scorecard.WriteFiles]) and summed up in one line
// ([Scorecard.Summary]). A selection that matches nothing, or several
// rows where it must match one per replication, is an evaluation error
// naming the claim and the selection, never a pass.
//
// The recorded scorecards (specs/<paper>/scorecard.csv, [Record]) are
// what the verdict tables of REPRODUCING.md and the papers' pages
// (docs/papers) and README.md's summary lines are
// generated from ([Docs], [WriteDocs]).
//
// # Cost
//
// Evaluation reads each output file a claim needs once (summary.parquet
// and tasks.parquet are a few thousand rows; jobs.parquet, read only for
// claims on jobs, is one row per simulated job) and then scans its rows
// per selection: grading a paper's claims from existing outputs takes a
// fraction of a second.
package claims
