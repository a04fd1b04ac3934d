package claims

import "testing"

// TestGradeDistance_StrictBound checks that a value on a strict bound is
// outside the expectation: a zero agree tolerance does not admit it (an
// unchanged value is no improvement), a positive tolerance does, and the
// non-strict bound admits it as inside.
func TestGradeDistance_StrictBound(t *testing.T) {
	zero := Tol{Set: true, Value: 0}
	five := Tol{Set: true, Value: 5}
	for _, tc := range []struct {
		expect string
		v      float64
		g      Grade
		want   Verdict
	}{
		{"< 0", 0, Grade{Agree: zero, Partly: five}, Partly},
		{"< 0", 0, Grade{Agree: zero}, Disagree},
		{"> 0", 0, Grade{Agree: zero, Partly: five}, Partly},
		{"< 0", -0.001, Grade{Agree: zero, Partly: five}, Agree},
		{"< 0", 0.5, Grade{Agree: zero, Partly: five}, Partly},
		{"< 0", 6, Grade{Agree: zero, Partly: five}, Disagree},
		{"< 0", 0, Grade{Agree: Tol{Set: true, Value: 1}}, Agree},
		{"<= 0", 0, Grade{Agree: zero}, Agree},
		{"== 3", 3, Grade{Agree: zero}, Agree},
		{"== 3", 3.5, Grade{Agree: zero}, Disagree},
	} {
		e, err := ParseExpect(tc.expect)
		if err != nil {
			t.Fatalf("ParseExpect(%q): %v", tc.expect, err)
		}
		if got := gradeDistance(e, tc.v, tc.g); got != tc.want {
			t.Errorf("%s at %v with %+v: got %s, want %s", tc.expect, tc.v, tc.g, got, tc.want)
		}
	}
}
