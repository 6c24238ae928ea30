package rowmajor

import "gonum.org/v1/gonum/mat"

// Buffer returns the buffer the function of [Source] needs for the rows of
// x, of d values: none for a *mat.Dense, whose rows are views.
func Buffer(x mat.Matrix, d int) []float64 {
	if _, ok := x.(*mat.Dense); ok {
		return nil
	}
	return make([]float64, d)
}

// Source returns a function giving row i of x, as a view when x is a
// *mat.Dense and otherwise copied into the caller's buffer (see [Buffer]).
func Source(x mat.Matrix) func(i int, buf []float64) []float64 {
	if dense, ok := x.(*mat.Dense); ok {
		return func(i int, _ []float64) []float64 { return dense.RawRowView(i) }
	}
	return func(i int, buf []float64) []float64 { return mat.Row(buf, i, x) }
}
