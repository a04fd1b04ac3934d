package farmtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDamagedState damages the state of a finished run in four ways the
// campaign found (a truncated table file, a garbage MANIFEST, a MANIFEST
// truncated to 10 bytes, a garbage KEYREGISTRY): `run` and `status` each
// exit non-zero with an error naming the file and the recovery, never a
// panic, and never start over silently.
func TestDamagedState(t *testing.T) {
	if testing.Short() {
		t.Skip("farm test")
	}
	spec := testdata(t, "small.yaml")
	base := t.TempDir()
	schedfarm(t, base, "run", "--workers", "2", "--state", "state", "--out", "out", spec).mustSucceed(t, 2*time.Minute)
	garbage := []byte("this is not what badger wrote here.")
	for _, c := range []struct {
		name, file string
		damage     func(path string) error
	}{
		{"truncated table", "*.sst", func(p string) error { return os.Truncate(p, 3000) }},
		{"garbage manifest", "MANIFEST", func(p string) error { return os.WriteFile(p, garbage, 0o600) }},
		{"truncated manifest", "MANIFEST", func(p string) error { return os.Truncate(p, 10) }},
		{"garbage key registry", "KEYREGISTRY", func(p string) error { return os.WriteFile(p, garbage, 0o600) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			files, err := filepath.Glob(filepath.Join(dir, "state", "badger", c.file))
			if err != nil || len(files) == 0 {
				t.Fatalf("%s: %v %v", c.file, files, err)
			}
			if err := c.damage(files[0]); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"run", "--workers", "2", "--state", "state", "--out", "out2", spec},
				{"status", "--state", "state"},
			} {
				p := schedfarm(t, dir, args...)
				if err := p.wait(t, time.Minute); err == nil {
					t.Errorf("%s on a damaged state exited 0:\n%s", args[0], p.stdout.String())
				}
				got := p.stderr.String()
				if strings.Contains(got, "panic") || !strings.Contains(got, "state damaged") ||
					!strings.Contains(got, filepath.Base(files[0])) || !strings.Contains(got, "Recovery:") {
					t.Errorf("%s on a damaged state:\n%s", args[0], got)
				}
			}
		})
	}
}
