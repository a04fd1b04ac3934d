package schedfarm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

// TestVersion_VCSStamp builds the binary the way a user does, with `go
// build` in a git checkout (here a fresh repository holding the module's
// files, one commit), with VCS stamping on whatever the machine's go env
// says (GOFLAGS in the environment overrides the go env file), and checks
// that `schedfarm version` and the Parquet metadata of a run name the
// commit.
func TestVersion_VCSStamp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// The module's files as they are now: tracked and untracked, not ignored.
	list, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("the module is not a git checkout: %v", err)
	}
	repo := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(repo, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "snapshot")
	rev := git("rev-parse", "HEAD")

	bin := filepath.Join(t.TempDir(), "schedfarm")
	build := func() {
		t.Helper()
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/schedfarm")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
		}
	}
	build()

	// Go before 1.24 leaves the version "(devel)" (ours: devel+commit);
	// later ones stamp a pseudo-version that names the commit.
	stamped := regexp.MustCompile(`^(devel\+|v0\.0\.0-[0-9]{14}-)` + rev[:12] + `$`)
	version := func() string {
		t.Helper()
		out, err := exec.Command(bin, "version").CombinedOutput()
		if err != nil {
			t.Fatalf("schedfarm version: %v\n%s", err, out)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		return strings.TrimPrefix(first, "schedfarm ")
	}
	want := version()
	if !stamped.MatchString(want) {
		t.Errorf("schedfarm version says %q, want the commit %s, not modified", want, rev[:12])
	}

	work := t.TempDir()
	spec := "name: stamp\nworkloads: [{trace: kth, count: 200}]\npolicies: [{name: fcfs}]\n"
	if err := os.WriteFile(filepath.Join(work, "stamp.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(bin, "run", "--workers", "1", "--state", "state", "--out", "out", "stamp.yaml")
	run.Dir = work
	var stderr bytes.Buffer
	run.Stderr = &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("schedfarm run: %v\n%s", err, stderr.String())
	}
	for _, f := range []string{results.JobsFile, results.SummaryFile, results.TasksFile} {
		md, err := results.ReadMetadata(filepath.Join(work, "out", f))
		if err != nil {
			t.Fatal(err)
		}
		if got := md[results.MetaVersion]; got != want {
			t.Errorf("%s: %s = %q, want %q", f, results.MetaVersion, got, want)
		}
	}

	// A modified checkout says so, once.
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("modified\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build()
	if got := version(); got != want+"+dirty" {
		t.Errorf("modified checkout: schedfarm version says %q, want %q", got, want+"+dirty")
	}
}

// TestVersion_LdflagsRevision: without Go's VCS stamp (as in this test
// binary), the -ldflags revision names the commit; with a release version
// it is appended once.
func TestVersion_LdflagsRevision(t *testing.T) {
	defer func(v, r string) { version, revision = v, r }(version, revision)
	revision = "4f2a9c1e03b7aa55c2d0e4f1a6b3c8d9e0f1a2b3"
	if got := toolVersion(); got != "devel+4f2a9c1e03b7" {
		t.Errorf("dev build with -X main.revision: version %q, want devel+4f2a9c1e03b7", got)
	}
	version = "v1.2.0"
	if got := toolVersion(); got != "v1.2.0+4f2a9c1e03b7" {
		t.Errorf("release build with -X main.revision: version %q, want v1.2.0+4f2a9c1e03b7", got)
	}
	revision = ""
	if got := toolVersion(); got != "v1.2.0" {
		t.Errorf("release build: version %q, want v1.2.0", got)
	}
}
