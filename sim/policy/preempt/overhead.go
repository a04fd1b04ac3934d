package preempt

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// Defaults of the suspension overhead model (Kettimuthu et al. 2005,
// section 5.1).
const (
	// DefaultOverheadRate is the rate at which a processor writes or reads
	// its memory image, in MB/s (a quad node with an 8 MB/s local disk).
	DefaultOverheadRate = 2.0
	// DefaultMemMin and DefaultMemMax bound a job's memory per processor,
	// in MB (100 MB to 1 GB = 1024 MB).
	DefaultMemMin = 100.0
	DefaultMemMax = 1024.0
)

// Overhead is the cost model of suspending and resuming a job: each job
// gets a memory size per processor drawn uniformly from [MemMin, MemMax]
// MB, and suspending or resuming it takes memory / Rate seconds, rounded
// up to whole seconds (at least 1), on every processor at once, so the
// time does not depend on the job's width. During that time the job holds
// its processors and does no work.
//
// The draw is a pure function of (Seed, job ID): the same job costs the
// same under every policy of a sweep with the same seed, and a job costs
// the same to suspend as to resume. The zero value (Rate 0) means no
// overhead.
type Overhead struct {
	// Seed seeds the memory draws (the run's seed).
	Seed uint64
	// Rate is the transfer rate per processor in MB/s; 0 disables the
	// overhead, otherwise it must be > 0. Default [DefaultOverheadRate].
	Rate float64
	// MemMin and MemMax bound the memory per processor in MB;
	// 0 <= MemMin <= MemMax. Defaults [DefaultMemMin], [DefaultMemMax].
	MemMin, MemMax float64
}

// DefaultOverhead returns the paper's overhead model seeded with seed.
func DefaultOverhead(seed uint64) Overhead {
	return Overhead{Seed: seed, Rate: DefaultOverheadRate, MemMin: DefaultMemMin, MemMax: DefaultMemMax}
}

// Enabled reports whether the model charges any overhead.
func (o Overhead) Enabled() bool { return o.Rate != 0 }

// Validate checks the model; errors wrap [ErrInvalidConfig].
func (o Overhead) Validate() error {
	if !o.Enabled() {
		return nil
	}
	bad := func(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }
	switch {
	case bad(o.Rate) || o.Rate < 0:
		return fmt.Errorf("%w: overhead rate %v MB/s, want > 0", ErrInvalidConfig, o.Rate)
	case bad(o.MemMin) || bad(o.MemMax) || o.MemMin < 0 || o.MemMax < o.MemMin:
		return fmt.Errorf("%w: memory range [%v, %v] MB, want 0 <= min <= max", ErrInvalidConfig, o.MemMin, o.MemMax)
	case o.Rate > 0 && o.MemMax/o.Rate > MaxOverhead:
		return fmt.Errorf("%w: %w: mem_max / overhead_rate = %g s, want at most %d s (one day)", ErrInvalidConfig, ErrOverheadBound, o.MemMax/o.Rate, MaxOverhead)
	}
	return nil
}

// MaxOverhead bounds one suspend or resume overhead, mem_max / rate
// seconds: one day. The paper's model (100 MB to 1 GB per processor at
// 2 MB/s) stays below 500 s; a larger bound would let a run with absurd
// settings take hours of preemption rounds while overheads elapse.
const MaxOverhead = 24 * 3600

// ErrOverheadBound is wrapped by [Overhead.Validate] when one overhead
// could exceed [MaxOverhead].
var ErrOverheadBound = errors.New("suspension overhead too large")

// Memory returns the memory per processor of job id, in MB.
func (o Overhead) Memory(id int64) float64 {
	u := splitmix(splitmix(o.Seed) ^ uint64(id))
	frac := float64(u>>11) / (1 << 53) // uniform in [0, 1)
	return o.MemMin + frac*(o.MemMax-o.MemMin)
}

// Cost returns the time to suspend (or to resume) job id: 0 when the model
// is disabled, else ceil(Memory(id) / Rate) and at least 1 second.
func (o Overhead) Cost(id int64) sim.Time {
	if !o.Enabled() {
		return 0
	}
	return max(1, sim.Time(math.Ceil(o.Memory(id)/o.Rate)))
}

// splitmix is the SplitMix64 output function: a bijective mix of 64 bits.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
