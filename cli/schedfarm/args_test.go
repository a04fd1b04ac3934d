package schedfarm

import (
	"slices"
	"strings"
	"testing"
)

func TestReorderArgs(t *testing.T) {
	app := newApp()
	for _, tt := range []struct{ in, want string }{
		{"schedfarm table out/q --metric bsd_mean --scheme ss16", "schedfarm table --metric bsd_mean --scheme ss16 out/q"},
		{"schedfarm table --metric=bsd_mean out/q --layout wide", "schedfarm table --metric=bsd_mean --layout wide out/q"},
		{"schedfarm plot out/q --kind load --log", "schedfarm plot --kind load --log out/q"},
		{"schedfarm run specs/q.yaml --force -v", "schedfarm run --force -v specs/q.yaml"},
		{"schedfarm reproduce fig07-14 --out x -- --odd", "schedfarm reproduce --out x fig07-14 -- --odd"},
		{"schedfarm sim --trace t --param x=-1 --load -1", "schedfarm sim --trace t --param x=-1 --load -1"},
		{"schedfarm nosuch a --b", "schedfarm nosuch a --b"},
	} {
		if got := strings.Join(reorderArgs(app, strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("reorderArgs(%q)=%q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFlagsAfterArgs runs table with its flags after DIR, as the README
// writes it: the output is the same as with the flags first.
func TestFlagsAfterArgs(t *testing.T) {
	dir := mustSweepDir(t)
	first, err := runApp(t, "table", "--metric", "bsd_max", "--scheme", "ss4", dir)
	if err != nil {
		t.Fatal(err)
	}
	after, err := runApp(t, "table", dir, "--metric", "bsd_max", "--scheme", "ss4")
	if err != nil {
		t.Fatalf("flags after DIR: %v", err)
	}
	if first != after {
		t.Errorf("flags after DIR printed\n%s\nwant\n%s", after, first)
	}
}

func TestVersionAndUnknownCommand(t *testing.T) {
	out, err := runApp(t, "version")
	if err != nil || !strings.HasPrefix(out, "schedfarm ") || !strings.Contains(out, "simulator ") {
		t.Errorf("schedfarm version: %q, %v", out, err)
	}
	_, err = runApp(t, "foo")
	if err == nil || !strings.Contains(err.Error(), `unknown command "foo"`) || !strings.Contains(err.Error(), "version") {
		t.Errorf("schedfarm foo: %v, want an unknown-command error listing the commands", err)
	}
	if v := toolVersion(); v == "" || slices.Contains([]string{"dev"}, v) && version != "dev" {
		t.Errorf("toolVersion()=%q", v)
	}
}
