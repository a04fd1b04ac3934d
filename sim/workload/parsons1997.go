package workload

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// SyntheticParsons1997 is the name of the synthetic workload of Parsons &
// Sevcik 1997, §6 ([Parsons1997]).
const SyntheticParsons1997 = "parsons1997"

// Synthetics lists the synthetic workload names [Synthetic] accepts.
func Synthetics() []string { return []string{SyntheticParsons1997, SyntheticLublin} }

// ErrUnknownSynthetic is wrapped when a synthetic workload name is unknown.
var ErrUnknownSynthetic = errors.New("unknown synthetic workload")

// Defaults of [Parsons1997] (Parsons & Sevcik 1997, §6).
const (
	DefaultParsonsProcs        = 128
	DefaultParsonsUnit         = 8
	DefaultParsonsDemandMean   = 8000
	DefaultParsonsDemandCV     = 4
	DefaultParsonsGoodFraction = 0.75
	DefaultParsonsGoodSeq      = 0.001
	DefaultParsonsPoorSeq      = 0.1
	DefaultParsonsTagged       = 200
	DefaultParsonsHorizon      = 259200
)

// Parsons1997 generates the synthetic workload of Parsons & Sevcik 1997, §6:
// elastic jobs ([sim.Elastic]) on a machine of Procs processors in
// allocation units of Unit.
//
// Per job i = 0, 1, ..., drawn from one PCG stream seeded with the seed
// ([rand.NewPCG](seed, 0x5eed1997)) in this order:
//
//  1. for i > 0 the gap to the previous arrival, exponential with mean
//     MeanInterarrival/Load; submit = floor(cumulative time) (the first
//     job arrives at 0, drawing no gap);
//  2. a uniform u choosing the branch of a balanced-means two-phase
//     hyperexponential with mean DemandMean and coefficient of variation
//     DemandCV: p1 = ½(1+√((C²−1)/(C²+1))); u < p1 gives an exponential
//     of mean m/(2p1), else of mean m/(2(1−p1));
//  3. the exponential demand D itself (seconds on one processor);
//  4. a uniform choosing the speedup class: below GoodFraction the
//     sequential fraction f is GoodSeq, else PoorSeq (Amdahl); with
//     PoorMinUnits > 0 the uniform is drawn but unused, and the class
//     follows the minimum allocation instead (see PoorMinUnits);
//  5. the minimum allocation, Unit·U{1..Procs/Unit};
//  6. the desired allocation, Unit·U{min/Unit..Procs/Unit}.
//
// The maximum allocation is Procs. The job's rigid size is the desired
// one, and its Runtime = Estimate = T(desired), where
// T(k) = max(1, ceil(D·(f+(1−f)/k) − 1e-6)). The first Tagged jobs are
// tagged (measured); arrivals continue while submit < Horizon (Horizon 0:
// only the tagged jobs). Job ids are 1, 2, ... in arrival order.
type Parsons1997 struct {
	Procs            int     // machine size (default 128); a multiple of Unit
	Unit             int     // allocation unit (default 8)
	MeanInterarrival float64 // mean gap between arrivals, s (> 0; required)
	Load             float64 // divides MeanInterarrival (0 or 1: unchanged)
	DemandMean       float64 // mean demand, s (default 8000)
	DemandCV         float64 // demand coefficient of variation (>= 1; default 4)
	GoodFraction     float64 // share of jobs with good speedup (default 0.75)
	GoodSeq, PoorSeq float64 // sequential fractions (defaults 0.001, 0.1)
	Tagged           int     // measured jobs (default 200)
	Horizon          sim.Time
	Seed             uint64
	// PoorMinUnits ties speedup to size: with n > 0 a job whose minimum
	// allocation is at most n units has PoorSeq, every other GoodSeq
	// (GoodFraction is then unused; n = 4 of 16 units makes a quarter of
	// the jobs poor, as GoodFraction 0.75 does). §6.1: "performance
	// benefits of knowing speedup information can only be obtained ... if
	// larger-sized jobs tend to have better speedup than smaller-sized
	// ones ... As such, we let 75% of the jobs have good speedup". 0 (the
	// default): the class is drawn independently of size.
	PoorMinUnits int
}

