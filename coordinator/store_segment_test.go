package coordinator

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// segResult returns the made-up result i of n bytes.
func segResult(i, n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(i), uint64(n)))
	b := make([]byte, n)
	for k := range b {
		b[k] = byte(rng.Uint32())
	}
	return b
}

// segFiles returns the names of the segment files of the state dir.
func segFiles(t *testing.T, dir string) []string {
	t.Helper()
	fs, err := filepath.Glob(filepath.Join(dir, spoolDir, segPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fs {
		fs[i] = filepath.Base(f)
	}
	return fs
}

// withSegMax sets segMax for the test.
func withSegMax(t *testing.T, n int64) {
	old := segMax
	segMax = n
	t.Cleanup(func() { segMax = old })
}

// TestStore_segments records small results (under spoolMin, failures
// among them) over three sessions of a store, in segments of at most
// about 32 KB, and checks that Badger holds a reference for each, not the
// result, that every result reads back whole from a read-only store and
// after a reopening, and that each session appends to segments of its
// own.
func TestStore_segments(t *testing.T) {
	withSegMax(t, 32<<10)
	dir := t.TempDir()
	want := map[string][]byte{}
	failed := func(i int) bool { return i%7 == 3 }
	for session := range 3 {
		s, err := OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		var recs []ResultRecord
		for i := session * 40; i < session*40+40; i++ {
			id := fmt.Sprintf("t%03d", i)
			st := TaskState{Index: i}
			if failed(i) {
				st.Err = "boom"
			}
			b := segResult(i, []int{0, 1, 100, 3000, 20000}[i%5])
			recs = append(recs, ResultRecord{ID: id, State: st, Result: b})
			want[id] = b
			if len(recs) == 8 {
				if err := s.RecordResults("r", recs); err != nil {
					t.Fatal(err)
				}
				recs = nil
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		segs := segFiles(t, dir)
		if len(segs) < 2*(session+1) || segs[0] != "seg-00000001" {
			t.Fatalf("after session %d: segments %v, want at least two a session, from seg-00000001", session, segs)
		}
	}

	ro, err := OpenStoreReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for id, b := range want {
		i := 0
		fmt.Sscanf(id, "t%d", &i)
		got, err := ro.Result(id, failed(i))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("Result(%s)=%d bytes, %v; want the %d recorded", id, len(got), err, len(b))
		}
	}
	err = ro.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{})
		defer it.Close()
		n := 0
		for it.Rewind(); it.Valid(); it.Next() {
			k := string(it.Item().Key())
			if !strings.HasPrefix(k, prefixRes) && !strings.HasPrefix(k, prefixErr) {
				continue
			}
			n++
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if _, ok := parseSegRef(v); !ok {
				t.Errorf("%s: Badger holds %d bytes, want a segment reference", k, len(v))
			}
		}
		if n != len(want) {
			t.Errorf("%d results in Badger, want %d", n, len(want))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStore_segmentDamaged checks that a result whose segment file is
// missing, truncated or altered is reported as damaged (naming the
// segment), not returned, and that the other results of the segment
// still read.
func TestStore_segmentDamaged(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(string) error
		want   string
	}{
		{"missing", os.Remove, "missing"},
		{"truncated", func(p string) error { return os.Truncate(p, 3000+1500) }, "truncated"},
		{"altered", func(p string) error {
			f, err := os.OpenFile(p, os.O_RDWR, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteAt([]byte{0xff, 0x00, 0xff}, 3000+10)
			return err
		}, "checksum"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := OpenStore(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			recs := []ResultRecord{
				{ID: "a", State: TaskState{Index: 0}, Result: segResult(0, 3000)},
				{ID: "b", State: TaskState{Index: 1}, Result: segResult(1, 3000)},
			}
			if err := s.RecordResults("r", recs); err != nil {
				t.Fatal(err)
			}
			segs := segFiles(t, dir)
			if len(segs) != 1 {
				t.Fatalf("segments %v, want one", segs)
			}
			if err := c.damage(filepath.Join(dir, spoolDir, segs[0])); err != nil {
				t.Fatal(err)
			}
			got, err := s.Result("b", false)
			if !errors.Is(err, ErrResultDamaged) || !strings.Contains(err.Error(), segs[0]) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Result()=%d bytes, %v; want ErrResultDamaged naming %s, saying %q", len(got), err, segs[0], c.want)
			}
			if c.name != "missing" {
				if got, err := s.Result("a", false); err != nil || !bytes.Equal(got, recs[0].Result) {
					t.Errorf("undamaged result: %d bytes, %v", len(got), err)
				}
			}
		})
	}
}

// TestStore_collectSegments checks that CollectGarbage removes the
// segments none of whose results is referenced any more (results
// recorded again, as a sweep run with --force records them, or
// forgotten) and keeps those with one result still referenced, the
// results all reading back.
func TestStore_collectSegments(t *testing.T) {
	withSegMax(t, 6000)
	dir := t.TempDir()
	record := func(s *Store, ids []string, size int) {
		t.Helper()
		for _, id := range ids {
			if err := s.RecordResult("r", id, TaskState{}, segResult(len(id), size)); err != nil {
				t.Fatal(err)
			}
		}
	}
	ids := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff"}
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	record(s, ids, 4000) // two results a segment
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	first := segFiles(t, dir)
	if len(first) != 3 {
		t.Fatalf("segments %v, want three", first)
	}

	s, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	record(s, ids[:4], 1000) // the first two segments replaced whole
	if err := s.Forget("r", ids[4]); err != nil {
		t.Fatal(err) // the third keeps ids[5]
	}
	s.CollectGarbage()
	left := segFiles(t, dir)
	if slices.Contains(left, first[0]) || slices.Contains(left, first[1]) || !slices.Contains(left, first[2]) {
		t.Errorf("segments %v left of %v, want the first two removed, the third kept", left, first)
	}
	for _, id := range ids {
		got, err := s.Result(id, false)
		switch {
		case id == ids[4]:
			if err == nil {
				t.Errorf("forgotten result %s read", id)
			}
		case err != nil:
			t.Errorf("Result(%s): %v", id, err)
		case id == ids[5] && len(got) != 4000, id != ids[5] && len(got) != 1000:
			t.Errorf("Result(%s)=%d bytes", id, len(got))
		}
	}
	if err := s.Forget("r", ids[5]); err != nil {
		t.Fatal(err)
	}
	s.CollectGarbage()
	if left := segFiles(t, dir); slices.Contains(left, first[2]) {
		t.Errorf("segments %v, want %s removed once none of its results is referenced", left, first[2])
	}
}

// TestStore_resultsOfEarlierVersion checks that a state written by the
// versions that kept small results in Badger itself is read: those
// results read back as they were, and recording one again puts it in a
// segment.
func TestStore_resultsOfEarlierVersion(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string][]byte{"a": segResult(1, 3000), "b": segResult(2, 60000), "c": []byte("SFSG, not a reference")}
	err = s.db.Update(func(txn *badger.Txn) error {
		for id, b := range old {
			if err := txn.Set([]byte(prefixRes+id), b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, b := range old {
		if got, err := s.Result(id, false); err != nil || !bytes.Equal(got, b) {
			t.Errorf("Result(%s)=%d bytes, %v; want the %d stored", id, len(got), err, len(b))
		}
	}
	again := segResult(3, 2000)
	if err := s.RecordResult("r", "a", TaskState{}, again); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Result("a", false); err != nil || !bytes.Equal(got, again) {
		t.Errorf("Result(a) recorded again=%d bytes, %v", len(got), err)
	}
	if len(segFiles(t, dir)) != 1 {
		t.Errorf("segments %v, want one", segFiles(t, dir))
	}
}

// TestStore_collectSparseSegments checks that CollectGarbage copies the
// results still referred to out of a segment mostly dead (two of its
// three results forgotten) to the segment being written and removes it,
// keeps a segment whose results are all referred to, and that every
// result reads back the same.
func TestStore_collectSparseSegments(t *testing.T) {
	withSegMax(t, 10000)
	oldMin := segSparseMin
	segSparseMin = 0
	t.Cleanup(func() { segSparseMin = oldMin })
	dir := t.TempDir()
	ids := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff"}
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids { // three results a segment
		if err := s.RecordResult("r", id, TaskState{}, segResult(len(id), 4000)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	first := segFiles(t, dir)
	if len(first) != 2 {
		t.Fatalf("segments %v, want two", first)
	}
	s, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range ids[:2] {
		if err := s.Forget("r", id); err != nil {
			t.Fatal(err)
		}
	}
	s.CollectGarbage()
	left := segFiles(t, dir)
	if slices.Contains(left, first[0]) || !slices.Contains(left, first[1]) || len(left) != 2 {
		t.Errorf("segments %v left of %v, want the first replaced by a new one, the second kept", left, first)
	}
	for _, id := range ids[2:] {
		if got, err := s.Result(id, false); err != nil || !bytes.Equal(got, segResult(len(id), 4000)) {
			t.Errorf("Result(%s)=%d bytes, %v; want the %d recorded", id, len(got), err, 4000)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenStoreReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got, err := ro.Result("ccc", false); err != nil || !bytes.Equal(got, segResult(3, 4000)) {
		t.Errorf("Result(ccc) after reopening=%d bytes, %v", len(got), err)
	}
}
