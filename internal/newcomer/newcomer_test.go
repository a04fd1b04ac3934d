package newcomer

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// root is the repository root, seen from this package.
const root = "../.."

// command is one command line found in a Markdown file or a --help text.
type command struct {
	where string // file:line or "schedfarm CMD --help"
	text  string
}

// rule says what to do with the commands it matches instead of running
// them as written: skip them (with the reason) or run a variant.
type rule struct {
	match   *regexp.Regexp
	skip    string                                                       // reason; "" runs the variant
	variant func(text string) (cmd string, wantFail bool, expect string) // with skip == ""
	used    bool
}

// rules are the commands not run as written. Each must match at least one
// command, so a stale rule fails the test.
func rules() []*rule {
	return []*rule{
		{match: buildRE,
			skip: "the test builds the binary with this command before running the others (VCS stamping off) and checks that its version names the commit"},
		{match: regexp.MustCompile(`^sh interop/install\.sh$`),
			variant: func(text string) (string, bool, string) {
				// A machine with only Go: no npm on PATH, and the set-up
				// still succeeds, saying what it skipped.
				return "env PATH=/nonexistent /bin/sh interop/install.sh", false, "npm not found: skipping the DuckDB client"
			}},
		{match: regexp.MustCompile(`^sbatch `),
			skip: "needs a Slurm cluster; deploy/slurm's TestSlurm submits the script with sbatch to a real single-node Slurm"},
		{match: regexp.MustCompile(`^\./schedfarm server `),
			variant: func(text string) (string, bool, string) {
				// On loopback, a free port and a store in the work
				// folder, in the foreground, stopped by SIGINT: it must
				// start, say where it listens, and stop cleanly.
				cmd := regexp.MustCompile(`--listen \S+`).ReplaceAllString(text, "--listen 127.0.0.1:0")
				cmd = regexp.MustCompile(`--store \S+`).ReplaceAllString(cmd, "--store server-store")
				cmd = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cmd), "&"))
				return "timeout -s INT --preserve-status 5 " + cmd, false, "listening on nats://127.0.0.1:"
			}},
		{match: regexp.MustCompile(`^\(?cd interop && npm ci\)?$`),
			skip: "installs the DuckDB client from npm; .ci/run runs it before the tests"},
		{match: regexp.MustCompile(`^go test `),
			skip: "a test or benchmark command: go test runs the tests itself, benchmarks are measured by hand"},
		{match: regexp.MustCompile(`\./[A-Za-z0-9_-]+\.test -test\.`),
			skip: "runs a test binary that a skipped `go test -c` builds: a benchmark measured by hand"},
		{match: regexp.MustCompile(`^docker `),
			skip: "needs Docker; deploy's test checks the compose file against the image"},
		{match: regexp.MustCompile(`schedfarm reproduce (all\b|.*--record|.*--claims-only)`),
			skip: "runs every figure group (many minutes) or rewrites the recorded scorecards in the repository; `schedfarm reproduce fig07-14` runs the same code"},
		{match: regexp.MustCompile(`--nats[ =]nats://`),
			variant: func(text string) (string, bool, string) {
				// No server at that address: the command line must parse
				// and the command give up after --connect-timeout.
				cmd := regexp.MustCompile(`nats://[^ ]+`).ReplaceAllString(text, "nats://u:pw@127.0.0.1:1")
				return cmd + " --connect-timeout 1s", true, "not reachable after"
			}},
	}
}

