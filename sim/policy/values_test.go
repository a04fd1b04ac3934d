package policy

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// pointOf returns values for every parameter of e made from the fuzz
// inputs, within each parameter's range.
func pointOf(e *Entry, f float64, n int64, b bool) map[string]any {
	raw := map[string]any{}
	for i, p := range e.Params {
		switch p.Kind {
		case Float:
			x := f * float64(i+1)
			if math.IsNaN(x) || math.IsInf(x, 0) {
				x = 1
			}
			if !math.IsNaN(p.Min) && x < p.Min {
				x = p.Min
			}
			if !math.IsNaN(p.Max) && x > p.Max {
				x = p.Max
			}
			raw[p.Name] = x
		case Int:
			lo, hi := p.IntRange()
			x := n + int64(i)
			if x < lo || x > hi {
				x = lo + (x%(hi-lo+1)+(hi-lo+1))%(hi-lo+1)
			}
			raw[p.Name] = x
		case Bool:
			raw[p.Name] = b != (i%2 == 1)
		case String:
			switch {
			case p.Choices != nil:
				raw[p.Name] = p.Choices[int(uint64(n)%uint64(len(p.Choices)))]
			case b && freeText[p.Name] != "":
				raw[p.Name] = freeText[p.Name]
			default:
				raw[p.Name] = p.Default
			}
		}
	}
	return raw
}

// freeText holds a valid value of each String parameter without Choices.
var freeText = map[string]string{
	"tss_limits": "4: VS Seq 1; VS N 1.5; VS W 2; VS VW 2.5; S Seq 1; S N 1; S W 1; S VW 1; " +
		"L Seq 1; L N 2; L W 1; L VW 1; VL Seq 1; VL N 1; VL W 1; VL VW 1.25 / 128: VS Seq 2.53; VS N 14.41; VS W 37.78; VS VW 113.31; " +
		"S Seq 1.15; S N 2.43; S W 4.83; S VW 15.56; L Seq 1.19; L N 1.24; L W 1.96; L VW 2.79; VL Seq 1.03; VL N 1.09; VL W 1.18; VL VW 1.43",
}

// FuzzValues_RoundTrip: the canonical text of validated values reads back
// (through ParseStrings, as a --param or a params column would) to the
// same typed values and the same text, and their JSON decodes to the same
// typed values without the registry: an int64 stays an int64, exactly,
// and a whole float64 stays a float64.
func FuzzValues_RoundTrip(f *testing.F) {
	f.Add(uint8(0), 1.5, int64(600), true)
	f.Add(uint8(3), 2.0, int64(1e6), false)
	f.Add(uint8(7), 1e-7, int64(math.MaxInt32), true)
	f.Add(uint8(11), 123456789.125, int64(-5), false)
	f.Add(uint8(19), 0.1, int64(1<<40), true)
	f.Fuzz(func(t *testing.T, which uint8, fv float64, n int64, b bool) {
		es := Entries()
		e := es[int(which)%len(es)]
		v, err := e.Check(pointOf(e, fv, n, b))
		if err != nil {
			t.Skip(err) // a constraint between parameters
		}
		text := v.Canonical()
		back := map[string]string{}
		if text != "" {
			for _, kv := range strings.Split(text, ",") {
				k, x, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("%s: pair %q without '='", text, kv)
				}
				back[k] = x
			}
		}
		v2, err := e.ParseStrings(back)
		if err != nil {
			t.Fatalf("%s: canonical text %q does not read back: %v", e.Name, text, err)
		}
		if !reflect.DeepEqual(v, v2) || v2.Canonical() != text {
			t.Fatalf("%s: %q reads back as %v (%q), want %v", e.Name, text, v2, v2.Canonical(), v)
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var v3 Values
		if err := json.Unmarshal(j, &v3); err != nil {
			t.Fatalf("%s: %s: %v", e.Name, j, err)
		}
		if !reflect.DeepEqual(v, v3) {
			t.Fatalf("%s: JSON %s decodes to %#v, want %#v", e.Name, j, v3, v)
		}
		if err := e.matchKinds(v3); err != nil {
			t.Fatalf("%s: decoded values do not match the entry: %v", e.Name, err)
		}
	})
}

// TestValues_JSONInt64: an int64 beyond float64's exact range crosses JSON
// exactly, and a whole float stays a float.
func TestValues_JSONInt64(t *testing.T) {
	v := Values{"n": int64(1<<62 + 1), "f": 2.0, "b": true, "s": "x"}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(j) != `{"b":true,"f":2.0,"n":4611686018427387905,"s":"x"}` {
		t.Errorf("JSON %s", j)
	}
	var back Values
	if err := json.Unmarshal(j, &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Errorf("decoded %#v, %v; want %#v", back, err, v)
	}
	for _, bad := range []string{`{"x":null}`, `{"x":1.2.3}`, `{"x":99999999999999999999}`, `[1]`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s decodes without error", bad)
		}
	}
}

// TestBuild_Kinds: Build takes Check's values as they are and refuses
// values of another kind, unknown and missing parameters with an error,
// not a panic.
func TestBuild_Kinds(t *testing.T) {
	e, err := Lookup("ss")
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.Check(map[string]any{"suspension_factor": 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build("ss", v, Env{Procs: 8}); err != nil {
		t.Fatalf("Build(Check's values): %v", err)
	}
	wrong := v.Clone()
	wrong["suspension_factor"] = int64(2)
	unknown := v.Clone()
	unknown["sf"] = 2.0
	missing := v.Clone()
	delete(missing, "suspension_factor")
	for name, bad := range map[string]Values{"kind": wrong, "unknown": unknown, "missing": missing} {
		if _, err := Build("ss", bad, Env{Procs: 8}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
