package pipeline

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/svclust/svclust/dataset"
)

// Moments holds per-column statistics of rows that can be computed in
// pieces and merged: the number of rows, and for each column the mean, the
// sum of squared deviations from the mean (M2) and the extremes. They are
// what the scalings of [dataset.Scale] need, in one pass.
//
// [Moments.Add] updates the mean and M2 by Welford's method and
// [Moments.Merge] combines two pieces by the pairwise update of Chan,
// Golub and LeVeque,
//
//	δ = mean_b − mean_a, n = n_a + n_b,
//	mean = mean_a + δ·n_b/n, M2 = M2_a + M2_b + δ²·n_a·n_b/n,
//
// both of which take every value's deviation from a running mean rather
// than its square, so that a large common offset does not swamp a small
// spread as the textbook Σx² − n·mean² does.
//
//	B. P. Welford. Note on a method for calculating corrected sums of
//	squares and products. Technometrics 4(3), 1962.
//	T. F. Chan, G. H. Golub, R. J. LeVeque. Updating formulae and a
//	pairwise algorithm for computing sample variances. COMPSTAT 1982.
//
// The result depends on the order of the rows and of the merges in its
// last bits; merge pieces in a fixed order (by file, say) for a result
// that does not depend on how the rows were split. Unlike
// [dataset.FitScaler], which takes a third pass for them, Moments does not
// handle columns whose spread is beyond about 1e±150, where the squares
// under- or overflow: [Moments.Scaler] reports them as an error.
//
// The fields are exported so that Moments can be encoded (as a Beam
// accumulator, for one); they must be modified only through the methods.
type Moments struct {
	// N is the number of rows added.
	N int64
	// Mean, M2, Min and Max have one element per column.
	Mean, M2, Min, Max []float64
}

// NewMoments returns empty statistics of rows of d values.
func NewMoments(d int) *Moments {
	m := &Moments{
		Mean: make([]float64, d),
		M2:   make([]float64, d),
		Min:  make([]float64, d),
		Max:  make([]float64, d),
	}
	for j := range d {
		m.Min[j], m.Max[j] = math.Inf(1), math.Inf(-1)
	}
	return m
}

// Add adds a row. It panics if len(row) is not the dimension of m.
func (m *Moments) Add(row []float64) {
	if len(row) != len(m.Mean) {
		panic(fmt.Sprintf("pipeline: Moments.Add: row of %d values, want %d", len(row), len(m.Mean)))
	}
	m.N++
	n := float64(m.N)
	for j, x := range row {
		delta := x - m.Mean[j]
		m.Mean[j] += delta / n
		m.M2[j] += delta * (x - m.Mean[j])
		m.Min[j] = min(m.Min[j], x)
		m.Max[j] = max(m.Max[j], x)
	}
}

// Merge adds the rows summarised by o to m. It panics if the dimensions
// differ.
func (m *Moments) Merge(o *Moments) {
	if len(o.Mean) != len(m.Mean) {
		panic(fmt.Sprintf("pipeline: Moments.Merge: %d columns, want %d", len(o.Mean), len(m.Mean)))
	}
	switch {
	case o.N == 0:
		return
	case m.N == 0:
		m.N = o.N
		copy(m.Mean, o.Mean)
		copy(m.M2, o.M2)
		copy(m.Min, o.Min)
		copy(m.Max, o.Max)
		return
	}
	na, nb := float64(m.N), float64(o.N)
	n := na + nb
	for j := range m.Mean {
		delta := o.Mean[j] - m.Mean[j]
		m.Mean[j] += delta * (nb / n)
		m.M2[j] += o.M2[j] + delta*delta*(na*nb/n)
		m.Min[j] = min(m.Min[j], o.Min[j])
		m.Max[j] = max(m.Max[j], o.Max[j])
	}
	m.N += o.N
}

// Clone returns a copy of m.
func (m *Moments) Clone() *Moments {
	return &Moments{N: m.N, Mean: slices.Clone(m.Mean), M2: slices.Clone(m.M2),
		Min: slices.Clone(m.Min), Max: slices.Clone(m.Max)}
}

// ErrSpread is the error of [Moments.Scaler] for a column whose spread
// Moments cannot compute in float64.
var ErrSpread = errors.New("pipeline: the spread of a column is beyond what one pass computes in float64")

// SpreadError is the error of [Moments.Scaler] for a column whose spread
// it cannot compute; it wraps [ErrSpread].
type SpreadError struct {
	// Column is the 0-based column.
	Column int
	// Min and Max are the column's extremes.
	Min, Max float64
}

func (e *SpreadError) Error() string {
	return fmt.Sprintf("column %d: values from %g to %g: the z-score's variance under- or overflows float64 in one pass; rescale the column (or use svclust fit, whose scaling takes a third pass for it)", e.Column+1, e.Min, e.Max)
}

// Unwrap returns [ErrSpread].
func (e *SpreadError) Unwrap() error { return ErrSpread }

// Scaler returns the scaling s of the rows added, with the conventions of
// [dataset.FitScaler]: ScaleNone is Shift 0 and Mul 1; ScaleZScore has
// Shift the mean and Mul the reciprocal of the population standard
// deviation √(M2/N); ScaleMinMax has Shift the minimum and Mul the
// reciprocal of the range. A constant column (Min = Max) gets its value as
// Shift and Mul 1, a spread whose reciprocal overflows Mul 1, and a range or
// mean that overflows Mul NaN, which [dataset.Scaler.Overflow] reports. For
// ScaleZScore a column whose variance under- or overflows although its
// extremes differ is a *[SpreadError]. Scaler returns an error if m has no
// rows or s is not a Scale constant.
func (m *Moments) Scaler(s dataset.Scale) (*dataset.Scaler, error) {
	if m.N == 0 {
		return nil, errors.New("pipeline: Moments.Scaler: no rows")
	}
	d := len(m.Mean)
	sc := &dataset.Scaler{Shift: make([]float64, d), Mul: make([]float64, d)}
	for j := range d {
		lo, hi := m.Min[j], m.Max[j]
		switch s {
		case dataset.ScaleNone:
			sc.Mul[j] = 1
			continue
		case dataset.ScaleZScore, dataset.ScaleMinMax:
		default:
			return nil, fmt.Errorf("pipeline: Moments.Scaler: unknown scale %d", s)
		}
		if lo == hi {
			sc.Shift[j], sc.Mul[j] = lo, 1
			continue
		}
		var spread float64
		if s == dataset.ScaleMinMax {
			sc.Shift[j] = lo
			spread = hi - lo
		} else {
			sc.Shift[j] = m.Mean[j]
			if math.IsInf(m.Mean[j], 0) || math.IsNaN(m.Mean[j]) {
				sc.Mul[j] = math.NaN()
				continue
			}
			v := m.M2[j] / float64(m.N)
			if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, &SpreadError{Column: j, Min: lo, Max: hi}
			}
			spread = math.Sqrt(v)
		}
		switch r := 1 / spread; {
		case math.IsInf(spread, 0):
			sc.Mul[j] = math.NaN()
		case math.IsInf(r, 0):
			sc.Mul[j] = 1
		default:
			sc.Mul[j] = r
		}
	}
	return sc, nil
}
