package svclust

import (
	"math"
	"testing"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/kernel"
)

// TestScoreMatchesDecision checks that Score, which evaluates only the terms
// of f within e⁻⁴⁰ of the largest where an index of the support vectors
// pays (kernel.Terms), computes the f that Decision computes term by term:
// equal to within the terms left out (below B·e⁻⁴⁰ ≈ 4·10⁻¹⁵ of f + 1 for B
// = 1000) and the rounding of sums of B terms in two orders (B·2⁻⁵³ of the
// sum; Higham, Accuracy and Stability of Numerical Algorithms, §4.2), so
// 1e-12 of f + 1. It also checks that the index is used for these 2-D
// models with the automatic settings, so that the comparison tests it.
func TestScoreMatchesDecision(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	for _, kind := range []dataset.Kind{dataset.Moons, dataset.Nested} {
		ds := generated(t, kind, 2000)
		m, err := Train(ds.X, &Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if kernel.NewTermsOf(m.field()) == nil {
			t.Fatalf("%s: no index of the support vectors", kind)
		}
		scores := m.Score(nil, ds.X, 2)
		for i, v := range scores {
			want := m.Decision(ds.X.RawRowView(i))
			if math.Abs(v-want) > 1e-12*(want+1) {
				t.Fatalf("%s row %d: Score %v, Decision %v", kind, i, v, want)
			}
		}
	}
}
