package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLibrary builds this example binary and runs its registered policy
// alone (sim) and in a sweep beside a built-in one (run); its help lists
// every command of schedfarm.
func TestLibrary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "myfarm")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	help := run("--help")
	for _, c := range []string{"sim", "run", "coordinator", "worker", "reproduce", "server"} {
		if !strings.Contains(help, "\n   "+c) {
			t.Errorf("help lists no %s command:\n%s", c, help)
		}
	}
	trace, err := filepath.Abs("../../traces/KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	out := run("sim", "--trace", trace, "--count", "500", "--policy", "smallest-first", "--param", "limit=3")
	if !strings.Contains(out, "policy smallest-first (limit=3)") {
		t.Errorf("sim output:\n%s", out)
	}
	spec := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(spec, []byte("name: lib\nworkloads: [{trace: "+trace+", count: 500}]\npolicies:\n  - name: fcfs\n  - name: smallest-first\nseed: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("run", "--workers", "2", "--state", filepath.Join(dir, "state"), "--out", filepath.Join(dir, "out"), spec)
	tables, err := os.ReadFile(filepath.Join(dir, "out", "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tables), "| smallest-first |") || !strings.Contains(string(tables), "| fcfs |") {
		t.Errorf("tables.md lacks a policy:\n%s", tables)
	}
}
