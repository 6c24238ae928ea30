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
