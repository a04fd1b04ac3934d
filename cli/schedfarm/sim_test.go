package schedfarm

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

const kth = "../../traces/KTH-SP2-1996-2.1-cln.swf.gz"

// TestSim_Outputs: the CSV and the Parquet output of the same run hold the
// same jobs, and the printed table is the ss16 grid.
func TestSim_Outputs(t *testing.T) {
	dir := t.TempDir()
	csvPath, pqPath := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "jobs.parquet")
	args := []string{"sim", "--trace", kth, "--policy", "ss", "--param", "suspension_factor=1.5",
		"--count", "800", "--load", "1.3", "--load-mode", "duplicate", "--seed", "7"}
	out, err := runApp(t, append(args, "--out", csvPath)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"trace KTH-SP2-1996-2.1-cln:", "suspension_factor=1.5", "| VS |", "| VL |", "runtime \\ processors"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := runApp(t, append(args, "--out", pqPath)...); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, csvPath)
	jobs, err := results.ReadJobs(pqPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != len(jobs) || len(jobs) <= 800 {
		t.Fatalf("csv has %d jobs, parquet %d; want the same, more than 800 (duplicate load)", len(rows)-1, len(jobs))
	}
	// The CSV has the columns of the Parquet file, in order.
	md, err := results.ReadFrame(pqPath)
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	if len(head) != len(md.File) || head[0] != "task_id" || head[len(head)-1] != "cat_user" {
		t.Errorf("csv header %q; parquet columns %v", head, md.Columns())
	}
	for _, name := range []string{"param_suspension_factor", "origin_id", "admitted", "deadline", "queue", "tagged", "work_done"} {
		if _, ok := col[name]; !ok {
			t.Errorf("csv lacks column %s", name)
		}
	}
	for i, j := range jobs {
		r := rows[i+1]
		id, _ := strconv.ParseInt(r[col["job_id"]], 10, 64)
		bsd, _ := strconv.ParseFloat(r[col["bsd"]], 64)
		if j.Job.JobID != id || j.Job.BSD != bsd || r[col["cat_ss16"]] != j.Categories["ss16"] || r[col["param_suspension_factor"]] != "1.5" {
			t.Fatalf("row %d: parquet job %d bsd %v, csv %q", i, j.Job.JobID, j.Job.BSD, r)
		}
		if j.Policy != "ss" || j.Load != 1.3 || j.LoadMode != "duplicate" || j.Categories["ss16"] == "" {
			t.Fatalf("row %d: task columns %+v", i, j.TaskCols)
		}
	}
	if st, _ := os.Stat(csvPath); st.Mode().Perm() != 0o644 {
		t.Errorf("csv mode %v, want 0644", st.Mode().Perm())
	}
}

// TestSim_BadInput: each bad input is one error and writes nothing.
func TestSim_BadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "jobs.csv")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing trace", []string{"--trace", filepath.Join(dir, "nope.swf")}, "nope.swf"},
		{"unknown policy", []string{"--trace", kth, "--policy", "sjf"}, `unknown policy "sjf"`},
		{"unknown param", []string{"--trace", kth, "--param", "sf=2"}, "sf: unknown parameter"},
		{"bad param", []string{"--trace", kth, "--policy", "ss", "--param", "suspension_factor=0.5"}, "must be >= 1"},
		{"subset too large", []string{"--trace", kth, "--count", "99999999"}, "99999999"},
		{"bad out", []string{"--trace", kth, "--out", filepath.Join(dir, "x.json")}, ".csv or .parquet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"sim", "--count", "100"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "--out") {
				args = append(args, "--out", out)
			}
			_, err := runApp(t, args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("files left behind: %v", entries)
			}
		})
	}
}

