package dataset

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGenerateHigh: every kind has the rows, dimension and classes it
// names, the same seed gives the same data, and the class centres are the
// distance apart the kind documents (within the sampling error of 250
// rows a class).
func TestGenerateHigh(t *testing.T) {
	for _, k := range HighKinds() {
		ds, err := GenerateHigh(k, 1000, 3)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := GenerateHigh(k, 1000, 3)
		n, d := ds.X.Dims()
		want := map[byte]int{'g': 4, 'o': 4, 't': 4, 'm': 3}[k[0]]
		if n != 1000 || d < 8 || len(ds.Classes) != want || len(ds.Names) != d || !mat.Equal(ds.X, again.X) {
			t.Fatalf("%s: %d×%d, %d classes, or not deterministic", k, n, d, len(ds.Classes))
		}
		if k[0] == 't' || k[0] == 'm' {
			continue // heavy tails; circles around their centres
		}
		sep := map[byte]float64{'g': 4, 'o': 3}[k[0]]
		mean := make([][]float64, want)
		for c := range mean {
			mean[c] = make([]float64, d)
		}
		for i := range n {
			for j, v := range ds.X.RawRowView(i) {
				mean[ds.Labels[i]][j] += v / 250
			}
		}
		var dist float64
		for j := range d {
			dist += (mean[0][j] - mean[1][j]) * (mean[0][j] - mean[1][j])
		}
		// Each mean errs by N(0, 1/250) per coordinate: the squared
		// distance by about 2d/250 on average.
		if got := math.Sqrt(dist); math.Abs(got*got-sep*sep-2*float64(d)/250) > 0.25*sep*sep {
			t.Errorf("%s: centres %.3f apart, want %g", k, got, sep)
		}
	}
	for _, bad := range []HighKind{"", "x8", "g3", "g", "gx"} {
		if _, err := GenerateHigh(bad, 10, 1); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := GenerateHigh("g8", 0, 1); err == nil {
		t.Error("n = 0: no error")
	}
}
