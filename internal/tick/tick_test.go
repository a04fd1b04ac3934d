package tick

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestEvery checks that f is called repeatedly, never after stop has
// returned, and that stop may be called twice.
func TestEvery(t *testing.T) {
	var n atomic.Int64
	reached := make(chan struct{})
	stop := Every(time.Millisecond, func() {
		if n.Add(1) == 3 {
			close(reached)
		}
	})
	select {
	case <-reached:
	case <-time.After(time.Minute):
		t.Fatal("f not called three times within a minute")
	}
	stop()
	after := n.Load()
	time.Sleep(20 * time.Millisecond)
	if got := n.Load(); got != after {
		t.Errorf("f called %d times after stop returned", got-after)
	}
	stop()
}

// TestEvery_StopWaitsForCall checks that stop waits for a call under way.
func TestEvery_StopWaitsForCall(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	var finished atomic.Bool
	stop := Every(time.Millisecond, func() {
		select {
		case entered <- struct{}{}:
		default:
			return
		}
		<-release
		finished.Store(true)
	})
	<-entered
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("stop returned while f was running")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-stopped
	if !finished.Load() {
		t.Error("stop returned before f's call finished")
	}
}
