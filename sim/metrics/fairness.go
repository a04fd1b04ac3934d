package metrics

import "slices"

// FairnessStats are the whole-run figures of fairness between users: Jain's
// index (Jain, Chiu & Hawe 1984) J(x) = (sum x_u)^2 / (n sum x_u^2) over
// the n users' mean bounded slowdown and mean wait, where a user is an
// SWF user number (field 12) of at least one admitted job. J is 1 when
// every user gets the same mean and 1/n when one user gets all of it; a
// run whose means are all 0 is perfectly fair (J = 1). Jobs of unknown
// user (-1) and rejected jobs are left out.
type FairnessStats struct {
	// Users is the number of users n.
	Users int `json:"users"`
	// JainBSD and JainWait are Jain's index over the users' mean bounded
	// slowdown and mean wait.
	JainBSD  float64 `json:"jain_bsd"`
	JainWait float64 `json:"jain_wait"`
}

// UserMean is one user's mean bounded slowdown and wait over its
// admitted jobs.
type UserMean struct {
	User      int32
	Jobs      int
	BSD, Wait float64
}

// UserMeans returns the mean bounded slowdown and wait of each user with
// an admitted job, by user number; jobs of unknown user (-1) and rejected
// jobs are left out.
func UserMeans(recs []Record) []UserMean {
	at := map[int32]int{}
	var out []UserMean
	for i := range recs {
		r := &recs[i]
		if r.Rejected || r.Info.User < 0 {
			continue
		}
		k, ok := at[r.Info.User]
		if !ok {
			k = len(out)
			at[r.Info.User] = k
			out = append(out, UserMean{User: r.Info.User})
		}
		u := &out[k]
		u.Jobs++
		u.BSD += r.BSD
		u.Wait += float64(r.Wait)
	}
	for k := range out {
		out[k].BSD /= float64(out[k].Jobs)
		out[k].Wait /= float64(out[k].Jobs)
	}
	slices.SortFunc(out, func(a, b UserMean) int { return int(a.User) - int(b.User) })
	return out
}

// Jain returns Jain's fairness index of xs (non-negative): (sum x)^2 / (n
// sum x^2), 1 when every x is 0, 0 for none.
func Jain(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 1
	}
	return s * s / (float64(len(xs)) * s2)
}

// Fairness returns the fairness figures of recs, nil when no admitted job
// has a known user.
func Fairness(recs []Record) *FairnessStats {
	us := UserMeans(recs)
	if len(us) == 0 {
		return nil
	}
	bsd, wait := make([]float64, len(us)), make([]float64, len(us))
	for k, u := range us {
		bsd[k], wait[k] = u.BSD, u.Wait
	}
	return &FairnessStats{Users: len(us), JainBSD: Jain(bsd), JainWait: Jain(wait)}
}
