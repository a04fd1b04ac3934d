package sim

import "testing"

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
