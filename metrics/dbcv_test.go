package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The expected values below are derived by hand from the definitions in
// Moulavi et al. (SDM 2014), as restated in the DBCV godoc.
func TestDBCVHand(t *testing.T) {
	// Two clusters {0, 1, 2} and {10, 11, 12} on a line (d = 1). Core
	// distances are harmonic means of the distances to the other members:
	// 0 and 2 have (1/1 + 1/2)/2 = 3/4, so 4/3; 1 has 1. The mutual
	// reachability tree of each cluster is the path 0–1–2 with edges 4/3
	// and 4/3: one internal point (1) and no edge between internal points,
	// so DSC = 4/3. Separation between the internal points 1 and 11:
	// max(1, 1, 10) = 10. V = (10 − 4/3)/10 = 13/15 for each cluster.
	line := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	pred := []int{0, 0, 0, 1, 1, 1}
	if got, want := DBCV(line, pred), 13.0/15; math.Abs(got-want) > 1e-12 {
		t.Errorf("two clusters on a line: DBCV = %v, want 13/15 = %v", got, want)
	}
	// An outlier at 100 counts in n but in no cluster: 6/7 of the above.
	withOut := mat.NewDense(7, 1, []float64{0, 1, 2, 10, 11, 12, 100})
	if got, want := DBCV(withOut, []int{0, 0, 0, 1, 1, 1, -1}), 6.0/7*13/15; math.Abs(got-want) > 1e-12 {
		t.Errorf("with an outlier: DBCV = %v, want 6/7·13/15 = %v", got, want)
	}
	// Pairs in the plane (d = 2): {(0,0), (0,1)} and {(5,0), (5,1)}. Each
	// core distance is ((1/1)²/1)^(−1/2) = 1, each tree one edge of 1 with
	// no internal point (all points internal, DSC = 1), and the closest
	// internal points are 5 apart: V = (5 − 1)/5 = 0.8.
	pairs := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 5, 0, 5, 1})
	if got := DBCV(pairs, []int{7, 7, 3, 3}); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("two pairs: DBCV = %v, want 0.8", got)
	}
}

func TestDBCVDegenerate(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 2, 3})
	for _, tc := range []struct {
		name string
		pred []int
	}{
		{"one cluster", []int{0, 0, 0, 0}},
		{"all outliers", []int{-1, -1, -1, -1}},
		{"a cluster and a singleton", []int{0, 0, 0, 1}},
	} {
		if got := DBCV(x, tc.pred); got != -1 {
			t.Errorf("%s: DBCV = %v, want −1 (fewer than two clusters)", tc.name, got)
		}
	}
	// Duplicates give core distance 0 and must not produce NaN.
	dup := mat.NewDense(6, 1, []float64{0, 0, 0, 5, 5, 5})
	if got := DBCV(dup, []int{0, 0, 0, 1, 1, 1}); got != 1 {
		t.Errorf("duplicated points: DBCV = %v, want 1 (DSC 0, separation 5)", got)
	}
}

// TestDBCVPrefersTrueSplit checks the property DBCV is for: on two
// separated Gaussian blobs the true split scores higher than a split of
// one blob by a line through it, and does not depend on the names of the
// labels. (It may depend on the order of the rows: see DBCV.)
func TestDBCVPrefersTrueSplit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 200
	x := mat.NewDense(n, 2, nil)
	truth := make([]int, n)
	cut := make([]int, n)
	for i := range n {
		c := i % 2
		cx := float64(c) * 8
		x.Set(i, 0, cx+rnd.NormFloat64())
		x.Set(i, 1, rnd.NormFloat64())
		truth[i] = c
		if x.At(i, 0) > 8 {
			cut[i] = 1
		}
	}
	good, bad := DBCV(x, truth), DBCV(x, cut)
	if !(good > 0.5 && good > bad) {
		t.Errorf("DBCV(true split) = %v, DBCV(cut through a blob) = %v: want the first above 0.5 and above the second", good, bad)
	}
	renamed := make([]int, n)
	for i, c := range truth {
		renamed[i] = 5 - c
	}
	if got := DBCV(x, renamed); got != good {
		t.Errorf("relabelled: DBCV = %v, want %v", got, good)
	}
}

// TestDBCVRows: DBCVRows.DBCV is DBCV bit for bit, for partitions of the
// same rows into 2 to 5 clusters with outliers, singletons and duplicate
// rows (core distance 0), in 1 to 4 dimensions, and the hand-computed
// value of TestDBCVHand.
func TestDBCVRows(t *testing.T) {
	line := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	if got, want := NewDBCVRows(line).DBCV([]int{0, 0, 0, 1, 1, 1}), 13.0/15; math.Abs(got-want) > 1e-12 {
		t.Errorf("two clusters on a line: DBCVRows.DBCV = %v, want 13/15 = %v", got, want)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for d := 1; d <= 4; d++ {
		n := 120
		x := mat.NewDense(n, d, nil)
		for i := range n {
			for k := range d {
				x.Set(i, k, rng.NormFloat64()+float64(3*(i%3)))
			}
		}
		x.SetRow(7, mat.Row(nil, 4, x)) // a duplicate row
		rows := NewDBCVRows(x)
		for k := 2; k <= 5; k++ {
			pred := make([]int, n)
			for i := range pred {
				pred[i] = (i + rng.IntN(2)) % k
				if rng.IntN(15) == 0 {
					pred[i] = -1
				}
			}
			pred[n-1] = 9 // a cluster of one row
			want := DBCV(x, pred)
			if got := rows.DBCV(pred); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("d %d, %d clusters: DBCVRows.DBCV = %v, DBCV = %v", d, k, got, want)
			}
		}
	}
}
