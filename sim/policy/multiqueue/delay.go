package multiqueue

import "math"

// Delay is the adaptive delay D of extra-long jobs (section 4.2): it
// collects the slowdowns of queue-1 jobs in batches of completions and
// moves D by delta_k x D_1 when the relative change of the batch mean
// slowdown exceeds the threshold. See the package doc for the rules.
type Delay struct {
	d1, d     float64
	adaptive  bool
	batch     int
	threshold float64
	unit      bool

	n       int     // completions in the current batch
	sum     float64 // slowdowns of its queue-1 jobs
	q1      int     // its queue-1 jobs
	k       int     // batches with queue-1 jobs so far
	prev    float64 // s_{k-1}
	updates int
	max     float64
}

// NewDelay returns a delay starting at d1 = D_1 that adapts (if adaptive)
// every batch completions with the given threshold on |delta|; unit
// selects delta_1 = 1 instead of s_1.
func NewDelay(d1 float64, adaptive bool, batch int, threshold float64, unit bool) *Delay {
	return &Delay{d1: d1, d: d1, adaptive: adaptive, batch: max(batch, 1), threshold: threshold, unit: unit, max: d1}
}

// D returns the current delay in seconds.
func (c *Delay) D() float64 { return c.d }

// Imposed returns the whole seconds of delay a class-4 job gets now: ceil(D).
func (c *Delay) Imposed() int64 { return int64(math.Ceil(c.d)) }

// Updates returns how many batches changed D by the rule (|delta| above
// the threshold).
func (c *Delay) Updates() int { return c.updates }

// Max returns the largest D so far.
func (c *Delay) Max() float64 { return c.max }

// Complete records one completion in (end, arrival index) order: queue1
// tells whether the job was in queue 1 and slowdown is 1 + wait/runtime.
func (c *Delay) Complete(queue1 bool, slowdown float64) {
	c.n++
	if queue1 {
		c.q1++
		c.sum += slowdown
	}
	if c.n < c.batch {
		return
	}
	if c.q1 > 0 {
		c.closeBatch(c.sum / float64(c.q1))
	}
	c.n, c.q1, c.sum = 0, 0, 0
}

// Batch applies the rule to a batch whose queue-1 mean slowdown is s.
func (c *Delay) closeBatch(s float64) {
	c.k++
	var delta float64
	switch {
	case c.k > 1:
		delta = (s - c.prev) / max(s, c.prev)
	case c.unit:
		delta = 1
	default:
		delta = s
	}
	c.prev = s
	if !c.adaptive || math.Abs(delta) <= c.threshold {
		return
	}
	c.updates++
	c.d = max(c.d+delta*c.d1, 0)
	c.max = max(c.max, c.d)
}