// TestNewcomer runs the newcomer's path; see the package doc.
func TestNewcomer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, runs the quickstart and a reproduction")
	}
	work := t.TempDir()
	for _, d := range []string{"specs", "traces", "interop", "sdk"} {
		abs, err := filepath.Abs(filepath.Join(root, d))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(work, d)); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(work, "schedfarm")
	cmds := markdownCommands(t)
	buildAsREADME(t, cmds, bin)
	env := append(os.Environ(), "PATH="+work+string(os.PathListSeparator)+os.Getenv("PATH"),
		"XDG_CACHE_HOME="+filepath.Join(work, ".cache"))

	cmds = append(cmds, helpExamples(t, bin)...)
	rs := rules()
	for _, c := range cmds {
		text, wantFail, expect := c.text, false, ""
		var r *rule
		for _, x := range rs {
			if x.match.MatchString(c.text) {
				r = x
				break
			}
		}
		if r != nil {
			r.used = true
			if r.skip != "" {
				t.Logf("%s: not run: %s\n\t%s", c.where, r.skip, c.text)
				continue
			}
			text, wantFail, expect = r.variant(c.text)
		}
		// A guard against a hung command, not a speed check: a whole
		// paper's reproduction takes over 10 minutes on a busy machine.
		began := time.Now()
		out, err := runShell(work, env, text, 30*time.Minute)
		if perr := checkProgress(text, out, time.Since(began)); perr != nil {
			t.Errorf("%s: %s\nprogress lines: %v\n%s", c.where, text, perr, out)
		}
		switch {
		case wantFail && err == nil:
			t.Errorf("%s: %s\nsucceeded, want it to fail saying %q", c.where, text, expect)
		case !wantFail && err != nil:
			t.Errorf("%s: %s\n%v\n%s", c.where, text, err, out)
		case !strings.Contains(out, expect):
			t.Errorf("%s: %s\noutput does not say %q:\n%s", c.where, text, expect, out)
		default:
			t.Logf("%s: ok: %s", c.where, text)
		}
	}
	for _, r := range rs {
		if !r.used {
			t.Errorf("rule %q matches no command any more: remove it", r.match)
		}
	}
	t.Run("Snippets", func(t *testing.T) { snippets(t, work, env) })
}

// buildRE matches the README's build command.
var buildRE = regexp.MustCompile(`^go build (.* )?-o schedfarm \./cmd/schedfarm$`)

// buildAsREADME builds bin with the README's first build command, run in
// the repository with Go's VCS stamping off (as in a build environment
// that disables it), and checks that `schedfarm version` names the
// checkout's commit all the same.
func buildAsREADME(t *testing.T, cmds []command, bin string) {
	t.Helper()
	i := slices.IndexFunc(cmds, func(c command) bool { return buildRE.MatchString(c.text) })
	if i < 0 || !strings.HasPrefix(cmds[i].where, "README.md:") {
		t.Fatal("README.md has no `go build ... -o schedfarm ./cmd/schedfarm` command")
	}
	text := strings.Replace(cmds[i].text, "-o schedfarm ", "-o "+bin+" ", 1)
	out, err := runShell(root, append(os.Environ(), "GOFLAGS=-buildvcs=false"), text, 15*time.Minute)
	if err != nil {
		t.Fatalf("%s: %s: %v\n%s", cmds[i].where, text, err, out)
	}
	rev, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Logf("not a git checkout (%v): the version's commit is not checked", err)
		return
	}
	v, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("schedfarm version: %v", err)
	}
	if want := "+" + strings.TrimSpace(string(rev)); !strings.Contains(string(v), want) {
		t.Errorf("built with %q and GOFLAGS=-buildvcs=false, schedfarm version says\n%s\nwant the commit (%s)", cmds[i].where, v, want)
	}
}

// workersRE finds a command's number of workers.
var workersRE = regexp.MustCompile(`(?:--workers|-w)[ =](\d+)`)

// progressRE matches a plain progress line.
var progressRE = regexp.MustCompile(`(?m)^sweep (\S+): (\d+)/(\d+) done \(\d+%\), (\d+) running, (\d+) failed, [0-9.]+ tasks/s, ETA (\S+)$`)

