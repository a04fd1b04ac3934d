// Package tick runs a function at a fixed interval in the background
// until it is told to stop: the worker's progress signals to the server
// and the coordinator store's page-outs.
package tick

import (
	"sync"
	"time"
)

// Every calls f every interval d, from a goroutine of its own, until the
// returned stop function is called. stop waits for a call of f under
// way to return, so nothing f uses is touched after stop returns; it may
// be called more than once.
func Every(d time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	})
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}
