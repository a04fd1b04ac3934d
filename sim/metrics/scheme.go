package metrics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Scheme classifies jobs into categories laid out as a grid of rows and
// columns (a one-row grid for a plain list). Category labels are unique in
// a scheme.
type Scheme struct {
	// Name is the scheme's key, e.g. "ss16".
	Name string
	// Doc says what the scheme is and where it comes from.
	Doc string
	// RowTitle and ColTitle name the grid's axes (for tables).
	RowTitle, ColTitle string
	// Rows and Cols name the grid's rows and columns.
	Rows, Cols []string
	cell       func(r *Record) (row, col int)
	label      func(row, col int) string
	// name, when set, labels a job directly (a scheme whose grid is made
	// per task, see [Scheme.For]); bind makes that grid.
	name func(r *Record) string
	bind func(s *Scheme, recs []Record) *Scheme
	// list lays the grid out one category per line (a one-row grid made
	// per task, of any width).
	list bool
}

// Cell returns the grid position of a job; -1, -1 for a scheme whose grid
// is made per task ([Scheme.PerTask]) before [Scheme.For].
func (s *Scheme) Cell(r *Record) (row, col int) { return s.cell(r) }

// Label returns the category label of grid cell (row, col).
func (s *Scheme) Label(row, col int) string { return s.label(row, col) }

// Classify returns the category label of a job.
func (s *Scheme) Classify(r *Record) string {
	if s.name != nil {
		return s.name(r)
	}
	return s.label(s.cell(r))
}

// PerTask reports whether the scheme's categories depend on the jobs
// (the user scheme: one category per user of the task): it has no grid
// of its own, and [Scheme.For] makes the grid of a task's jobs.
func (s *Scheme) PerTask() bool { return s.bind != nil }

// For returns the scheme with the grid of recs' categories: s itself for
// a scheme with a fixed grid.
func (s *Scheme) For(recs []Record) *Scheme {
	if s.bind == nil {
		return s
	}
	return s.bind(s, recs)
}

// Labels returns every label in grid order (row by row).
func (s *Scheme) Labels() []string {
	out := make([]string, 0, len(s.Rows)*len(s.Cols))
	for i := range s.Rows {
		for j := range s.Cols {
			out = append(out, s.label(i, j))
		}
	}
	return out
}

// bucket returns the index of the first upper bound >= v, or len(bounds).
func bucket[T int | int64 | float64](v T, bounds []T) int {
	for i, b := range bounds {
		if v <= b {
			return i
		}
	}
	return len(bounds)
}

var (
	ss16Len   = []int64{600, 3600, 8 * 3600}
	ss16Width = []int{1, 8, 32}
	ss16Rows  = []string{"VS", "S", "L", "VL"}
	ss16Cols  = []string{"Seq", "N", "W", "VW"}
)

func ss16Cell(r *Record) (int, int) {
	return bucket(int64(r.Runtime), ss16Len), bucket(r.Procs, ss16Width)
}

// WellEstimated reports whether a job's estimate is at most twice its runtime.
func WellEstimated(r *Record) bool { return r.Estimate <= 2*r.Runtime }

var schemes = []*Scheme{
	{
		Name:     "ss16",
		Doc:      "actual runtime {<=10 min, <=1 h, <=8 h, >8 h} x processors {1, 2-8, 9-32, >32} (Kettimuthu et al. Table 1)",
		RowTitle: "runtime", ColTitle: "processors",
		Rows: ss16Rows, Cols: ss16Cols,
		cell:  ss16Cell,
		label: func(i, j int) string { return ss16Rows[i] + " " + ss16Cols[j] },
	},
	{
		Name:     "ss4",
		Doc:      "actual runtime {<=1 h, >1 h} x processors {<=8, >8}: SN SW LN LW (Kettimuthu et al. Table 6)",
		RowTitle: "runtime", ColTitle: "processors",
		Rows: []string{"S", "L"}, Cols: []string{"N", "W"},
		cell: func(r *Record) (int, int) {
			return bucket(int64(r.Runtime), []int64{3600}), bucket(r.Procs, []int{8})
		},
		label: func(i, j int) string { return []string{"S", "L"}[i] + []string{"N", "W"}[j] },
	},
	{
		Name:     "est2",
		Doc:      "well estimated (estimate <= 2 x runtime) or badly estimated, crossed with ss16",
		RowTitle: "estimate, runtime", ColTitle: "processors",
		Rows: est2Rows(), Cols: ss16Cols,
		cell: func(r *Record) (int, int) {
			i, j := ss16Cell(r)
			if !WellEstimated(r) {
				i += len(ss16Rows)
			}
			return i, j
		},
		label: func(i, j int) string { return est2Rows()[i] + " " + ss16Cols[j] },
	},
	{
		Name:     "len4",
		Doc:      "actual runtime {<=100 s, <=1000 s, <=10000 s, >10000 s} (Lawson et al. classes 1-4)",
		RowTitle: "", ColTitle: "runtime class",
		Rows: []string{"all"}, Cols: []string{"1", "2", "3", "4"},
		cell:  func(r *Record) (int, int) { return 0, bucket(int64(r.Runtime), []int64{100, 1000, 10000}) },
		label: func(_, j int) string { return fmt.Sprintf("class %d", j+1) },
	},
	{
		Name:     "weight10",
		Doc:      "processor-seconds (requested processors x runtime on them, the same under every policy) with upper bounds 1024 x 4^k for k = 0..8, the last open (Srinivasan et al.)",
		RowTitle: "", ColTitle: "processor-seconds",
		Rows: []string{"all"}, Cols: weight10Cols(),
		cell: func(r *Record) (int, int) {
			return 0, bucket(float64(r.Base())*float64(r.Procs), weight10Bounds())
		},
		label: func(_, j int) string { return "W" + fmt.Sprint(j+1) },
	},
	userScheme,
}

