package workload

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// SyntheticLublin is the name of the workload model of Lublin & Feitelson
// 2003 ([Lublin]).
const SyntheticLublin = "lublin"

// Defaults of [Lublin].
const (
	DefaultLublinProcs = 128   // the machine the parameters were fitted for
	DefaultLublinJobs  = 10000 // jobs generated
)

// lublinDaySlots is the number of half-hour slots of the daily cycle.
const lublinDaySlots = 48

// lublinSlot is a slot's length in seconds.
const lublinSlot = 24 * 3600 / lublinDaySlots

// LublinClass holds the model's parameters of one class of jobs (batch
// or interactive); the keys under gen: are the field names in lower case
// with the class as suffix (serial_prob_batch, a1_interactive, ...).
type LublinClass struct {
	// Size: a job is serial with probability SerialProb, else its log2
	// size is drawn from the two-stage uniform of ULow, UMed, UHi (with
	// probability UProb in [ULow, UMed], else in [UMed, UHi]) and, with
	// probability Pow2Prob (of all jobs), rounded to an integer.
	SerialProb, Pow2Prob, ULow, UMed, UHi, UProb float64
	// Runtime: ln(runtime) is hyper-gamma: Gamma(A1, B1) (shape, scale)
	// with probability p = PA x size + PB (clamped to [0, 1]), else
	// Gamma(A2, B2); values above 12 (about 45 hours) are drawn again.
	A1, B1, A2, B2, PA, PB float64
	// Arrivals: ln of the inter-arrival time at rush hours is
	// Gamma(AArr x ARAR, BArr) (values above 13 drawn again); the daily
	// cycle gives the half-hour slot starting at hour h/2 the weight of
	// the Gamma(ANum, BNum) probability of [h - 0.5, h + 0.5] on a day
	// running from 5:30 to 5:30 (slots 11..58).
	AArr, BArr, ANum, BNum, ARAR float64
}

// Lublin is the workload model of Lublin & Feitelson 2003 ("The workload
// on parallel supercomputers: modeling the characteristics of rigid
// jobs", JPDC 63(11)), the standard model of the Parallel Workloads
// Archive, with its published parameters as defaults. Jobs come in two
// classes, batch and interactive, each with its own size, runtime and
// arrival process; the next job is of the class whose next arrival comes
// first. The parameters were fitted for a 128-processor machine; for
// another size the largest log2 size UHi of batch jobs defaults to
// log2(Procs), UMed to UHi - 2, and for interactive jobs to UHi - 1.5 and
// UHi - 4 (7, 5, 5.5 and 3 at 128, the published values).
type Lublin struct {
	Procs int // machine size (>= 1)
	Jobs  int // number of jobs (>= 1)
	// Load scales the arrival rate (1: the model's).
	Load float64
	// Batch and Interactive are the two classes' parameters.
	Batch, Interactive LublinClass
	// Seed seeds the generator ([rand.NewPCG](seed, 0x1b11))).
	Seed uint64
}

// lublinBatch and lublinInteractive are the published parameters,
// before the machine-dependent UMed and UHi are set.
var (
	lublinBatch = LublinClass{
		SerialProb: 0.2927, Pow2Prob: 0.6686, ULow: 1.2, UProb: 0.875,
		A1: 6.57, B1: 0.823, A2: 639.1, B2: 0.0156, PA: -0.003, PB: 0.6986,
		AArr: 6.0415, BArr: 0.8531, ANum: 6.1271, BNum: 5.2740, ARAR: 1.0519,
	}
	lublinInteractive = LublinClass{
		SerialProb: 0.1541, Pow2Prob: 0.625, ULow: 1, UProb: 0.705,
		A1: 3.8351, B1: 0.6605, A2: 7.073, B2: 0.6856, PA: -0.0118, PB: 0.9156,
		AArr: 6.5510, BArr: 0.6621, ANum: 8.9186, BNum: 3.6680, ARAR: 0.9797,
	}
)

// NewLublin returns the model with its published parameters on procs
// processors (0: [DefaultLublinProcs]).
func NewLublin(procs int) Lublin {
	if procs <= 0 {
		procs = DefaultLublinProcs
	}
	g := Lublin{Procs: procs, Jobs: DefaultLublinJobs, Load: 1, Batch: lublinBatch, Interactive: lublinInteractive}
	uhi := math.Log2(float64(procs))
	g.Batch.UHi, g.Batch.UMed = uhi, uhi-2
	g.Interactive.UHi, g.Interactive.UMed = uhi-1.5, uhi-4
	return g
}

