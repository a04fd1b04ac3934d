package coordinator_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/schedfarm/schedfarm/coordinator"
)

// TestOpenStore_damaged checks that a state whose table file is truncated,
// whose MANIFEST is garbage or lost its records, or whose KEYREGISTRY is
// garbage fails to open (for writing and for reading) with an error
// wrapping ErrStateDamaged that names the file, instead of a panic or an
// empty state.
func TestOpenStore_damaged(t *testing.T) {
	base := filepath.Join(t.TempDir(), "state")
	st := MustOpenStore(t, base)
	for i := range 200 {
		if err := st.RecordResult("r", string(rune('a'+i%26))+string(rune('a'+i/26)), coordinator.TaskState{Index: i}, make([]byte, 300)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file string
		damage     func(string) error
	}{
		{"truncated table", "*.sst", func(p string) error { return os.Truncate(p, 3000) }},
		{"garbage manifest", "MANIFEST", func(p string) error { return os.WriteFile(p, []byte("garbage garbage garbage"), 0o600) }},
		{"truncated manifest", "MANIFEST", func(p string) error { return os.Truncate(p, 10) }},
		{"garbage key registry", "KEYREGISTRY", func(p string) error { return os.WriteFile(p, []byte("garbage garbage garbage"), 0o600) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "badger", c.file))
			if len(files) == 0 {
				t.Fatalf("no %s", c.file)
			}
			if err := c.damage(files[0]); err != nil {
				t.Fatal(err)
			}
			for _, open := range []func(string) (*coordinator.Store, error){coordinator.OpenStore, coordinator.OpenStoreReadOnly} {
				s, err := open(dir)
				if err == nil {
					s.Close()
					t.Fatal("damaged state opened")
				}
				if !errors.Is(err, coordinator.ErrStateDamaged) || !strings.Contains(err.Error(), filepath.Base(files[0])) {
					t.Errorf("open: %v; want ErrStateDamaged naming %s", err, filepath.Base(files[0]))
				}
			}
			if _, err := coordinator.ReadStatus(dir, ""); !errors.Is(err, coordinator.ErrStateDamaged) {
				t.Errorf("ReadStatus: %v, want ErrStateDamaged", err)
			}
		})
	}
}

// TestCoordinator_Run_outLocked: a run whose output directory another
// process holds (here, a lock taken as a coordinator takes it) fails with
// ErrOutLocked before it writes anything.
func TestCoordinator_Run_outLocked(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	st := MustOpenStore(t, filepath.Join(dir, "state"))
	_, err = coordinator.New(st, nil, coordinator.WithOutDir(out)).Run(context.Background(), spec)
	if !errors.Is(err, coordinator.ErrOutLocked) {
		t.Fatalf("Run()=%v, want ErrOutLocked", err)
	}
}
