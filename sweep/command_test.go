package sweep_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sweep"
)

// commandDir returns a directory with a tiny trace and the policy files
// the command tests name.
func commandDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(testdata, "tiny.swf"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"tiny.swf": b, "easy.py": []byte("# easy\n"), "my policy.py": []byte("# spaced\n"), "kit.py": []byte("# kit\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func commandSpec(command string) string { return filesSpec(command, "kit.py") }

func filesSpec(command, files string) string {
	return "name: cmd\nworkloads: [{trace: tiny.swf}]\npolicies:\n  - name: external\n    params:\n      command: " + command + "\n      files: " + files + "\n"
}

// TestParse_ExternalFiles: the files of an external policy given as a
// string or as a list give the same task; a list of lists is an axis.
func TestParse_ExternalFiles(t *testing.T) {
	dir := commandDir(t)
	var ids []string
	for _, files := range []string{"kit.py 'my policy.py'", "[kit.py, my policy.py]", "\"kit.py my\\\\ policy.py\""} {
		s, err := sweep.Parse([]byte(filesSpec("python3 easy.py", files)), dir)
		if err != nil {
			t.Fatalf("files: %s: %v", files, err)
		}
		ts := MustTasks(t, s)
		if got := ts[0].Params["files"]; got != "kit.py 'my policy.py'" || len(ts[0].PolicyFiles) != 3 || ts[0].PolicyFiles[2].Name != "my policy.py" {
			t.Errorf("files: %s: files %q, policy files %v", files, got, ts[0].PolicyFiles)
		}
		ids = append(ids, ts[0].ComputeID())
	}
	if ids[0] != ids[1] || ids[0] != ids[2] {
		t.Errorf("IDs %v, want one", ids)
	}
	s, err := sweep.Parse([]byte(filesSpec("python3 easy.py", "[[kit.py], [my policy.py]]")), dir)
	if err != nil {
		t.Fatal(err)
	}
	if ts := MustTasks(t, s); len(ts) != 2 {
		t.Errorf("axis of files: %d tasks, want 2", len(ts))
	}
	for _, tt := range []struct{ files, want string }{
		{`"kit.py 'x"`, `policies[0].params.files: the single quote at offset 7 is not closed`},
		{`[kit.py, ""]`, `policies[0].params.files[1]: an empty file name`},
		{`[kit.py, [x]]`, `policies[0].params.files[1]: must be one argument (a string), got a list`},
	} {
		_, err := sweep.Parse([]byte(filesSpec("python3 easy.py", tt.files)), dir)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("files: %s: error\n%v\nwant %q", tt.files, err, tt.want)
		}
	}
}

// TestParse_ExternalCommand: a command given as a string, with quotes,
// or as a YAML list gives the same tasks (and IDs) for the same
// arguments; plain words keep the form "python3 easy.py" (so tasks made
// before lists and quotes were accepted keep their IDs); a list of lists
// is an axis of commands.
func TestParse_ExternalCommand(t *testing.T) {
	dir := commandDir(t)
	tasks := func(command string) []sweep.Task {
		t.Helper()
		s, err := sweep.Parse([]byte(commandSpec(command)), dir)
		if err != nil {
			t.Fatalf("command: %s: %v", command, err)
		}
		return MustTasks(t, s)
	}
	same := func(want string, commands ...string) {
		t.Helper()
		args, err := external.SplitCommand(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range commands {
			ts := tasks(c)
			if len(ts) != 1 {
				t.Fatalf("command: %s: %d tasks, want 1", c, len(ts))
			}
			if got := ts[0].Params["command"]; got != want {
				t.Errorf("command: %s: task command %q, want %q", c, got, want)
			}
			if got := ts[0].Command; !slices.Equal(got, args) {
				t.Errorf("command: %s: task's argument list %q, want %q", c, got, args)
			}
			if id, first := ts[0].ComputeID(), tasks(commands[0])[0].ComputeID(); id != first {
				t.Errorf("command: %s: ID %s, but %s gives %s", c, id, commands[0], first)
			}
		}
	}
	same("python3 easy.py --alpha 0.5", "python3 easy.py --alpha 0.5", "[python3, easy.py, --alpha, 0.5]", "\"python3 'easy.py' --alpha \\\"0.5\\\"\"",
		"\n        - python3\n        - easy.py\n        - --alpha\n        - \"0.5\"")
	same("python3 'my policy.py' 'two words'", `"python3 'my policy.py' 'two words'"`, `[python3, my policy.py, two words]`, `'python3 my\ policy.py "two words"'`)
	ts := tasks("[[python3, easy.py], [python3, my policy.py, -v]]")
	if len(ts) != 2 || ts[0].Params["command"] != "python3 easy.py" || ts[1].Params["command"] != "python3 'my policy.py' -v" {
		t.Errorf("axis of commands: %v", ts)
	}
	if ts[1].PolicyFiles[0].Name != "my policy.py" {
		t.Errorf("the second command's script is %q, want my policy.py", ts[1].PolicyFiles[0].Name)
	}
	if !slices.Equal(ts[1].Command, []string{"python3", "my policy.py", "-v"}) {
		t.Errorf("the second command's argument list is %q", ts[1].Command)
	}
}

// TestTask_CommandTravels: an external policy's argument list, script
// by its base name, goes with the task through its JSON form (the
// message a worker gets), and is not part of the ID, which its text
// already is: a task of the spec's command keeps the ID it had when the
// worker split the text itself.
func TestTask_CommandTravels(t *testing.T) {
	dir := commandDir(t)
	s, err := sweep.Parse([]byte(commandSpec(`[python3, "`+filepath.Join(dir, "my policy.py")+`", two words, "it's"]`)), dir)
	if err != nil {
		t.Fatal(err)
	}
	tk := MustTasks(t, s)[0]
	want := []string{"python3", "my policy.py", "two words", "it's"}
	if !slices.Equal(tk.Command, want) {
		t.Fatalf("argument list %q, want %q", tk.Command, want)
	}
	if text, _ := tk.Params["command"].(string); text != external.JoinCommand(want) {
		t.Errorf("command text %q, want %q", text, external.JoinCommand(want))
	}
	b, err := json.Marshal(&tk)
	if err != nil {
		t.Fatal(err)
	}
	var back sweep.Task
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Command, want) {
		t.Errorf("after JSON: argument list %q, want %q", back.Command, want)
	}
	id := tk.ComputeID()
	tk.Command = nil
	if tk.ComputeID() != id || back.ComputeID() != id || tk.ID != id {
		t.Errorf("the argument list changes the task ID")
	}
	other := MustTasks(t, mustParse(t, commandSpec("python3 easy.py"), dir))[0]
	if other.Command == nil || len(MustTasks(t, mustParse(t, "name: x\nworkloads: [{trace: tiny.swf}]\npolicies: [{name: fcfs}]\n", dir))[0].Command) != 0 {
		t.Errorf("argument lists: external %q, fcfs not nil", other.Command)
	}
}

func mustParse(t *testing.T, text, dir string) *sweep.Spec {
	t.Helper()
	s, err := sweep.Parse([]byte(text), dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParse_ExternalCommandErrors: a command that does not split, a list
// that is not arguments, give an error at the key path and line.
func TestParse_ExternalCommandErrors(t *testing.T) {
	dir := commandDir(t)
	for _, tt := range []struct{ command, want string }{
		{`"python3 'easy.py"`, `policies[0].params.command: bad command: the single quote at offset 8 is not closed`},
		{`python3 easy.py > log`, `policies[0].params.command: bad command: '>' at offset 16: no shell runs the command`},
		{`"python3 easy.py\\"`, `policies[0].params.command: bad command: a backslash ends the command`},
		{`[python3, [easy.py]]`, `policies[0].params.command[1]: must be one argument (a string), got a list`},
		{`[python3, ~]`, `policies[0].params.command[1]: must be one argument (a string), got null`},
		{`["python3 easy.py", "python3 my policy.py"]`, `policies[0].params.command[0]: program "python3 easy.py" holds a space: a list gives the program and its arguments one per item`},
		{`[[python3, easy.py], python3 kit.py]`, `policies[0].params.command[1]: must be a list of arguments like the other commands of the list`},
		{`[["", easy.py]]`, `policies[0].params.command[0]: bad command: the program's name is empty`},
		{`[]`, `policies[0].params.command: must not be an empty list`},
		{`[python3, gone.py]`, `policy file "gone.py" (relative to the spec): not a readable file`},
	} {
		_, err := sweep.Parse([]byte(commandSpec(tt.command)), dir)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("command: %s: error\n%v\nwant %q", tt.command, err, tt.want)
		}
	}
}

// TestLoad_ExternalCommandLine: a spec file's command error names the
// file and the line of the command.
func TestLoad_ExternalCommandLine(t *testing.T) {
	dir := commandDir(t)
	p := filepath.Join(dir, "cmd.yaml")
	if err := os.WriteFile(p, []byte(commandSpec(`[python3, [easy.py]]`)+"seed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := sweep.Load(p)
	if want := "cmd.yaml:6: policies[0].params.command[1]: must be one argument"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	if err := os.WriteFile(p, []byte(commandSpec(`python3 easy.py | tee`)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = sweep.Load(p)
	if want := "cmd.yaml:6: policies[0].params.command: bad command: '|' at offset 16"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}
