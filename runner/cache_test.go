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

// TestLRU_Budget checks the byte budget: loaded values other than the
// most recent one weigh at most the budget, the least recently used go
// first, and the most recent stays whatever its weight.
func TestLRU_Budget(t *testing.T) {
	var mu sync.Mutex
	l := lru[int, int64]{size: 8, budget: 10, weigh: func(v int64) int64 { return v }}
	for _, tt := range []struct {
		key    int
		weight int64
		want   string
	}{
		{0, 6, "[0]"},
		{1, 4, "[0 1]"},
		{2, 3, "[0 1 2]"}, // 6 + 4 beside the newest: at the budget
		{3, 5, "[1 2 3]"}, // 6 + 4 + 3 > 10: the oldest goes
		{4, 100, "[2 3 4]"},
		{2, 3, "[2]"}, // used again: 5 + 100 beside it
	} {
		got, err := l.get(&mu, tt.key, func() (int64, error) { return tt.weight, nil })
		if err != nil || got != tt.weight {
			t.Fatalf("get(%d) = %d, %v", tt.key, got, err)
		}
		var keys []int
		for _, e := range l.entries {
			keys = append(keys, e.key)
		}
		if fmt.Sprint(keys) != tt.want {
			t.Errorf("after get(%d): entries %v, want %s", tt.key, keys, tt.want)
		}
	}
}

// TestCache_WorkloadBudget loads whole-CTC workloads at four loads: the
// cache keeps the most recent and what fits in the budget beside it, not
// all four.
func TestCache_WorkloadBudget(t *testing.T) {
	c := NewCache(8)
	for _, load := range []float64{1.0, 1.1, 1.2, 1.3} {
		w, err := c.Workload(ctcPath, "", workload.Options{Load: load})
		if err != nil {
			t.Fatal(err)
		}
		if b := workloadBytes(w); b < 4<<20 {
			t.Fatalf("a whole-CTC workload weighs %d bytes: too little to test the budget", b)
		}
	}
	var beside int64
	for _, e := range c.workloads.entries[:len(c.workloads.entries)-1] {
		beside += e.weight
	}
	if n := c.workloads.len(&c.mu); n == 4 || beside > workloadBudget {
		t.Errorf("%d workloads cached, %d bytes beside the newest: want fewer than 4 within %d", n, beside, workloadBudget)
	}
}
