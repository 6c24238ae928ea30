package auto

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// TestAdaptiveWidth checks the rule ℓᵢ/ℓ = min(1, max(¼, r/ρ)) of
// Choice.RhoWidth on values worked by hand, for ρ = 1.
func TestAdaptiveWidth(t *testing.T) {
	for _, tc := range []struct{ r, want float64 }{
		{0.5, 0.5},   // half the median distance: half the width
		{0.25, 0.25}, // at the floor ¼
		{0.1, 0.25},  // below it: clamped to ℓ/4
		{0, 0.25},    // duplicates: the floor
		{1, 1},       // the median: the global width
		{3, 1},       // sparser than the median: never wider
	} {
		if got := adaptiveWidth(tc.r, 1); got != tc.want {
			t.Errorf("adaptiveWidth(%v, 1) = %v, want %v", tc.r, got, tc.want)
		}
	}
}

// TestKthTo: distances to the k-th nearest sampled row, on the sample
// 0, 1, 2, 3 of the line worked by hand; a sampled point does not count
// itself, as kthNeighbour does not.
func TestKthTo(t *testing.T) {
	smp := []float64{0, 1, 2, 3}
	dist := make([]float64, 4)
	for _, tc := range []struct {
		x    float64
		k    int
		want float64
	}{
		{0, 1, 1},     // itself skipped: 1 is nearest
		{0, 2, 2},     // then 2
		{0.5, 2, 0.5}, // 0 and 1 both at 0.5
		{0.5, 3, 1.5},
		{0, 9, 3}, // k beyond the others: the farthest
	} {
		if got := kthTo([]float64{tc.x}, smp, tc.k, dist); got != tc.want {
			t.Errorf("kthTo(%v, k = %d) = %v, want %v", tc.x, tc.k, got, tc.want)
		}
	}
}

// TestKthNeighbours: the second median of the one pass equals
// kthNeighbour for that k, and both are right on a sample worked by hand:
// on 0, 1, 2, 3 the nearest neighbours are all at 1, and the second
// nearest at 2, 1, 1, 2, whose median (the upper one, v[s/2]) is 2.
func TestKthNeighbours(t *testing.T) {
	smp := []float64{0, 1, 2, 3}
	r1, r2 := kthNeighbours(smp, 4, 1, 1, 2, 1)
	if r1 != 1 || r2 != 2 {
		t.Errorf("kthNeighbours = %v, %v; want 1 and 2", r1, r2)
	}
	ds, err := dataset.Generate(dataset.Gauss3, 400, 3)
	if err != nil {
		t.Fatal(err)
	}
	x := ds.X.RawMatrix().Data
	a, b := kthNeighbours(x, 400, 2, neighbourK, widthK, 2)
	if a != kthNeighbour(x, 400, 2, neighbourK, 1) || b != kthNeighbour(x, 400, 2, widthK, 1) {
		t.Errorf("kthNeighbours = %v, %v; kthNeighbour gives %v, %v", a, b,
			kthNeighbour(x, 400, 2, neighbourK, 1), kthNeighbour(x, 400, 2, widthK, 1))
	}
}

// TestChoiceWidthRule: a Choice names the rule of the model it describes,
// as fit's run record and -json print it.
func TestChoiceWidthRule(t *testing.T) {
	if r := (Choice{Decision: Decision{Adaptive: true}}).WidthRule(); r != AdaptiveWidth || r.String() != "adaptive" {
		t.Errorf("adaptive choice: %v", r)
	}
	if r := (Choice{}).WidthRule(); r != GlobalWidth || r.String() != "global" {
		t.Errorf("one width: %v", r)
	}
}

// TestKthNeighboursPairs: the one pass over the pairs of blocks gives, for
// any number of workers, what a selection in each row's full distance row
// gives (kthNeighboursRows), on samples of several blocks and a partial
// last one, with duplicate rows (distances 0, the fallback to the nearest
// distinct row) and in dimensions with and without the blocks of four.
func TestKthNeighboursPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ s, d, k, k2 int }{
		{2, 1, 1, 1}, {5, 3, 5, 10}, {knnBlock + 1, 2, 1, 2}, {300, 2, neighbourK, widthK},
		{257, 7, neighbourK, widthK}, {200, 128, neighbourK, widthK}, {150, 5, 3, 3},
	} {
		smp := make([]float64, tc.s*tc.d)
		for i := range smp {
			smp[i] = math.Round(4 * rng.NormFloat64()) // ties and duplicates
		}
		if tc.s > 4 {
			copy(smp[tc.d:2*tc.d], smp[:tc.d]) // a duplicate row
		}
		wa, wb := kthNeighboursRows(smp, tc.s, tc.d, min(tc.k, tc.s-1), min(tc.k2, tc.s-1), 1)
		for _, w := range []int{1, 2, 3} {
			a, b := kthNeighbours(smp, tc.s, tc.d, tc.k, tc.k2, w)
			if a != wa || b != wb {
				t.Errorf("s %d, d %d, k %d, %d, %d workers: kthNeighbours = %v, %v; kthNeighboursRows %v, %v",
					tc.s, tc.d, tc.k, tc.k2, w, a, b, wa, wb)
			}
		}
	}
	// Every row a duplicate of another: the medians fall back.
	dup := []float64{1, 1, 2, 2, 5, 5, 9, 9}
	a, b := kthNeighbours(dup, 8, 1, 1, 2, 2)
	wa, wb := kthNeighboursRows(dup, 8, 1, 1, 2, 1)
	if a != wa || b != wb {
		t.Errorf("duplicates: kthNeighbours = %v, %v; kthNeighboursRows %v, %v", a, b, wa, wb)
	}
	// Infinite coordinates make NaN distances: the selection decides.
	inf := []float64{0, math.Inf(1), 1, math.Inf(1), 3, 4, 2, 7}
	a, b = kthNeighbours(inf, 8, 1, 1, 2, 2)
	wa, wb = kthNeighboursRows(inf, 8, 1, 1, 2, 1)
	if math.Float64bits(a) != math.Float64bits(wa) || math.Float64bits(b) != math.Float64bits(wb) {
		t.Errorf("NaN distances: kthNeighbours = %v, %v; kthNeighboursRows %v, %v", a, b, wa, wb)
	}
}

// TestBlockPair: the chunks of kthNeighbours are the pairs of blocks
// bi ≤ bj, each once.
func TestBlockPair(t *testing.T) {
	for blocks := 1; blocks <= 6; blocks++ {
		seen := map[[2]int]bool{}
		for c := range blocks * (blocks + 1) / 2 {
			bi, bj := blockPair(c, blocks)
			if bi > bj || bj >= blocks || seen[[2]int{bi, bj}] {
				t.Fatalf("blocks %d: chunk %d is pair %d, %d", blocks, c, bi, bj)
			}
			seen[[2]int{bi, bj}] = true
		}
	}
}
