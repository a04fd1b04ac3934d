package backfill

import "github.com/schedfarm/schedfarm/sim"

// corrections are the steps by which an underpredicted job's prediction
// grows: when a running job reaches its prediction, the prediction
// becomes the time it has run plus the next step, never more than the
// user's estimate (see the package doc).
var corrections = [...]sim.Time{60, 300, 900, 1800, 3600, 2 * 3600, 5 * 3600, 10 * 3600, 20 * 3600, 50 * 3600, 100 * 3600}

// predictor makes the runtime predictions of EASY++ (Tsafrir, Etsion &
// Feitelson 2007): a job's prediction, made when it arrives, is the mean
// actual runtime of its user's two most recent completed jobs (the one
// job's runtime when the user has completed one, the user's estimate
// when none or when the user is unknown), at most the user's estimate.
// Only jobs completed by the arrival instant count.
type predictor struct {
	m     *sim.Machine
	pred  []sim.Time  // by task index: the current prediction
	steps []uint8     // by task index: corrections made
	timer []sim.Timer // by task index: the pending correction of a running job
	hist  map[int32]*userHistory

	// basis, when set (tests), is called for every prediction with the
	// indices of the jobs it was made from.
	basis func(t *sim.Task, from []int)
}

// userHistory is a user's two most recent completed jobs (task indices,
// the latest first) and how many there are.
type userHistory struct {
	last [2]int
	n    int
}

func (p *predictor) init(m *sim.Machine) {
	n := m.NumTasks()
	p.m = m
	p.pred = make([]sim.Time, n)
	p.steps = make([]uint8, n)
	p.timer = make([]sim.Timer, n)
	p.hist = map[int32]*userHistory{}
}

// arrive makes t's prediction.
func (p *predictor) arrive(t *sim.Task) {
	est := t.Estimate
	var from []int
	if h := p.hist[t.Info.User]; t.Info.User >= 0 && h != nil {
		from = h.last[:h.n]
		var sum sim.Time
		for _, i := range from {
			sum += p.m.Task(i).Runtime
		}
		est = min(est, max((sum+sim.Time(h.n)-1)/sim.Time(h.n), 1))
	}
	p.pred[t.Index] = est
	if p.basis != nil {
		p.basis(t, from)
	}
}

// estimate returns t's current prediction.
func (p *predictor) estimate(t *sim.Task) sim.Time { return p.pred[t.Index] }

// started sets the timer of t's first correction, if it can be
// underpredicted.
func (p *predictor) started(t *sim.Task) {
	if end := t.FirstStart + p.pred[t.Index]; p.pred[t.Index] < t.Estimate {
		p.timer[t.Index] = p.m.SetTimer(end, t.Index)
	}
}

// finish records t in its user's history.
func (p *predictor) finish(t *sim.Task) {
	p.m.CancelTimer(p.timer[t.Index])
	p.timer[t.Index] = sim.Timer{}
	u := t.Info.User
	if u < 0 {
		return
	}
	h := p.hist[u]
	if h == nil {
		h = &userHistory{}
		p.hist[u] = h
	}
	h.last[1], h.last[0] = h.last[0], t.Index
	h.n = min(h.n+1, 2)
}

// correct grows the prediction of t, which is still running at its
// predicted end, and returns the old and new predictions.
func (p *predictor) correct(t *sim.Task) (old, now sim.Time) {
	i := t.Index
	old = p.pred[i]
	step := corrections[min(int(p.steps[i]), len(corrections)-1)]
	p.steps[i]++
	p.pred[i] = min(old+step, t.Estimate)
	p.timer[i] = sim.Timer{}
	if p.pred[i] < t.Estimate {
		p.timer[i] = p.m.SetTimer(t.FirstStart+p.pred[i], i)
	}
	return old, p.pred[i]
}
