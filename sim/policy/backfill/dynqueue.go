package backfill

import (
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// dynChunkCap is the most jobs a chunk of a dynQueue holds.
const dynChunkCap = 64

// boundSlack widens a chunk's bound so that it stays above every key of
// the chunk as floats compute them: each key and each bound is a handful
// of rounded operations (relative error under 1e-15), far inside it.
const boundSlack = 1 + 1e-9

// dynQueue holds the waiting jobs of EASY under a dynamic rank (wfp3,
// unicep, xfactor) in arrival order, in chunks of at most dynChunkCap
// jobs, and finds the job with the smallest key (ties by arrival) among
// those that may start without computing every job's key.
//
// Each rank's key is -f, where f grows with the job's wait w = now -
// submit as g(a*w), a the job's slope: (a*w)^3 for wfp3 (a = n^(1/3)/e),
// a*w for unicep (a = 1/(log2(n) e)) and a*w + 1 for xfactor (a = 1/e).
// A chunk bounds every a*w in it two ways:
//
//   - no job of a chunk has waited longer than its first job, so the
//     chunk's largest slope amax times its first job's wait bounds them;
//   - the largest a*w of its jobs at an earlier instant t0 (vmax, which
//     each scan of the whole chunk records) plus amax*(now - t0) bounds
//     them too, and is close to the largest a*w while now is close to t0.
//
// A search scans first the chunk with the best bound, then only the
// chunks whose bound could beat the best key found so far. The keys it
// compares are the ones the whole-queue sort compares (the same floats),
// so the job it finds is the one the sort puts first: the bound only
// decides which jobs need not be looked at. Adjacent chunks that fit in
// half a chunk are merged as jobs start, so under load a search looks at
// a few dozen bounds and a few chunks instead of thousands of jobs.
type dynQueue struct {
	r      Rank
	chunks []*dynChunk // in arrival order, none empty
	spare  []*dynChunk // emptied chunks, reused
	n      int         // jobs held
	lbs    []float64   // a search's scratch: each chunk's bound on its keys
}

// dynEntry is a waiting job in a dynQueue: what its key reads, its slope
// a and its task index.
type dynEntry struct {
	dynJob
	a   float64
	idx int
}

// dynChunk is a run of waiting jobs in arrival order, with the largest
// slope, least size and least estimate among them, and a bound vmax on
// their a*w at the instant t0: every job's a*w at now >= t0 is at most
// vmax + amax*(now - t0).
type dynChunk struct {
	e        []dynEntry
	amax     float64
	minProcs int
	minEst   sim.Time
	vmax, t0 float64
}

// reset empties q for rank r.
func (q *dynQueue) reset(r Rank) {
	for _, c := range q.chunks {
		c.e = c.e[:0]
		q.spare = append(q.spare, c)
	}
	clear(q.chunks)
	q.chunks, q.r, q.n = q.chunks[:0], r, 0
}

// add appends the job t (the latest arrival) with its dynJob d.
func (q *dynQueue) add(t *sim.Task, d dynJob) {
	en := dynEntry{dynJob: d, idx: t.Index}
	switch q.r {
	case RankWFP3:
		en.a = math.Cbrt(d.n) / d.e
	default: // unicep (d.e holds log2(n) e), xfactor
		en.a = 1 / d.e
	}
	var c *dynChunk
	if k := len(q.chunks); k > 0 && len(q.chunks[k-1].e) < dynChunkCap {
		c = q.chunks[k-1]
	} else {
		if k := len(q.spare); k > 0 {
			c = q.spare[k-1]
			q.spare = q.spare[:k-1]
		} else {
			c = &dynChunk{e: make([]dynEntry, 0, dynChunkCap)}
		}
		// Every job it will hold arrives at or after d: its a*w at
		// now is at most amax*(now - d.submit).
		c.amax, c.minProcs, c.minEst = 0, d.procs, d.est
		c.vmax, c.t0 = 0, d.submit
		q.chunks = append(q.chunks, c)
	}
	c.e = append(c.e, en)
	c.amax, c.minProcs, c.minEst = max(c.amax, en.a), min(c.minProcs, d.procs), min(c.minEst, d.est)
	q.n++
}

// locate returns the place of the job with task index idx in q: its
// chunk's index k and its index j in the chunk, ok false when q does not
// hold it.
func (q *dynQueue) locate(idx int) (k, j int, ok bool) {
	// The chunk is the last whose first job arrived no later than idx.
	k, found := slices.BinarySearchFunc(q.chunks, idx, func(c *dynChunk, idx int) int { return c.e[0].idx - idx })
	if !found {
		k--
	}
	if k < 0 {
		return 0, 0, false
	}
	j, ok = slices.BinarySearchFunc(q.chunks[k].e, idx, func(e dynEntry, idx int) int { return e.idx - idx })
	return k, j, ok
}

// remove takes out the job with task index idx, if q holds it.
func (q *dynQueue) remove(idx int) {
	k, j, ok := q.locate(idx)
	if !ok {
		return
	}
	c := q.chunks[k]
	c.e = slices.Delete(c.e, j, j+1)
	q.n--
	if len(c.e) == 0 {
		q.spare = append(q.spare, c)
		q.chunks = slices.Delete(q.chunks, k, k+1)
		return
	}
	// Merge with a neighbour when both fit in half a chunk: the chunks
	// stay at least a quarter full on average, and a merge copies at most
	// half a chunk.
	switch {
	case k > 0 && len(q.chunks[k-1].e)+len(c.e) <= dynChunkCap/2:
		p := q.chunks[k-1]
		p.join(c)
		p.e = append(p.e, c.e...)
		c.e = c.e[:0]
		q.spare = append(q.spare, c)
		q.chunks = slices.Delete(q.chunks, k, k+1)
		c = p
	case k+1 < len(q.chunks) && len(q.chunks[k+1].e)+len(c.e) <= dynChunkCap/2:
		nx := q.chunks[k+1]
		c.join(nx)
		c.e = append(c.e, nx.e...)
		nx.e = nx.e[:0]
		q.spare = append(q.spare, nx)
		q.chunks = slices.Delete(q.chunks, k+1, k+2)
	}
	c.bounds()
}

// join sets c's vmax and t0 to bound the a*w of c's jobs and of d's, at
// the later of their t0s (before their jobs are put together).
func (c *dynChunk) join(d *dynChunk) {
	t0 := max(c.t0, d.t0)
	c.vmax = max(c.vmax+c.amax*(t0-c.t0), d.vmax+d.amax*(t0-d.t0))
	c.t0 = t0
}

// bounds sets c's largest slope, least size and least estimate
// from its jobs. (Comparisons rather than the max builtin, which also
// orders NaNs and signed zeros: the slopes are positive.)
func (c *dynChunk) bounds() {
	amax, minProcs, minEst := 0.0, c.e[0].procs, c.e[0].est
	for i := range c.e {
		en := &c.e[i]
		if en.a > amax {
			amax = en.a
		}
		if en.procs < minProcs {
			minProcs = en.procs
		}
		if en.est < minEst {
			minEst = en.est
		}
	}
	c.amax, c.minProcs, c.minEst = amax, minProcs, minEst
}

// bound returns a lower bound at now on the keys of c's jobs.
func (q *dynQueue) bound(c *dynChunk, now float64) float64 {
	return q.lower(min(c.amax*(now-c.e[0].submit), c.vmax+c.amax*(now-c.t0)))
}

// lower returns a lower bound on the key of a job whose a*w is at most v.
func (q *dynQueue) lower(v float64) float64 {
	switch q.r {
	case RankWFP3:
		v = v * v * v
	case RankXFactor:
		v++
	}
	return -v * boundSlack
}

// fit is a condition on the jobs a search may return: all, or those that
// need at most always processors or at most ifShort processors and end
// by shadow (EASY's backfill test), except the jobs in skip.
type fit struct {
	all             bool
	always, ifShort int
	now, shadow     sim.Time
	skip            []int
}

// chunk reports whether some job of c may pass f.
func (f *fit) chunk(c *dynChunk) bool {
	return f.all || c.minProcs <= f.always || (c.minProcs <= f.ifShort && f.now+c.minEst <= f.shadow)
}

// min returns the task index of the job with the smallest key at f.now
// among those that pass f, ties by arrival, or -1 when none does.
func (q *dynQueue) min(f *fit) int {
	now := float64(f.now)
	lbs := q.lbs[:0]
	first := -1
	for k, c := range q.chunks {
		lb := 0.0
		if f.chunk(c) {
			lb = q.bound(c, now)
			if first < 0 || lb < lbs[first] {
				first = k
			}
		} else {
			lb = 1 // above every key (keys are <= 0): never scanned
		}
		lbs = append(lbs, lb)
	}
	q.lbs = lbs
	best, bi := 0.0, -1
	if first < 0 {
		return -1
	}
	best, bi = q.scan(q.chunks[first], f, now, best, bi)
	for k, c := range q.chunks {
		// A chunk whose bound equals the best key may hold a tie that
		// arrived earlier: it is scanned.
		if k != first && lbs[k] <= 0 && (bi < 0 || lbs[k] <= best) {
			best, bi = q.scan(c, f, now, best, bi)
		}
	}
	return bi
}

// scan returns the smallest key and its job's task index of c's jobs that
// pass f and of (best, bi) (bi < 0: none yet), ties by arrival. A scan of
// every job (f.all) records their largest a*w at now in c.
func (q *dynQueue) scan(c *dynChunk, f *fit, now, best float64, bi int) (float64, int) {
	if f.all {
		return q.scanAll(c, f, now, best, bi)
	}
	for i := range c.e {
		en := &c.e[i]
		if en.procs > f.always && (en.procs > f.ifShort || f.now+en.est > f.shadow) {
			continue
		}
		if bi >= 0 && q.lower(en.a*(now-en.submit)) > best {
			continue
		}
		key := en.key(q.r, now)
		if bi >= 0 && (key > best || (key == best && en.idx > bi)) {
			continue
		}
		if slices.Contains(f.skip, en.idx) {
			continue
		}
		best, bi = key, en.idx
	}
	return best, bi
}

// scanAll is scan for f.all. It first finds the jobs with the largest
// and second largest a*w at now. Only the first may have a key below
// best, unless the second's a*w could reach it (a near tie, or an equal
// key, which the job that arrived first wins): then every job whose a*w
// could is tried.
func (q *dynQueue) scanAll(c *dynChunk, f *fit, now, best float64, bi int) (float64, int) {
	e := c.e
	v1, v2, i1 := -1.0, -1.0, 0 // every a*w is >= 0
	for i := range e {
		if v := e[i].a * (now - e[i].submit); v > v2 {
			if v > v1 {
				v1, v2, i1 = v, v1, i
			} else {
				v2 = v
			}
		}
	}
	c.vmax, c.t0 = v1, now
	if len(f.skip) == 0 {
		best, bi = q.try(&e[i1], f, now, best, bi)
		if q.lower(v2) > best {
			return best, bi
		}
	}
	for i := range e {
		if bi >= 0 && q.lower(e[i].a*(now-e[i].submit)) > best {
			continue
		}
		best, bi = q.try(&e[i], f, now, best, bi)
	}
	return best, bi
}

// try returns en's key and task index if en passes f (but for its size
// and estimate: the caller checks those) and comes before (best, bi),
// else (best, bi).
func (q *dynQueue) try(en *dynEntry, f *fit, now, best float64, bi int) (float64, int) {
	key := en.key(q.r, now)
	if bi >= 0 && (key > best || (key == best && en.idx > bi)) {
		return best, bi
	}
	if slices.Contains(f.skip, en.idx) {
		return best, bi
	}
	return key, en.idx
}

// first reports whether the job with task index h, which q holds, has
// the smallest key at now (ties by arrival): min with h's key as the
// best found so far, so that only the chunks whose bound could beat it
// are scanned.
func (q *dynQueue) first(h int, now sim.Time) bool {
	k, j, ok := q.locate(h)
	if !ok {
		return false
	}
	fnow := float64(now)
	best := q.chunks[k].e[j].key(q.r, fnow)
	f := fit{all: true, now: now}
	for _, c := range q.chunks {
		// A chunk whose bound equals h's key may hold a tie that arrived
		// earlier: it is scanned.
		if q.bound(c, fnow) > best {
			continue
		}
		if _, bi := q.scan(c, &f, fnow, best, h); bi != h {
			return false
		}
	}
	return true
}
