// Package rowmajor gives the rows of a gonum matrix as one row-major slice,
// the form the hot loops of svclust, baseline and metrics work on, so that
// their public functions can take a mat.Matrix, as gonum's do, at no cost
// for the *mat.Dense that package dataset builds.
package rowmajor

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// Nil reports whether x is nil or an interface holding a nil pointer (a
// typed nil such as a nil *mat.Dense), whose Dims method would panic.
func Nil(x mat.Matrix) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// Dims returns the dimensions of x, 0×0 for a nil x (see Nil).
func Dims(x mat.Matrix) (r, c int) {
	if Nil(x) {
		return 0, 0
	}
	return x.Dims()
}

// Of returns the r×c values of x, row after row, with its dimensions: the
// backing slice of x itself (not a copy) when x is a *mat.Dense whose rows
// are contiguous (stride c), and otherwise a copy. The caller must not
// modify the result. A nil x (see Nil) has no values: 0×0.
func Of(x mat.Matrix) (data []float64, r, c int) {
	if Nil(x) {
		return nil, 0, 0
	}
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

// Checked returns Of(x) for the rows a fit takes: an error wrapping
// errNone when x has no values, and one wrapping errNaN, with the row and
// column from 1, at its first NaN or ±Inf. Package svclust and package
// cluster pass their ErrNoData and ErrNotFinite.
func Checked(x mat.Matrix, errNone, errNaN error) (data []float64, r, c int, err error) {
	data, r, c = Of(x)
	if r == 0 || c == 0 {
		return nil, 0, 0, errNone
	}
	for k, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, 0, fmt.Errorf("%w: row %d, column %d", errNaN, k/c+1, k%c+1)
		}
	}
	return data, r, c, nil
}
