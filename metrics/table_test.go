package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sameBits reports whether a and b are the same float64, NaN included.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// TestTableMatchesEvaluate checks that a Table fed one point at a time
// scores bit for bit as Evaluate does on the whole slices: the same codes by
// first appearance and the same cells in the same order. The cases cover the
// dense and the sparse layout of Evaluate's table, the map path of the label
// codes (far-apart labels), outliers, one point and no points.
func TestTableMatchesEvaluate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name         string
		n, k1, k2    int
		far, outlier bool
	}{
		{"empty", 0, 1, 1, false, false},
		{"one point", 1, 1, 1, false, false},
		{"small", 50, 3, 4, false, true},
		{"agree", 300, 5, 5, false, false},
		{"far labels", 1000, 7, 9, true, true},
		{"sparse", 200, 150, 150, false, false},
	} {
		truth := make([]int, tc.n)
		pred := make([]int, tc.n)
		for i := range truth {
			truth[i] = rnd.IntN(tc.k1)
			pred[i] = rnd.IntN(tc.k2)
			if tc.name == "agree" {
				pred[i] = 10 + truth[i] // identical up to relabelling: ARI and NMI 1
			}
			if tc.far {
				truth[i] *= 1 << 40
				pred[i] = -pred[i] << 50
			}
			if tc.outlier && i%7 == 0 {
				pred[i] = -1
			}
		}
		var tab Table
		for i := range truth {
			tab.Add(truth[i], pred[i])
		}
		got, want := tab.Scores(), Evaluate(nil, 0, truth, pred)
		if tab.Len() != tc.n {
			t.Errorf("%s: Len %d, want %d", tc.name, tab.Len(), tc.n)
		}
		if got.Clusters != want.Clusters {
			t.Errorf("%s: %d clusters, Evaluate %d", tc.name, got.Clusters, want.Clusters)
		}
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"purity", got.Purity, want.Purity},
			{"Rand", got.Rand, want.Rand},
			{"ARI", got.ARI, want.ARI},
			{"NMI", got.NMI, want.NMI},
			{"DB", got.DB, math.NaN()},
			{"compactness", got.Compactness, math.NaN()},
		} {
			if !sameBits(f.got, f.want) {
				t.Errorf("%s: %s = %v, want %v", tc.name, f.name, f.got, f.want)
			}
		}
		if tc.name == "agree" && (got.ARI != 1 || got.NMI != 1) {
			t.Errorf("agreeing partitions: ARI %v NMI %v, want 1 and 1", got.ARI, got.NMI)
		}
	}
}
