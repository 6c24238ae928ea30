package dataset

import (
	"errors"
	"fmt"
	"math"
)

// ScaleFitter fits the Scaler of a [Scale] to rows given one at a time,
// for data too large to hold in memory or read by several workers. It
// finishes in one of two ways.
//
// Exactly, in as many passes as [FitScaler] takes: [ScaleZScore] needs a
// second pass for the variance about the mean, and a third for a column
// whose variance under- or overflows float64; the other scalings need
// one. The loop is
//
//	f := NewScaleFitter(s, d)
//	for {
//		for each row x, in the same order every pass {
//			f.Add(x)
//		}
//		if !f.NextPass() {
//			break
//		}
//	}
//	sc := f.Scaler()
//
// When every pass gives the same rows in the same order, sc is the Scaler
// FitScaler returns for the matrix of those rows, since FitScaler runs this
// loop.
//
// Or in one pass, when another is too costly (the Beam pipeline):
// [ScaleFitter.OnePassScaler] takes the mean and variance from the first
// pass alone by Welford's update, and fitters of parts of the rows
// [ScaleFitter.Combine] into the fitter of all of them by the pairwise
// update of Chan, Golub and LeVeque,
//
//	δ = mean_b − mean_a, n = n_a + n_b,
//	mean = mean_a + δ·n_b/n, M2 = M2_a + M2_b + δ²·n_a·n_b/n.
//
// Both take each value's deviation from a running mean rather than its
// square, so that a large common offset does not swamp a small spread as
// the textbook Σx² − n·mean² does; but they round differently from the
// two-pass variance (by about n·ε·κ², κ² = 1 + mean²/variance), so the
// two finishes give different Scalers, and one pass cannot handle the
// spreads that need the third. The first pass collects what both need.
//
//	B. P. Welford. Note on a method for calculating corrected sums of
//	squares and products. Technometrics 4(3), 1962.
//	T. F. Chan, G. H. Golub, R. J. LeVeque. Updating formulae and a
//	pairwise algorithm for computing sample variances. COMPSTAT 1982.
//
// A ScaleFitter is not safe for concurrent use.
type ScaleFitter struct {
	scale  Scale
	pass   int // 0, 1 or 2
	n      int // rows of the first pass
	n2     int // rows of the second pass
	n3     int // rows of the third pass
	lo, hi []float64
	mean   []float64 // the sum during the first pass
	ss     []float64 // Σ (x − mean)², second pass
	comp   []float64 // Σ (x − mean), second pass

	// Welford's running mean and sum of squared deviations, first pass.
	wmean, m2 []float64

	// The third pass, for the columns whose variance under- or
	// overflowed in the second: unit[j] is max(|lo|, |hi|), or 0 for a
	// column that needs no third pass, and ss3 and comp3 are ss and comp
	// of x/unit − mean/unit, whose squares neither underflow nor
	// overflow.
	unit, ss3, comp3 []float64
}

// NewScaleFitter returns a ScaleFitter of s for rows of d values. It panics if
// s is not one of the Scale constants, d < 0 or d > [MaxColumns] (the widest
// set [Read] and [Scanner] accept; a fitter holds 10 values per column), with
// a message naming d, before allocating anything by d.
func NewScaleFitter(s Scale, d int) *ScaleFitter {
	if !s.valid() {
		panic("dataset: unknown Scale " + s.String())
	}
	if d < 0 {
		panic("dataset: negative dimension")
	}
	if d > MaxColumns {
		panic(fmt.Sprintf("dataset: NewScaleFitter: dimension d = %d is too large, at most %d (MaxColumns)", d, MaxColumns))
	}
	return &ScaleFitter{
		scale: s,
		lo:    make([]float64, d),
		hi:    make([]float64, d),
		mean:  make([]float64, d),
		ss:    make([]float64, d),
		comp:  make([]float64, d),
		wmean: make([]float64, d),
		m2:    make([]float64, d),
	}
}

func (s Scale) valid() bool { return s == ScaleNone || s == ScaleZScore || s == ScaleMinMax }

