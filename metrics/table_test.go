package metrics

import (
	"math"
	"math/rand/v2"
	"runtime"
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
		got, want := tab.Validity(), Evaluate(nil, truth, pred)
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

// TestTableManyLabels checks that a Table with many classes and many
// clusters lays its table out sparsely, as Evaluate does, instead of as a
// dense classes × clusters array, and still scores bit for bit as Evaluate
// does. The classes are ID-like: 50,000 points, each its own class, in 500
// clusters, so a dense table would hold 25·10⁶ cells, 200 MB of ints, and
// the rule of newContingency (dense only when k₁k₂ ≤ max(4N, 4096) =
// 200,000) picks the sparse layout.
func TestTableManyLabels(t *testing.T) {
	const n, k2 = 50_000, 500
	rnd := rand.New(rand.NewPCG(5, 6))
	truth := make([]int, n)
	pred := make([]int, n)
	for i := range truth {
		truth[i] = 1<<40 + 7919*i    // distinct and far apart: the coder's map path
		pred[i] = rnd.IntN(k2+1) - 1 // −1 for outliers
	}
	var tab Table
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range truth {
		tab.Add(truth[i], pred[i])
	}
	got := tab.Validity()
	runtime.ReadMemStats(&after)
	// The Table holds one map entry per class and per non-empty cell (at
	// most N each) and Validity a sorted list of N cell codes: a few tens of
	// bytes per point: 5.6 MB in all as measured (go1.24, amd64), map
	// growth included. 64 MB is over ten times that and less than a third
	// of the 200 MB a dense table takes; the former Table, with zero-padded
	// rows and a dense array in Validity, allocated 479 MB here.
	if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
		t.Errorf("Table allocated %d bytes for %d points, as if the table were dense", a, n)
	}
	want := Evaluate(nil, truth, pred)
	if got.Clusters != want.Clusters {
		t.Errorf("%d clusters, Evaluate %d", got.Clusters, want.Clusters)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"purity", got.Purity, want.Purity},
		{"Rand", got.Rand, want.Rand},
		{"ARI", got.ARI, want.ARI},
		{"NMI", got.NMI, want.NMI},
	} {
		if !sameBits(f.got, f.want) {
			t.Errorf("%s = %v, Evaluate %v", f.name, f.got, f.want)
		}
	}
	// Every point is its own class, so each column of the table (the
	// outliers' included) has maximum 1 and purity is exactly the number of
	// columns over N: a check independent of Evaluate.
	if cols := float64(want.Clusters+1) / n; got.Purity != cols {
		t.Errorf("purity = %v, want %v", got.Purity, cols)
	}
}

// BenchmarkTableAdd measures Add and Validity on a long labelling with few
// classes and clusters, the common case in fit and predict.
func BenchmarkTableAdd(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 20
	truth := make([]int, n)
	pred := make([]int, n)
	for i := range truth {
		truth[i] = rnd.IntN(3)
		pred[i] = rnd.IntN(8) - 1
	}
	b.ReportAllocs()
	for b.Loop() {
		var t Table
		for i := range truth {
			t.Add(truth[i], pred[i])
		}
		t.Validity()
	}
}
