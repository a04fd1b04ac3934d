package metrics

// Overall is the category label of the row that aggregates all jobs.
const Overall = "all"

// Stat is the count, mean and max of one quantity.
type Stat struct {
	Mean, Max float64
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

// Summarize returns one aggregate per category of s in grid order (empty
// categories included, with Count 0), followed by the overall aggregate.
// Rejected jobs count only in Count.
func Summarize(s *Scheme, recs []Record) []Aggregate {
	cells := make([]acc, len(s.Rows)*len(s.Cols))
	var all acc
	for i := range recs {
		r := &recs[i]
		row, col := s.Cell(r)
		cells[row*len(s.Cols)+col].add(r)
		all.add(r)
	}
	out := make([]Aggregate, 0, len(cells)+1)
	for i := range s.Rows {
		for j := range s.Cols {
			out = append(out, cells[i*len(s.Cols)+j].result(s.Label(i, j), i, j))
		}
	}
	return append(out, all.result(Overall, -1, -1))
}