// Add adds a row to the current pass. It panics if len(row) is not the
// dimension given to NewScaleFitter.
func (f *ScaleFitter) Add(row []float64) {
	if len(row) != len(f.lo) {
		panic("dataset: row length does not match ScaleFitter")
	}
	if f.pass == 2 {
		for j, v := range row {
			if u := f.unit[j]; u != 0 {
				dv := v/u - f.mean[j]/u
				f.ss3[j] += dv * dv
				f.comp3[j] += dv
			}
		}
		f.n3++
		return
	}
	if f.pass == 1 {
		for j, v := range row {
			dv := v - f.mean[j]
			f.ss[j] += dv * dv
			f.comp[j] += dv
		}
		f.n2++
		return
	}
	if f.n == 0 {
		copy(f.lo, row)
		copy(f.hi, row)
	}
	f.n++
	n := float64(f.n)
	for j, v := range row {
		f.lo[j] = math.Min(f.lo[j], v)
		f.hi[j] = math.Max(f.hi[j], v)
		f.mean[j] += v
		delta := v - f.wmean[j]
		f.wmean[j] += delta / n
		f.m2[j] += delta * (v - f.wmean[j])
	}
}

// Combine adds to f the rows that o has seen, so that f is then the
// fitter of the rows of both. Both must be in their first pass; o is not
// modified. The one-pass mean and variance depend on the order of the
// rows and of the combinations in their last bits: combine the parts in a
// fixed order (by file, say) for a result that does not depend on how the
// rows were split. It panics if the scales or dimensions differ, or if
// either fitter has started a second pass.
func (f *ScaleFitter) Combine(o *ScaleFitter) {
	switch {
	case f.scale != o.scale || len(f.lo) != len(o.lo):
		panic(fmt.Sprintf("dataset: ScaleFitter.Combine: %v of %d columns with %v of %d", f.scale, len(f.lo), o.scale, len(o.lo)))
	case f.pass != 0 || o.pass != 0:
		panic("dataset: ScaleFitter.Combine after the first pass")
	case o.n == 0:
		return
	case f.n == 0:
		f.n = o.n
		for _, c := range [][2][]float64{{f.lo, o.lo}, {f.hi, o.hi}, {f.mean, o.mean}, {f.wmean, o.wmean}, {f.m2, o.m2}} {
			copy(c[0], c[1])
		}
		return
	}
	na, nb := float64(f.n), float64(o.n)
	n := na + nb
	for j := range f.lo {
		f.lo[j] = math.Min(f.lo[j], o.lo[j])
		f.hi[j] = math.Max(f.hi[j], o.hi[j])
		f.mean[j] += o.mean[j]
		delta := o.wmean[j] - f.wmean[j]
		f.wmean[j] += delta * (nb / n)
		f.m2[j] += o.m2[j] + delta*delta*(na*nb/n)
	}
	f.n += o.n
}

// Rows returns the number of rows of the first pass.
func (f *ScaleFitter) Rows() int { return f.n }

// NextPass reports whether the scaling needs another pass over the rows and,
// if so, starts it. Only ScaleZScore with at least one row needs one, and
// one more (a third pass) only for a column whose variance underflows or
// overflows float64 when computed directly: a spread below about 1e-154
// or above about 1e154.
func (f *ScaleFitter) NextPass() bool {
	if f.scale != ScaleZScore || f.n == 0 {
		return false
	}
	switch f.pass {
	case 0:
		for j := range f.mean {
			f.mean[j] /= float64(f.n)
		}
		f.pass = 1
		return true
	case 1:
		if f.n2 != f.n {
			return false // Scaler panics
		}
		third := false
		for j := range f.ss {
			if v := f.variance(j); f.lo[j] != f.hi[j] && (v == 0 || math.IsInf(v, 0) || math.IsNaN(v)) && !math.IsInf(f.mean[j], 0) {
				if f.unit == nil {
					d := len(f.lo)
					f.unit, f.ss3, f.comp3 = make([]float64, d), make([]float64, d), make([]float64, d)
				}
				f.unit[j] = math.Max(math.Abs(f.lo[j]), math.Abs(f.hi[j]))
				third = true
			}
		}
		if third {
			f.pass = 2
		}
		return third
	}
	return false
}

