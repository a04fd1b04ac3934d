package workload

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedfarm/schedfarm/internal/testkit"
)

// FuzzParse parses arbitrary input with an arbitrary machine size. Parsing
// must never panic and must fail with a *ParseError (or ErrInvalidOption
// for the size). When it succeeds, writing the trace back and parsing it
// again must give the same trace, and building a workload from it must
// give one that keeps the workload rules.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"ok.swf", "drops.swf", "ok.swf.gz", "no-header.swf", "duplicate-id.swf"} {
		data, err := os.ReadFile(filepath.Join("testdata", "read", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 0)
		f.Add(data, 4)
	}
	f.Add([]byte("; MaxProcs: 2\n1 0 0 1.5 1 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"), 0)
	f.Add([]byte("; MaxNodes: -1\n; MaxProcs: x\n7 3 0 1 1 -1 -1 -1 9 -1 1 -1 -1 -1 -1 -1 -1 -1"), 3)
	f.Add(testkit.Compress(f, []byte("; A: b\n;  c\n1 0 0 10 1 -1 -1 -1 5 -1 1 -1 -1 -1 -1 -1 -1 -1\r\n")), 1)
	// Fields 11-18: every allowed value, and bad ones (status 6, a group
	// below -1, a fractional user, a queue above 2^31-1).
	f.Add([]byte("; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 5 0 7 9 0 3 1 12.5\n2 1 0 10 1 -1 -1 2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"), 0)
	f.Add([]byte("; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 6 1 1 1 1 1 -1 -1\n"), 0)
	f.Add([]byte("; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 1 1 -2 1 1 1 -1 -1\n"), 0)
	f.Add([]byte("; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 1 1.5 1 1 1 1 -1 -1\n"), 0)
	f.Add([]byte("; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 1 1 1 1 2147483648 1 -1 -1\n"), 0)
	// Hostile inputs, also kept in testdata/fuzz/FuzzParse: a gzip bomb,
	// an endless line, a BOM, CR line endings.
	f.Add(testkit.Bomb(f, 2*fuzzLimits.MaxBytes), 0)
	f.Add(append([]byte("; MaxProcs: 8\n"), bytes.Repeat([]byte("9"), fuzzLimits.MaxLineLength+1)...), 0)
	f.Add([]byte("\xef\xbb\xbf; MaxProcs: 2\n1 0 0 10 1 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"), 0)
	f.Add([]byte("; MaxProcs: 2\r1 0 0 10 1 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\r"), 0)

	f.Fuzz(func(t *testing.T, data []byte, procs int) {
		if testing.Short() && len(data) > 1<<16 {
			t.Skip("long input in -short mode")
		}
		tr, err := ParseContext(context.Background(), bytes.NewReader(data), "fuzz.swf", procs, fuzzLimits)
		if err != nil {
			if tr != nil {
				t.Fatalf("Parse() returned a trace with error %v", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) && !errors.Is(err, ErrInvalidOption) {
				t.Fatalf("Parse() error %T %v, want *ParseError", err, err)
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, tr); err != nil {
			t.Fatalf("Write()=%v", err)
		}
		tr2, err := Parse(bytes.NewReader(buf.Bytes()), "fuzz.swf", procs)
		if err != nil {
			t.Fatalf("Parse(Write())=%v\ninput:\n%q\nwritten:\n%q", err, data, buf.Bytes())
		}
		if err := equalTraces(tr, tr2); err != nil {
			t.Fatalf("round trip: %v\ninput:\n%q\nwritten:\n%q", err, data, buf.Bytes())
		}

		for _, opts := range []Options{
			{},
			{Estimates: EstimateAccurate, Skip: len(tr.Records) / 2, Load: 2},
			{Load: 2.5, LoadMode: LoadDuplicate, Seed: uint64(len(data))},
			{Load: MinLoad},
		} {
			w, err := tr.Build(opts)
			if err != nil {
				t.Fatalf("Build(%+v)=%v", opts, err)
			}
			checkWorkload(t, w)
		}
	})
}

// fuzzLimits are small limits, so that the fuzzer reaches them.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxLineLength: 4096, MaxJobs: 1 << 14, MaxHeader: 1 << 14}

// checkWorkload checks the rules every built workload keeps.
func checkWorkload(t *testing.T, w *Workload) {
	t.Helper()
	if len(w.Jobs) == 0 || w.Jobs[0].Submit != 0 {
		t.Fatalf("workload of %d jobs does not start at 0", len(w.Jobs))
	}
	ids := make(map[int64]bool, len(w.Jobs))
	for i, j := range w.Jobs {
		if i > 0 && j.Submit < w.Jobs[i-1].Submit {
			t.Fatalf("job %d submits before job %d", i, i-1)
		}
		if j.Runtime < 1 || j.Estimate < j.Runtime || j.Procs < 1 || j.Procs > w.Procs {
			t.Fatalf("job %d=%+v breaks the rules on %d procs", i, j, w.Procs)
		}
		if ids[j.ID] {
			t.Fatalf("job id %d appears twice", j.ID)
		}
		ids[j.ID] = true
	}
}
