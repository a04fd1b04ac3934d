package sim

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestProcSet(t *testing.T) {
	s := FullProcSet(130)
	if s.Len() != 130 {
		t.Fatalf("Len()=%d, want 130", s.Len())
	}
	a, ok := s.TakeLowest(70)
	if !ok || a.Len() != 70 || s.Len() != 60 {
		t.Fatalf("TakeLowest(70): ok=%v len=%d rest=%d", ok, a.Len(), s.Len())
	}
	if got, want := a.String(), "{0-69}"; got != want {
		t.Errorf("String()=%v, want %v", got, want)
	}
	if a.Overlaps(s) || !a.Has(69) || a.Has(70) {
		t.Errorf("sets overlap or wrong members: %v %v", a, s)
	}
	if _, ok := s.TakeLowest(61); ok || s.Len() != 60 {
		t.Errorf("TakeLowest(61) of 60 succeeded or changed the set")
	}
	s.Union(a)
	s.Remove(5)
	s.Remove(64)
	if got, want := s.String(), "{0-4,6-63,65-129}"; got != want {
		t.Errorf("String()=%v, want %v", got, want)
	}
	b, _ := s.TakeLowest(6)
	if got, want := b.String(), "{0-4,6}"; got != want {
		t.Errorf("TakeLowest(6)=%v, want %v", got, want)
	}
	if !FullProcSet(130).Contains(b) || b.Contains(FullProcSet(130)) {
		t.Errorf("Contains is wrong")
	}
}

func TestProcSet_SetDiff(t *testing.T) {
	a := FullProcSet(130)
	b := NewProcSet(130)
	b.Add(0)
	b.Add(64)
	b.Add(129)
	var s ProcSet
	s.SetDiff(a, b)
	if s.Len() != 127 || s.Has(0) || s.Has(64) || s.Has(129) || !s.Has(1) || a.Len() != 130 {
		t.Fatalf("SetDiff: %v (a %v)", s, a)
	}
	s.SetDiff(b, b) // storage reused
	if !s.Empty() {
		t.Fatalf("b \\ b = %v", s)
	}
}

// TestProcSet_Next walks sets with Next and compares with Each.
func TestProcSet_Next(t *testing.T) {
	s := NewProcSet(200)
	for _, i := range []int{0, 1, 63, 64, 65, 127, 128, 190, 199} {
		s.Add(i)
	}
	var want, got []int
	s.Each(func(i int) { want = append(want, i) })
	for i := s.Next(0); i >= 0; i = s.Next(i + 1) {
		got = append(got, i)
	}
	if len(got) != len(want) {
		t.Fatalf("Next walk %v, Each %v", got, want)
	}
	for k := range got {
		if got[k] != want[k] {
			t.Fatalf("Next walk %v, Each %v", got, want)
		}
	}
	if n := s.Next(200); n != -1 {
		t.Errorf("Next(200) = %d, want -1", n)
	}
	if n := s.Next(-5); n != 0 {
		t.Errorf("Next(-5) = %d, want 0", n)
	}
	if n := s.Next(129); n != 190 {
		t.Errorf("Next(129) = %d, want 190", n)
	}
	if n := NewProcSet(64).Next(0); n != -1 {
		t.Errorf("empty set: Next(0) = %d, want -1", n)
	}
}

// TestProcSet_Model applies random operations to sets and to a slice of
// booleans per processor, and compares them after every step: members,
// Len, String's runs, Next, Contains, Overlaps and TakeLowest; the sets
// are bitsets, lists of runs and zero values, alone and mixed.
func TestProcSet_Model(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(300)
		var sets [3]ProcSet
		var model [3][]bool
		for k := range sets {
			// Bitsets, lists of runs (a machine over bitsetMax) and zero
			// values, mixed in one trial from time to time.
			switch form := (trial + k*(trial%3)) % 3; form {
			case 0:
				sets[k] = NewProcSet(n)
			case 1:
				sets[k] = NewProcSet(1 << 20)
			}
			model[k] = make([]bool, n)
		}
		for step := 0; step < 200; step++ {
			k, o := rng.IntN(3), rng.IntN(3)
			switch op := rng.IntN(11); op {
			case 9, 10:
				// A range of processors, added or removed in one go.
				lo := rng.IntN(n)
				hi := lo + 1 + rng.IntN(n-lo)
				r := NewProcSet(n)
				if rng.IntN(2) == 0 {
					r = NewProcSet(1 << 20)
				}
				for i := lo; i < hi; i++ {
					r.Add(i)
				}
				if op == 9 {
					sets[k].Union(r)
				} else {
					sets[k].Subtract(r)
				}
				for i := lo; i < hi; i++ {
					model[k][i] = op == 9
				}
			case 0, 1:
				i := rng.IntN(n)
				sets[k].Add(i)
				model[k][i] = true
			case 2:
				i := rng.IntN(n)
				sets[k].Remove(i)
				model[k][i] = false
			case 3:
				sets[k].Union(sets[o])
				for i := range n {
					model[k][i] = model[k][i] || model[o][i]
				}
			case 4:
				sets[k].Subtract(sets[o])
				for i := range n {
					model[k][i] = model[k][i] && !model[o][i]
				}
			case 5:
				a, b := rng.IntN(3), rng.IntN(3)
				sets[k].SetDiff(sets[a], sets[b])
				d := make([]bool, n)
				for i := range n {
					d[i] = model[a][i] && !model[b][i]
				}
				model[k] = d
			case 6:
				want := rng.IntN(n + 1)
				got, ok := sets[k].TakeLowest(want)
				have := 0
				for _, v := range model[k] {
					if v {
						have++
					}
				}
				if ok != (have >= want) {
					t.Fatalf("trial %d: TakeLowest(%d) of %d: ok %v", trial, want, have, ok)
				}
				if ok {
					taken := make([]bool, n)
					for i := 0; i < n && want > 0; i++ {
						if model[k][i] {
							taken[i], model[k][i] = true, false
							want--
						}
					}
					checkModel(t, got, taken)
				}
			case 7:
				c := sets[k].Clone()
				c.Add(rng.IntN(n))
			case 8:
				wantC, wantO := true, false
				for i := range n {
					if model[o][i] && !model[k][i] {
						wantC = false
					}
					if model[o][i] && model[k][i] {
						wantO = true
					}
				}
				if sets[k].Contains(sets[o]) != wantC || sets[k].Overlaps(sets[o]) != wantO {
					t.Fatalf("trial %d: %v contains/overlaps %v: %v %v, want %v %v", trial, sets[k], sets[o],
						sets[k].Contains(sets[o]), sets[k].Overlaps(sets[o]), wantC, wantO)
				}
			}
			for k := range sets {
				checkModel(t, sets[k], model[k])
			}
		}
	}
}

