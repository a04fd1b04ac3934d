//go:build unix

package rusage

import "testing"

// TestCPU_Grows checks that CPU time is read and grows with work, and that
// the peak resident set covers a slice the test has touched.
func TestCPU_Grows(t *testing.T) {
	before := CPU()
	buf := make([]byte, 64<<20)
	x := 0
	for i := 0; i < 40; i++ {
		for j := range buf {
			buf[j] = byte(i + j)
			x += int(buf[j])
		}
	}
	after := CPU()
	if before <= 0 || after <= before {
		t.Errorf("CPU before %v, after %v (sum %d): want positive and growing", before, after, x)
	}
	if rss := MaxRSS(); rss < 64<<20 {
		t.Errorf("MaxRSS %d, want at least the 64 MiB slice written", rss)
	}
}
