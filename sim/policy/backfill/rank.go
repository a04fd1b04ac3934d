package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// Rank is the order of the waiting queue: the parameter order of fcfs,
// easy and conservative (see the package doc for each one's formula and
// source). Every rank sorts by a key, smallest first, ties by arrival.
type Rank uint8

// Queue orders.
const (
	RankFCFS    Rank = iota // arrival (the default)
	RankSJF                 // shortest estimate first
	RankLJF                 // longest estimate first
	RankSAF                 // smallest area (estimate x processors) first
	RankLAF                 // largest area first
	RankWFP3                // Tang et al. 2009
	RankUNICEP              // Tang et al. 2009
	RankF1                  // Carastan-Santos & de Camargo 2017
	RankXFactor             // highest expansion factor first
)

// rankNames are the ranks' names, as specs spell them.
var rankNames = [...]string{
	RankFCFS: "fcfs", RankSJF: "sjf", RankLJF: "ljf", RankSAF: "saf", RankLAF: "laf",
	RankWFP3: "wfp3", RankUNICEP: "unicep", RankF1: "f1", RankXFactor: "xfactor",
}

// rankKeys are the ranks' keys: a job with a smaller key goes first. e is
// the job's estimate as the policy sees it (the user's, or a prediction),
// now the scheduling instant (the dynamic ranks use the job's wait).
var rankKeys = [...]func(t *sim.Task, e, now sim.Time) float64{
	RankFCFS:    keyFCFS,
	RankSJF:     keySJF,
	RankLJF:     keyLJF,
	RankSAF:     keySAF,
	RankLAF:     keyLAF,
	RankWFP3:    keyWFP3,
	RankUNICEP:  keyUNICEP,
	RankF1:      keyF1,
	RankXFactor: keyXFactor,
}

// keyFCFS: the submit time (arrival order).
func keyFCFS(t *sim.Task, _, _ sim.Time) float64 { return float64(t.Submit) }

// keySJF: the estimate e.
func keySJF(_ *sim.Task, e, _ sim.Time) float64 { return float64(e) }

// keyLJF: -e.
func keyLJF(_ *sim.Task, e, _ sim.Time) float64 { return -float64(e) }

// keySAF: the area e*n.
func keySAF(t *sim.Task, e, _ sim.Time) float64 { return float64(e) * float64(t.Procs) }

// keyLAF: -e*n.
func keyLAF(t *sim.Task, e, _ sim.Time) float64 { return -float64(e) * float64(t.Procs) }

// keyWFP3: -(w/e)^3 * n, w the wait so far.
func keyWFP3(t *sim.Task, e, now sim.Time) float64 {
	r := float64(now-t.Submit) / float64(e)
	return -r * r * r * float64(t.Procs)
}

// keyUNICEP: -w / (log2(n) * e), log2(n) taken as 1 for n = 1.
func keyUNICEP(t *sim.Task, e, now sim.Time) float64 {
	return -float64(now-t.Submit) / (math.Log2(float64(max(t.Procs, 2))) * float64(e))
}

// keyF1: log10(e) * n + 870 * log10(s), s the submit time taken as 1 when
// below 1.
func keyF1(t *sim.Task, e, _ sim.Time) float64 {
	return math.Log10(float64(e))*float64(t.Procs) + 870*math.Log10(float64(max(t.Submit, 1)))
}

// keyXFactor: -(w + e) / e.
func keyXFactor(t *sim.Task, e, now sim.Time) float64 {
	return -float64(now-t.Submit+e) / float64(e)
}

// RankNames returns the names of the queue orders, default first.
func RankNames() []string { return rankNames[:] }

