package sweep_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// ok is a valid spec; cases below replace or append lines.
const ok = `name: ok
workloads:
  - trace: tiny.swf
    count: 5
policies:
  - name: easy
`

func TestParse_Errors(t *testing.T) {
	tests := []struct {
		name      string
		givenSpec string
		// expected is the full text of the one problem reported.
		expected  string
		withError error
	}{
		{"Syntax", "name: [x\n", "yaml: line 1: did not find expected ',' or ']'", yamlerr.ErrSyntax},
		{"Empty", "", "spec is empty", yamlerr.ErrRequired},
		{"TwoDocuments", ok + "---\nname: y\n", "spec must be a single YAML document", yamlerr.ErrSyntax},
		{"NotMapping", "- a\n", "must be a mapping, got a list", yamlerr.ErrType},
		{"UnknownTopKey", ok + "replicatons: 3\n", "replicatons: unknown key", yamlerr.ErrUnknownKey},
		{"DuplicateKey", ok + "name: again\n", "name: duplicate key", yamlerr.ErrDuplicateKey},
		{"MissingName", strings.Replace(ok, "name: ok\n", "", 1), "name: required", yamlerr.ErrRequired},
		{"BadName", strings.Replace(ok, "name: ok", "name: My Sweep", 1), `name: "My Sweep" must match [a-z0-9_-]+`, yamlerr.ErrValue},
		{"NameType", strings.Replace(ok, "name: ok", "name: [a]", 1), "name: must be a string, got a list", yamlerr.ErrType},
		{"MissingWorkloads", "name: x\npolicies: [{name: easy}]\n", "workloads: required", yamlerr.ErrRequired},
		{"EmptyWorkloads", "name: x\nworkloads: []\npolicies: [{name: easy}]\n", "workloads: must not be empty", yamlerr.ErrRequired},
		{"MissingPolicies", "name: x\nworkloads: [{trace: tiny.swf}]\n", "policies: required", yamlerr.ErrRequired},
		{"WorkloadUnknownKey", strings.Replace(ok, "count: 5", "count: 5\n    lod: 2", 1), "workloads[0].lod: unknown key", yamlerr.ErrUnknownKey},
		{"MissingTrace", strings.Replace(ok, "  - trace: tiny.swf\n    count: 5", "  - count: 5", 1), "workloads[0].trace: required", yamlerr.ErrRequired},
		{"UnknownTrace", strings.Replace(ok, "tiny.swf", "ctcx", 1),
			`workloads[0].trace: unknown trace "ctcx" (valid: ctc, kth, sdsc, sdsc-par, or a file path relative to the spec)`, sweep.ErrUnknownTrace},
		{"MissingTraceFile", strings.Replace(ok, "tiny.swf", "gone/x.swf", 1), `workloads[0].trace: trace file "gone/x.swf" not found`, sweep.ErrUnknownTrace},
		{"TraceListItem", strings.Replace(ok, "tiny.swf", "[tiny.swf, nope.swf.gz]", 1), `workloads[0].trace[1]: trace file "nope.swf.gz" not found`, sweep.ErrUnknownTrace},
		{"NegativeSkip", strings.Replace(ok, "count: 5", "count: 5\n    skip: -1", 1), "workloads[0].skip: must be in 0..9007199254740991, got -1", yamlerr.ErrValue},
		{"RangeFactorBelowOne", strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 0.5", 1),
			"workloads[0].range_factor: must be >= 1, got 0.5", yamlerr.ErrValue},
		{"NegativeSigma", strings.Replace(ok, "count: 5", "count: 5\n    sigma: [0, -1]\n    range_factor: 1", 1),
			"workloads[0].sigma[1]: must be >= 0, got -1", yamlerr.ErrValue},
		{"SigmaAlone", strings.Replace(ok, "count: 5", "count: 5\n    sigma: 1", 1),
			"workloads[0].range_factor: a moldable workload needs both sigma and range_factor; sigma is given without it", yamlerr.ErrRequired},
		{"FractionalCount", strings.Replace(ok, "count: 5", "count: 2.5", 1), "workloads[0].count: must be a whole number, got 2.5", yamlerr.ErrType},
		{"CountTooLarge", strings.Replace(ok, "count: 5", "count: 12", 1),
			"workloads[0].count: skip 0 then 12 jobs: trace tiny has only 11 valid jobs on 8 processors", yamlerr.ErrValue},
		{"SkipTooLarge", strings.Replace(ok, "count: 5", "skip: 11", 1),
			"workloads[0].skip: skip 11 then at least 1 job: trace tiny has only 11 valid jobs on 8 processors", yamlerr.ErrValue},
		{"SmallMachineDropsJobs", strings.Replace(ok, "count: 5", "count: 10\n    procs: 4", 1),
			"workloads[0].count: skip 0 then 10 jobs: trace tiny has only 7 valid jobs on 4 processors", yamlerr.ErrValue},
		{"Estimates", strings.Replace(ok, "count: 5", "estimates: [accurate, user]", 1),
			`workloads[0].estimates[1]: unknown estimate model "user" (valid: trace, accurate, double, predicted)`, yamlerr.ErrValue},
		{"LoadMode", strings.Replace(ok, "count: 5", "load_mode: scale", 1),
			`workloads[0].load_mode: unknown load mode "scale" (valid: arrival, duplicate)`, yamlerr.ErrValue},
		{"LoadRange", strings.Replace(ok, "count: 5", "load: [1, 0]", 1), "workloads[0].load[1]: must be in 0.01..100, got 0", yamlerr.ErrValue},
		{"LoadType", strings.Replace(ok, "count: 5", "load: high", 1), `workloads[0].load: must be a finite number, got "high"`, yamlerr.ErrType},
		{"LoadNaN", strings.Replace(ok, "count: 5", "load: .nan", 1), "workloads[0].load: must be a finite number, got .nan", yamlerr.ErrType},
		{"DuplicateBelowOne", strings.Replace(ok, "count: 5", "load: [1.5, 0.5]\n    load_mode: duplicate", 1),
			"workloads[0].load[1]: must be >= 1 with load_mode duplicate (copies can only add load), got 0.5", yamlerr.ErrValue},
		{"EmptyList", strings.Replace(ok, "count: 5", "load: []", 1), "workloads[0].load: must not be an empty list", yamlerr.ErrRequired},
		{"NestedList", strings.Replace(ok, "count: 5", "load: [[1]]", 1), "workloads[0].load[0]: must be a single value, got a list", yamlerr.ErrType},
		{"ZipUnknownAxis", strings.Replace(ok, "count: 5", "load: [1, 2]\n    zip: [[load, estimates]]", 1),
			`workloads[0].zip[0][1]: "estimates" is not an axis of this entry (valid: trace, load)`, sweep.ErrZip},
		{"ZipLengths", strings.Replace(ok, "count: 5", "load: [1, 2]\n    estimates: [trace, accurate, trace]\n    zip: [[load, estimates]]", 1),
			"workloads[0].zip[0]: zipped lists must have equal lengths: load has 2, estimates has 3", sweep.ErrZip},
		{"ZipSingle", strings.Replace(ok, "count: 5", "load: [1, 2]\n    zip: [[load]]", 1),
			"workloads[0].zip[0]: a zip group needs at least two names, got 1", sweep.ErrZip},
		{"ZipTwice", ok + "    params: {suspension_factor: [2, 3], interval: [1, 2], width_ratio: [0, 1]}\n    zip: [[suspension_factor, interval], [interval, width_ratio]]\n",
			"", nil}, // replaced below: easy has no parameters
		{"UnknownPolicy", strings.Replace(ok, "name: easy", "name: foo", 1),
			`policies[0].name: unknown policy "foo" (valid: ` + strings.Join(policy.Names(), ", ") + ")", policy.ErrUnknownPolicy},
		{"MissingPolicyName", strings.Replace(ok, "  - name: easy", "  - label: x", 1), "policies[0].name: required", yamlerr.ErrRequired},
		{"PolicyUnknownKey", ok + "    parms: {}\n", "policies[0].parms: unknown key", yamlerr.ErrUnknownKey},
		{"UnknownParam", ok + "    params: {suspension_factor: 2}\n",
			`policies[0].params.suspension_factor: unknown parameter of policy "easy" (valid: order, backfill_order)`, policy.ErrUnknownParam},
		{"ParamBelowMin", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {suspension_factor: [1.5, 0.5]}\n",
			"policies[0].params.suspension_factor[1]: must be >= 1, got 0.5", policy.ErrBadParam},
		{"ParamScalarBelowMin", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {suspension_factor: 0.5}\n",
			"policies[0].params.suspension_factor: must be >= 1, got 0.5", policy.ErrBadParam},
		{"ParamNotWhole", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {interval: 2.5}\n",
			"policies[0].params.interval: 2.5 is not a whole number", policy.ErrBadParam},
		{"ParamBool", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {overhead: maybe}\n",
			`policies[0].params.overhead: "maybe" is not true or false`, policy.ErrBadParam},
		{"ParamNull", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {overhead: }\n",
			"policies[0].params.overhead: must be a value or a list of values, got null", yamlerr.ErrType},
		{"PolicyZipLengths", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {suspension_factor: [2, 3], interval: [10]}\n    zip: [[suspension_factor, interval]]\n",
			"policies[0].zip[0]: zipped lists must have equal lengths: suspension_factor has 2, interval has 1", sweep.ErrZip},
		{"ElasticOnTrace", strings.Replace(ok, "name: easy", "name: lsf-rtc", 1),
			"policies[0]: policy lsf-rtc needs elastic jobs (workload synthetic: parsons1997), but workloads[0] has rigid jobs", yamlerr.ErrValue},
		{"ElasticOnLublin", "name: x\nworkloads:\n  - synthetic: lublin\n    procs: 64\n    gen: {jobs: 10}\npolicies:\n  - name: lsf-mall-ad\n",
			"policies[0]: policy lsf-mall-ad needs elastic jobs (workload synthetic: parsons1997), but workloads[0] has rigid jobs", yamlerr.ErrValue},
		{"LabelEscape", strings.Replace(ok, "  - name: easy", "  - name: easy\n    label: \"red\\e[31m\"", 1),
			`policies[0].label: "red\x1b[31m" holds control character U+001B at byte 3 (a label is written as it is into tables.md, CSV and Parquet); use printable text`, yamlerr.ErrValue},
		{"LabelNUL", strings.Replace(ok, "  - name: easy", "  - name: easy\n    label: \"a\\0b\"", 1),
			`policies[0].label: "a\x00b" holds control character U+0000 at byte 1 (a label is written as it is into tables.md, CSV and Parquet); use printable text`, yamlerr.ErrValue},
		{"LabelC1", strings.Replace(ok, "  - name: easy", "  - name: easy\n    label: \"x\\x85\"", 1),
			`policies[0].label: "x\u0085" holds control character U+0085 at byte 1 (a label is written as it is into tables.md, CSV and Parquet); use printable text`, yamlerr.ErrValue},
		{"DescriptionEscape", strings.Replace(ok, "name: ok\n", "name: ok\ndescription: \"\\e]0;title\\a\"\n", 1),
			`description: "\x1b]0;title\a" holds control character U+001B at byte 0 (a description is written as it is into tables.md and the outputs' metadata); use printable text`, yamlerr.ErrValue},
		{"DuplicateLabel", ok + "  - name: easy\n", `policies[1].label: label "easy" is already used by policies[0]; give each entry of the same policy its own label`, yamlerr.ErrValue},
		{"Replications", ok + "replications: 0\n", "replications: must be in 1..10000, got 0", yamlerr.ErrValue},
		{"Seed", ok + "seed: -3\n", "seed: must be a whole number in 0..18446744073709551615, got -3", yamlerr.ErrType},
		{"Category", ok + "categories: [ss16, ss17]\n",
			`categories[1]: unknown category scheme "ss17" (valid: ss16, ss4, est2, len4, weight10, user)`, yamlerr.ErrValue},
		{"CategoryTwice", ok + "categories: [ss4, ss4]\n", `categories[1]: scheme "ss4" listed twice`, yamlerr.ErrValue},
		{"TableMetric", ok + "outputs: {tables: {metric: bsd}}\n",
			`outputs.tables.metric: unknown metric "bsd" (valid: bsd_mean, bsd_max, turnaround_mean, turnaround_max, wait_mean, wait_max, slowdown_mean, slowdown_max, count)`, yamlerr.ErrValue},
		{"TableScheme", ok + "outputs: {tables: {scheme: len4}}\n", `outputs.tables.scheme: scheme "len4" is not in categories (ss16)`, yamlerr.ErrValue},
		{"UserSchemeAlone", ok + "categories: [user]\n",
			"categories: user has one category per user of each task, no fixed grid for the tables: list a scheme with a grid beside it, e.g. [ss16, user]", yamlerr.ErrValue},
		{"TableSchemeUser", ok + "categories: [ss4, user]\noutputs: {tables: {scheme: user}}\n",
			`outputs.tables.scheme: scheme "user" has one category per user of each task, no fixed grid for the tables`, yamlerr.ErrValue},
		{"OutputsUnknownKey", ok + "outputs: {plots: yes}\n", "outputs.plots: unknown key", yamlerr.ErrUnknownKey},
		{"DuplicateTask", strings.Replace(ok, "count: 5", "count: 5\n    load: [1, 1.0]", 1),
			"policies[0]: task 1 (tiny jobs=0+5 estimates=trace load=1, easy, rep 0) is the same task as task 0 (tiny jobs=0+5 estimates=trace load=1, easy, rep 0); remove repeated values or entries", sweep.ErrDuplicateTask},
		{"MoldGap", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-schedule", 1) + "    params: {gap: 0}\n",
			"policies[0].params.gap: must be in (0,1], got 0", policy.ErrBadParam},
		{"MoldGapAbove", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-schedule", 1) + "    params: {gap: 1.5}\n",
			"policies[0].params.gap: must be <= 1, got 1.5", policy.ErrBadParam},
		{"MoldWF", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-schedule", 1) + "    params: {weight_factor: 0}\n",
			"policies[0].params.weight_factor: must be > 0, got 0", policy.ErrBadParam},
		{"MoldChoices", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-schedule", 1) + "    params: {choices: 1}\n",
			"policies[0].params.choices: must be 0 (every profile step) or >= 2, got 1", policy.ErrBadParam},
		{"MoldXFactor", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-schedule", 1) + "    params: {xfactor_threshold: 0.5}\n",
			"policies[0].params.xfactor_threshold: must be >= 1, got 0.5", policy.ErrBadParam},
		{"MoldWeights", strings.Replace(strings.Replace(ok, "count: 5", "count: 5\n    sigma: 0\n    range_factor: 1", 1), "name: easy", "name: moldable-combined", 1) + "    params: {xfactor_base: sequential}\n",
			"policies[0].params.xfactor_base: sequential is not one of est_work, work, estimate", policy.ErrBadParam},
		{"MoldableOnRigid", strings.Replace(ok, "name: easy", "name: moldable-combined", 1),
			"policies[0]: policy moldable-combined needs a moldable workload, but workloads[0] has no sigma and range_factor", yamlerr.ErrValue},
		{"PredictedWithoutPredictions", strings.Replace(strings.Replace(ok, "count: 5", "estimates: [trace, predicted]", 1), "name: easy", "name: conservative", 1),
			"policies[0]: policy conservative makes no runtime predictions, but workloads[0] has estimates: predicted", yamlerr.ErrValue},
		{"TooManyTasks", strings.Replace(ok, "name: easy", "name: ss", 1) + "    params: {suspension_factor: [1,2,3,4,5,6,7,8,9,10], interval: [1,2,3,4,5,6,7,8,9,10], width_ratio: [1,2,3,4,5,6,7,8,9,10]}\nreplications: 101\n",
			"the spec expands to more than 100000 tasks (1 workloads x 1000 policy settings x 101 replications)", sweep.ErrTooManyTasks},
	}
	for _, tt := range tests {
		if tt.name == "ZipTwice" {
			tt.givenSpec = strings.Replace(tt.givenSpec, "name: easy", "name: ss", 1)
			tt.expected = `policies[0].zip[1][0]: "interval" is already zipped at policies[0].zip[0][1]`
			tt.withError = sweep.ErrZip
		}
		t.Run(tt.name, func(t *testing.T) {
			_, err := sweep.Parse([]byte(tt.givenSpec), testdata)
			if err == nil {
				t.Fatalf("Parse succeeded, want %q", tt.expected)
			}
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Parse error %T, want *ValidationError", err)
			}
			if got := err.Error(); got != tt.expected {
				t.Errorf("Parse error:\n got %q\nwant %q", got, tt.expected)
			}
			if !errors.Is(err, tt.withError) || !errors.Is(err, sweep.ErrInvalidSpec) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.withError)
			}
		})
	}
}

