package svclust

import (
	"math"
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
	a, b := kthNeighbours(x, 400, 2, autoK, widthK, 2)
	if a != kthNeighbour(x, 400, 2, autoK, 1) || b != kthNeighbour(x, 400, 2, widthK, 1) {
		t.Errorf("kthNeighbours = %v, %v; kthNeighbour gives %v, %v", a, b,
			kthNeighbour(x, 400, 2, autoK, 1), kthNeighbour(x, 400, 2, widthK, 1))
	}
}

// TestTrainWidths: γ and C automatic give each support vector a width
// between the global one and a quarter of it (γ ≤ γᵢ ≤ 16γ), reported in
// Choice; GlobalWidth, a given γ or a given C give one width.
func TestTrainWidths(t *testing.T) {
	t.Parallel()
	ds := generated(t, dataset.Gauss3, 600)
	m, err := Train(ds.X, &Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ch := m.Choice
	if len(m.Gammas) != len(m.Alpha) || !ch.Adaptive || !(ch.RhoWidth > ch.Rho) {
		t.Fatalf("%d widths for %d support vectors, choice %+v", len(m.Gammas), len(m.Alpha), ch)
	}
	narrowed, lo := 0, math.Inf(1)
	for _, g := range m.Gammas {
		if g < m.Gamma || g > 16*m.Gamma {
			t.Fatalf("γᵢ = %v outside [γ, 16γ] for γ = %v", g, m.Gamma)
		}
		if g > m.Gamma {
			narrowed++
		}
		lo = min(lo, math.Sqrt(m.Gamma/g))
	}
	// Three Gaussian blobs are densest at their centres: some kernels
	// must narrow. ℓᵢ/ℓ goes through γᵢ and back: a few ulps.
	if narrowed == 0 || narrowed != ch.Narrowed || math.Abs(lo-ch.WidthMin) > 1e-14 {
		t.Errorf("%d narrowed, smallest ℓᵢ/ℓ %v; Choice says %d and %v", narrowed, lo, ch.Narrowed, ch.WidthMin)
	}
	for _, cfg := range []Config{{Seed: 1, Width: GlobalWidth}, {Seed: 1, Gamma: m.Gamma}, {Seed: 1, C: 2}} {
		g, err := Train(ds.X, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		if g.Gammas != nil || g.Choice.Adaptive || g.Choice.RhoWidth != 0 {
			t.Errorf("%+v: adaptive widths", cfg)
		}
	}
	if err := (&Config{Width: 2}).Validate(); err == nil {
		t.Error("Width 2: no error")
	}
}

// TestChoiceWidthRule: a Choice names the rule of the model it describes,
// as fit's run record and -json print it.
func TestChoiceWidthRule(t *testing.T) {
	if r := (Choice{Adaptive: true}).WidthRule(); r != AdaptiveWidth || r.String() != "adaptive" {
		t.Errorf("adaptive choice: %v", r)
	}
	if r := (Choice{}).WidthRule(); r != GlobalWidth || r.String() != "global" {
		t.Errorf("one width: %v", r)
	}
}