// NewParsons1997 returns the generator with the paper's defaults; the
// caller sets MeanInterarrival and Seed.
func NewParsons1997() Parsons1997 {
	return Parsons1997{
		Procs: DefaultParsonsProcs, Unit: DefaultParsonsUnit,
		DemandMean: DefaultParsonsDemandMean, DemandCV: DefaultParsonsDemandCV,
		GoodFraction: DefaultParsonsGoodFraction, GoodSeq: DefaultParsonsGoodSeq, PoorSeq: DefaultParsonsPoorSeq,
		Tagged: DefaultParsonsTagged, Horizon: DefaultParsonsHorizon,
	}
}

// GenError is a problem with one generator key: Key is its path below the
// workload (for example "gen.demand_cv"), Msg says what is wrong. It wraps
// [ErrInvalidOption].
type GenError struct {
	Key string
	Msg string
}

// Error returns "key: message".
func (e *GenError) Error() string { return e.Key + ": " + e.Msg }

// Unwrap returns [ErrInvalidOption].
func (e *GenError) Unwrap() error { return ErrInvalidOption }

func genErr(key, format string, a ...any) error {
	return &GenError{Key: key, Msg: fmt.Sprintf(format, a...)}
}

// Validate checks the configuration; every problem is reported (joined),
// each a [*GenError] naming its key ("procs", "load" or "gen.<key>").
func (g Parsons1997) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) { errs = append(errs, genErr(key, format, a...)) }
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if g.Unit < 1 {
		bad("gen.unit", "must be >= 1, got %d", g.Unit)
	}
	if g.Procs < 1 || g.Procs > MaxMachine {
		bad("procs", "must be 1..%d, got %d", MaxMachine, g.Procs)
	} else if g.Unit >= 1 && g.Procs%g.Unit != 0 {
		bad("gen.unit", "must divide procs %d, got %d", g.Procs, g.Unit)
	}
	if !finite(g.MeanInterarrival) || g.MeanInterarrival <= 0 {
		bad("gen.mean_interarrival", "must be > 0 (required), got %v", g.MeanInterarrival)
	}
	if g.Load != 0 && g.Load != 1 && (!finite(g.Load) || g.Load < MinLoad || g.Load > MaxLoad) {
		bad("load", "must be 0 (none) or %v..%v, got %v", MinLoad, MaxLoad, g.Load)
	}
	if !finite(g.DemandMean) || g.DemandMean <= 0 {
		bad("gen.demand_mean", "must be > 0, got %v", g.DemandMean)
	}
	if !finite(g.DemandCV) || g.DemandCV < 1 {
		bad("gen.demand_cv", "must be >= 1, got %v", g.DemandCV)
	}
	if !(g.GoodFraction >= 0 && g.GoodFraction <= 1) {
		bad("gen.good_fraction", "must be in [0, 1], got %v", g.GoodFraction)
	}
	if !(g.GoodSeq >= 0 && g.GoodSeq <= 1) {
		bad("gen.good_seq", "must be in [0, 1], got %v", g.GoodSeq)
	}
	if !(g.PoorSeq >= 0 && g.PoorSeq <= 1) {
		bad("gen.poor_seq", "must be in [0, 1], got %v", g.PoorSeq)
	}
	if g.PoorMinUnits < 0 || g.Unit >= 1 && g.PoorMinUnits > g.Procs/g.Unit {
		bad("gen.poor_min_units", "must be 0 (independent) or 1..procs/unit, got %d", g.PoorMinUnits)
	}
	if g.Tagged < 1 || g.Tagged > 10_000_000 {
		bad("gen.tagged", "must be 1..10000000, got %d", g.Tagged)
	}
	if g.Horizon < 0 || g.Horizon > MaxValue {
		bad("gen.horizon", "must be 0 (no cut-off) or 1..%d, got %d", MaxValue, g.Horizon)
	}
	return errors.Join(errs...)
}

