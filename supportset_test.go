package svclust

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSmallestFastPath: Smallest with nothing removed (its loop without the
// test for removal) chooses as the definition does: the least |aᵢ|, ties
// (common: every SGD update adds the same amount) to the earliest stamp,
// then the lower index; and with removals it skips the removed.
func TestSmallestFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	for trial := range 2000 {
		n := 1 + rng.IntN(12)
		s := &SupportSet{a: make([]float64, n), stamp: make([]int, n)}
		for i := range n {
			s.a[i] = float64(rng.IntN(4) - 1) // many ties, 0 and negatives
			s.stamp[i] = rng.IntN(5)
		}
		want := -1
		for i := range n {
			if want < 0 || math.Abs(s.a[i]) < math.Abs(s.a[want]) ||
				math.Abs(s.a[i]) == math.Abs(s.a[want]) && s.stamp[i] < s.stamp[want] {
				want = i
			}
		}
		if got := s.Smallest(); got != want {
			t.Fatalf("trial %d: a %v stamp %v: Smallest = %d, want %d", trial, s.a, s.stamp, got, want)
		}
		s.removed = []int{want}
		if got := s.Smallest(); got == want {
			t.Fatalf("trial %d: Smallest = %d, which is removed", trial, got)
		}
	}
}
