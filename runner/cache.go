package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"unsafe"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/workload"
)

// DefaultCacheSize is the number of workloads [DefaultCache] keeps.
const DefaultCacheSize = 8

// workloadBudget bounds the jobs of the workloads a [Cache] keeps, in
// bytes, besides their number: a workload of the whole CTC trace holds
// about 7.6 MB of jobs, so eight of them (the sweeps of many loads of one
// trace, where each task has a workload of its own) held 61 MB that no
// task was going to reuse. Two such workloads fit, enough for the tasks
// of one workload point run one after another; the most recent workload
// is kept whatever its size.
const workloadBudget = 16 << 20

// Cache keeps recently used traces and workloads in memory, keyed by the
// trace's sha256 (and the machine size for traces, all the workload
// options for workloads), least recently used out first. It holds at
// most size workloads and max(1, size/4) parsed traces: with the full CTC
// trace (77k jobs) a parsed trace is about 6 MB and a workload about
// 3 MB. Concurrent requests for the same workload load it once. Cached
// values are shared and must not be modified; the simulator and the
// policies only read them. A Cache is safe for concurrent use.
type Cache struct {
	mu        sync.Mutex
	traces    lru[traceKey, *workload.Trace]
	workloads lru[workloadKey, *workload.Workload]
}

type traceKey struct {
	sha   string
	procs int
}

type workloadKey struct {
	sha  string
	opts workload.Options
}

// NewCache returns a cache of at most size workloads (size < 1 means 1).
func NewCache(size int) *Cache {
	size = max(size, 1)
	return &Cache{
		traces:    lru[traceKey, *workload.Trace]{size: max(1, size/4)},
		workloads: lru[workloadKey, *workload.Workload]{size: size, budget: workloadBudget, weigh: workloadBytes},
	}
}

// Workload returns the workload of the trace file at path with opts,
// from the cache when it holds it. sha is the expected sha256 of the file
// ("" skips the check); a file with another sha256 gives an error
// wrapping [ErrTraceMismatch] and is not cached.
func (c *Cache) Workload(path, sha string, opts workload.Options) (*workload.Workload, error) {
	return c.WorkloadContext(context.Background(), path, sha, opts)
}

// WorkloadContext is [Cache.Workload] with a context: reading the trace
// stops soon after ctx is done. The trace is read with
// [workload.DefaultLimits].
func (c *Cache) WorkloadContext(ctx context.Context, path, sha string, opts workload.Options) (*workload.Workload, error) {
	if opts.Load == 0 || opts.Load == 1 || opts.LoadMode != workload.LoadDuplicate {
		opts.Seed = 0 // only the duplicate transform draws random numbers
	}
	wk := workloadKey{sha: sha, opts: opts}
	if sha == "" {
		wk.sha = "path:" + path
	}
	return c.workloads.get(&c.mu, wk, func() (*workload.Workload, error) {
		t, err := c.trace(ctx, path, sha, opts.Procs)
		if err != nil {
			return nil, err
		}
		return t.Build(opts)
	})
}

// trace returns the parsed trace at path for a machine size.
func (c *Cache) trace(ctx context.Context, path, sha string, procs int) (*workload.Trace, error) {
	tk := traceKey{sha: sha, procs: procs}
	if sha == "" {
		tk.sha = "path:" + path
	}
	return c.traces.get(&c.mu, tk, func() (*workload.Trace, error) {
		// Check the content before parsing it: a damaged local copy must
		// not pass for a malformed trace, which would fail the task for good.
		// Both passes stream the file: memory does not grow with its size.
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		defer f.Close()
		if sha != "" {
			h := sha256.New()
			if _, err := io.Copy(h, f); err != nil {
				return nil, fmt.Errorf("read trace: %w", err)
			}
			if sum := h.Sum(nil); hex.EncodeToString(sum) != sha {
				return nil, fmt.Errorf("%w: %s has sha256 %x, want %.12s", ErrTraceMismatch, path, sum[:6], sha)
			}
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return nil, fmt.Errorf("read trace: %w", err)
			}
		}
		return workload.ParseContext(ctx, f, path, procs, workload.Limits{})
	})
}

// workloadBytes is the memory of a workload's jobs.
func workloadBytes(w *workload.Workload) int64 {
	return int64(cap(w.Jobs)) * int64(unsafe.Sizeof(sim.Job{}))
}

// lru is a tiny least-recently-used map with at most size entries and,
// when weigh is set, at most budget bytes of loaded values besides the
// most recent one (after each get); its methods are called with the cache's mutex, which
// get releases while loading. Sizes are small, so a slice ordered by
// recency is enough.
type lru[K comparable, V any] struct {
	size    int
	budget  int64
	weigh   func(V) int64
	entries []*lruEntry[K, V] // most recent last
}

type lruEntry[K comparable, V any] struct {
	key    K
	done   chan struct{} // closed when val and err are set
	val    V
	err    error
	weight int64 // of val, once loaded (under the mutex)
}

// get returns the value for key, calling load (without holding mu) when
// it is missing. Concurrent gets of a missing key share one load. Errors
// are returned to every waiter but not kept.
func (l *lru[K, V]) get(mu *sync.Mutex, key K, load func() (V, error)) (V, error) {
	mu.Lock()
	for i, e := range l.entries {
		if e.key == key {
			l.entries = append(slices.Delete(l.entries, i, i+1), e)
			if l.weigh != nil {
				l.trim()
			}
			mu.Unlock()
			<-e.done
			return e.val, e.err
		}
	}
	e := &lruEntry[K, V]{key: key, done: make(chan struct{})}
	l.entries = append(l.entries, e)
	if len(l.entries) > l.size {
		l.entries = slices.Delete(l.entries, 0, 1)
	}
	mu.Unlock()

	func() {
		defer close(e.done)
		defer func() {
			if p := recover(); p != nil {
				e.err = fmt.Errorf("load: panic: %v", p)
			}
		}()
		e.val, e.err = load()
	}()
	if e.err != nil {
		mu.Lock()
		if i := slices.Index(l.entries, e); i >= 0 {
			l.entries = slices.Delete(l.entries, i, i+1)
		}
		mu.Unlock()
	} else if l.weigh != nil {
		w := l.weigh(e.val)
		mu.Lock()
		e.weight = w
		l.trim()
		mu.Unlock()
	}
	return e.val, e.err
}

// trim drops the least recently used loaded entries while the loaded
// values other than the most recent weigh more than the budget. The
// caller holds the mutex. A dropped value still in use stays valid: it
// is only no longer shared with later callers.
func (l *lru[K, V]) trim() {
	var total int64
	for _, e := range l.entries[:max(0, len(l.entries)-1)] {
		total += e.weight
	}
	for i := 0; total > l.budget && i < len(l.entries)-1; {
		if e := l.entries[i]; e.weight > 0 {
			total -= e.weight
			l.entries = slices.Delete(l.entries, i, i+1)
			continue
		}
		i++
	}
}

// len returns the number of entries (for tests).
func (l *lru[K, V]) len(mu *sync.Mutex) int {
	mu.Lock()
	defer mu.Unlock()
	return len(l.entries)
}