// checkProgress checks the progress lines a command printed to a pipe:
// never the same counts twice for a sweep, never more tasks running than
// the workers' slots (--workers, else one per core), and no ETA beyond five
// times the whole command's time plus a minute (the ETA used to say
// 5h24m at 5% of a 69 s sweep).
func checkProgress(text, out string, wall time.Duration) error {
	seen := map[string]bool{}
	slots := runtime.GOMAXPROCS(0)
	if m := workersRE.FindStringSubmatch(text); m != nil {
		slots, _ = strconv.Atoi(m[1])
	}
	for _, m := range progressRE.FindAllStringSubmatch(out, -1) {
		key := m[1] + " " + m[2] + " " + m[5]
		if seen[key] {
			return fmt.Errorf("sweep %s: %s/%s done, %s failed printed twice", m[1], m[2], m[3], m[5])
		}
		seen[key] = true
		if n, _ := strconv.Atoi(m[4]); n > slots {
			return fmt.Errorf("%q: %d running, more than the %d slots", m[0], n, slots)
		}
		if m[6] == "?" {
			continue
		}
		eta, err := time.ParseDuration(m[6])
		if err != nil {
			return fmt.Errorf("%q: ETA: %v", m[0], err)
		}
		if eta > 5*wall+time.Minute {
			return fmt.Errorf("%q: ETA %v for a command that took %v in all", m[0], eta, wall.Round(time.Second))
		}
	}
	return nil
}

// TestQuickStart_ShortTests checks that the README's quick start runs the
// quick tests and that .ci/run runs the full suite.
func TestQuickStart_ShortTests(t *testing.T) {
	var quick []string
	for _, c := range markdownCommands(t) {
		if strings.HasPrefix(c.where, "README.md:") && strings.HasPrefix(c.text, "go test ") {
			quick = append(quick, c.text)
		}
	}
	if len(quick) == 0 || quick[0] != "go test -short ./..." {
		t.Errorf("README.md's first test command is %q, want the quick tests: go test -short ./...", quick)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	full := regexp.MustCompile(`(?m)^go test \./\.\.\. `)
	if !full.Match(ci) || strings.Contains(string(ci), "go test -short") {
		t.Error(".ci/run does not run the full suite (go test ./... without -short)")
	}
}

// runShell runs text with bash in dir and returns its combined output.
func runShell(dir string, env []string, text string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", text)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// markdownFiles returns the Markdown files a newcomer reads: README.md
// first, then the other top-level ones and those one directory down.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	for _, pat := range []string{"*.md", "*/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(m)
		for _, f := range m {
			if !slices.Contains(files, f) && !strings.Contains(f, "node_modules") {
				files = append(files, f)
			}
		}
	}
	return files
}

// fence matches a fenced block's opening line and its language.
var fence = regexp.MustCompile("^```\\s*([a-z]*)")

// blocks returns the fenced blocks of languages langs in a Markdown file,
// each with the line of its first content line.
func blocks(t *testing.T, file string, langs ...string) (out []struct {
	line int
	text string
}) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	in, keep, start := false, false, 0
	var b strings.Builder
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		m := fence.FindStringSubmatch(line)
		switch {
		case m != nil && !in:
			in, keep, start = true, slices.Contains(langs, m[1]), n+1
			b.Reset()
		case strings.HasPrefix(line, "```") && in:
			in = false
			if keep {
				out = append(out, struct {
					line int
					text string
				}{start, b.String()})
			}
		case in:
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return out
}

// comment matches a shell comment after a command.
var comment = regexp.MustCompile(`\s+#.*$`)

// markdownCommands returns the command lines of the sh blocks of every
// Markdown file, continuation lines joined and comments removed.
func markdownCommands(t *testing.T) []command {
	var cmds []command
	for _, f := range markdownFiles(t) {
		rel, _ := filepath.Rel(root, f)
		for _, b := range blocks(t, f, "sh", "bash", "shell", "console") {
			lines := strings.Split(strings.TrimRight(b.text, "\n"), "\n")
			for i := 0; i < len(lines); i++ {
				at := b.line + i
				text := strings.TrimPrefix(strings.TrimSpace(lines[i]), "$ ")
				for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
					i++
					text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(lines[i])
				}
				text = strings.TrimSpace(comment.ReplaceAllString(text, ""))
				if text == "" || strings.HasPrefix(text, "#") {
					continue
				}
				cmds = append(cmds, command{where: fmt.Sprintf("%s:%d", rel, at), text: text})
			}
		}
	}
	return cmds
}

