package claims

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/schedfarm/schedfarm/results"
)

// week is the length of a per-week group in seconds.
const week = 7 * 24 * 3600

// batch returns the selection's batch size.
func (s *Selection) batch() int {
	if s.Batch > 0 {
		return s.Batch
	}
	return DefaultBatch
}

// groupKey identifies one grouping of a jobs frame's rows.
type groupKey struct {
	f     *results.Frame
	per   string
	batch int
}

// grouping is the batch or week of every row of a jobs frame, and the
// number of groups of each task.
type grouping struct {
	index  []int       // row -> group in its task; -1 in the final partial batch
	groups map[int]int // task index -> number of groups
}

// groupRows assigns every row of the picked frame (all its rows, not only
// the selected ones, so that batches are the same whatever the category
// or filter) to its batch or week within its task. Rows are ordered by
// submit time (file order among equal times).
func groupRows(p *picked, per string, batch int) (*grouping, error) {
	f := p.f
	sub := f.Num["submit"]
	if sub == nil {
		return nil, fmt.Errorf("%s has no numeric column submit (needed by per %s)", p.file, per)
	}
	byTask := map[int][]int{}
	var tasks []int
	for i := range f.Len() {
		t := f.Task(i).TaskIndex
		if _, ok := byTask[t]; !ok {
			tasks = append(tasks, t)
		}
		byTask[t] = append(byTask[t], i)
	}
	g := &grouping{index: make([]int, f.Len()), groups: map[int]int{}}
	for _, t := range tasks {
		rows := byTask[t]
		sort.SliceStable(rows, func(a, b int) bool { return sub[rows[a]] < sub[rows[b]] })
		switch per {
		case PerBatch:
			full := len(rows) / batch
			for k, i := range rows {
				g.index[i] = -1
				if k < full*batch {
					g.index[i] = k / batch
				}
			}
			g.groups[t] = full
		case PerWeek:
			first := sub[rows[0]]
			n := 0
			for _, i := range rows {
				w := int(math.Floor((sub[i] - first) / week))
				g.index[i] = w
				n = max(n, w+1)
			}
			g.groups[t] = n
		default:
			return nil, fmt.Errorf("unknown per %q", per)
		}
	}
	return g, nil
}

// taskGroups is one task's value in each of its batches or weeks (NaN for
// a group without a value, for example no job of the category).
type taskGroups struct {
	row  int // a selected row of the task, to describe it
	vals []float64
}

// groupValues returns, per replication in order, the per-group values of
// every task the per-group selection matches: the rows of each group
// combined by agg (count counts, so an empty week or a batch without a job
// of the category counts 0).
func (o *Outputs) groupValues(s Selection) ([][]taskGroups, *picked, error) {
	p, err := o.pick(s, "")
	if err != nil {
		return nil, nil, err
	}
	if o.groupings == nil {
		o.groupings = map[groupKey]*grouping{}
	}
	key := groupKey{f: p.f, per: s.Per, batch: s.batch()}
	g := o.groupings[key]
	if g == nil {
		if g, err = groupRows(p, s.Per, s.batch()); err != nil {
			return nil, nil, err
		}
		o.groupings[key] = g
	}
	type tkey struct{ rep, task int }
	rowsOf := map[tkey][]int{}
	var order []tkey
	for _, i := range p.rows {
		tc := p.f.Task(i)
		k := tkey{tc.Replication, tc.TaskIndex}
		if _, ok := rowsOf[k]; !ok {
			order = append(order, k)
		}
		rowsOf[k] = append(rowsOf[k], i)
	}
	slices.SortStableFunc(order, func(a, b tkey) int {
		if a.rep != b.rep {
			return a.rep - b.rep
		}
		return a.task - b.task
	})
	var out [][]taskGroups
	lastRep := math.MinInt
	for _, k := range order {
		rows := rowsOf[k]
		n := g.groups[k.task]
		per := make([][]float64, n)
		counts := make([]float64, n)
		for _, i := range rows {
			b := g.index[i]
			if b < 0 || b >= n {
				continue
			}
			counts[b]++
			if s.Agg != "count" {
				if v := p.value(s, i, nil); !math.IsNaN(v) {
					per[b] = append(per[b], v)
				}
			}
		}
		vals := make([]float64, n)
		for b := range n {
			if s.Agg == "count" {
				vals[b] = counts[b]
			} else {
				vals[b] = combine(s.Agg, per[b])
			}
		}
		if k.rep != lastRep {
			out = append(out, nil)
			lastRep = k.rep
		}
		out[len(out)-1] = append(out[len(out)-1], taskGroups{row: rows[0], vals: vals})
	}
	return out, p, nil
}

