package svclust

import (
	"math"
	"testing"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
)

// TestTrainWidths: γ and C automatic give each support vector a width
// between the global one and a quarter of it (γ ≤ γᵢ ≤ 16γ), reported in
// auto.Choice; auto.GlobalWidth, a given γ or a given C give one width.
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
		t.Errorf("%d narrowed, smallest ℓᵢ/ℓ %v; auto.Choice says %d and %v", narrowed, lo, ch.Narrowed, ch.WidthMin)
	}
	for _, cfg := range []Config{{Seed: 1, Width: auto.GlobalWidth}, {Seed: 1, Gamma: m.Gamma}, {Seed: 1, C: 2}} {
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
