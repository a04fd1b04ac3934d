package preempt

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"sync"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// baselineCacheSize bounds the number of workloads whose TSS baseline is
// kept in the process.
const baselineCacheSize = 8

type baselineEntry struct {
	once sync.Once
	val  map[string]float64
	err  error
}

// baselines caches TSS baselines by workload hash, oldest evicted first.
var baselines struct {
	sync.Mutex
	m     map[[sha256.Size]byte]*baselineEntry
	order [][sha256.Size]byte
}

// Baseline returns the TSS baseline of a workload: the mean bounded
// slowdown of each non-empty ss16 category (by label) when jobs run on
// procs processors under EASY backfilling without suspension (the
// paper's NS scheme). It is deterministic; results for the last few
// workloads are cached in the process, keyed by a SHA-256 of procs and
// every job, and concurrent calls for the same workload simulate it once.
// The returned map is the caller's.
func Baseline(procs int, jobs []sim.Job) (map[string]float64, error) {
	return cachedBaseline(workloadKey(procs, jobs, ""), func() (map[string]float64, error) {
		return computeBaseline(procs, jobs, backfill.NewEASY())
	})
}

// BaselineSS returns the TSS baseline read from a run of plain SS (cfg
// without Tunable and without overhead) on the same workload instead of
// EASY: the other reading of the paper's "average slowdown of the
// category" ([SSConfig.TSSBaselineSS]). Cached like [Baseline].
func BaselineSS(cfg SSConfig, procs int, jobs []sim.Job) (map[string]float64, error) {
	cfg.Tunable, cfg.Overhead = false, Overhead{}
	tag := fmt.Sprintf("ss %v %v %v %v %v", cfg.SuspensionFactor, cfg.WidthRatio, cfg.Interval, cfg.HoldRemembered, cfg.HoldBackfill)
	return cachedBaseline(workloadKey(procs, jobs, tag), func() (map[string]float64, error) {
		p, err := NewSS(cfg, procs, jobs)
		if err != nil {
			return nil, err
		}
		return computeBaseline(procs, jobs, p)
	})
}

func cachedBaseline(key [sha256.Size]byte, compute func() (map[string]float64, error)) (map[string]float64, error) {
	baselines.Lock()
	if baselines.m == nil {
		baselines.m = make(map[[sha256.Size]byte]*baselineEntry)
	}
	e, ok := baselines.m[key]
	if !ok {
		e = &baselineEntry{}
		baselines.m[key] = e
		baselines.order = append(baselines.order, key)
		if len(baselines.order) > baselineCacheSize {
			delete(baselines.m, baselines.order[0])
			baselines.order = append(baselines.order[:0], baselines.order[1:]...)
		}
	}
	baselines.Unlock()
	e.once.Do(func() { e.val, e.err = compute() })
	return maps.Clone(e.val), e.err
}

func computeBaseline(procs int, jobs []sim.Job, pol sim.Policy) (map[string]float64, error) {
	res, err := sim.Run(context.Background(), procs, jobs, pol, sim.Options{})
	if err != nil {
		return nil, fmt.Errorf("tss baseline run: %w", err)
	}
	s, err := metrics.LookupScheme("ss16")
	if err != nil {
		return nil, fmt.Errorf("tss baseline: %w", err)
	}
	out := make(map[string]float64)
	for _, a := range metrics.Summarize(s, metrics.Records(res)) {
		if a.Category != metrics.Overall && a.Count > 0 {
			out[a.Category] = a.BSD.Mean
		}
	}
	return out, nil
}

func workloadKey(procs int, jobs []sim.Job, tag string) [sha256.Size]byte {
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
