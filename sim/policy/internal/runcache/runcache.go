// Package runcache memoises whole-workload simulations that policies need
// as an input (EASY end times for QoPS deadlines, category slowdowns for
// TSS limits): each is computed once per workload and process, and the
// last few are kept.
package runcache

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/schedfarm/schedfarm/sim"
)

// Key returns a SHA-256 of tag, procs and every job's ID, submit time,
// runtime, estimate and processor count: two workloads with the same key
// simulate alike.
func Key(tag string, procs int, jobs []sim.Job) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(tag))
	var b [40]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(procs))
	binary.LittleEndian.PutUint64(b[8:16], uint64(len(jobs)))
	h.Write(b[:16])
	for _, j := range jobs {
		binary.LittleEndian.PutUint64(b[0:], uint64(j.ID))
		binary.LittleEndian.PutUint64(b[8:], uint64(j.Submit))
		binary.LittleEndian.PutUint64(b[16:], uint64(j.Runtime))
		binary.LittleEndian.PutUint64(b[24:], uint64(j.Estimate))
		binary.LittleEndian.PutUint64(b[32:], uint64(j.Procs))
		h.Write(b[:])
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

type entry[V any] struct {
	once sync.Once
	val  V
	err  error
}

// Cache keeps the values of the last Size keys, oldest evicted first. It
// is safe for concurrent use; concurrent calls for one key compute it
// once. The zero value is not usable: make one with [New].
type Cache[V any] struct {
	mu    sync.Mutex
	size  int
	m     map[[sha256.Size]byte]*entry[V]
	order [][sha256.Size]byte
}

// New returns a cache that keeps size values (size >= 1).
func New[V any](size int) *Cache[V] {
	return &Cache[V]{size: size, m: make(map[[sha256.Size]byte]*entry[V])}
}

// Get returns the value of key, calling compute the first time the key is
// asked for (or again after it was evicted). An error is cached like a
// value.
func (c *Cache[V]) Get(key [sha256.Size]byte, compute func() (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &entry[V]{}
		c.m[key] = e
		c.order = append(c.order, key)
		if len(c.order) > c.size {
			delete(c.m, c.order[0])
			c.order = append(c.order[:0], c.order[1:]...)
		}
	}
	c.mu.Unlock()
	e.once.Do(func() { e.val, e.err = compute() })
	return e.val, e.err
}

// Len returns the number of keys held.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Reset forgets every key (benchmarks use it to time the computation).
func (c *Cache[V]) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
	c.order = c.order[:0]
}