func TestParse_ErrEveryProblem(t *testing.T) {
	spec := `name: Bad!
lod: 1
workloads:
  - trace: ctcx
    lod: 2
  - trace: tiny.swf
    count: 50
policies:
  - name: foo
  - name: ss
    params:
      suspension_factor: [1.5, 0.5]
replications: 0
`
	_, err := sweep.Parse([]byte(spec), testdata)
	var ve *yamlerr.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Parse = %v, want *ValidationError", err)
	}
	want := []struct {
		path string
		line int
	}{
		{"name", 1},
		{"lod", 2},
		{"workloads[0].trace", 4},
		{"workloads[0].lod", 5},
		{"workloads[1].count", 7},
		{"policies[0].name", 9},
		{"policies[1].params.suspension_factor[1]", 12},
		{"replications", 13},
	}
	if len(ve.Problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%v", len(ve.Problems), len(want), err)
	}
	for i, w := range want {
		if p := ve.Problems[i]; p.Path != w.path || p.Line != w.line {
			t.Errorf("problem %d at %s line %d, want %s line %d (%v)", i, p.Path, p.Line, w.path, w.line, p)
		}
	}
	if n := strings.Count(err.Error(), "\n"); n != len(want)-1 {
		t.Errorf("Error() has %d lines, want one per problem", n+1)
	}
}

