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
//
// A correction is a task timer ([sim.Machine.SetTaskTimer]) at the
// job's predicted end (arm): the engine does not queue one the job
// cannot reach, and none is left to cancel when the job ends. Under a
// static order EASY makes them with one timer instead (correctionAlarm).
type predictor struct {
	m     *sim.Machine
	pred  []sim.Time // by task index: the current prediction
	steps []uint8    // by task index: corrections made
	// stale is set, by task index, for a running job whose corrections
	// EASY has not yet put into its profile.
	stale []bool
	// hist holds the histories of the users numbered below limit, by
	// number; sparse those of the others.
	hist   []userHistory
	limit  int32
	sparse map[int32]*userHistory

	// basis, when set (tests), is called for every prediction with the
	// indices of the jobs it was made from.
	basis func(t *sim.Task, from []int)
}

// userSlots bounds the user numbers whose histories are kept in a table
// by number: a history is 40 bytes, so the table takes at most that per
// job, plus 40 KB.
func userSlots(jobs int) int32 { return int32(min(jobs+1024, 1<<30)) }

// userHistory is a user's two most recent completed jobs (task indices
// and runtimes, the latest first) and how many there are.
type userHistory struct {
	last [2]int
	rt   [2]sim.Time
	n    int
}

func (p *predictor) init(m *sim.Machine) {
	n := m.NumTasks()
	p.m = m
	p.pred = make([]sim.Time, n)
	p.steps = make([]uint8, n)
	p.stale = make([]bool, n)
	p.hist, p.limit, p.sparse = nil, userSlots(n), nil
}

// history returns t's user's history, nil when the user is unknown.
func (p *predictor) history(t *sim.Task) *userHistory {
	k := t.Info.User
	switch {
	case k < 0:
		return nil
	case k < p.limit:
		if int(k) >= len(p.hist) {
			p.hist = append(p.hist, make([]userHistory, int(k)+1-len(p.hist))...)
		}
		return &p.hist[k]
	}
	h := p.sparse[k]
	if h == nil {
		if p.sparse == nil {
			p.sparse = map[int32]*userHistory{}
		}
		h = &userHistory{}
		p.sparse[k] = h
	}
	return h
}

// arrive makes t's prediction.
func (p *predictor) arrive(t *sim.Task) {
	est := t.Estimate
	var from []int
	if h := p.history(t); h != nil && h.n > 0 {
		from = h.last[:h.n]
		mean := h.rt[0] // the mean, rounded up, of one or two runtimes
		if h.n == 2 {
			mean = (h.rt[0] + h.rt[1] + 1) / 2
		}
		est = min(est, max(mean, 1))
	}
	p.pred[t.Index] = est
	if p.basis != nil {
		p.basis(t, from)
	}
}

// estimate returns t's current prediction.
func (p *predictor) estimate(t *sim.Task) sim.Time { return p.pred[t.Index] }

// underpredicted reports whether t's prediction is below its estimate:
// it has corrections to come while it runs.
func (p *predictor) underpredicted(t *sim.Task) bool { return p.pred[t.Index] < t.Estimate }

// finish records t in its user's history.
func (p *predictor) finish(t *sim.Task) {
	h := p.history(t)
	if h == nil {
		return
	}
	h.last[1], h.last[0] = h.last[0], t.Index
	h.rt[1], h.rt[0] = h.rt[0], t.Runtime
	h.n = min(h.n+1, 2)
}

// corrected returns the prediction pred after correction number k (from
// 0) of a job with the given estimate: pred grown by the k-th step, never
// beyond the estimate.
func corrected(pred sim.Time, k int, estimate sim.Time) sim.Time {
	return min(pred+corrections[min(k, len(corrections)-1)], estimate)
}

// grow grows the prediction of t, which is still running at its
// predicted end, by the next step, and returns it: corrected, written
// out (with grow calling it, whole runs of the dynamic orders with
// predictions measured 3-7% slower in three builds, at about the same
// instruction count). The next correction's timer is set by arm.
func (p *predictor) grow(t *sim.Task) sim.Time {
	i := t.Index
	step := corrections[min(int(p.steps[i]), len(corrections)-1)]
	p.steps[i]++
	p.pred[i] = min(p.pred[i]+step, t.Estimate)
	return p.pred[i]
}

// growTo makes the corrections of t, running, that came due by now (a
// correction at now included), and returns its prediction and whether it
// grew.
func (p *predictor) growTo(t *sim.Task, now sim.Time) (pred sim.Time, grew bool) {
	pred = p.pred[t.Index]
	for pred < t.Estimate && t.FirstStart+pred <= now {
		pred, grew = p.grow(t), true
	}
	return pred, grew
}

// arm sets the timer of t's next correction, at its predicted end, if it
// can still be underpredicted.
func (p *predictor) arm(t *sim.Task) {
	if pred := p.pred[t.Index]; pred < t.Estimate {
		p.m.SetTaskTimer(t, t.FirstStart+pred, t.Index)
	}
}
