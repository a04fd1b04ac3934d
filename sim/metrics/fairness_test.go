package metrics

import (
	"math"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/sim"
)

// userRec returns a record of an admitted job of user u with the bounded
// slowdown and wait given.
func userRec(u int32, bsd float64, wait sim.Time) Record {
	r := Record{BSD: bsd, Wait: wait, Info: sim.UnknownInfo()}
	r.Info.User = u
	return r
}

// TestFairness_Hand: two users with means computed by hand; a job of
// unknown user and a rejected job are left out.
func TestFairness_Hand(t *testing.T) {
	recs := []Record{
		userRec(1, 1, 0), userRec(2, 4, 30), userRec(1, 3, 20),
		userRec(-1, 100, 5000), // unknown user
	}
	rej := userRec(2, 0, 0)
	rej.Rejected = true
	recs = append(recs, rej)
	// User 1: bsd (1+3)/2 = 2, wait 10; user 2: bsd 4, wait 30.
	// J_bsd = (2+4)^2 / (2 (4+16)) = 0.9; J_wait = 40^2 / (2 (100+900)) = 0.8.
	f := Fairness(recs)
	if f == nil || f.Users != 2 || math.Abs(f.JainBSD-0.9) > 1e-12 || math.Abs(f.JainWait-0.8) > 1e-12 {
		t.Fatalf("fairness %+v, want 2 users, 0.9, 0.8", f)
	}
	us := UserMeans(recs)
	if len(us) != 2 || us[0] != (UserMean{User: 1, Jobs: 2, BSD: 2, Wait: 10}) || us[1] != (UserMean{User: 2, Jobs: 1, BSD: 4, Wait: 30}) {
		t.Errorf("user means %+v", us)
	}
	if st := Stats(4, recs); st.Fairness == nil || *st.Fairness != *f {
		t.Errorf("Stats fairness %+v, want %+v", st.Fairness, f)
	}
}

// TestJain_Bounds: equal shares give 1, one user taking everything 1/n,
// all zeros 1, none 0.
func TestJain_Bounds(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 3, 3}, 1}, {[]float64{5, 0, 0, 0}, 0.25}, {[]float64{0, 0}, 1}, {nil, 0},
		{[]float64{1, 2, 3}, 36.0 / 42},
	} {
		if got := Jain(c.xs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Jain(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
	if Fairness([]Record{userRec(-1, 2, 0)}) != nil {
		t.Error("fairness of jobs of unknown users is not nil")
	}
}

// TestUserScheme: one category per user of the jobs, in increasing user
// number, then unknown; means by hand.
func TestUserScheme(t *testing.T) {
	s, err := LookupScheme("user")
	if err != nil || !s.PerTask() {
		t.Fatalf("user scheme: %v, per task %v", err, s != nil && s.PerTask())
	}
	recs := []Record{userRec(7, 3, 20), userRec(2, 1, 0), userRec(-1, 5, 40), userRec(7, 5, 40)}
	if got := s.Classify(&recs[0]); got != "user 7" {
		t.Errorf("Classify = %q, want user 7", got)
	}
	if got := s.Classify(&recs[2]); got != UnknownUser {
		t.Errorf("Classify of an unknown user = %q", got)
	}
	aggs := Summarize(s, recs)
	want := []struct {
		cat       string
		col, jobs int
		bsd, wait float64
	}{{"user 2", 0, 1, 1, 0}, {"user 7", 1, 2, 4, 30}, {UnknownUser, 2, 1, 5, 40}, {Overall, -1, 4, 3.5, 25}}
	if len(aggs) != len(want) {
		t.Fatalf("%d aggregates, want %d: %+v", len(aggs), len(want), aggs)
	}
	for k, w := range want {
		a := aggs[k]
		if a.Category != w.cat || a.Col != w.col || a.Count != w.jobs || a.BSD.Mean != w.bsd || a.Wait.Mean != w.wait {
			t.Errorf("aggregate %d: %s col %d, %d jobs, bsd %v, wait %v; want %+v", k, a.Category, a.Col, a.Count, a.BSD.Mean, a.Wait.Mean, w)
		}
	}
	var b strings.Builder
	if err := WriteGrid(&b, s.For(recs), aggs, mustMetric(t, "wait_mean")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| user 7 | 30") || !strings.Contains(b.String(), "| unknown | 40") {
		t.Errorf("user grid:\n%s", b.String())
	}
	if len(Summarize(s, nil)) != 1 {
		t.Error("no jobs: want only the overall aggregate")
	}
}

func mustMetric(t *testing.T, name string) *Metric {
	t.Helper()
	m, err := LookupMetric(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
