package workload

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestParse_InfoErrors: a bad value in fields 11-18 is reported with the
// file, the line and the field.
func TestParse_InfoErrors(t *testing.T) {
	line := func(fields11to18 string) string {
		return "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n2 5 0 10 1 -1 -1 1 10 -1 " + fields11to18 + "\n"
	}
	for _, c := range []struct {
		fields string
		want   error
		text   string
	}{
		{"6 1 1 1 1 1 -1 -1", ErrBadStatus, `info.swf:3: field 11 (status): "6" is not a job status (valid: -1, 0..5)`},
		{"-2 1 1 1 1 1 -1 -1", ErrBelowUnknown, `info.swf:3: field 11 (status): "-2" is below -1`},
		{"1 1.5 1 1 1 1 -1 -1", ErrNotInteger, `info.swf:3: field 12 (user id): "1.5" is not an integer`},
		{"1 1 -7 1 1 1 -1 -1", ErrBelowUnknown, `info.swf:3: field 13 (group id): "-7" is below -1`},
		{"1 1 1 x 1 1 -1 -1", ErrNotNumber, `info.swf:3: field 14 (executable): "x" is not a number`},
		{"1 1 1 1 2147483648 1 -1 -1", ErrRange, `info.swf:3: field 15 (queue): "2147483648" is out of range: above 2147483647`},
		{"1 1 1 1 1 -3 -1 -1", ErrBelowUnknown, `info.swf:3: field 16 (partition): "-3" is below -1`},
		{"1 1 1 1 1 1 0.5 -1", ErrNotInteger, `info.swf:3: field 17 (preceding job): "0.5" is not an integer`},
		{"1 1 1 1 1 1 1 -10", ErrBelowUnknown, `info.swf:3: field 18 (think time): "-10" is below -1`},
	} {
		_, err := Parse(strings.NewReader(line(c.fields)), "info.swf", 0)
		var pe *ParseError
		if !errors.Is(err, c.want) || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.text) {
			t.Errorf("fields 11-18 %q: error %v, want %v starting %q", c.fields, err, c.want, c.text)
		}
	}
	// Every value the format allows is read, -1 and 0 included.
	tr, err := Parse(strings.NewReader(line("5 0 7 9 0 3 1 12.5")), "info.swf", 0)
	if err != nil {
		t.Fatal(err)
	}
	r := tr.Records[1]
	if r.Status != 5 || r.User != 0 || r.Group != 7 || r.Executable != 9 || r.Queue != 0 || r.Partition != 3 || r.Preceding != 1 || r.ThinkTime != 13 {
		t.Errorf("record %+v", r)
	}
}

// TestRead_InfoShipped: the shipped traces' users and groups reach the
// jobs (the CTC trace has users 1..679 and no groups).
func TestRead_InfoShipped(t *testing.T) {
	w, err := Load(filepath.Join("..", "..", "traces", "CTC-SP2-1996-3.1-cln.swf.gz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	users := map[int32]bool{}
	for _, j := range w.Jobs {
		if j.Info.User < 1 || j.Info.User > 679 || j.Info.Group != -1 {
			t.Fatalf("job %d: info %+v", j.ID, j.Info)
		}
		users[j.Info.User] = true
	}
	if len(users) < 500 {
		t.Errorf("%d users", len(users))
	}
}
