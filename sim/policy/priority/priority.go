// Package priority is multifactor priority scheduling with fair-share,
// after Slurm's priority/multifactor plugin, with EASY backfilling.
//
// At every scheduling instant each waiting job gets the priority
//
//	P = weight_age * A + weight_fairshare * F + weight_size * S
//
// and the queue is ordered by decreasing P, ties by arrival; EASY
// backfilling ([backfill.EASY]) then starts jobs in that order, reserves
// for the first that does not fit and backfills behind it (in queue
// order, or shortest first with backfill_order sjf). The factors, each in
// [0, 1], are those of Slurm's plugin:
//
//   - Age: A = min(w / max_age, 1) for a job that has waited w (Slurm's
//     PriorityMaxAge, 7 days by default).
//   - Fair-share: F = 2^(-U/S), the classic formula of Slurm's fair-share
//     factor. U is the user's share of the decayed usage of all users,
//     S the user's share of the machine: every user of the workload
//     (SWF field 12; unknown users form one account) has an equal share,
//     S = 1/N for N users. A user's usage is the processor-seconds of
//     their running jobs, decayed with a half-life H (Slurm's
//     PriorityDecayHalfLife, 7 days by default): a processor-second used
//     at time s counts 2^(-(t-s)/H) at time t. It is computed exactly
//     between scheduling instants (Slurm adds usage every calculation
//     period, 5 minutes by default): from t0 to t1, with r processors
//     running, usage(t1) = usage(t0) d + r H/ln 2 (1 - d), d =
//     2^(-(t1-t0)/H). Groups (field 13) play no part.
//   - Size: S = procs / machine size, favouring large jobs as Slurm does
//     by default; favor_small gives S = 1 - (procs - 1) / machine size.
//
// The default weights make fair-share dominate, age second and size
// third; Slurm sites set their own (Slurm's defaults are all 0). The
// head's reservation is not promised: a job whose priority grows past the
// head's takes its place.
package priority

import (
	"math"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
)

// Config holds the policy's parameters.
type Config struct {
	WeightAge, WeightFairShare, WeightSize float64
	// MaxAge is the wait at which the age factor reaches 1 (seconds, > 0).
	MaxAge sim.Time
	// HalfLife is the usage's decay half-life (seconds, > 0).
	HalfLife sim.Time
	// FavorSmall makes the size factor favour small jobs.
	FavorSmall bool
	// BackfillSJF tries the backfill candidates shortest first.
	BackfillSJF bool
	// Predict plans with runtime predictions (see package backfill).
	Predict bool
}

// Policy is multifactor priority with EASY backfilling.
type Policy struct {
	cfg  Config
	easy *backfill.EASY
	m    *sim.Machine

	user []int // by task index: the job's account
	// A usage is raw x scale: the decay of every account is the one
	// factor scale, so that an instant costs only the accounts running
	// jobs (scale is folded back into raw before it underflows).
	raw      []float64 // by account
	rawTotal float64
	scale    float64
	running  []int    // by account: processors in use
	busy     []int    // accounts that may have running > 0
	last     sim.Time // when usage was last brought up to date
	fs       []float64
	fsEpoch  []int // by account: the epoch fs was computed in
	epoch    int   // scheduling instants seen
}

var _ sim.Policy = (*Policy)(nil)

// New returns a priority policy with cfg.
func New(cfg Config) *Policy {
	p := &Policy{cfg: cfg}
	p.easy = backfill.NewEASY()
	p.easy.BackfillSJF = cfg.BackfillSJF
	p.easy.Predict = cfg.Predict
	p.easy.Key = func(t *sim.Task, now sim.Time) float64 { return -p.Priority(t, now) }
	return p
}

// Init implements [sim.Policy].
func (p *Policy) Init(m *sim.Machine) error {
	p.m = m
	accounts := map[int32]int{}
	p.user = make([]int, m.NumTasks())
	for i := range p.user {
		u := m.Task(i).Info.User
		a, ok := accounts[u]
		if !ok {
			a = len(accounts)
			accounts[u] = a
		}
		p.user[i] = a
	}
	p.raw = make([]float64, len(accounts))
	p.running = make([]int, len(accounts))
	p.fs = make([]float64, len(accounts))
	p.fsEpoch = make([]int, len(accounts))
	p.busy = p.busy[:0]
	p.rawTotal, p.scale, p.last, p.epoch = 0, 1, 0, 1
	return p.easy.Init(m)
}

// advance brings the usage up to now.
func (p *Policy) advance() {
	now := p.m.Now()
	if now <= p.last {
		return
	}
	h := float64(p.cfg.HalfLife)
	d := math.Exp2(-float64(now-p.last) / h)
	p.scale *= d
	if p.scale < 1e-200 {
		for a := range p.raw {
			p.raw[a] *= p.scale
		}
		p.rawTotal *= p.scale
		p.scale = 1
	}
	gain := h / math.Ln2 * (1 - d) / p.scale
	for _, a := range p.busy {
		if r := p.running[a]; r > 0 {
			p.raw[a] += float64(r) * gain
			p.rawTotal += float64(r) * gain
		}
	}
	p.last = now
}

// Usage returns the decayed usage of the account of job index i's user,
// in processor-seconds, as of the last instant the policy saw.
func (p *Policy) Usage(i int) float64 { return p.raw[p.user[i]] * p.scale }

// fairShare returns the fair-share factor of account a at this instant:
// 2^(-U/S) with U = usage / total usage and S = 1 / accounts.
func (p *Policy) fairShare(a int) float64 {
	if p.fsEpoch[a] != p.epoch {
		u := 0.0
		if p.rawTotal > 0 {
			u = p.raw[a] / p.rawTotal
		}
		p.fs[a] = math.Exp2(-u * float64(len(p.raw)))
		p.fsEpoch[a] = p.epoch
	}
	return p.fs[a]
}

// Priority returns the job's priority at now (the usage must be up to
// date).
func (p *Policy) Priority(t *sim.Task, now sim.Time) float64 {
	age := min(float64(now-t.Submit)/float64(p.cfg.MaxAge), 1)
	size := float64(t.Procs) / float64(p.m.Size())
	if p.cfg.FavorSmall {
		size = 1 - float64(t.Procs-1)/float64(p.m.Size())
	}
	return p.cfg.WeightAge*age + p.cfg.WeightFairShare*p.fairShare(p.user[t.Index]) + p.cfg.WeightSize*size
}

// Arrive implements [sim.Policy].
func (p *Policy) Arrive(t *sim.Task) { p.advance(); p.easy.Arrive(t) }

// Finish implements [sim.Policy].
func (p *Policy) Finish(t *sim.Task) {
	p.advance()
	p.running[p.user[t.Index]] -= t.Procs
	p.easy.Finish(t)
}

// Timer implements [sim.Policy].
func (p *Policy) Timer(tag int) { p.advance(); p.easy.Timer(tag) }

// Schedule orders the queue by priority and schedules it as EASY does.
func (p *Policy) Schedule() {
	p.advance()
	p.epoch++
	free := p.m.Free()
	p.easy.Schedule()
	if p.m.Free() == free {
		return
	}
	// Jobs started: count their processors from now on.
	for _, a := range p.busy {
		p.running[a] = 0
	}
	p.busy = p.busy[:0]
	for _, t := range p.m.Active() {
		a := p.user[t.Index]
		if p.running[a] == 0 {
			p.busy = append(p.busy, a)
		}
		p.running[a] += t.Procs
	}
}