// perRepValues is repValues for a per-group selection: each task's groups
// combined by over, the tasks of a replication by across.
func (o *Outputs) perRepValues(s Selection) ([]float64, *picked, error) {
	reps, p, err := o.groupValues(s)
	if err != nil {
		return nil, nil, err
	}
	out := make([]float64, 0, len(reps))
	for _, tasks := range reps {
		if len(tasks) > 1 && s.Across == "" {
			rows := make([]int, len(tasks))
			for i, t := range tasks {
				rows[i] = t.row
			}
			return nil, nil, ambiguityHint(p, rows, "narrow it with setting or where, or combine the tasks' numbers with across")
		}
		nums := make([]float64, 0, len(tasks))
		for _, t := range tasks {
			if v := combineOver(s.Over, t.vals); !math.IsNaN(v) {
				nums = append(nums, v)
			}
		}
		if len(tasks) == 1 {
			out = append(out, combineOver(s.Over, tasks[0].vals))
			continue
		}
		out = append(out, combine(s.Across, nums))
	}
	return out, p, nil
}

// combineOver reduces a task's per-group values (NaN ones left out) by an
// over: an agg, pos_share or neg_share (the fraction of values above or
// below 0) or pos_minus_neg (the mean of the positive values minus the
// mean magnitude of the negative ones, each 0 when there are none). NaN
// when no group has a value.
func combineOver(how string, vals []float64) float64 {
	ok := make([]float64, 0, len(vals))
	for _, v := range vals {
		if !math.IsNaN(v) {
			ok = append(ok, v)
		}
	}
	if len(ok) == 0 {
		return math.NaN()
	}
	var pos, neg []float64
	for _, v := range ok {
		switch {
		case v > 0:
			pos = append(pos, v)
		case v < 0:
			neg = append(neg, -v)
		}
	}
	mean := func(x []float64) float64 {
		if len(x) == 0 {
			return 0
		}
		return combine("mean", x)
	}
	switch how {
	case "count":
		return float64(len(ok))
	case "pos_share":
		return float64(len(pos)) / float64(len(ok))
	case "neg_share":
		return float64(len(neg)) / float64(len(ok))
	case "pos_minus_neg":
		return mean(pos) - mean(neg)
	}
	return combine(how, ok)
}

// pairwise evaluates a pairwise ratio: per replication, a and b compared
// batch by batch (or week by week) by form, the comparisons combined by
// a's over, and the replications by a's reps. It returns the number of
// groups compared (in all replications) too.
func (o *Outputs) pairwise(form string, a, b Selection) (float64, int, error) {
	ga, pa, err := o.groupValues(a)
	if err != nil {
		return 0, 0, fmt.Errorf("a: %w", err)
	}
	gb, pb, err := o.groupValues(b)
	if err != nil {
		return 0, 0, fmt.Errorf("b: %w", err)
	}
	one := func(side string, p *picked, reps [][]taskGroups) error {
		for _, tasks := range reps {
			if len(tasks) > 1 {
				rows := make([]int, len(tasks))
				for i, t := range tasks {
					rows[i] = t.row
				}
				return fmt.Errorf("%s: %w", side, ambiguityHint(p, rows, "a pairwise ratio pairs one task of a with one of b: narrow it with setting or where"))
			}
		}
		return nil
	}
	if err := one("a", pa, ga); err != nil {
		return 0, 0, err
	}
	if err := one("b", pb, gb); err != nil {
		return 0, 0, err
	}
	if len(ga) != len(gb) {
		return 0, 0, fmt.Errorf("a has %d replications and b %d", len(ga), len(gb))
	}
	var perRep []float64
	n := 0
	for r := range ga {
		va, vb := ga[r][0].vals, gb[r][0].vals
		var cmp []float64
		for k := 0; k < len(va) && k < len(vb); k++ {
			if math.IsNaN(va[k]) || math.IsNaN(vb[k]) {
				continue
			}
			if v, ok := compare(form, va[k], vb[k]); ok {
				cmp = append(cmp, v)
			}
		}
		n += len(cmp)
		if v := combineOver(a.Over, cmp); !math.IsNaN(v) {
			perRep = append(perRep, v)
		}
	}
	if len(perRep) == 0 {
		return 0, 0, fmt.Errorf("%w: no %s has a value on both sides", ErrNoMatch, a.Per)
	}
	how := a.Reps
	if how == "" {
		how = "mean"
	}
	return combine(how, perRep), n, nil
}