// TestSim_Segments: --sigma and --range-factor annotate the workload (a
// rigid policy runs it unchanged: procs_chosen = procs) and --segments
// writes one working segment per job with its size.
func TestSim_Segments(t *testing.T) {
	dir := t.TempDir()
	segPath, csvPath := filepath.Join(dir, "segs.csv"), filepath.Join(dir, "jobs.csv")
	if _, err := runApp(t, "sim", "--trace", kth, "--policy", "easy", "--count", "100", "--sigma", "1", "--range-factor", "2",
		"--segments", segPath, "--out", csvPath); err != nil {
		t.Fatal(err)
	}
	segs, jobs := readCSV(t, segPath), readCSV(t, csvPath)
	if strings.Join(segs[0], ",") != "job_id,start,end,procs,working" || len(segs) != 101 {
		t.Fatalf("segments: header %v, %d rows, want 100 jobs", segs[0], len(segs)-1)
	}
	col := map[string]int{}
	for i, h := range jobs[0] {
		col[h] = i
	}
	procs := map[string]string{}
	for _, r := range jobs[1:] {
		if r[col["procs_chosen"]] != r[col["procs"]] || r[col["min_procs"]] == "" || r[col["speedup"]] == "" {
			t.Errorf("job %s: procs %s, procs_chosen %s, min_procs %q, speedup %q", r[col["job_id"]], r[col["procs"]], r[col["procs_chosen"]], r[col["min_procs"]], r[col["speedup"]])
		}
		procs[r[col["job_id"]]] = r[col["procs"]]
	}
	for _, s := range segs[1:] {
		if s[3] != procs[s[0]] || s[4] != "true" {
			t.Errorf("segment %v: want %s processors, working", s, procs[s[0]])
		}
	}
}

// readCSV returns the records of the CSV file at path.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSim_ShippedName: --trace takes a shipped trace's name as specs do,
// found in traces/ up from the working directory (here the repository's),
// and gives the same printed results and job rows as the file's path; a
// name that is neither a file nor shipped says both.
func TestSim_ShippedName(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sim", "--policy", "easy", "--count", "600", "--categories", "ss4"}
	byName, err := runApp(t, append(args, "--trace", "kth", "--out", filepath.Join(dir, "name.parquet"))...)
	if err != nil {
		t.Fatal(err)
	}
	byPath, err := runApp(t, append(args, "--trace", kth, "--out", filepath.Join(dir, "path.parquet"))...)
	if err != nil {
		t.Fatal(err)
	}
	// The same but for the simulation's own time.
	timing := regexp.MustCompile(`simulated in \S+`)
	byName, byPath = timing.ReplaceAllString(byName, "simulated in"), timing.ReplaceAllString(byPath, "simulated in")
	if !strings.Contains(byName, "trace KTH-SP2-1996-2.1-cln:") || byName != byPath {
		t.Errorf("--trace kth printed\n%s\nthe path printed\n%s", byName, byPath)
	}
	a, err := results.ReadJobs(filepath.Join(dir, "name.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := results.ReadJobs(filepath.Join(dir, "path.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d jobs by name, %d by path", len(a), len(b))
	}
	for i := range a {
		if a[i].Job != b[i].Job {
			t.Fatalf("job row %d: %+v by name, %+v by path", i, a[i].Job, b[i].Job)
		}
	}
	_, err = runApp(t, "sim", "--policy", "easy", "--trace", "nosuch")
	if err == nil || !strings.Contains(err.Error(), "no such file, nor a shipped trace's name (ctc, kth, sdsc, sdsc-par)") {
		t.Errorf("--trace nosuch: %v", err)
	}
}

// TestSim_ExternalScriptRelativeToWorkingDir: sim resolves an external
// policy's script, like the trace, from the working directory (the
// README's command), not from the trace's folder.
func TestSim_ExternalScriptRelativeToWorkingDir(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH")
	}
	trace, err := filepath.Abs(kth)
	if err != nil {
		t.Fatal(err)
	}
	sdk, err := filepath.Abs("../../sdk")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.Symlink(sdk, filepath.Join(work, "sdk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(trace, filepath.Join(work, "traces", filepath.Base(trace))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	out, err := runApp(t, "sim", "--trace", "traces/"+filepath.Base(trace), "--count", "200",
		"--policy", "external", "--param", "command=python3 sdk/python/examples/fcfs.py")
	if err != nil {
		t.Fatalf("sim with a script relative to the working directory: %v\n%s", err, out)
	}
	if !strings.Contains(out, "trace KTH-SP2-1996-2.1-cln:") {
		t.Errorf("output lacks the trace line:\n%s", out)
	}
}