// String returns the rank's name ("fcfs", "sjf", ...).
func (r Rank) String() string {
	if int(r) < len(rankNames) {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", r)
}

// ParseRank returns the queue order called name.
func ParseRank(name string) (Rank, error) {
	for i, n := range rankNames {
		if n == name {
			return Rank(i), nil
		}
	}
	return 0, fmt.Errorf("unknown queue order %q (valid: %v)", name, rankNames)
}

// Dynamic reports whether the rank's key changes as jobs wait (wfp3,
// unicep, xfactor): the queue is then sorted again at every scheduling
// instant.
func (r Rank) Dynamic() bool { return r == RankWFP3 || r == RankUNICEP || r == RankXFactor }

// Key returns the job's key at now with its estimate: the queue is in
// increasing key, ties by arrival.
func (r Rank) Key(t *sim.Task, now sim.Time) float64 { return rankKeys[r](t, t.Estimate, now) }

// ranked is a job and its key.
type ranked struct {
	key float64
	t   *sim.Task
}

// ranker keeps a list of waiting jobs in a rank's order.
type ranker struct {
	r   Rank
	fn  func(t *sim.Task, now sim.Time) float64 // when set, the key instead of r's (dynamic)
	pr  *predictor                              // when not nil, the estimates are its predictions
	buf []ranked                                // scratch for sorting
	// keys holds, by task index, the key setKey gave each job under a
	// static rank other than fcfs (it does not change while the job
	// waits; in arrival order the queue needs none).
	keys []float64
}

// reset readies k for a run of n jobs.
func (k *ranker) reset(n int) {
	k.keys = k.keys[:0]
	if !k.dynamic() && k.r != RankFCFS {
		k.keys = slices.Grow(k.keys, n)[:n]
	}
}

// dynamic reports whether the keys change as jobs wait.
func (k *ranker) dynamic() bool { return k.fn != nil || k.r.Dynamic() }

// key returns t's key under r at now, with the prediction when there is
// one.
func (k *ranker) key(r Rank, t *sim.Task, now sim.Time) float64 {
	e := t.Estimate
	if k.pr != nil {
		e = k.pr.estimate(t)
	}
	return rankKeys[r](t, e, now)
}

// compare orders a and b by key at now, ties by arrival. Under a static
// rank other than fcfs both must have their keys (setKey).
func (k *ranker) compare(a, b *sim.Task, now sim.Time) int {
	var ka, kb float64
	if len(k.keys) > 0 {
		ka, kb = k.keys[a.Index], k.keys[b.Index]
	} else {
		ka, kb = k.queueKey(a, now), k.queueKey(b, now)
	}
	if c := cmp.Compare(ka, kb); c != 0 {
		return c
	}
	return cmp.Compare(a.Index, b.Index)
}

// insert adds t to q, kept in order when the rank is static (a dynamic
// rank's queue is sorted at each instant by sort).
func (k *ranker) insert(q []*sim.Task, t *sim.Task, now sim.Time) []*sim.Task {
	if k.dynamic() {
		return append(q, t)
	}
	k.setKey(t, now)
	return k.place(q, t, now)
}

// place adds t, whose key setKey has kept, to q in order (a static rank).
func (k *ranker) place(q []*sim.Task, t *sim.Task, now sim.Time) []*sim.Task {
	i, _ := slices.BinarySearchFunc(q, t, func(a, b *sim.Task) int { return k.compare(a, b, now) })
	return slices.Insert(q, i, t)
}

// setKey keeps t's key under a static rank, for compare.
func (k *ranker) setKey(t *sim.Task, now sim.Time) {
	k.keys[t.Index] = k.queueKey(t, now)
}

// sort puts q in order at now: a dynamic rank's keys are computed once
// per job and instant. A static rank's q is already in order.
func (k *ranker) sort(q []*sim.Task, now sim.Time) {
	if !k.dynamic() {
		return
	}
	k.sortKeys(q, func(t *sim.Task) float64 { return k.queueKey(t, now) })
}

// queueKey returns t's key in the queue's order at now: fn's when set,
// else r's.
func (k *ranker) queueKey(t *sim.Task, now sim.Time) float64 {
	if k.fn != nil {
		return k.fn(t, now)
	}
	return k.key(k.r, t, now)
}

// sortKeys sorts q by key, computed once per job, ties by arrival.
func (k *ranker) sortKeys(q []*sim.Task, key func(*sim.Task) float64) {
	buf := k.buf[:0]
	for _, t := range q {
		buf = append(buf, ranked{key(t), t})
	}
	// Keys are never NaN (estimates are >= 1), so < and > order them as
	// cmp.Compare does, at a fraction of its cost.
	slices.SortFunc(buf, func(a, b ranked) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return a.t.Index - b.t.Index
	})
	for i := range buf {
		q[i] = buf[i].t
	}
	clear(buf)
	k.buf = buf[:0]
}
