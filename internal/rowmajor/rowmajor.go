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

// Buffer returns the buffer Source's function needs for the rows of x, of
// c values: none for a *mat.Dense, whose rows are views.
func Buffer(x mat.Matrix, c int) []float64 {
	if _, ok := x.(*mat.Dense); ok {
		return nil
	}
	return make([]float64, c)
}

// Source returns a function giving row i of x, as a view when x is a
// *mat.Dense and otherwise copied into the caller's buffer (see Buffer).
func Source(x mat.Matrix) func(i int, buf []float64) []float64 {
	if dense, ok := x.(*mat.Dense); ok {
		return func(i int, _ []float64) []float64 { return dense.RawRowView(i) }
	}
	return func(i int, buf []float64) []float64 { return mat.Row(buf, i, x) }
}
