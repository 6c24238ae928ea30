package svclust

import (
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestChooseExtremeScale: coordinates of 1e160 square to +Inf and of
// 1e-160 and 1e-200 to subnormals and 0, so no usable γ comes from the
// distances; Train must say so with a ConfigError for Gamma instead of
// returning a model with γ = 0 or +Inf and NaN coefficients (also from
// the review).
func TestChooseExtremeScale(t *testing.T) {
	for _, scale := range []float64{1e160, 1e-160, 1e-200} {
		data := make([]float64, 0, 200)
		for i := range 100 {
			data = append(data, scale*float64(i%10), scale*float64(i/10))
		}
		_, err := Train(mat.NewDense(100, 2, data), nil)
		var ce *ConfigError
		if !errors.As(err, &ce) || (ce.Field != "Gamma" && ce.Field != "C") {
			t.Errorf("scale %g: got %v, want a ConfigError for Gamma or C", scale, err)
		}
	}
}

// TestChooseDuplicates: ten values on a line, each repeated ten times. Each
// row has nine duplicates, so its 5th neighbour is at distance 0 and
// Choose falls back to the nearest distinct row, at distance 1: ρ = 1 and
// γ = 1/1.5². (Discrete data like this made γ NaN or the documented
// fallback 1 whatever the scale, before.)
func TestChooseDuplicates(t *testing.T) {
	data := make([]float64, 0, 100)
	for i := range 100 {
		data = append(data, float64(i%10))
	}
	ch, err := Choose(mat.NewDense(100, 1, data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Rho != 1 || ch.Gamma != 1/(1.5*1.5) {
		t.Errorf("ρ = %v, γ = %v; want 1 and 1/2.25", ch.Rho, ch.Gamma)
	}
}