// H2 returns the balanced-means hyperexponential's branch probability p1
// and the two branch means for mean m and coefficient of variation cv.
func H2(m, cv float64) (p1, mean1, mean2 float64) {
	c2 := cv * cv
	p1 = 0.5 * (1 + math.Sqrt((c2-1)/(c2+1)))
	mean1 = m / (2 * p1)
	if p1 < 1 {
		mean2 = m / (2 * (1 - p1))
	}
	return p1, mean1, mean2
}

// Amdahl returns T(k) = max(1, ceil(d·(f+(1−f)/k) − 1e-6)).
func Amdahl(d, f float64, k int) sim.Time {
	e := sim.Elastic{Work: d, SeqFrac: f}
	return e.Duration(d, k)
}

// Generate makes the workload. It returns an error wrapping
// [ErrInvalidOption] when the configuration is invalid.
func (g Parsons1997) Generate() (*Workload, error) {
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", SyntheticParsons1997, err)
	}
	dr := g.drawer()
	var jobs []sim.Job
	elastic := []sim.Elastic{}
	cum := 0.0
	for i := 0; ; i++ {
		x := dr.next(i)
		cum += x.gap
		submit := sim.Time(math.Floor(cum))
		if i >= g.Tagged && (g.Horizon == 0 || submit >= g.Horizon) {
			break
		}
		if submit > MaxValue {
			return nil, fmt.Errorf("generate %s: %w: job %d arrives after %d s", SyntheticParsons1997, ErrInvalidOption, i+1, MaxValue)
		}
		desired := x.desU * g.Unit
		rt := Amdahl(x.d, x.f, desired)
		elastic = append(elastic, sim.Elastic{
			Work: x.d, SeqFrac: x.f, Min: x.minU * g.Unit, Max: g.Procs, Unit: g.Unit, Tagged: i < g.Tagged,
		})
		jobs = append(jobs, sim.Job{ID: int64(i + 1), Submit: submit, Runtime: rt, Estimate: rt, Procs: desired, Info: sim.UnknownInfo()})
	}
	for i := range jobs {
		jobs[i].Elastic = &elastic[i]
	}
	name := SyntheticParsons1997
	return &Workload{Name: name, Procs: g.Procs, Jobs: jobs}, nil
}

// parsonsDraw is one job's random draws.
type parsonsDraw struct {
	gap, d, f  float64
	minU, desU int
}

// parsonsDrawer draws jobs in the documented order.
type parsonsDrawer struct {
	rng           *rand.Rand
	gap           float64
	p1, m1, m2    float64
	units         int
	good, goodSeq float64
	poorSeq       float64
	poorMinU      int
}

func (g Parsons1997) drawer() *parsonsDrawer {
	gap := g.MeanInterarrival
	if g.Load != 0 && g.Load != 1 {
		gap /= g.Load
	}
	p1, m1, m2 := H2(g.DemandMean, g.DemandCV)
	return &parsonsDrawer{
		rng: rand.New(rand.NewPCG(g.Seed, 0x5eed1997)), gap: gap, p1: p1, m1: m1, m2: m2,
		units: g.Procs / g.Unit, good: g.GoodFraction, goodSeq: g.GoodSeq, poorSeq: g.PoorSeq,
		poorMinU: g.PoorMinUnits,
	}
}

