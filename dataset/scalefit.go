package dataset

import "math"

// ScaleFitter fits the Scaler of [FitScaler] to rows given one at a time,
// for data too large to hold in memory. [ScaleZScore] takes two passes over
// the rows, as FitScaler does: the first for the mean, the second for the
// variance about it; the other scalings take one. The loop is
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
// When every pass gives the same rows in the same order, the Scaler is the
// one FitScaler returns for the matrix of those rows, since FitScaler runs
// this loop.
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

	// The third pass, for the columns whose variance under- or
	// overflowed in the second: unit[j] is max(|lo|, |hi|), or 0 for a
	// column that needs no third pass, and ss3 and comp3 are ss and comp
	// of x/unit − mean/unit, whose squares neither underflow nor
	// overflow.
	unit, ss3, comp3 []float64
}

// NewScaleFitter returns a ScaleFitter of s for rows of d values. It panics if
// s is not one of the Scale constants or d < 0.
func NewScaleFitter(s Scale, d int) *ScaleFitter {
	if s != ScaleNone && s != ScaleZScore && s != ScaleMinMax {
		panic("dataset: unknown Scale " + s.String())
	}
	if d < 0 {
		panic("dataset: negative dimension")
	}
	return &ScaleFitter{
		scale: s,
		lo:    make([]float64, d),
		hi:    make([]float64, d),
		mean:  make([]float64, d),
		ss:    make([]float64, d),
		comp:  make([]float64, d),
	}
}

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
	for j, v := range row {
		f.lo[j] = math.Min(f.lo[j], v)
		f.hi[j] = math.Max(f.hi[j], v)
		f.mean[j] += v
	}
	f.n++
}

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
	d := len(f.lo)
	sc := &Scaler{Shift: make([]float64, d), Mul: make([]float64, d)}
	for j := range sc.Mul {
		sc.Mul[j] = 1
	}
	if f.n == 0 || f.scale == ScaleNone {
		return sc
	}
	switch f.scale {
	case ScaleZScore:
		if f.pass == 0 || f.n2 != f.n || (f.pass == 2 && f.n3 != f.n) {
			panic("dataset: ScaleFitter.Scaler before a complete second (or third) pass")
		}
		r := float64(f.n)
		copy(sc.Shift, f.mean)
		for j := range f.ss {
			sd := math.Sqrt(f.variance(j))
			if f.pass == 2 && f.unit[j] != 0 {
				sd = f.unit[j] * math.Sqrt((f.ss3[j]-f.comp3[j]*f.comp3[j]/r)/r)
			}
			sc.Mul[j] = reciprocal(sd)
		}
	case ScaleMinMax:
		copy(sc.Shift, f.lo)
		for j := range f.hi {
			sc.Mul[j] = reciprocal(f.hi[j] - f.lo[j])
		}
	}
	for j := range f.lo {
		if f.lo[j] == f.hi[j] {
			sc.Shift[j], sc.Mul[j] = f.lo[j], 1
		}
	}
	return sc
}
