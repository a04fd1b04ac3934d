package claims_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/internal/golden"
	"github.com/schedfarm/schedfarm/internal/testkit"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// parseDir holds example claims files: ok-*.yaml must parse, bad-*.yaml
// must not, and bad-*.yaml's problems are compared with
// bad-*.errors.golden. They also seed FuzzParse.
var parseDir = filepath.Join("testdata", "parse")

func readExamples(tb testing.TB) map[string][]byte {
	tb.Helper()
	return testkit.ReadFiles(tb, parseDir, "*.yaml")
}

func TestParse_Examples(t *testing.T) {
	for name, data := range readExamples(t) {
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			f, err := claims.Parse(data, claims.Options{Groups: []string{"g1"}})
			if strings.HasPrefix(name, "ok-") {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if len(f.Claims) == 0 {
					t.Fatal("no claims")
				}
				return
			}
			if err == nil {
				t.Fatal("Parse succeeded, want problems")
			}
			var ve *yamlerr.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, claims.ErrInvalid) {
				t.Fatalf("error %T does not match ErrInvalid: %v", err, err)
			}
			for _, p := range ve.Problems {
				if p.Line == 0 && name != "bad-empty.yaml" {
					t.Errorf("problem without a line: %v", p)
				}
			}
			// Every problem, one per line (the error's text lists the
			// first yamlerr.MaxShown).
			var text strings.Builder
			for _, p := range ve.Problems {
				text.WriteString(p.Error() + "\n")
			}
			golden.Check(t, filepath.Join(parseDir, strings.TrimSuffix(name, ".yaml")+".errors.golden"), text.String(), *update)
		})
	}
}

func TestParse_Errors(t *testing.T) {
	base := "paper: p\nclaims:\n  - id: a\n    figure: F\n    quote: q\n"
	for _, tc := range []struct {
		name, given string
		opts        claims.Options
		withError   error
		mention     string
	}{
		{"OK", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n", claims.Options{}, nil, ""},
		{"ErrUnknownGroup", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n",
			claims.Options{Groups: []string{"fig01"}}, yamlerr.ErrValue, `unknown group "g" (valid: fig01)`},
		{"ErrPaperFolder", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n",
			claims.Options{Paper: "other"}, yamlerr.ErrValue, `not the folder's name "other"`},
		{"ErrUnknownKey", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    selct: {}\n", claims.Options{}, yamlerr.ErrUnknownKey, "claims[0].selct"},
		{"ErrDuplicateKey", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n", claims.Options{}, yamlerr.ErrDuplicateKey, "claims[0].kind"},
		{"ErrNoTolerance", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: 3\n", claims.Options{}, yamlerr.ErrRequired, "grade.agree"},
		{"SingleRunWithoutGrade", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    single_run: true\n    select: {group: g, metric: m}\n    expected: 3\n", claims.Options{}, nil, ""},
		{"ErrSingleRunGrade", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    single_run: true\n    select: {group: g, metric: m}\n    expected: 3\n    grade: {agree: 10%}\n",
			claims.Options{}, yamlerr.ErrValue, "claims[0].grade: not used with single_run"},
		{"ErrSingleRunReps", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    single_run: true\n    select: {group: g, metric: m, reps: max}\n    expected: 3\n",
			claims.Options{}, yamlerr.ErrValue, "claims[0].select.reps: not used with single_run"},
		{"ErrSingleRunOrder", base + "    kind: order\n    word: better\n    class: result\n    single_run: true\n    select: {group: g, metric: m}\n    a: {setting: A}\n    b: {setting: B}\n    op: '<'\n",
			claims.Options{}, yamlerr.ErrValue, "claims[0].single_run: not used by an order claim (trends compare our means"},
		{"SingleRunPairedRatio", base + "    kind: ratio\n    word: number\n    class: result\n    single_run: true\n    select: {group: g, metric: m}\n    a: {setting: A}\n    b: {setting: B}\n    expected: 0.5\n",
			claims.Options{}, nil, ""},
		{"ErrSingleRunType", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    single_run: yes please\n    select: {group: g, metric: m}\n    expected: 3\n",
			claims.Options{}, yamlerr.ErrType, "claims[0].single_run: must be true or false"},
		{"ErrJobsAgg", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, table: jobs, metric: wait}\n    expected: '> 0'\n", claims.Options{}, yamlerr.ErrRequired, "needs an agg"},
		{"ErrSummaryScheme", base + "    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, category: all, metric: m}\n    expected: '> 0'\n", claims.Options{}, yamlerr.ErrRequired, "needs a scheme"},
		{"ErrEachDuplicateID", "paper: p\nclaims:\n  - {id: a, figure: F, quote: q, kind: value, word: number, class: result, departure: tests the claim's own tolerances, select: {group: g, metric: m}, expected: '> 0', each: {trace: [x, x]}}\n",
			claims.Options{}, yamlerr.ErrValue, `id "a[x]" is already used`},
		{"ErrSyntax", "paper: [", claims.Options{}, yamlerr.ErrSyntax, "yaml"},
		{"ErrTwoSentences", strings.Replace(base, "quote: q", "quote: 'As in Fig. 7 of Smith et al. it works. Then it fails.'", 1) +
			"    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n",
			claims.Options{}, yamlerr.ErrValue, `more than one sentence (the second starts at "Then it fails.")`},
		{"OneSentenceWithAbbreviations", strings.Replace(base, "quote: q", "quote: 'As in Fig. 7 (e.g. VS jobs) of Smith et al. it works.'", 1) +
			"    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n",
			claims.Options{}, nil, ""},
		{"ErrQuoteTooLong", base[:len(base)-2] + strings.Repeat("x", 500) + "\n    kind: value\n    word: number\n    class: result\n    departure: tests the claim's own tolerances\n    select: {group: g, metric: m}\n    expected: '> 0'\n",
			claims.Options{}, yamlerr.ErrValue, "at most one sentence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := claims.Parse([]byte(tc.given), tc.opts)
			if tc.withError == nil {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.withError) {
				t.Fatalf("Parse() error %v, want %v", err, tc.withError)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("Parse() error %q does not mention %q", err, tc.mention)
			}
		})
	}
}

func TestParse_Each(t *testing.T) {
	f, err := claims.Parse([]byte(`
paper: p
defaults: {group: g, scheme: ss16, metric: bsd_mean}
claims:
  - id: x
    figure: F
    quote: q
    kind: order
    word: better
    class: result
    departure: tests the claim's own tolerances
    select: {category: all}
    a: {setting: A}
    b: {setting: B}
    op: "<"
    each: {trace: [ctc, sdsc], category: [VS Seq, all]}
`), claims.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range f.Claims {
		got = append(got, c.ID+" "+c.A.String())
	}
	want := []string{
		"x[ctc,VS Seq] group=g table=summary metric=bsd_mean scheme=ss16 category=VS Seq setting=A trace=ctc",
		"x[ctc,all] group=g table=summary metric=bsd_mean scheme=ss16 category=all setting=A trace=ctc",
		"x[sdsc,VS Seq] group=g table=summary metric=bsd_mean scheme=ss16 category=VS Seq setting=A trace=sdsc",
		"x[sdsc,all] group=g table=summary metric=bsd_mean scheme=ss16 category=all setting=A trace=sdsc",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("expanded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
