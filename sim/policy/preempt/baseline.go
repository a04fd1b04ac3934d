package preempt

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/internal/runcache"
)

// baselineCacheSize bounds the number of workloads whose TSS baseline is
// kept in the process.
const baselineCacheSize = 8

// baselines caches TSS baselines by workload, the last few kept.
var baselines = runcache.New[map[string]float64](baselineCacheSize)

// Baseline returns the TSS baseline of a workload: the mean bounded
// slowdown of each non-empty ss16 category (by label) when jobs run on
// procs processors under EASY backfilling without suspension (the
// paper's NS scheme). It is deterministic; results for the last few
// workloads are cached in the process, keyed by a SHA-256 of procs and
// every job, and concurrent calls for the same workload simulate it once.
// The returned map is the caller's.
func Baseline(procs int, jobs []sim.Job) (map[string]float64, error) {
	return cachedBaseline(runcache.Key("", procs, jobs), func() (map[string]float64, error) {
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
	if cfg.StopScan {
		tag += " stop_scan"
	}
	if cfg.MarksOnly {
		tag += " marks_only"
	}
	if cfg.DeferStart {
		tag += " defer_start"
		if cfg.DeferBackfill {
			tag += " defer_backfill"
		}
	}
	return cachedBaseline(runcache.Key(tag, procs, jobs), func() (map[string]float64, error) {
		p, err := NewSS(cfg, procs, jobs)
		if err != nil {
			return nil, err
		}
		return computeBaseline(procs, jobs, p)
	})
}

func cachedBaseline(key [sha256.Size]byte, compute func() (map[string]float64, error)) (map[string]float64, error) {
	val, err := baselines.Get(key, compute)
	return maps.Clone(val), err
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
