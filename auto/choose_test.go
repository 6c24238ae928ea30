package auto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/svclust/svclust/internal/kernel"
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

// TestMaxDensityPairs: the pass over pairs (maxDensityPairs) gives maxDensityRows' maximum
// to the bit for any number of workers, also where several rows share the
// largest density (a lattice whose inner rows are alike) and where
// duplicates make it.
func TestMaxDensityPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lattice := func(m int) []float64 {
		var x []float64
		for i := range m {
			for j := range m {
				x = append(x, float64(i), float64(j))
			}
		}
		return x
	}
	for _, tc := range []struct {
		smp   []float64
		d     int
		gamma float64
	}{
		{lattice(9), 2, 0.3},
		{lattice(30), 2, 2},
		{append(lattice(5), 2, 2, 2, 2), 2, 1},
		{[]float64{1}, 1, 1},
	} {
		s := len(tc.smp) / tc.d
		want := maxDensityRows(tc.smp, unitWeights(s), tc.d, tc.gamma, 1)
		for _, w := range []int{1, 2, 3} {
			if got := maxDensityPairs(tc.smp, unitWeights(s), tc.d, tc.gamma, w); got != want {
				t.Errorf("s %d, γ %v, %d workers: maxDensityPairs = %v, maxDensityRows %v", s, tc.gamma, w, got, want)
			}
		}
	}
	for _, d := range []int{2, 3, 17} {
		s := 700
		smp := make([]float64, s*d)
		for i := range smp {
			smp[i] = rng.NormFloat64()
		}
		want := maxDensityRows(smp, unitWeights(s), d, 0.5, 1)
		for _, w := range []int{1, 2, 3} {
			if got := maxDensityPairs(smp, unitWeights(s), d, 0.5, w); got != want {
				t.Errorf("d %d, %d workers: maxDensityPairs = %v, maxDensityRows %v", d, w, got, want)
			}
		}
	}
}

// TestMaxDensityTerms: the largest kernel density through the index of the
// rows (kernel.Terms) is the full sums' within the bound of the dropped
// terms and the rounding of sums in another order, s·(e⁻⁴⁰ + 2⁻⁵²) of it.
func TestMaxDensityTerms(t *testing.T) {
	const s, d, gamma = 1500, 2, 80.0
	rng := rand.New(rand.NewPCG(4, 4))
	smp := make([]float64, s*d)
	for i := range smp {
		smp[i] = rng.NormFloat64()
	}
	ones := unitWeights(s)
	if kernel.NewTerms(smp, d, ones, gamma) == nil {
		t.Fatal("no index of the rows: the test would not exercise it")
	}
	full := maxDensityRows(smp, ones, d, gamma, 1)
	got := maxDensity(smp, s, d, gamma, 2)
	if bound := s * (math.Exp(-kernel.CutOff) + 0x1p-52) * full; math.Abs(got-full) > bound {
		t.Errorf("κmax %v through the index, %v by full sums (bound %v)", got, full, bound)
	}
}