// lublinParams are the class parameters' key stems, in documentation
// order, with their fields.
var lublinParams = []struct {
	name  string
	field func(c *LublinClass) *float64
}{
	{"serial_prob", func(c *LublinClass) *float64 { return &c.SerialProb }},
	{"pow2_prob", func(c *LublinClass) *float64 { return &c.Pow2Prob }},
	{"ulow", func(c *LublinClass) *float64 { return &c.ULow }},
	{"umed", func(c *LublinClass) *float64 { return &c.UMed }},
	{"uhi", func(c *LublinClass) *float64 { return &c.UHi }},
	{"uprob", func(c *LublinClass) *float64 { return &c.UProb }},
	{"a1", func(c *LublinClass) *float64 { return &c.A1 }},
	{"b1", func(c *LublinClass) *float64 { return &c.B1 }},
	{"a2", func(c *LublinClass) *float64 { return &c.A2 }},
	{"b2", func(c *LublinClass) *float64 { return &c.B2 }},
	{"pa", func(c *LublinClass) *float64 { return &c.PA }},
	{"pb", func(c *LublinClass) *float64 { return &c.PB }},
	{"aarr", func(c *LublinClass) *float64 { return &c.AArr }},
	{"barr", func(c *LublinClass) *float64 { return &c.BArr }},
	{"anum", func(c *LublinClass) *float64 { return &c.ANum }},
	{"bnum", func(c *LublinClass) *float64 { return &c.BNum }},
	{"arar", func(c *LublinClass) *float64 { return &c.ARAR }},
}

// LublinKeys are the model's keys under gen:: jobs, then each class
// parameter with the suffix _batch and _interactive.
var LublinKeys = func() []string {
	keys := []string{"jobs"}
	for _, class := range []string{"batch", "interactive"} {
		for _, p := range lublinParams {
			keys = append(keys, p.name+"_"+class)
		}
	}
	return keys
}()

// ParseLublin fills a [Lublin] from its defaults, procs (0: the default),
// load and the gen keys, and validates it. Unknown keys and bad values
// are errors naming the key path.
func ParseLublin(procs int, load float64, gen map[string]any) (Lublin, error) {
	g := NewLublin(procs)
	if load != 0 {
		g.Load = load
	}
	var errs []error
	keys := make([]string, 0, len(gen))
	for k := range gen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := "gen." + k
		if !slices.Contains(LublinKeys, k) {
			errs = append(errs, genErr(path, "unknown key (valid: %s)", strings.Join(LublinKeys, ", ")))
			continue
		}
		x, err := number(gen[k])
		if err != nil {
			errs = append(errs, &GenError{Key: path, Msg: err.Error()})
			continue
		}
		if k == "jobs" {
			if x != math.Trunc(x) || x < 1 || x > DefaultMaxJobs {
				errs = append(errs, genErr(path, "must be a whole number in 1..%d, got %v", DefaultMaxJobs, gen[k]))
				continue
			}
			g.Jobs = int(x)
			continue
		}
		stem, c := strings.TrimSuffix(k, "_interactive"), &g.Interactive
		if strings.HasSuffix(k, "_batch") {
			stem, c = strings.TrimSuffix(k, "_batch"), &g.Batch
		}
		for _, p := range lublinParams {
			if p.name == stem {
				*p.field(c) = x
			}
		}
	}
	if len(errs) > 0 {
		return Lublin{}, errors.Join(errs...)
	}
	if err := g.Validate(); err != nil {
		return Lublin{}, err
	}
	return g, nil
}

