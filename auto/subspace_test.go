package auto

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestGramEigen: for fewer rows than features, the eigenvalues and kept
// directions of the row covariance from the s×s Gram matrix are those of
// the d×d covariance: the s largest eigenvalues within 10⁻⁹ of the largest,
// the others 0, and the directions of the three largest (well apart here:
// rows drawn with variances 9, 4, 2.25 on the first three features) equal
// up to sign within 10⁻⁸.
func TestGramEigen(t *testing.T) {
	const s, d = 40, 120
	rng := rand.New(rand.NewPCG(6, 1))
	c := mat.NewDense(s, d, nil)
	wts := make([]float64, s)
	for i := range s {
		row := c.RawRowView(i)
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		row[0] *= 30
		row[1] *= 20
		row[2] *= 15
		wts[i] = 1 / (float64(s) * floats.Dot(row, row))
	}
	wts[7] = 0 // a row of norm 0 adds nothing
	cv, cvec := covEigen(c, wts, s, d)
	gv, gvec := gramEigen(c, wts, s, d)
	top := cv[d-1]
	for k := range d {
		if math.Abs(cv[k]-gv[k]) > 1e-9*top {
			t.Fatalf("eigenvalue %d: %v from the covariance, %v from the Gram matrix", k, cv[k], gv[k])
		}
	}
	for k := d - 3; k < d; k++ {
		dot := math.Abs(mat.Dot(cvec.ColView(k), gvec.ColView(k)))
		if math.Abs(dot-1) > 1e-8 {
			t.Errorf("direction %d: |cos| = %v between the two, want 1", d-1-k, dot)
		}
	}
}
