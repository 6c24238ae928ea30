package svclust

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQuickSelect against sorting, on random slices with many ties.
func TestQuickSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		v := make([]float64, 1+rng.IntN(40))
		for i := range v {
			v[i] = float64(rng.IntN(8))
		}
		k := rng.IntN(len(v))
		s := slices.Sorted(slices.Values(v))
		if got := quickSelect(slices.Clone(v), k); got != s[k] {
			t.Fatalf("quickSelect(%v, %d) = %v, want %v", v, k, got, s[k])
		}
	}
}

// TestCover: points on a line at 0, 1, …, 9 with radius 2.5 need the
// centres 0, 3, 6, 9 (each row within 2.5 of the last centre is covered).
func TestCover(t *testing.T) {
	var pts []float64
	for i := range 10 {
		pts = append(pts, float64(i))
	}
	if got := cover(pts, 10, 1, 2.5); got != 4 {
		t.Errorf("cover = %d, want 4", got)
	}
}
