package svclust

import (
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/rowmajor"
)

// flatten returns the rows of x as one row-major slice, without copying
// when x is a compact *mat.Dense, and checks that every value is finite.
func flatten(x mat.Matrix) (data []float64, n, d int, err error) {
	if x == nil {
		return nil, 0, 0, ErrNoData
	}
	data, n, d = rowmajor.Of(x)
	if n == 0 || d == 0 {
		return nil, 0, 0, ErrNoData
	}
	for k, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, 0, fmt.Errorf("%w: row %d, column %d", ErrNotFinite, k/d+1, k%d+1)
		}
	}
	return data, n, d, nil
}

// numWorkers resolves a Workers setting.
func numWorkers(w int) int {
	if w <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return w
}

// rowBuffer returns the buffer rowSource's function needs for the rows of
// x, of d values: none for a *mat.Dense, whose rows are views.
func rowBuffer(x mat.Matrix, d int) []float64 {
	if _, ok := x.(*mat.Dense); ok {
		return nil
	}
	return make([]float64, d)
}

// rowSource returns a function giving row i of x, as a view when x is a
// *mat.Dense and otherwise copied into the caller's buffer.
func rowSource(x mat.Matrix) func(i int, buf []float64) []float64 {
	if dense, ok := x.(*mat.Dense); ok {
		return func(i int, _ []float64) []float64 { return dense.RawRowView(i) }
	}
	return func(i int, buf []float64) []float64 { return mat.Row(buf, i, x) }
}