// next draws job i (i = 0 draws no gap).
func (dr *parsonsDrawer) next(i int) parsonsDraw {
	var x parsonsDraw
	if i > 0 {
		x.gap = dr.rng.ExpFloat64() * dr.gap
	}
	mean := dr.m2
	if dr.rng.Float64() < dr.p1 {
		mean = dr.m1
	}
	x.d = dr.rng.ExpFloat64() * mean
	if x.d <= 0 {
		x.d = math.SmallestNonzeroFloat64
	}
	x.f = dr.poorSeq
	if dr.rng.Float64() < dr.good {
		x.f = dr.goodSeq
	}
	x.minU = 1 + dr.rng.IntN(dr.units)
	x.desU = x.minU + dr.rng.IntN(dr.units-x.minU+1)
	if dr.poorMinU > 0 {
		x.f = dr.goodSeq
		if x.minU <= dr.poorMinU {
			x.f = dr.poorSeq
		}
	}
	return x
}

// ParsonsKeys are the generator's keys under gen:, in documentation order.
var ParsonsKeys = []string{"unit", "mean_interarrival", "demand_mean", "demand_cv", "good_fraction", "good_seq", "poor_seq", "poor_min_units", "tagged", "horizon"}

// Synthetic builds the synthetic workload name with machine size procs (0:
// the generator's default), load factor load (arrival mode; 0 or 1: none),
// generator keys gen (values as decoded from YAML or JSON, or text) and
// seed. Errors name the key path ("gen.demand_cv: ...").
func Synthetic(name string, procs int, load float64, gen map[string]any, seed uint64) (*Workload, error) {
	if name == SyntheticLublin {
		g, err := ParseLublin(procs, load, gen)
		if err != nil {
			return nil, err
		}
		g.Seed = seed
		return g.Generate()
	}
	if name != SyntheticParsons1997 {
		return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknownSynthetic, name, strings.Join(Synthetics(), ", "))
	}
	g, err := ParseParsons1997(procs, load, gen)
	if err != nil {
		return nil, err
	}
	g.Seed = seed
	return g.Generate()
}

// ParseParsons1997 fills a [Parsons1997] from defaults, procs, load and the
// gen keys, and validates it. Unknown keys and bad values are errors naming
// the key path.
func ParseParsons1997(procs int, load float64, gen map[string]any) (Parsons1997, error) {
	g := NewParsons1997()
	if procs != 0 {
		g.Procs = procs
	}
	g.Load = load
	var errs []error
	keys := make([]string, 0, len(gen))
	for k := range gen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := gen[k]
		path := "gen." + k
		if !slices.Contains(ParsonsKeys, k) {
			errs = append(errs, genErr(path, "unknown key (valid: %s)", strings.Join(ParsonsKeys, ", ")))
			continue
		}
		x, err := number(v)
		if err != nil {
			errs = append(errs, &GenError{Key: path, Msg: err.Error()})
			continue
		}
		whole := func() (int64, bool) {
			if x != math.Trunc(x) || math.Abs(x) > MaxValue {
				errs = append(errs, genErr(path, "must be a whole number, got %v", v))
				return 0, false
			}
			return int64(x), true
		}
		switch k {
		case "unit":
			if n, ok := whole(); ok {
				g.Unit = int(n)
			}
		case "tagged":
			if n, ok := whole(); ok {
				g.Tagged = int(n)
			}
		case "horizon":
			if n, ok := whole(); ok {
				g.Horizon = sim.Time(n)
			}
		case "poor_min_units":
			if n, ok := whole(); ok {
				g.PoorMinUnits = int(n)
			}
		case "mean_interarrival":
			g.MeanInterarrival = x
		case "demand_mean":
			g.DemandMean = x
		case "demand_cv":
			g.DemandCV = x
		case "good_fraction":
			g.GoodFraction = x
		case "good_seq":
			g.GoodSeq = x
		case "poor_seq":
			g.PoorSeq = x
		}
	}
	if len(errs) > 0 {
		return g, errors.Join(errs...)
	}
	return g, g.Validate()
}

// number converts a decoded YAML/JSON value or text to a float64.
func number(v any) (float64, error) {
	switch x := v.(type) {
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%v is not a finite number", x)
		}
		return x, nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%q is not a number", x)
		}
		return f, nil
	}
	return 0, fmt.Errorf("%v is not a number", v)
}
