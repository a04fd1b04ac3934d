package testkit

import (
	"runtime/metrics"
	"sync"
	"time"
)

// LiveHeap returns the live heap as of the latest garbage collection
// (runtime/metrics' /gc/heap/live:bytes).
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// LivePeak samples the live heap every millisecond until stop is called
// and returns the largest sample: the memory tests' measure of a peak,
// which a collection may come too late to show in a single reading after
// the work.
func LivePeak() (stop func() uint64) {
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, LiveHeap())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak }
}