// TestParse_ErrManyProblems checks that a spec with 100,000 bad values
// gives every problem but prints 21 lines, not 100,001: the first 20 and
// a count of the rest.
func TestParse_ErrManyProblems(t *testing.T) {
	spec := "name: many\nworkloads:\n  - trace: tiny.swf\n    load: [" + strings.Repeat("-1, ", 99999) + "-1]\npolicies:\n  - name: easy\n"
	_, err := sweep.Parse([]byte(spec), testdata)
	var ve *yamlerr.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 100000 {
		t.Fatalf("Parse = %.200v, want 100,000 problems", err)
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{"workloads[0].load[0]: must be in 0.01..100, got -1", "... and 99,980 more problems (100,000 in all)"}
	if len(lines) != 21 || lines[0] != want[0] || lines[20] != want[1] {
		t.Errorf("Error() has %d lines, first %q, last %q; want 21, %q, %q", len(lines), lines[0], lines[len(lines)-1], want[0], want[1])
	}
}

func TestParse_Aliases(t *testing.T) {
	s, err := sweep.Parse([]byte(`
name: alias
workloads:
  - &w {trace: tiny.swf, count: 4}
  - *w
policies: [{name: easy}]
`), testdata)
	if !errors.Is(err, sweep.ErrDuplicateTask) {
		t.Fatalf("Parse = %v, %v; want the aliased workload reported as a duplicate task", s, err)
	}
}