// variance returns the population variance of column j from the second
// pass, with the compensation term.
func (f *ScaleFitter) variance(j int) float64 {
	r := float64(f.n)
	return (f.ss[j] - f.comp[j]*f.comp[j]/r) / r
}

// Scaler returns the fitted Scaler. It panics if a pass that NextPass would
// start has not run, or if the second pass had a different number of rows
// from the first.
func (f *ScaleFitter) Scaler() *Scaler {
	if f.scale == ScaleZScore && f.n > 0 && (f.pass == 0 || f.n2 != f.n || (f.pass == 2 && f.n3 != f.n)) {
		panic("dataset: ScaleFitter.Scaler before a complete second (or third) pass")
	}
	r := float64(f.n)
	return f.scaler(func(j int) float64 {
		if f.pass == 2 && f.unit[j] != 0 {
			return f.unit[j] * math.Sqrt((f.ss3[j]-f.comp3[j]*f.comp3[j]/r)/r)
		}
		return math.Sqrt(f.variance(j))
	}, f.mean)
}

// ErrSpread is the error of [ScaleFitter.OnePassScaler] for a column whose
// spread one pass cannot compute in float64.
var ErrSpread = errors.New("dataset: the spread of a column is beyond what one pass computes in float64")

// SpreadError is the error of [ScaleFitter.OnePassScaler] for a column
// whose spread it cannot compute; it wraps [ErrSpread].
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

// OnePassScaler returns the Scaler of the rows of the first pass, with the
// conventions of [FitScaler], taking the z-score's mean and variance from
// Welford's update (and Combine) instead of further passes. A column whose
// one-pass variance under- or overflows although its extremes differ (a
// spread below about 1e-154 or above about 1e154) is a *[SpreadError]; a
// fitter without rows is an error.
func (f *ScaleFitter) OnePassScaler() (*Scaler, error) {
	if f.n == 0 {
		return nil, errors.New("dataset: ScaleFitter.OnePassScaler: no rows")
	}
	if f.scale == ScaleZScore {
		for j := range f.lo {
			v := f.m2[j] / float64(f.n)
			if f.lo[j] != f.hi[j] && !math.IsInf(f.wmean[j], 0) && !math.IsNaN(f.wmean[j]) && (v == 0 || math.IsInf(v, 0) || math.IsNaN(v)) {
				return nil, &SpreadError{Column: j, Min: f.lo[j], Max: f.hi[j]}
			}
		}
	}
	return f.scaler(func(j int) float64 {
		if math.IsInf(f.wmean[j], 0) || math.IsNaN(f.wmean[j]) {
			return math.NaN() // a mean that overflows has no spread
		}
		return math.Sqrt(f.m2[j] / float64(f.n))
	}, f.wmean), nil
}

// scaler returns the Scaler of f's scale from the extremes and, for
// ScaleZScore, the means and the standard deviation sd(j) of each
// column: the conventions of FitScaler, shared by both finishes.
func (f *ScaleFitter) scaler(sd func(j int) float64, mean []float64) *Scaler {
	d := len(f.lo)
	sc := &Scaler{Shift: make([]float64, d), Mul: make([]float64, d)}
	for j := range sc.Mul {
		sc.Mul[j] = 1
	}
	if f.n == 0 || f.scale == ScaleNone {
		return sc
	}
	for j := range d {
		switch {
		case f.lo[j] == f.hi[j]:
			sc.Shift[j] = f.lo[j]
		case f.scale == ScaleZScore:
			sc.Shift[j], sc.Mul[j] = mean[j], reciprocal(sd(j))
		default: // ScaleMinMax
			sc.Shift[j], sc.Mul[j] = f.lo[j], reciprocal(f.hi[j]-f.lo[j])
		}
	}
	return sc
}
