package metrics

import (
	"math"
	"slices"
)

// Overall is the category label of the row that aggregates all jobs.
const Overall = "all"

// Stat is the mean, max and percentiles of one quantity over the
// admitted jobs of a category. Percentiles are exact, by nearest rank:
// P90 is the smallest value at least 90% of the jobs do not exceed (the
// value at 1-based rank ceil(0.9 n) of the sorted values), as SQL's
// percentile_disc and DuckDB's quantile_disc compute it. Only the bounded
// slowdown, wait and turnaround carry them (Slowdown's are 0).
type Stat struct {
	Mean, Max     float64
	P50, P90, P99 float64
}

// Aggregate holds the figures of one category.
type Aggregate struct {
	Category string
	Row, Col int // grid cell; -1, -1 for the overall row
	// Count is the number of jobs of the category, rejected ones
	// included; Admitted the number of those that ran, over which the
	// means and maxima below are taken.
	Count, Admitted int
	BSD             Stat // bounded slowdown
	Turnaround      Stat
	Wait            Stat
	Slowdown        Stat // 1 + wait/runtime
	// ResourceCharge and QoSCharge are the sums of the jobs' charges
	// ([Record.ResourceCharge], [Record.QoSCharge]); DeadlineMisses
	// counts admitted jobs that ended after their guaranteed deadline.
	ResourceCharge, QoSCharge float64
	DeadlineMisses            int
}

type acc struct {
	n, jobs, misses      int
	bsd, tat, wait, slow [2]float64 // sum, max
	rc, qc               float64
}

func (a *acc) add(r *Record) {
	a.jobs++
	if r.Rejected {
		return
	}
	a.rc += r.ResourceCharge()
	a.qc += r.QoSCharge()
	if r.Missed() {
		a.misses++
	}
	a.n++
	put := func(s *[2]float64, v float64) {
		s[0] += v
		if a.n == 1 || v > s[1] {
			s[1] = v
		}
	}
	put(&a.bsd, r.BSD)
	put(&a.tat, float64(r.Turnaround))
	put(&a.wait, float64(r.Wait))
	put(&a.slow, r.Slowdown)
}

func (a *acc) result(cat string, row, col int) Aggregate {
	g := Aggregate{Category: cat, Row: row, Col: col, Count: a.jobs, Admitted: a.n,
		ResourceCharge: a.rc, QoSCharge: a.qc, DeadlineMisses: a.misses}
	if a.n == 0 {
		return g
	}
	st := func(s [2]float64) Stat { return Stat{Mean: s[0] / float64(a.n), Max: s[1]} }
	g.BSD, g.Turnaround, g.Wait, g.Slowdown = st(a.bsd), st(a.tat), st(a.wait), st(a.slow)
	return g
}

// Percentile returns the p-th quantile (0 < p <= 1) of sorted values by
// nearest rank, as DuckDB's quantile_disc computes it (the same
// floating-point steps: index max(1, n - floor(n - n p)) - 1); 0 for no
// values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[rank(len(sorted), p)]
}

// rank is the 0-based index of the p-th quantile of n > 0 sorted values
// (see [Percentile]).
func rank(n int, p float64) int {
	k := n - int(math.Floor(float64(n)-float64(n)*p))
	return max(1, min(k, n)) - 1
}

// selectRank returns the k-th smallest value of a (0-based) and reorders
// a so that no value before index k is larger and none after is smaller:
// quickselect with a three-way partition (values equal to the pivot are
// settled at once, so runs of equal values, as zero waits, cost one
// pass) and a median-of-three pivot. Expected time linear in len(a).
func selectRank(a []float64, k int) float64 {
	lo, hi := 0, len(a) // a[lo:hi] holds rank k
	for {
		if hi-lo == 1 {
			return a[lo]
		}
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi-1]
		pivot := max(min(x, y), min(max(x, y), z))
		// a[lo:lt] < pivot, a[lt:i] == pivot, a[gt:hi] > pivot.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch v := a[i]; {
			case v < pivot:
				a[lt], a[i] = a[i], a[lt]
				lt++
				i++
			case v > pivot:
				gt--
				a[gt], a[i] = a[i], a[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return pivot
		}
	}
}

// percentiles fills the percentiles of the aggregates of cells (cell of
// each record, -1 for the overall aggregate at the end of out) from the
// admitted records: one sort per quantity and category, with two buffers
// of the task's size.
func percentiles(out []Aggregate, recs []Record, cell []int32) {
	// order lists the admitted records by cell (counting sort).
	start := make([]int, len(out)+1)
	for i := range recs {
		if !recs[i].Rejected {
			start[cell[i]+1]++
		}
	}
	for c := range len(out) - 1 {
		start[c+1] += start[c]
	}
	admitted := start[len(out)-1]
	order := make([]int32, admitted)
	next := slices.Clone(start)
	for i := range recs {
		if !recs[i].Rejected {
			order[next[cell[i]]] = int32(i)
			next[cell[i]]++
		}
	}
	buf := make([]float64, 0, admitted)
	fill := func(st *Stat, idx []int32, v func(r *Record) float64) {
		buf = buf[:0]
		for _, i := range idx {
			buf = append(buf, v(&recs[i]))
		}
		// The largest rank first: selecting it leaves the smaller values
		// before it, where the next rank is selected.
		k99, k90, k50 := rank(len(buf), 0.99), rank(len(buf), 0.9), rank(len(buf), 0.5)
		st.P99 = selectRank(buf, k99)
		st.P90 = selectRank(buf[:k99+1], k90)
		st.P50 = selectRank(buf[:k90+1], k50)
	}
	for c := range out {
		idx := order // the overall aggregate: every admitted job
		if c < len(out)-1 {
			idx = order[start[c]:start[c+1]]
		}
		if len(idx) == 0 {
			continue
		}
		a := &out[c]
		fill(&a.BSD, idx, func(r *Record) float64 { return r.BSD })
		fill(&a.Wait, idx, func(r *Record) float64 { return float64(r.Wait) })
		fill(&a.Turnaround, idx, func(r *Record) float64 { return float64(r.Turnaround) })
	}
}

// Summarize returns one aggregate per category of s in grid order (empty
// categories included, with Count 0), followed by the overall aggregate.
// Rejected jobs count only in Count.
//
// A scheme whose grid is made per task ([Scheme.PerTask]) is summarized
// on the grid of recs ([Scheme.For]).
func Summarize(s *Scheme, recs []Record) []Aggregate {
	s = s.For(recs)
	cells := make([]acc, len(s.Rows)*len(s.Cols))
	var all acc
	cell := make([]int32, len(recs))
	for i := range recs {
		r := &recs[i]
		row, col := s.Cell(r)
		cell[i] = int32(row*len(s.Cols) + col)
		cells[cell[i]].add(r)
		all.add(r)
	}
	out := make([]Aggregate, 0, len(cells)+1)
	for i := range s.Rows {
		for j := range s.Cols {
			out = append(out, cells[i*len(s.Cols)+j].result(s.Label(i, j), i, j))
		}
	}
	out = append(out, all.result(Overall, -1, -1))
	percentiles(out, recs, cell)
	return out
}
