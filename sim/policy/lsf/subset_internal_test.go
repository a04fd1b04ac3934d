package lsf

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSubsetSumBrute compares subsetSum, with its table reused from call
// to call, with every subset of small random weight lists: the largest
// sum within the capacity, and among those the lexicographically
// earliest list of indexes.
func TestSubsetSumBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []bool
	for trial := 0; trial < 3000; trial++ {
		n := rng.IntN(11)
		w := make([]int, n)
		for i := range w {
			w[i] = 1 + rng.IntN(8)
		}
		capacity := rng.IntN(20) - 2
		var want []int
		best := -1
		for mask := 0; mask < 1<<n; mask++ {
			var idx []int
			sum := 0
			for i := range n {
				if mask&(1<<i) != 0 {
					idx = append(idx, i)
					sum += w[i]
				}
			}
			if sum > capacity {
				continue
			}
			if sum > best || (sum == best && slices.Compare(idx, want) < 0) {
				best, want = sum, idx
			}
		}
		if best <= 0 {
			want = nil
		}
		var got []int
		got, buf = subsetSum(w, capacity, buf)
		if !slices.Equal(got, want) {
			t.Fatalf("subsetSum(%v, %d) = %v, want %v", w, capacity, got, want)
		}
	}
}
