package workload

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGammaCDF checks the incomplete gamma function on values known in
// closed form: Gamma(1, s) is exponential, Gamma(2, 1) has CDF
// 1 - e^-x (1 + x), Gamma(1/2, 2) is chi-squared with one degree of freedom.
func TestGammaCDF(t *testing.T) {
	for _, c := range []struct{ x, a, b, want float64 }{
		{1, 1, 1, 1 - math.Exp(-1)},
		{3, 1, 2, 1 - math.Exp(-1.5)},
		{3, 2, 1, 1 - math.Exp(-3)*4},
		{0.5, 2, 1, 1 - math.Exp(-0.5)*1.5},
		{10, 2, 1, 1 - math.Exp(-10)*11},
		{1, 0.5, 2, math.Erf(math.Sqrt(0.5))},
		{25, 0.5, 2, math.Erf(math.Sqrt(12.5))},
	} {
		if got := gammaCDF(c.x, c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("gammaCDF(%g, %g, %g) = %.15f, want %.15f", c.x, c.a, c.b, got, c.want)
		}
	}
}

// TestLublin_Moments generates 100,000 jobs of the model with its
// published parameters (128 processors) and checks, per class (SWF queue
// 1 batch, 0 interactive), the moments the parameters imply:
//   - the fraction of serial jobs is serial_prob (within 4 standard
//     errors);
//   - the mean log2 size of parallel jobs is that of the two-stage
//     uniform, uprob (ulow + umed)/2 + (1 - uprob)(umed + uhi)/2, within
//     0.1 (sizes are rounded to whole processors);
//   - the mean ln runtime drawn for the jobs' sizes is the mean over the
//     jobs of the hyper-gamma's p a1 b1 + (1 - p) a2 b2 with p = pa size
//   - pb, within 0.05 (values past 12 are drawn again), and every
//     runtime is at least 1 s and below e^12;
//   - arrivals follow the daily cycle: the shares of a class's jobs
//     arriving in the 48 half hours correlate with the slot weights
//     (Pearson r > 0.95) and are within a total variation distance of
//     0.05 of weight / 48 (arrivals come in bursts, so the distance of a
//     sample of 15,000 jobs spreads over about 0.02-0.04; 85,000
//     interactive jobs give 0.019 with seed 7).
func TestLublin_Moments(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 jobs")
	}
	g := NewLublin(0)
	g.Jobs, g.Seed = 100000, 7
	jobs, base, err := g.generate()
	if err != nil {
		t.Fatal(err)
	}
	w, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	checkWorkload(t, w)
	rng := rand.New(rand.NewPCG(3, 4))
	for class, c := range []*LublinClass{&g.Interactive, &g.Batch} {
		var n, serial, par int
		var log2Size, lnRT, wantLnRT float64
		var slots [lublinDaySlots]float64
		for _, j := range jobs {
			if int(j.Info.Queue) != class {
				continue
			}
			n++
			if j.Procs == 1 {
				serial++
			} else {
				par++
				log2Size += math.Log2(float64(j.Procs))
			}
			p := min(max(c.PA*float64(j.Procs)+c.PB, 0), 1)
			wantLnRT += p*c.A1*c.B1 + (1-p)*c.A2*c.B2
			lnRT += lublinLnRuntime(rng, c, j.Procs)
			if j.Runtime < 1 || float64(j.Runtime) > math.Exp(12) {
				t.Fatalf("job %d: runtime %d", j.ID, j.Runtime)
			}
			at := float64(j.Submit) + base
			slots[int(math.Mod(at, 24*3600))/lublinSlot]++
		}
		if n < 10000 {
			t.Fatalf("class %d: %d jobs", class, n)
		}
		fn := float64(n)
		if se := math.Sqrt(c.SerialProb * (1 - c.SerialProb) / fn); math.Abs(float64(serial)/fn-c.SerialProb) > 4*se {
			t.Errorf("class %d: serial fraction %.4f, want %.4f", class, float64(serial)/fn, c.SerialProb)
		}
		wantLog2 := c.UProb*(c.ULow+c.UMed)/2 + (1-c.UProb)*(c.UMed+c.UHi)/2
		if got := log2Size / float64(par); math.Abs(got-wantLog2) > 0.1 {
			t.Errorf("class %d: mean log2 size of parallel jobs %.3f, want %.3f", class, got, wantLog2)
		}
		if got, want := lnRT/fn, wantLnRT/fn; math.Abs(got-want) > 0.05 {
			t.Errorf("class %d: mean ln runtime %.3f, want %.3f", class, got, want)
		}
		s := newLublinStream(c)
		tv := 0.0
		var sx, sy, sxx, syy, sxy float64
		for i := range slots {
			x, y := slots[i]/fn, s.weights[i]/lublinDaySlots
			tv += math.Abs(x - y)
			sx, sy, sxx, syy, sxy = sx+x, sy+y, sxx+x*x, syy+y*y, sxy+x*y
		}
		const k = lublinDaySlots
		r := (k*sxy - sx*sy) / math.Sqrt((k*sxx-sx*sx)*(k*syy-sy*sy))
		if tv /= 2; tv > 0.05 || r < 0.95 {
			t.Errorf("class %d: arrivals by half hour are %.3f (total variation) from the daily cycle, correlation %.3f", class, tv, r)
		}
		t.Logf("class %d: %d jobs, serial %.4f, log2 size %.3f (%.3f), ln runtime %.3f (%.3f), cycle distance %.4f, r %.3f",
			class, n, float64(serial)/fn, log2Size/float64(par), wantLog2, lnRT/fn, wantLnRT/fn, tv, r)
	}
}

// TestLublin_Seeded: the same seed gives the same jobs, another seed
// others.
func TestLublin_Seeded(t *testing.T) {
	g := NewLublin(256)
	g.Jobs, g.Seed = 2000, 1
	a, err := g.Generate()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.Generate()
	g.Seed = 2
	c, _ := g.Generate()
	same := func(x, y *Workload) bool {
		for i := range x.Jobs {
			if x.Jobs[i] != y.Jobs[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) || same(a, c) {
		t.Errorf("seeding: same seed equal %v, other seed equal %v", same(a, b), same(a, c))
	}
	checkWorkload(t, a)
}

// TestParseLublin: keys override the parameters; unknown keys and bad
// values are reported with their key path.
func TestParseLublin(t *testing.T) {
	g, err := ParseLublin(64, 1.5, map[string]any{"jobs": 500, "a1_batch": 5.0, "serial_prob_interactive": "0.3"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Jobs != 500 || g.Batch.A1 != 5 || g.Interactive.SerialProb != 0.3 || g.Load != 1.5 || g.Batch.UHi != 6 || g.Interactive.UMed != 2 {
		t.Errorf("parsed %+v", g)
	}
	for _, c := range []struct {
		gen  map[string]any
		want string
	}{
		{map[string]any{"jobz": 1}, "gen.jobz: unknown key"},
		{map[string]any{"jobs": 1.5}, "gen.jobs: must be a whole number"},
		{map[string]any{"uprob_batch": 2}, "gen.uprob_batch: must be in 0..1"},
		{map[string]any{"uhi_interactive": 9}, "gen.uhi_interactive: need 0 <= ulow <= umed <= uhi <= log2(procs)"},
		{map[string]any{"b2_batch": 0}, "gen.b2_batch: must be in (0, 1e6]"},
	} {
		_, err := ParseLublin(128, 1, c.gen)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.gen, err, c.want)
		}
	}
}