// checkModel fails when s is not the set of processors marked in want.
func checkModel(t *testing.T, s ProcSet, want []bool) {
	t.Helper()
	var b strings.Builder
	b.WriteByte('{')
	n, first := 0, true
	for i := 0; i < len(want); i++ {
		if s.Has(i) != want[i] {
			t.Fatalf("%v: Has(%d) = %v", s, i, s.Has(i))
		}
		if nx := s.Next(i); want[i] && nx != i {
			t.Fatalf("%v: Next(%d) = %d", s, i, nx)
		}
		if !want[i] {
			continue
		}
		n++
		if i > 0 && want[i-1] {
			continue
		}
		j := i
		for j+1 < len(want) && want[j+1] {
			j++
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(strconv.Itoa(i))
		if j > i {
			b.WriteString("-" + strconv.Itoa(j))
		}
	}
	b.WriteByte('}')
	if s.Len() != n || s.Empty() != (n == 0) || s.String() != b.String() {
		t.Fatalf("set %v (len %d), want %s (len %d)", s, s.Len(), b.String(), n)
	}
	var each []int
	s.Each(func(i int) { each = append(each, i) })
	if len(each) != n {
		t.Fatalf("%v: Each gave %d processors, want %d", s, len(each), n)
	}
}

// TestProcSet_AddRangeEachRun checks AddRange against Add and EachRun
// against Each, on bitsets (64, 200 and 4096 processors, runs crossing
// their words) and a list of runs (5000); a full set is one run.
func TestProcSet_AddRangeEachRun(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 200, 4096, 5000} {
		var runs [][2]int
		FullProcSet(n).EachRun(func(lo, hi int) { runs = append(runs, [2]int{lo, hi}) })
		if len(runs) != 1 || runs[0] != [2]int{0, n} {
			t.Fatalf("n %d: the full set's runs are %v", n, runs)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{64, 200, 4096, 5000} {
		for trial := range 50 {
			a, b := NewProcSet(n), NewProcSet(n)
			for range 20 {
				lo := rng.IntN(n)
				hi := lo + rng.IntN(min(n-lo, 200)+1)
				a.AddRange(lo, hi)
				for i := lo; i < hi; i++ {
					b.Add(i)
				}
				if rng.IntN(3) == 0 {
					i := rng.IntN(n)
					a.Remove(i)
					b.Remove(i)
				}
			}
			if a.String() != b.String() || a.Len() != b.Len() {
				t.Fatalf("n %d trial %d: AddRange gave %v (%d), Add %v (%d)", n, trial, a, a.Len(), b, b.Len())
			}
			var each, runs []int
			b.Each(func(i int) { each = append(each, i) })
			last := -1
			a.EachRun(func(lo, hi int) {
				if lo <= last || hi <= lo {
					t.Fatalf("n %d trial %d: run %d..%d after %d", n, trial, lo, hi, last)
				}
				for i := lo; i < hi; i++ {
					runs = append(runs, i)
				}
				last = hi
			})
			if len(each) != len(runs) {
				t.Fatalf("n %d trial %d: EachRun gave %d processors, Each %d", n, trial, len(runs), len(each))
			}
			for k := range each {
				if each[k] != runs[k] {
					t.Fatalf("n %d trial %d: EachRun gave %v, Each %v", n, trial, runs, each)
				}
			}
		}
	}
}
