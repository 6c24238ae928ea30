// Package rowmajor gives the rows of a gonum matrix as one row-major slice,
// the form the hot loops of svclust, baseline and metrics work on, so that
// their public functions can take a mat.Matrix, as gonum's do, at no cost
// for the *mat.Dense that package dataset builds.
package rowmajor

import "gonum.org/v1/gonum/mat"

// Of returns the r×c values of x, row after row, with its dimensions: the
// backing slice of x itself (not a copy) when x is a *mat.Dense whose rows
// are contiguous (stride c), and otherwise a copy. The caller must not
// modify the result.
func Of(x mat.Matrix) (data []float64, r, c int) {
	r, c = x.Dims()
	if dense, ok := x.(*mat.Dense); ok {
		if raw := dense.RawMatrix(); raw.Stride == c {
			return raw.Data[:r*c], r, c
		}
	}
	data = make([]float64, r*c)
	for i := range r {
		mat.Row(data[i*c:i*c+c], i, x)
	}
	return data, r, c
}
