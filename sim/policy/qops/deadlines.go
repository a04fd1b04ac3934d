package qops

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// easyCacheSize bounds the number of workloads whose EASY end times are
// kept in the process.
const easyCacheSize = 8

type easyEntry struct {
	once sync.Once
	ends map[int64]sim.Time
	err  error
}

// easyRuns caches EASY end times by workload hash, oldest evicted first.
var easyRuns struct {
	sync.Mutex
	m     map[[sha256.Size]byte]*easyEntry
	order [][sha256.Size]byte
}

// EASYEnds returns the completion time of every job under EASY
// backfilling on procs processors, by job ID. It is deterministic;
// results for the last few workloads are cached in the process, keyed by
// a SHA-256 of procs and every job, and concurrent calls for the same
// workload simulate it once. The returned map must not be modified.
func EASYEnds(procs int, jobs []sim.Job) (map[int64]sim.Time, error) {
	key := workloadKey(procs, jobs)
	easyRuns.Lock()
	if easyRuns.m == nil {
		easyRuns.m = make(map[[sha256.Size]byte]*easyEntry)
	}
	e, ok := easyRuns.m[key]
	if !ok {
		e = &easyEntry{}
		easyRuns.m[key] = e
		easyRuns.order = append(easyRuns.order, key)
		if len(easyRuns.order) > easyCacheSize {
			delete(easyRuns.m, easyRuns.order[0])
			easyRuns.order = append(easyRuns.order[:0], easyRuns.order[1:]...)
		}
	}
	easyRuns.Unlock()
	e.once.Do(func() {
		res, err := sim.Run(context.Background(), procs, jobs, backfill.NewEASY(), sim.Options{})
		if err != nil {
			e.err = fmt.Errorf("qops deadlines: easy run: %w", err)
			return
		}
		e.ends = make(map[int64]sim.Time, len(res.Tasks))
		for i := range res.Tasks {
			e.ends[res.Tasks[i].ID] = res.Tasks[i].End
		}
	})
	return e.ends, e.err
}

func workloadKey(procs int, jobs []sim.Job) [sha256.Size]byte {
	h := sha256.New()
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

// RequestedDeadline returns section 5's deadline of a job that submits at
// submit, runs for runtime and ends at easyEnd under EASY, with
// stringency s: submit + max(runtime, floor((1-s) x (easyEnd - submit))).
func RequestedDeadline(submit, runtime, easyEnd sim.Time, s float64) sim.Time {
	return submit + max(runtime, sim.Time(math.Floor((1-s)*float64(easyEnd-submit))))
}

// Streams of the per-job draws.
const (
	streamDeadline  = 0x64656164 // "dead"
	streamTolerance = 0x746f6c65 // "tole"
)

// unit returns a number in [0, 1) drawn from (seed, stream, id) by the
// SplitMix64 finalizer: the same job gets the same draw in every run with
// the same seed, whatever the other jobs.
func unit(seed, stream uint64, id int64) float64 {
	x := seed ^ stream*0x9e3779b97f4a7c15 ^ uint64(id)*0xbf58476d1ce4e5b9
	for range 2 {
		x += 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return float64(x>>11) / (1 << 53)
}