// UnknownUser is the user scheme's category of the jobs whose user the
// trace does not give (SWF field 12 is -1).
const UnknownUser = "unknown"

// userLabel returns the user scheme's category of a job: "user N", or
// [UnknownUser].
func userLabel(r *Record) string {
	if r.Info.User < 0 {
		return UnknownUser
	}
	return "user " + strconv.Itoa(int(r.Info.User))
}

// userScheme has one category per user of a task's jobs.
var userScheme = &Scheme{
	Name:     "user",
	Doc:      "the job's user (SWF field 12): one category per user of the task's jobs, `user N` in increasing N, then `unknown` for jobs whose user the trace does not give; the categories are made per task (row 0, col the category's rank), so they differ between workloads",
	RowTitle: "", ColTitle: "user",
	Rows:  []string{"all"},
	cell:  func(*Record) (int, int) { return -1, -1 },
	label: func(int, int) string { return "" },
	name:  userLabel,
	bind:  bindUsers,
}

// bindUsers returns the user scheme with the grid of recs' users.
func bindUsers(s *Scheme, recs []Record) *Scheme {
	seen := map[int32]bool{}
	var users []int32
	unknown := false
	for i := range recs {
		u := recs[i].Info.User
		switch {
		case u < 0:
			unknown = true
		case !seen[u]:
			seen[u] = true
			users = append(users, u)
		}
	}
	slices.Sort(users)
	cols := make([]string, 0, len(users)+1)
	for _, u := range users {
		cols = append(cols, "user "+strconv.Itoa(int(u)))
	}
	if unknown {
		cols = append(cols, UnknownUser)
	}
	b := *s
	b.Cols, b.bind, b.list = cols, nil, true
	b.cell = func(r *Record) (int, int) {
		if r.Info.User < 0 {
			return 0, len(users)
		}
		j, _ := slices.BinarySearch(users, r.Info.User)
		return 0, j
	}
	b.label = func(_, j int) string { return cols[j] }
	return &b
}

func est2Rows() []string {
	var out []string
	for _, p := range []string{"well", "bad"} {
		for _, r := range ss16Rows {
			out = append(out, p+" "+r)
		}
	}
	return out
}

func weight10Bounds() []float64 {
	b := make([]float64, 9)
	v := 1024.0
	for k := range b {
		b[k] = v
		v *= 4
	}
	return b
}

func weight10Cols() []string {
	var out []string
	prev := "0"
	for _, b := range weight10Bounds() {
		cur := fmt.Sprintf("%g", b)
		out = append(out, "<="+cur)
		prev = cur
	}
	return append(out, ">"+prev)
}

// Schemes returns every category scheme, in a fixed order.
func Schemes() []*Scheme { return slices.Clone(schemes) }

// SchemeNames returns the names of every scheme.
func SchemeNames() []string {
	out := make([]string, len(schemes))
	for i, s := range schemes {
		out[i] = s.Name
	}
	return out
}

// LookupScheme returns the scheme called name, or an error that quotes the
// name and lists the valid ones.
func LookupScheme(name string) (*Scheme, error) {
	for _, s := range schemes {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown category scheme %q (valid: %s)", name, strings.Join(SchemeNames(), ", "))
}
