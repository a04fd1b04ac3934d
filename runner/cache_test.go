package runner

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim/workload"
)

// ctcPath is the shipped CTC trace, from this package's directory.
var ctcPath = filepath.Join("..", "traces", "CTC-SP2-1996-3.1-cln.swf.gz")

func TestCache_SharesConcurrentLoads(t *testing.T) {
	c := NewCache(4)
	opts := workload.Options{Count: 300, Estimates: workload.EstimateAccurate}
	var wg sync.WaitGroup
	got := make([]*workload.Workload, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := c.Workload(ctcPath, "", opts)
			if err != nil {
				t.Error(err)
			}
			got[i] = w
		}()
	}
	wg.Wait()
	for i, w := range got {
		if w == nil || w != got[0] {
			t.Fatalf("workload %d is %p, want the shared %p", i, w, got[0])
		}
	}
	if len(got[0].Jobs) != 300 {
		t.Errorf("%d jobs, want 300", len(got[0].Jobs))
	}
	if n := c.workloads.len(&c.mu); n != 1 {
		t.Errorf("%d cached workloads, want 1", n)
	}
}

func TestCache_Bounded(t *testing.T) {
	c := NewCache(3)
	first, err := c.Workload(ctcPath, "", workload.Options{Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	for skip := 1; skip <= 5; skip++ {
		if _, err := c.Workload(ctcPath, "", workload.Options{Skip: skip, Count: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.workloads.len(&c.mu); n != 3 {
		t.Errorf("%d cached workloads, want 3", n)
	}
	if n := c.traces.len(&c.mu); n != 1 {
		t.Errorf("%d cached traces, want 1", n)
	}
	again, err := c.Workload(ctcPath, "", workload.Options{Count: 10})
	if err != nil {
		t.Fatal(err)
	}
	if again == first {
		t.Errorf("the least recently used workload was not evicted")
	}
}

func TestCache_SeedOnlyForDuplicate(t *testing.T) {
	c := NewCache(8)
	load := func(mode workload.LoadMode, lf float64, seed uint64) *workload.Workload {
		t.Helper()
		w, err := c.Workload(ctcPath, "", workload.Options{Count: 200, Load: lf, LoadMode: mode, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	if load(workload.LoadArrival, 1.2, 1) != load(workload.LoadArrival, 1.2, 2) {
		t.Errorf("arrival scaling: workloads of different seeds not shared")
	}
	if load(workload.LoadDuplicate, 1, 1) != load(workload.LoadDuplicate, 1, 2) {
		t.Errorf("load 1: workloads of different seeds not shared")
	}
	a, b := load(workload.LoadDuplicate, 1.5, 1), load(workload.LoadDuplicate, 1.5, 2)
	if a == b || fmt.Sprint(a.Jobs) == fmt.Sprint(b.Jobs) {
		t.Errorf("duplicate load: seeds 1 and 2 gave the same workload")
	}
}

func TestCache_ErrorsNotCached(t *testing.T) {
	c := NewCache(2)
	if _, err := c.Workload(filepath.Join(t.TempDir(), "x.swf"), "", workload.Options{}); err == nil {
		t.Fatal("loading a missing file succeeded")
	}
	if n := c.workloads.len(&c.mu) + c.traces.len(&c.mu); n != 0 {
		t.Errorf("%d entries after a failed load, want 0", n)
	}
}
