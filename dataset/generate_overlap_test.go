package dataset

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGenerateOverlap checks GenerateOverlap's classes, determinism and
// separations: with 4000 points a class the class means lie within 0.1
// of the centres, so no two are closer than OverlapMinSep − 0.2 and each
// has a neighbour within OverlapMaxSep + 0.2.
func TestGenerateOverlap(t *testing.T) {
	for k := 2; k <= OverlapMaxCentres; k++ {
		for seed := uint64(1); seed <= 3; seed++ {
			n := 4000 * k
			ds, err := GenerateOverlap(n, k, seed)
			if err != nil {
				t.Fatal(err)
			}
			if r, c := ds.X.Dims(); r != n || c != 2 || len(ds.Labels) != n || len(ds.Classes) != k {
				t.Fatalf("k %d: %d×%d, %d labels, %d classes", k, r, c, len(ds.Labels), len(ds.Classes))
			}
			again, _ := GenerateOverlap(n, k, seed)
			if !mat.Equal(ds.X, again.X) || !slices.Equal(ds.Labels, again.Labels) {
				t.Fatalf("k %d seed %d: not deterministic", k, seed)
			}
			mean := make([][2]float64, k)
			count := make([]int, k)
			for i, l := range ds.Labels {
				mean[l][0] += ds.X.At(i, 0)
				mean[l][1] += ds.X.At(i, 1)
				count[l]++
			}
			for c := range mean {
				if count[c] != 4000 {
					t.Fatalf("k %d: class %d has %d points, want 4000", k, c, count[c])
				}
				mean[c][0] /= 4000
				mean[c][1] /= 4000
			}
			for a := range mean {
				near := math.Inf(1)
				for b := range mean {
					if a != b {
						near = min(near, math.Hypot(mean[a][0]-mean[b][0], mean[a][1]-mean[b][1]))
					}
				}
				if near < OverlapMinSep-0.2 || near > OverlapMaxSep+0.2 {
					t.Errorf("k %d seed %d: class %d's nearest other class is %.2f away, want [%g, %g]", k, seed, a, near, OverlapMinSep, OverlapMaxSep)
				}
			}
		}
	}
	if a, _ := GenerateOverlap(100, 3, 1); func() bool { b, _ := GenerateOverlap(100, 3, 2); return mat.Equal(a.X, b.X) }() {
		t.Error("seeds 1 and 2 give the same data")
	}
}

func TestGenerateOverlapErrors(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{100, 1}, {100, 11}, {2, 3}, {0, 2}} {
		if _, err := GenerateOverlap(tc.n, tc.k, 1); err == nil {
			t.Errorf("GenerateOverlap(%d, %d): no error", tc.n, tc.k)
		}
	}
}
