package runcache_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/internal/runcache"
)

func TestKey(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 10, Estimate: 20, Procs: 4}}
	k := runcache.Key("", 8, jobs)
	if k != runcache.Key("", 8, jobs) {
		t.Fatal("Key() is not deterministic")
	}
	other := []sim.Job{{ID: 1, Submit: 0, Runtime: 10, Estimate: 21, Procs: 4}}
	for name, k2 := range map[string][32]byte{
		"tag":      runcache.Key("ss", 8, jobs),
		"procs":    runcache.Key("", 9, jobs),
		"estimate": runcache.Key("", 8, other),
	} {
		if k2 == k {
			t.Errorf("Key() ignores the %s", name)
		}
	}
}

func TestCache_Get(t *testing.T) {
	c := runcache.New[int](2)
	calls := map[byte]int{}
	var mu sync.Mutex
	get := func(b byte) (int, error) {
		return c.Get([32]byte{b}, func() (int, error) {
			mu.Lock()
			defer mu.Unlock()
			calls[b]++
			if b == 9 {
				return 0, errors.New("boom")
			}
			return int(b) * 10, nil
		})
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); get(1) }()
	}
	wg.Wait()
	if v, err := get(1); v != 10 || err != nil || calls[1] != 1 {
		t.Fatalf("Get(1) = %v, %v after %d computations, want 10, nil after 1", v, err, calls[1])
	}
	if _, err := get(9); err == nil {
		t.Fatal("Get(9) hid the compute error")
	}
	get(9)
	if calls[9] != 1 {
		t.Errorf("an error was computed %d times, want it cached", calls[9])
	}
	get(3) // evicts 1, the oldest of the size-2 cache
	get(1)
	if calls[1] != 2 {
		t.Errorf("key 1 computed %d times after eviction, want 2", calls[1])
	}
}