// Validate checks the configuration; problems name the gen key.
func (g Lublin) Validate() error {
	var errs []error
	if g.Procs < 1 || g.Procs > MaxMachine {
		errs = append(errs, genErr("procs", "must be in 1..%d, got %d", MaxMachine, g.Procs))
	}
	if g.Jobs < 1 || g.Jobs > DefaultMaxJobs {
		errs = append(errs, genErr("gen.jobs", "must be in 1..%d, got %d", DefaultMaxJobs, g.Jobs))
	}
	if !(g.Load >= MinLoad && g.Load <= MaxLoad) {
		errs = append(errs, genErr("load", "must be in %v..%v, got %g", MinLoad, MaxLoad, g.Load))
	}
	maxU := math.Log2(float64(max(g.Procs, 1)))
	for _, cl := range []struct {
		name string
		c    LublinClass
	}{{"batch", g.Batch}, {"interactive", g.Interactive}} {
		c, key := cl.c, func(stem string) string { return "gen." + stem + "_" + cl.name }
		for _, p := range []struct {
			stem string
			v    float64
		}{{"serial_prob", c.SerialProb}, {"pow2_prob", c.Pow2Prob}, {"uprob", c.UProb}} {
			if !(p.v >= 0 && p.v <= 1) {
				errs = append(errs, genErr(key(p.stem), "must be in 0..1, got %v", p.v))
			}
		}
		if c.SerialProb+c.Pow2Prob > 1 {
			errs = append(errs, genErr(key("pow2_prob"), "serial_prob + pow2_prob must be <= 1, got %v", c.SerialProb+c.Pow2Prob))
		}
		if !(c.ULow >= 0 && c.ULow <= c.UMed && c.UMed <= c.UHi && c.UHi <= maxU) {
			errs = append(errs, genErr(key("uhi"), "need 0 <= ulow <= umed <= uhi <= log2(procs) = %.4g, got %v, %v, %v", maxU, c.ULow, c.UMed, c.UHi))
		}
		for _, p := range []struct {
			stem string
			v    float64
		}{{"a1", c.A1}, {"b1", c.B1}, {"a2", c.A2}, {"b2", c.B2}, {"aarr", c.AArr}, {"barr", c.BArr}, {"anum", c.ANum}, {"bnum", c.BNum}, {"arar", c.ARAR}} {
			if !(p.v > 0 && p.v <= 1e6) {
				errs = append(errs, genErr(key(p.stem), "must be in (0, 1e6], got %v", p.v))
			}
		}
		for _, p := range []struct {
			stem string
			v    float64
		}{{"pa", c.PA}, {"pb", c.PB}} {
			if math.IsNaN(p.v) || math.Abs(p.v) > 1e6 {
				errs = append(errs, genErr(key(p.stem), "must be a number in [-1e6, 1e6], got %v", p.v))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrInvalidOption, errors.Join(errs...))
	}
	return nil
}

// lublinStream is one class's arrival process.
type lublinStream struct {
	c        *LublinClass
	weights  [lublinDaySlots]float64 // slot weights, mean 1
	slot     int                     // the slot of next
	next     float64                 // the class's next arrival (s)
	points   float64                 // rush-hour slots of time not yet spent
	reminder float64                 // fraction of slot used by the last arrival
}

func newLublinStream(c *LublinClass) *lublinStream {
	s := &lublinStream{c: c}
	const dayStart = 11 // the fitted day starts at slot 11 (5:30)
	mean := 0.0
	for i := dayStart; i < dayStart+lublinDaySlots; i++ {
		w := gammaCDF(float64(i)+0.5, c.ANum, c.BNum) - gammaCDF(float64(i)-0.5, c.ANum, c.BNum)
		s.weights[(i-1)%lublinDaySlots] = w
		mean += w
	}
	mean /= lublinDaySlots
	for i := range s.weights {
		s.weights[i] /= mean
	}
	return s
}

// advance draws the class's next inter-arrival time: a rush-hour gap
// (e^Gamma, in slots of rush-hour time) is spent slot by slot, each slot
// costing its weight, so that quiet slots pass quickly.
func (s *lublinStream) advance(rng *rand.Rand, load float64) {
	var g float64
	for {
		if g = gammaRand(rng, s.c.AArr*s.c.ARAR, s.c.BArr); g <= 13 {
			break
		}
	}
	s.points += math.Exp(g) / lublinSlot / load
	gap := 0.0
	for s.points > s.weights[s.slot] {
		s.points -= s.weights[s.slot]
		s.slot = (s.slot + 1) % lublinDaySlots
		gap += lublinSlot
	}
	rem := s.points / s.weights[s.slot]
	gap += lublinSlot * (rem - s.reminder)
	s.reminder = rem
	s.next += gap
}

// Generate makes the workload: Jobs jobs, the first submitting at 0,
// accurate estimates (Estimate = Runtime), the class in SWF field 15
// (queue: 1 batch, 0 interactive).
func (g Lublin) Generate() (*Workload, error) {
	if err := g.Validate(); err != nil {
		return nil, fmt.Errorf("generate %s: %w", SyntheticLublin, err)
	}
	jobs, _, err := g.generate()
	if err != nil {
		return nil, err
	}
	return &Workload{Name: SyntheticLublin, Procs: g.Procs, Jobs: jobs, Estimates: EstimateAccurate}, nil
}

// generate makes the jobs and returns them with the model's time of the
// first arrival (the jobs' submit times start at 0).
func (g Lublin) generate() ([]sim.Job, float64, error) {
	rng := rand.New(rand.NewPCG(g.Seed, 0x1b11))
	streams := [2]*lublinStream{newLublinStream(&g.Interactive), newLublinStream(&g.Batch)}
	for _, s := range streams {
		s.advance(rng, g.Load)
	}
	jobs := make([]sim.Job, g.Jobs)
	var base float64
	for i := range jobs {
		class := 0 // interactive, as the model, on ties
		if streams[1].next < streams[0].next {
			class = 1
		}
		s := streams[class]
		at := s.next
		if i == 0 {
			base = math.Floor(at)
		}
		s.advance(rng, g.Load)
		procs := lublinSize(rng, s.c, g.Procs)
		rt := lublinRuntime(rng, s.c, procs)
		submit := math.Floor(at) - base
		if submit > MaxValue {
			return nil, 0, fmt.Errorf("generate %s: %w: job %d arrives after %d s", SyntheticLublin, ErrInvalidOption, i+1, MaxValue)
		}
		info := sim.UnknownInfo()
		info.Status, info.Queue = 1, int32(class)
		jobs[i] = sim.Job{ID: int64(i + 1), Submit: sim.Time(submit), Runtime: rt, Estimate: rt, Procs: procs, Info: info}
	}
	return jobs, base, nil
}

// lublinSize draws a job's size.
func lublinSize(rng *rand.Rand, c *LublinClass, procs int) int {
	u := rng.Float64()
	if u <= c.SerialProb {
		return 1
	}
	lo, hi := c.UMed, c.UHi
	if rng.Float64() <= c.UProb {
		lo, hi = c.ULow, c.UMed
	}
	par := lo + rng.Float64()*(hi-lo)
	if u <= c.SerialProb+c.Pow2Prob {
		par = math.Floor(par + 0.5)
	}
	return min(max(int(math.Pow(2, par)+0.5), 1), procs)
}

// lublinRuntime draws a job's runtime (>= 1 s) given its size: e^x
// rounded down, x from [lublinLnRuntime].
func lublinRuntime(rng *rand.Rand, c *LublinClass, procs int) sim.Time {
	return max(sim.Time(math.Exp(lublinLnRuntime(rng, c, procs))), 1)
}

// lublinLnRuntime draws the hyper-gamma ln runtime of a job of procs
// processors.
func lublinLnRuntime(rng *rand.Rand, c *LublinClass, procs int) float64 {
	p := min(max(c.PA*float64(procs)+c.PB, 0), 1)
	for {
		a, b := c.A2, c.B2
		if rng.Float64() <= p {
			a, b = c.A1, c.B1
		}
		if x := gammaRand(rng, a, b); x <= 12 {
			return x
		}
	}
}

// gammaRand draws from Gamma(shape a, scale b) (Marsaglia & Tsang 2000;
// for a < 1 through Gamma(a+1) x U^(1/a)).
func gammaRand(rng *rand.Rand, a, b float64) float64 {
	if a < 1 {
		return gammaRand(rng, a+1, b) * math.Pow(rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * b
		}
	}
}

// gammaCDF is the Gamma(shape a, scale b) distribution function at x: the
// regularized lower incomplete gamma function P(a, x/b), by its series
// below a+1 and its continued fraction above.
func gammaCDF(x, a, b float64) float64 {
	x /= b
	if x <= 0 {
		return 0
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return sum * front
	}
	// Lentz's method for the continued fraction of Q(a, x).
	const tiny = 1e-300
	bb := x + 1 - a
	cc := 1 / tiny
	dd := 1 / bb
	h := dd
	for n := 1; n < 1000; n++ {
		an := -float64(n) * (float64(n) - a)
		bb += 2
		dd = an*dd + bb
		if math.Abs(dd) < tiny {
			dd = tiny
		}
		cc = bb + an/cc
		if math.Abs(cc) < tiny {
			cc = tiny
		}
		dd = 1 / dd
		del := dd * cc
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return 1 - front*h
}
