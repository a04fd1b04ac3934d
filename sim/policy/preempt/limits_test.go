package preempt

import (
	"errors"
	"maps"
	"math"
	"strings"
	"testing"
)

// TestLimits_RoundTrip: the canonical text reads back to the same limits,
// whatever the order and spacing of the text parsed.
func TestLimits_RoundTrip(t *testing.T) {
	in := "430:VL VW 1.15;VL  W 1.09 ;VL N 1.05;VL Seq 1.03;L VW 1.63;L W 1.88;L N 1.43;L Seq 1.13;" +
		"S VW 7.14;S W 3.04;S N 1.76;S Seq 1.26;VS VW 34.07;VS W 13.01;VS N 4.76;VS Seq 2.6 /" +
		" 128: VS Seq 2.53; VS N 14.41; VS W 37.78; VS VW 113.31; S Seq 1.15; S N 2.43; S W 4.83; S VW 15.56;" +
		" L Seq 1.19; L N 1.24; L W 1.96; L VW 2.79; VL Seq 1.03; VL N 1.09; VL W 1.18; VL VW 1.43"
	l, err := ParseLimits(in)
	if err != nil {
		t.Fatal(err)
	}
	if l[430]["VS Seq"] != 2.6 || l[128]["VS VW"] != 113.31 || len(l[430]) != 16 || len(l[128]) != 16 {
		t.Fatalf("parsed %v", l)
	}
	want := "128: VS Seq 2.53; VS N 14.41; VS W 37.78; VS VW 113.31; S Seq 1.15; S N 2.43; S W 4.83; S VW 15.56; " +
		"L Seq 1.19; L N 1.24; L W 1.96; L VW 2.79; VL Seq 1.03; VL N 1.09; VL W 1.18; VL VW 1.43 / " +
		"430: VS Seq 2.6; VS N 4.76; VS W 13.01; VS VW 34.07; S Seq 1.26; S N 1.76; S W 3.04; S VW 7.14; " +
		"L Seq 1.13; L N 1.43; L W 1.88; L VW 1.63; VL Seq 1.03; VL N 1.05; VL W 1.09; VL VW 1.15"
	if got := l.String(); got != want {
		t.Errorf("String:\n%s\nwant\n%s", got, want)
	}
	if strings.ContainsAny(want, ",=") {
		t.Errorf("the text form has a comma or an equals sign, which a name=value,... list cannot hold")
	}
	back, err := ParseLimits(l.String())
	if err != nil || !equalLimits(back, l) {
		t.Errorf("round trip: %v, %v", back, err)
	}
	m, err := l.forMachine(128)
	if err != nil || !maps.Equal(m, l[128]) {
		t.Errorf("forMachine(128): %v, %v", m, err)
	}
	if _, err := l.forMachine(338); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("forMachine(338): %v, want ErrInvalidConfig", err)
	}
	// A library caller's limits are checked by SSConfig.Validate.
	cfg := DefaultSSConfig()
	cfg.Tunable = true
	for name, bad := range map[string]Limits{
		"empty":    {},
		"missing":  {128: {"VS Seq": 2}},
		"below 1":  {128: mapsWith(l[128], "L N", 0.9)},
		"unknown":  {128: mapsWith(l[128], "XL N", 2)},
		"procs 0":  {0: l[128]},
		"infinite": {128: mapsWith(l[128], "L N", math.Inf(1))},
	} {
		cfg.TSSLimits = bad
		if err := cfg.Validate(); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Validate %v, want ErrInvalidConfig", name, err)
		}
	}
	cfg.TSSLimits = l
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// mapsWith returns a copy of m with k set to v.
func mapsWith(m map[string]float64, k string, v float64) map[string]float64 {
	out := maps.Clone(m)
	out[k] = v
	return out
}

func equalLimits(a, b Limits) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]float64) bool { return maps.Equal(x, y) })
}

// FuzzParseLimits: any text either fails with ErrInvalidConfig or gives
// limits whose canonical text reads back to the same limits and is its
// own canonical text.
func FuzzParseLimits(f *testing.F) {
	f.Add("4: VS Seq 1; VS N 1; VS W 1; VS VW 1; S Seq 1; S N 1; S W 1; S VW 1; L Seq 1; L N 2; L W 1; L VW 1; VL Seq 1; VL N 1; VL W 1; VL VW 1")
	f.Add("430: VS Seq 2.6")
	f.Add("x: VS Seq 2")
	f.Add("//;;")
	f.Add("1: VS Seq NaN")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLimits(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("error %v does not wrap ErrInvalidConfig", err)
			}
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("%q parses but does not validate: %v", s, err)
		}
		text := l.String()
		back, err := ParseLimits(text)
		if err != nil {
			t.Fatalf("canonical %q: %v", text, err)
		}
		if !equalLimits(back, l) || back.String() != text || strings.ContainsAny(text, ",=") {
			t.Fatalf("round trip of %q: %v, want %v", s, back, l)
		}
	})
}
