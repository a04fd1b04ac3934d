package results_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/sim/metrics"
)

func TestTaskResult_Marshal(t *testing.T) {
	r := MustRun(t, realSpec)
	orig := r.res[4] // ss, load 1
	orig.WallTime = 1234567 * time.Nanosecond

	t.Run("OK", func(t *testing.T) {
		b, err := orig.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := results.Unmarshal(b)
		if err != nil {
			t.Fatalf("Unmarshal: %v", err)
		}
		if !reflect.DeepEqual(back, orig) {
			t.Errorf("Unmarshal(Marshal(r)) differs:\n got %+v\nwant %+v", back.Stats, orig.Stats)
		}
		again, _ := orig.Marshal()
		if !bytes.Equal(b, again) {
			t.Errorf("Marshal is not deterministic")
		}
		// Compressed: well under the 15 x 8 bytes per job of the raw columns.
		if perJob := len(b) / len(orig.Jobs); perJob > 60 {
			t.Errorf("%d bytes per job, want compression", perJob)
		}
	})
	t.Run("Failed", func(t *testing.T) {
		f := &results.TaskResult{TaskID: "abc", Index: 7, Err: "simulate: boom", Worker: "w", WallTime: time.Second}
		b, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := results.Unmarshal(b)
		if err != nil || !reflect.DeepEqual(back, f) {
			t.Errorf("Unmarshal = %+v, %v; want %+v", back, err, f)
		}
	})
	t.Run("ErrCorrupt", func(t *testing.T) {
		b, _ := orig.Marshal()
		cases := map[string][]byte{
			"empty":     nil,
			"magic":     append([]byte("XXXX"), b[4:]...),
			"version":   append(append([]byte("SFTR"), 9), b[5:]...),
			"header":    b[:20],
			"no jobs":   b[:bytes.IndexByte(b, '}')+1],
			"truncated": b[:len(b)-40],
			"trailing":  append(bytes.Clone(b), 1, 2, 3),
		}
		for name, c := range cases {
			if _, err := results.Unmarshal(c); !errors.Is(err, results.ErrCorrupt) {
				t.Errorf("%s: Unmarshal = %v, want ErrCorrupt", name, err)
			}
		}
	})
}

// FuzzUnmarshal checks that Unmarshal never panics and that what it
// accepts marshals back to a result that decodes equal.
func FuzzUnmarshal(f *testing.F) {
	ok := &results.TaskResult{TaskID: "t", Index: 1, Stats: metrics.RunStats{Jobs: 2, Procs: 4},
		Jobs: []metrics.Record{{JobID: 1, Runtime: 5, Procs: 2, BSD: 1}, {JobID: 2, Submit: 3, End: 9, Runtime: 6, Procs: 1, BSD: 1}}}
	b, err := ok.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	failed, _ := (&results.TaskResult{TaskID: "t", Err: "x"}).Marshal()
	f.Add(failed)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := results.Unmarshal(data)
		if err != nil {
			if !errors.Is(err, results.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := results.Unmarshal(b)
		if err != nil || !reflect.DeepEqual(r, r2) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
