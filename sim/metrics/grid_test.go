package metrics

import (
	"strings"
	"testing"
)

func TestWriteGrid(t *testing.T) {
	s, _ := LookupScheme("ss4")
	recs := []Record{
		{Runtime: 100, Procs: 1, BSD: 1},
		{Runtime: 100, Procs: 2, BSD: 3, Wait: 20},
		{Runtime: 7200, Procs: 64, BSD: 2},
	}
	aggs := Summarize(s, recs)
	tests := []struct {
		metric string
		want   string
	}{
		{"bsd_mean", "| runtime \\ processors | N | W |\n|---|---:|---:|\n| S | 2.00 | - |\n| L | - | 2.00 |\n"},
		// A count is 0, not "-", in an empty category.
		{"share", "| runtime \\ processors | N | W |\n|---|---:|---:|\n| S | 66.7 | 0.0 |\n| L | 0.0 | 33.3 |\n"},
	}
	for _, tt := range tests {
		m, err := LookupMetric(tt.metric)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteGrid(&b, s, aggs, m); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("WriteGrid(%s)=\n%s\nwant\n%s", tt.metric, b.String(), tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	rows := [][]string{
		{"name", "text", "number", "empty", "dashes"},
		{"a|b", "x", "1.5", "", "-"},
		{"c\nd", "y", "-2", "", "-"},
	}
	var b strings.Builder
	if err := WriteTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	// Text and empty columns are left-aligned, numbers and "-" right.
	want := "| name | text | number | empty | dashes |\n|---|---|---:|---|---:|\n| a\\|b | x | 1.5 |  | - |\n| c d | y | -2 |  | - |\n"
	if b.String() != want {
		t.Errorf("WriteTable()=\n%s\nwant\n%s", b.String(), want)
	}
}

func TestLookupMetric(t *testing.T) {
	for _, name := range MetricNames() {
		m, err := LookupMetric(name)
		if err != nil || m.Name != name || m.Title == "" || m.Format == "" || m.Value == nil {
			t.Errorf("LookupMetric(%q)=%+v, %v", name, m, err)
		}
		if m.Max != strings.HasSuffix(name, "_max") {
			t.Errorf("%s: Max=%v, want it only for maxima", name, m.Max)
		}
	}
	if _, err := LookupMetric("bsd"); err == nil || !strings.Contains(err.Error(), "valid: bsd_mean, bsd_max") {
		t.Errorf("LookupMetric(bsd)=%v", err)
	}
}
