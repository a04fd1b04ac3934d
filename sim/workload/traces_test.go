package workload

import (
	"path/filepath"
	"testing"
)

// tracesDir holds the project's Parallel Workloads Archive traces.
var tracesDir = filepath.Join("..", "..", "traces")

// readRealTrace reads traces/<name>.swf.gz with the header's machine size,
// once per test binary (not safe for parallel tests).
func readRealTrace(tb testing.TB, name string) *Trace {
	tb.Helper()
	if tr, ok := realTraces[name]; ok {
		return tr
	}
	tr, err := Read(filepath.Join(tracesDir, name+".swf.gz"), 0)
	if err != nil {
		tb.Fatalf("Read(%s)=%v", name, err)
	}
	realTraces[name] = tr
	return tr
}

var realTraces = map[string]*Trace{}

// The expected numbers were measured on the files in traces/ and match an
// independent count with awk; they change only if the files or the rules
// change.
func TestRead_RealTraces(t *testing.T) {
	tests := []struct {
		name       string
		sha256     string
		lines      int // job lines in the file
		procs      int
		jobs       int // kept
		drops      DropReport
		noEstimate int // kept jobs without field 9
	}{
		{name: "CTC-SP2-1996-3.1-cln", sha256: "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
			lines: 77222, procs: 338, jobs: 77205, drops: DropReport{Runtime: 17}, noEstimate: 6},
		{name: "SDSC-SP2-1998-4.2-cln", sha256: "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
			lines: 59715, procs: 128, jobs: 54034, drops: DropReport{Runtime: 5681}, noEstimate: 35},
		{name: "KTH-SP2-1996-2.1-cln", sha256: "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
			lines: 28476, procs: 100, jobs: 28467, drops: DropReport{Runtime: 8, Procs: 1}, noEstimate: 0},
		{name: "SDSC-Par-1996-3.1-cln", sha256: "cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
			lines: 32135, procs: 400, jobs: 32128, drops: DropReport{Runtime: 7}, noEstimate: 32128},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := readRealTrace(t, tt.name)
			if tr.SHA256 != tt.sha256 {
				t.Errorf("SHA256=%s, want %s", tr.SHA256, tt.sha256)
			}
			if tr.Procs != tt.procs {
				t.Errorf("Procs=%d, want %d", tr.Procs, tt.procs)
			}
			if len(tr.Records) != tt.jobs {
				t.Errorf("len(Records)=%d, want %d", len(tr.Records), tt.jobs)
			}
			if tr.Drops != tt.drops {
				t.Errorf("Drops=%+v, want %+v", tr.Drops, tt.drops)
			}
			if got := len(tr.Records) + tr.Drops.Total(); got != tt.lines {
				t.Errorf("kept+dropped=%d, want %d job lines", got, tt.lines)
			}
			noEst := 0
			for _, r := range tr.Records {
				if r.ReqTime <= 0 {
					noEst++
				}
			}
			if noEst != tt.noEstimate {
				t.Errorf("jobs without field 9=%d, want %d", noEst, tt.noEstimate)
			}

			w, err := tr.Build(Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Jobs) != tt.jobs || w.Procs != tt.procs {
				t.Fatalf("Build: %d jobs on %d procs, want %d on %d", len(w.Jobs), w.Procs, tt.jobs, tt.procs)
			}
			if w.Jobs[0].Submit != 0 {
				t.Errorf("first submit=%d, want 0", w.Jobs[0].Submit)
			}
			accurate := 0
			for i, j := range w.Jobs {
				if i > 0 && j.Submit < w.Jobs[i-1].Submit {
					t.Fatalf("job %d submits before job %d", i, i-1)
				}
				if j.Runtime < 1 || j.Procs < 1 || j.Procs > w.Procs || j.Estimate < j.Runtime {
					t.Fatalf("job %d=%+v breaks the workload rules", i, j)
				}
				if j.Estimate == j.Runtime {
					accurate++
				}
			}
			// SDSC-Par has no estimates: the trace model gives the runtime.
			if tt.noEstimate == tt.jobs && accurate != tt.jobs {
				t.Errorf("jobs with estimate = runtime: %d, want all %d", accurate, tt.jobs)
			}
		})
	}
}

// A 5000-job subset of SDSC-SP2, as the papers use, starts at 0 and has
// the same jobs as the trace from the skip on.
func TestTrace_Build_Subset(t *testing.T) {
	tr := readRealTrace(t, "SDSC-SP2-1998-4.2-cln")
	w, err := tr.Build(Options{Skip: 10000, Count: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 5000 {
		t.Fatalf("len(Jobs)=%d, want 5000", len(w.Jobs))
	}
	base := tr.Records[10000].Submit
	for i, j := range w.Jobs {
		r := tr.Records[10000+i]
		if j.ID != r.ID || j.Submit != r.Submit-base {
			t.Fatalf("job %d=%+v, want id %d submit %d", i, j, r.ID, r.Submit-base)
		}
	}
	_, err = tr.Build(Options{Skip: 50000, Count: 5000})
	want := "build workload SDSC-SP2-1998-4.2-cln: not enough jobs: skip 50000 then take 5000 jobs, but the trace has 54034 valid jobs (5681 dropped)"
	if err == nil || err.Error() != want {
		t.Errorf("Build(skip 50000)=%v, want %q", err, want)
	}
}

func BenchmarkReadCTC(b *testing.B) {
	path := filepath.Join(tracesDir, "CTC-SP2-1996-3.1-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(path, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildCTC(b *testing.B) {
	tr := readRealTrace(b, "CTC-SP2-1996-3.1-cln")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Build(Options{Load: 1.5, LoadMode: LoadDuplicate}); err != nil {
			b.Fatal(err)
		}
	}
}
