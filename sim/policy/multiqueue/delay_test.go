package multiqueue

import (
	"math"
	"testing"
)

// TestDelaySequence checks the adaptive delay against the hand-computed
// sequence: D_1 = 2500 and batch mean slowdowns 3, 3.5, 2, 2.1, 5.
func TestDelaySequence(t *testing.T) {
	s := []float64{3, 3.5, 2, 2.1, 5}
	for _, c := range []struct {
		unit bool
		want []float64
	}{
		{false, []float64{10000, 10000, 8928.57, 8928.57, 10378.57}},
		{true, []float64{5000, 5000, 3928.57, 3928.57, 5378.57}},
	} {
		// Batches of 3 completions: two queue-1 jobs around the mean and
		// one job of another queue, which must not count.
		d := NewDelay(2500, true, 3, 0.25, c.unit)
		for k, sk := range s {
			d.Complete(true, sk-0.5)
			d.Complete(false, 1000)
			if d.D() != d.d1 && k == 0 {
				t.Fatalf("D changed before the batch closed")
			}
			d.Complete(true, sk+0.5)
			if got := d.D(); math.Abs(got-c.want[k]) > 0.005 {
				t.Errorf("unit=%v: D_%d = %.2f, want %.2f", c.unit, k+2, got, c.want[k])
			}
		}
		if d.Updates() != 3 {
			t.Errorf("unit=%v: %d updates, want 3", c.unit, d.Updates())
		}
		if want := c.want[4]; math.Abs(d.Max()-want) > 0.005 {
			t.Errorf("unit=%v: max %.2f, want %.2f", c.unit, d.Max(), want)
		}
	}
}

// TestDelaySkipsBatchWithoutQueue1 checks that a batch without queue-1
// jobs leaves D and the previous batch's mean alone, that D never goes
// below 0, and that a non-adaptive delay stays at D_1.
func TestDelaySkipsBatchWithoutQueue1(t *testing.T) {
	d := NewDelay(100, true, 2, 0.25, true)
	d.Complete(true, 4)
	d.Complete(true, 4) // s_1 = 4, delta_1 = 1: D = 200
	d.Complete(false, 9)
	d.Complete(false, 9) // skipped
	if d.D() != 200 {
		t.Fatalf("D = %v after a skipped batch, want 200", d.D())
	}
	d.Complete(true, 1)
	d.Complete(true, 1) // s_2 = 1 against s_1 = 4: delta = -0.75, D = 125
	if d.D() != 125 {
		t.Fatalf("D = %v, want 125", d.D())
	}
	for range 10 {
		d.Complete(true, 1e-9)
		d.Complete(true, 1e-9)
		d.Complete(true, 1e6)
		d.Complete(true, 1e6)
	}
	if d.D() < 0 {
		t.Fatalf("D = %v < 0", d.D())
	}
	f := NewDelay(100, false, 1, 0.25, false)
	for _, s := range []float64{1, 50, 2} {
		f.Complete(true, s)
	}
	if f.D() != 100 || f.Updates() != 0 {
		t.Fatalf("non-adaptive D = %v after %d updates", f.D(), f.Updates())
	}
}
