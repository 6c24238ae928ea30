package svclust

import (
	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/rowmajor"
)

// flatten returns the rows of x as one row-major slice, without copying
// when x is a compact *mat.Dense, and checks that every value is finite.
func flatten(x mat.Matrix) (data []float64, n, d int, err error) {
	return rowmajor.Checked(x, ErrNoData, ErrNotFinite)
}
