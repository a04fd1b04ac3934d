package metrics

import (
	"math"
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
