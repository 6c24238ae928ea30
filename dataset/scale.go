package dataset

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Scale is a per-column scaling of the features, fitted by [FitScaler].
type Scale int

// The scalings.
const (
	// ScaleNone leaves the features unchanged.
	ScaleNone Scale = iota
	// ScaleZScore subtracts each column's mean and divides by its
	// (population) standard deviation.
	ScaleZScore
	// ScaleMinMax maps each column's range [min, max] onto [0, 1].
	ScaleMinMax
)

var scaleNames = [...]string{
	ScaleNone:   "none",
	ScaleZScore: "zscore",
	ScaleMinMax: "minmax",
}

// String returns the name of s as accepted by [ParseScale].
func (s Scale) String() string {
	if s >= 0 && int(s) < len(scaleNames) {
		return scaleNames[s]
	}
	return fmt.Sprintf("Scale(%d)", int(s))
}

// ParseScale returns the Scale with the given name: "none", "zscore" or
// "minmax". Case is ignored.
func ParseScale(s string) (Scale, error) {
	for i, name := range scaleNames {
		if strings.EqualFold(s, name) {
			return Scale(i), nil
		}
	}
	return 0, fmt.Errorf("dataset: unknown scale %q (valid: %s)", s, strings.Join(scaleNames[:], ", "))
}

// Scaler is a per-column affine map x'[j] = (x[j] - Shift[j]) * Mul[j]. Its
// fields are exported so that a model file can store the scaling fitted on
// the training data and apply it to new data.
type Scaler struct {
	Shift []float64 `json:"shift"`
	Mul   []float64 `json:"mul"`
}

// FitScaler returns the Scaler that applies s to the columns of x:
//
//   - ScaleNone: Shift 0 and Mul 1.
//   - ScaleZScore: Shift is the column mean and Mul the reciprocal of the
//     population standard deviation (divisor n), giving mean 0 and standard
//     deviation 1.
//   - ScaleMinMax: Shift is the column minimum and Mul the reciprocal of the
//     range max−min, mapping the column onto [0, 1].
//
// A constant column, whose standard deviation and range are 0, gets its value
// as Shift and Mul = 1, so that ScaleZScore and ScaleMinMax map it to all
// zeros rather than NaN. Mul is also 1 for a spread so small that its
// reciprocal overflows, and NaN for a spread whose computation overflows
// (a range beyond 1.8e308, or a mean whose sum overflows), so that every
// value of such a column scales to NaN, which [Scaler.Overflow] reports,
// rather than to 0.
//
// The extremes detect constant columns exactly (the computed mean of a
// constant column need not equal its value), and the variance is taken about
// the mean in a second pass with the compensation term, as in gonum's
// stat.MeanVariance, so that a large common offset does not swamp a small
// spread. A column whose variance underflows or overflows float64 (a spread
// below about 1e-154 or above about 1e154) takes a third pass that computes
// it in units of the column's largest magnitude. FitScaler runs a
// [ScaleFitter] over the rows of x.
//
// FitScaler panics if s is not one of the Scale constants.
func FitScaler(x *mat.Dense, s Scale) *Scaler {
	r, c := x.Dims()
	f := NewScaleFitter(s, c)
	for {
		for i := range r {
			f.Add(x.RawRowView(i))
		}
		if !f.NextPass() {
			return f.Scaler()
		}
	}
}

// reciprocal returns 1/v, or 1 if v is not positive or 1/v is infinite,
// or NaN if v is +Inf or NaN: the spread of a column whose computation
// overflowed has no reciprocal, and 0 would make the column vanish.
func reciprocal(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 1) {
		return math.NaN()
	}
	m := 1 / v
	if !(v > 0) || math.IsInf(m, 0) {
		return 1
	}
	return m
}

// Transform applies the scaling to each row of x in place. It panics if the
// number of columns of x is not len(s.Shift), or if len(s.Mul) != len(s.Shift).
func (s *Scaler) Transform(x *mat.Dense) {
	r, c := x.Dims()
	s.check(c)
	for i := range r {
		s.TransformRow(x.RawRowView(i), x.RawRowView(i))
	}
}

// TransformRow sets dst to the scaled row and returns dst. dst may be row
// itself; if dst is nil a new slice is allocated. It panics if len(row) is
// not len(s.Shift), or if dst is not nil and len(dst) != len(row).
func (s *Scaler) TransformRow(dst, row []float64) []float64 {
	s.check(len(row))
	if dst == nil {
		dst = make([]float64, len(row))
	}
	if len(dst) != len(row) {
		panic("dataset: len(dst) != len(row)")
	}
	for j, v := range row {
		dst[j] = (v - s.Shift[j]) * s.Mul[j]
	}
	return dst
}

// check panics unless the scaler has c columns.
func (s *Scaler) check(c int) {
	if len(s.Mul) != len(s.Shift) {
		panic("dataset: len(Scaler.Mul) != len(Scaler.Shift)")
	}
	if c != len(s.Shift) {
		panic("dataset: column count does not match Scaler")
	}
}

// MaxScaled is the largest magnitude of a scaled feature that
// [Scaler.Overflow] accepts. The Gaussian kernel takes squared distances
// between rows, which overflow float64 (about 1.8e308) when features reach
// about 1e154; 1e150 leaves room for the sum over many features.
const MaxScaled = 1e150

// Overflow reports the first value of row that s maps to a value that is
// not finite or exceeds [MaxScaled] in magnitude, as its 0-based index j
// and its scaled value; j is -1 if there is none. Finite data can overflow
// when scaled: the range of a column from -1e308 to 1e308 is infinite, and
// so is the mean of three values of 1e308. It panics as TransformRow does.
func (s *Scaler) Overflow(row []float64) (j int, scaled float64) {
	s.check(len(row))
	for j, v := range row {
		u := (v - s.Shift[j]) * s.Mul[j]
		if !(math.Abs(u) <= MaxScaled) {
			return j, u
		}
	}
	return -1, 0
}
