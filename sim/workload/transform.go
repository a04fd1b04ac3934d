package workload

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// LoadMode says how a load factor changes a workload. The zero value is
// [LoadArrival].
type LoadMode uint8

// Load modes.
const (
	// LoadArrival divides inter-arrival times by the load factor
	// (Kettimuthu et al.); a factor below 1 stretches them. Submit times
	// are rounded to the nearest second, which keeps their order.
	LoadArrival LoadMode = iota
	// LoadDuplicate adds copies of randomly chosen jobs at their submit
	// times (Islam et al.): each job gets floor(LF-1) copies plus one more
	// with probability frac(LF-1). The factor must be at least 1.
	LoadDuplicate
)

var loadModes = enum[LoadMode]{what: "load mode", typ: "LoadMode", names: []string{"arrival", "duplicate"}}

// Load factor limits: [Options.Load] is 0 (no change) or in
// [MinLoad, MaxLoad].
const (
	MinLoad = 0.01
	MaxLoad = 100
)

// String returns the mode's name as [ParseLoadMode] accepts it.
func (m LoadMode) String() string { return loadModes.name(m) }

// ParseLoadMode returns the mode named s: "arrival" (or "arrival_scale")
// or "duplicate". Unknown names are an error wrapping [ErrInvalidOption]
// that quotes s and lists the valid names.
func ParseLoadMode(s string) (LoadMode, error) {
	if s == "arrival_scale" {
		return LoadArrival, nil
	}
	return loadModes.parse(s, strings.Join(loadModes.names, ", ")+", arrival_scale")
}

// MarshalText implements [encoding.TextMarshaler].
func (m LoadMode) MarshalText() ([]byte, error) { return loadModes.marshal(m) }

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseLoadMode].
func (m *LoadMode) UnmarshalText(b []byte) error {
	v, err := ParseLoadMode(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

func (m LoadMode) validate() error { return loadModes.validate(m) }

// scaleArrivals divides the inter-arrival times of jobs (sorted by submit)
// by lf in place: submit' = submit0 + round((submit - submit0) / lf).
func scaleArrivals(jobs []sim.Job, lf float64) {
	if len(jobs) == 0 {
		return
	}
	base := jobs[0].Submit
	for i := range jobs {
		d := float64(jobs[i].Submit - base)
		jobs[i].Submit = base + sim.Time(math.Round(d/lf))
	}
}

// pcgStream is the fixed second word of the PCG seed; the first is the
// caller's seed.
const pcgStream = 0x5ca1ab1e_0ddba11

// duplicate returns jobs with copies added by [LoadDuplicate] at factor lf,
// each copy right after its original. Copies get ids nextID, nextID+1, ...
func duplicate(jobs []sim.Job, lf float64, seed uint64, nextID int64) []sim.Job {
	extra := lf - 1
	whole := int(math.Floor(extra))
	frac := extra - float64(whole)
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	// Room for the expected number of copies plus four standard deviations
	// (sd <= sqrt(n)/2), so that the slice almost never grows.
	n := float64(len(jobs))
	out := make([]sim.Job, 0, len(jobs)*(1+whole)+int(n*frac+2*math.Sqrt(n))+16)
	for _, j := range jobs {
		out = append(out, j)
		k := whole
		if frac > 0 && rng.Float64() < frac {
			k++
		}
		for range k {
			c := j
			c.ID = nextID
			c.Origin = j.ID
			nextID++
			out = append(out, c)
		}
	}
	return out
}