// helpExamples returns the lines under "Examples:" of every command's
// --help text, run as ./schedfarm.
func helpExamples(t *testing.T, bin string) []command {
	t.Helper()
	out, err := exec.Command(bin, "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	inCmds := false
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "COMMANDS:"):
			inCmds = true
		case inCmds && strings.TrimSpace(l) == "":
			inCmds = false
		case inCmds:
			name := strings.TrimSuffix(strings.Fields(l)[0], ",")
			if name != "help" {
				names = append(names, name)
			}
		}
	}
	if len(names) < 5 {
		t.Fatalf("found commands %q in schedfarm --help", names)
	}
	var cmds []command
	for _, name := range names {
		help, err := exec.Command(bin, name, "--help").Output()
		if err != nil {
			t.Fatalf("schedfarm %s --help: %v", name, err)
		}
		in := false
		for _, l := range strings.Split(string(help), "\n") {
			s := strings.TrimSpace(l)
			switch {
			case s == "Examples:":
				in = true
			case in && strings.HasPrefix(s, "schedfarm "):
				cmds = append(cmds, command{where: "schedfarm " + name + " --help", text: "./" + s})
			case in:
				in = false
			}
		}
	}
	return cmds
}

// snippets runs the notebook examples of README.md and docs/columns.md:
// Python with the modules they import when installed, SQL with DuckDB
// through the interop package when its node_modules is there. Every
// snippet not run says why.
func snippets(t *testing.T, work string, env []string) {
	ci := os.Getenv("CI") == "true"
	haveNode := fileExists(filepath.Join(root, "interop", "node_modules", "@duckdb"))
	if _, err := exec.LookPath("node"); err != nil {
		haveNode = false
	}
	ran := 0
	for _, f := range []string{"README.md", filepath.Join("docs", "columns.md")} {
		for _, b := range blocks(t, filepath.Join(root, f), "python") {
			where := fmt.Sprintf("%s:%d", f, b.line)
			python, missing := pythonFor(work, env, b.text)
			if slices.Equal(missing, []string{"pyarrow"}) && haveNode {
				// pandas without a Parquet engine: run the pandas code on
				// the same tables read by DuckDB, and say what did not run.
				notRun, err := pandasWithoutPyarrow(work, env, python, b.text)
				if err != nil {
					t.Errorf("%s: pandas snippet (Parquet read through DuckDB, pyarrow not installed) failed: %v\n%s", where, err, b.text)
				} else {
					t.Logf("%s: pandas snippet run without pyarrow (not packaged in Debian 12): pd.read_parquet replaced by DuckDB's export of the same file to CSV; lines not run: %q", where, notRun)
				}
				ran++
				continue
			}
			if len(missing) > 0 {
				t.Logf("%s: Python snippet not run: module %s not installed (Debian 12 packages pandas, not pyarrow or polars; .ci/run installs what Debian has)",
					where, strings.Join(missing, ", "))
				continue
			}
			file := filepath.Join(work, "snippet.py")
			if err := os.WriteFile(file, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := runShell(work, env, python+" snippet.py", 5*time.Minute); err != nil {
				t.Errorf("%s: Python snippet failed: %v\n%s\n%s", where, err, out, b.text)
			}
			ran++
		}
		for _, b := range blocks(t, filepath.Join(root, f), "sql") {
			where := fmt.Sprintf("%s:%d", f, b.line)
			if !haveNode {
				if ci {
					t.Errorf("%s: node or interop/node_modules missing with CI=true", where)
				} else {
					t.Logf("%s: SQL snippet not run: node or interop/node_modules missing (run: cd interop && npm ci)", where)
				}
				continue
			}
			file := filepath.Join(work, "snippet.sql")
			if err := os.WriteFile(file, []byte(b.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := runShell(work, env, "node interop/sql.mjs snippet.sql", 5*time.Minute); err != nil {
				t.Errorf("%s: SQL snippet failed: %v\n%s", where, err, out)
			}
			ran++
		}
	}
	t.Logf("%d notebook snippets run", ran)
}

// readParquetRE finds the files a pandas snippet reads.
var readParquetRE = regexp.MustCompile(`pd\.read_parquet\("([^"]+)"\)`)

// pandasWithoutPyarrow runs a pandas snippet whose pd.read_parquet cannot
// work (no pyarrow): DuckDB exports each file it reads to CSV, the snippet
// runs with pd.read_parquet reading those, and the lines that use pyarrow
// itself are left out and returned.
func pandasWithoutPyarrow(work string, env []string, python, code string) ([]string, error) {
	var sql strings.Builder
	csv := map[string]string{}
	for i, m := range readParquetRE.FindAllStringSubmatch(code, -1) {
		if _, ok := csv[m[1]]; ok {
			continue
		}
		csv[m[1]] = fmt.Sprintf("snippet-%d.csv", i)
		fmt.Fprintf(&sql, "COPY (SELECT * FROM '%s') TO '%s' (HEADER);\n", m[1], csv[m[1]])
	}
	if len(csv) == 0 {
		return nil, fmt.Errorf("no pd.read_parquet(\"...\") to replace")
	}
	if err := os.WriteFile(filepath.Join(work, "snippet-export.sql"), []byte(sql.String()), 0o644); err != nil {
		return nil, err
	}
	if out, err := runShell(work, env, "node interop/sql.mjs snippet-export.sql", 5*time.Minute); err != nil {
		return nil, fmt.Errorf("export to CSV: %v\n%s", err, out)
	}
	var py strings.Builder
	py.WriteString("import pandas as pd\n_csv = {")
	for p, c := range csv {
		fmt.Fprintf(&py, "%q: %q, ", p, c)
	}
	py.WriteString("}\npd.read_parquet = lambda path, *a, **k: pd.read_csv(_csv[path])\n")
	var notRun []string
	for _, line := range strings.Split(code, "\n") {
		if strings.Contains(line, "pyarrow") || strings.Contains(line, "pq.") {
			notRun = append(notRun, strings.TrimSpace(line))
			continue
		}
		py.WriteString(line + "\n")
	}
	if err := os.WriteFile(filepath.Join(work, "snippet.py"), []byte(py.String()), 0o644); err != nil {
		return nil, err
	}
	if out, err := runShell(work, env, python+" snippet.py", 5*time.Minute); err != nil {
		return nil, fmt.Errorf("%v\n%s", err, out)
	}
	return notRun, nil
}

// importRE finds the modules a Python snippet imports.
var importRE = regexp.MustCompile(`(?m)^\s*(?:import|from)\s+([a-zA-Z_][a-zA-Z0-9_]*)`)

// pythonFor returns the Python interpreter that can import most of the
// modules the snippet needs, and the modules it lacks: python3 on PATH,
// or Debian's /usr/bin/python3 (where .ci/run's packages go) when PATH
// finds another one (pyenv, a virtualenv).
func pythonFor(work string, env []string, code string) (string, []string) {
	best, missing := "python3", missingModules(work, env, "python3", code)
	if len(missing) > 0 && fileExists("/usr/bin/python3") {
		if m := missingModules(work, env, "/usr/bin/python3", code); len(m) < len(missing) {
			best, missing = "/usr/bin/python3", m
		}
	}
	return best, missing
}

// missingModules returns the modules the snippet needs that python
// cannot import; read_parquet in pandas needs pyarrow too.
func missingModules(work string, env []string, python, code string) []string {
	var need []string
	for _, m := range importRE.FindAllStringSubmatch(code, -1) {
		need = append(need, m[1])
	}
	if slices.Contains(need, "pandas") && strings.Contains(code, "read_parquet") {
		need = append(need, "pyarrow")
	}
	var missing []string
	for _, m := range need {
		if slices.Contains(missing, m) {
			continue
		}
		if _, err := runShell(work, env, python+" -c 'import "+m+"'", time.Minute); err != nil {
			missing = append(missing, m)
		}
	}
	return missing
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
