package coordinator_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/coordinator"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/worker"
)

func TestOpenStore(t *testing.T) {
	t.Run("ErrStateLocked", func(t *testing.T) {
		dir := t.TempDir()
		MustOpenStore(t, dir)
		if _, err := coordinator.OpenStore(dir); !errors.Is(err, coordinator.ErrStateLocked) {
			t.Errorf("second OpenStore()=%v, want ErrStateLocked", err)
		}
		if _, err := coordinator.OpenStoreReadOnly(dir); !errors.Is(err, coordinator.ErrStateLocked) {
			t.Errorf("OpenStoreReadOnly()=%v, want ErrStateLocked", err)
		}
	})

	t.Run("ReadOnly", func(t *testing.T) {
		dir := t.TempDir()
		st, err := coordinator.OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		rec := &coordinator.SweepRecord{Name: "s", Hash: "h", RunID: "r", Total: 2, Started: time.Now().UTC()}
		if err := st.PutSweep(rec); err != nil {
			t.Fatal(err)
		}
		if err := st.RecordResult("r", "t1", coordinator.TaskState{Index: 0, Err: "boom"}, []byte("x")); err != nil {
			t.Fatal(err)
		}
		st.Close()
		// Two readers at once are fine.
		for range 2 {
			ro, err := coordinator.OpenStoreReadOnly(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			got, err := ro.Sweep("s")
			if err != nil || got.RunID != "r" {
				t.Fatalf("Sweep()=%+v, %v", got, err)
			}
			states, err := ro.RunStates("r")
			if err != nil || len(states) != 1 || !states["t1"].Failed() {
				t.Fatalf("RunStates()=%+v, %v", states, err)
			}
			if b, err := ro.Result("t1", true); err != nil || string(b) != "x" {
				t.Fatalf("Result()=%q, %v", b, err)
			}
		}
	})

	t.Run("ErrNotExist", func(t *testing.T) {
		if _, err := coordinator.OpenStoreReadOnly(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("OpenStoreReadOnly(empty dir)=%v, want ErrNotExist", err)
		}
	})

	t.Run("ErrNoSweep", func(t *testing.T) {
		st := MustOpenStore(t, t.TempDir())
		if _, err := st.Sweep("nope"); !errors.Is(err, coordinator.ErrNoSweep) {
			t.Errorf("Sweep()=%v, want ErrNoSweep", err)
		}
	})
}

func TestReadStatus(t *testing.T) {
	dir := t.TempDir()
	spec := MustLoadSpec(t, dir, smallSpec)
	ns := MustStartServer(t)
	StartWorker(t, ns, worker.WithConcurrency(2))
	state := filepath.Join(dir, "state")
	st, err := coordinator.OpenStore(state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := coordinator.New(st, MustConnect(t, ns), coordinator.WithOutDir(filepath.Join(dir, "out"))).Run(context.Background(), spec); err != nil {
		t.Fatal(err)
	}

	// While the store is held: the progress file.
	sts, err := coordinator.ReadStatus(state, "unit")
	if err != nil {
		t.Fatal(err)
	}
	if len(sts) != 1 || !sts[0].Live || sts[0].Done != 4 || sts[0].Total != 4 {
		t.Fatalf("ReadStatus() while held=%+v, want live 4/4", sts)
	}
	st.Close()

	// Afterwards: the store.
	sts, err = coordinator.ReadStatus(state, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sts) != 1 || sts[0].Live || sts[0].Done != 4 || sts[0].Finished.IsZero() {
		t.Fatalf("ReadStatus()=%+v, want finished 4/4", sts)
	}
	if _, err := coordinator.ReadStatus(state, "other"); !errors.Is(err, coordinator.ErrNoSweep) {
		t.Errorf("ReadStatus(other)=%v, want ErrNoSweep", err)
	}
}

// TestStore_spool checks that a large result is kept in a spool file (not
// in Badger) and read back whole, that a missing, truncated or altered
// spool file is reported as damaged rather than returned, and that a
// small result or Forget removes the file.
func TestStore_spool(t *testing.T) {
	dir := t.TempDir()
	st := MustOpenStore(t, dir)
	big, err := syntheticResult("t1", 0, 20000).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(big) < 64<<10 {
		t.Fatalf("result of %d bytes is too small to be spooled", len(big))
	}
	record := func(b []byte) {
		t.Helper()
		if err := st.RecordResult("r", "t1", coordinator.TaskState{Index: 0}, b); err != nil {
			t.Fatal(err)
		}
	}
	files := func() []string {
		t.Helper()
		// Spool files are named res-ID and err-ID; the segments of
		// small results seg-N.
		fs, err := filepath.Glob(filepath.Join(dir, "spool", "res-*"))
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	record(big)
	fs := files()
	if len(fs) != 1 {
		t.Fatalf("spool files %v, want one", fs)
	}
	if got, err := st.Result("t1", false); err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Result()=%d bytes, %v; want the %d bytes recorded", len(got), err, len(big))
	}

	for name, damage := range map[string]func(string) error{
		"missing":   os.Remove,
		"truncated": func(p string) error { return os.Truncate(p, int64(len(big)-1)) },
		"altered": func(p string) error {
			b := bytes.Clone(big)
			b[len(b)/2] ^= 1
			return os.WriteFile(p, b, 0o644)
		},
	} {
		record(big)
		if err := damage(fs[0]); err != nil {
			t.Fatal(err)
		}
		if got, err := st.Result("t1", false); !errors.Is(err, coordinator.ErrResultDamaged) {
			t.Errorf("%s spool file: Result()=%d bytes, %v; want ErrResultDamaged", name, len(got), err)
		}
	}

	record([]byte("small"))
	if fs := files(); len(fs) != 0 {
		t.Errorf("spool files %v after a small result replaced the large one, want none", fs)
	}
	if got, err := st.Result("t1", false); err != nil || string(got) != "small" {
		t.Errorf("Result()=%q, %v; want small", got, err)
	}
	record(big)
	if err := st.Forget("r", "t1"); err != nil {
		t.Fatal(err)
	}
	if fs := files(); len(fs) != 0 {
		t.Errorf("spool files %v after Forget, want none", fs)
	}
}

// TestCoordinator_Run_damagedSegment checks that a cached result whose
// bytes in its segment file are cut off (a crash of the machine before
// they reached the disk) is run again, like a result that does not
// decode, and the other results of the segment are reused.
func TestCoordinator_Run_damagedSegment(t *testing.T) {
	rerunDamaged(t, "the damaged one", func(st *coordinator.Store, tasks []sweep.Task, state string) {
		b, err := syntheticResult(tasks[2].ID, 2, 10).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RecordResult("old", tasks[2].ID, coordinator.TaskState{Index: 2, SimVersion: tasks[2].SimVersion}, b); err != nil {
			t.Fatal(err)
		}
		// The result just recorded is the last of the segment being
		// written.
		fs, err := filepath.Glob(filepath.Join(state, "spool", "seg-*"))
		if err != nil || len(fs) != 1 {
			t.Fatalf("segments %v, %v; want one", fs, err)
		}
		fi, err := os.Stat(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(fs[0], fi.Size()-1); err != nil {
			t.Fatal(err)
		}
	})
}
