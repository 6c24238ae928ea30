package kernel

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ScoreChunk is the number of rows a worker of EachOwner, and of the
// model's scoring, takes at a time.
const ScoreChunk = 256

// NewTermsOf returns the index of f's support vectors (see NewTermsEach),
// or nil where it does not apply or would not pay.
func NewTermsOf(f *Field) *Terms {
	return NewTermsEach(f.SV, f.D, f.Alpha, f.Gamma, f.Gammas)
}

// EachOwner calls do(i, f(xᵢ), owner) for each row xᵢ of x, on w
// goroutines, with owner the support vector with the largest term
// αⱼk(xᵢ, svⱼ) of f(xᵢ) + 1 (the lowest index among equal ones): one pass
// of B kernel terms per row. The model's Score and both of the level
// tree's passes (clustering and Predict) go through it, so that they
// compute f the same way and Predict reproduces the clustering's labels.
// With terms (NewTermsOf(f); nil for none) each row evaluates only the
// terms within CutOff of its largest: the same owner, and f to
// within rounding (see Terms). It reports the rows done to report (nil
// reports nothing).
func (f *Field) EachOwner(x mat.Matrix, terms *Terms, w int, report func(int), do func(i int, fx float64, owner int32)) {
	f.EachPart(x, terms, nil, 0, w, report, func(i int, _ []float64, sum float64, owner int32, _ []float64) {
		do(i, sum-1, owner)
	})
}

// logOwner returns the support vector with the largest
// log αⱼ − γⱼ‖x − svⱼ‖² (of those with αⱼ > 0), lowest index first: the
// owner of x where every term underflows. row is scratch of length B.
func (f *Field) logOwner(row, x []float64) int {
	SqDistRowTo(row, x, f.SV)
	best, bi := math.Inf(-1), 0
	for j, d2 := range row {
		if a := f.Alpha[j]; a > 0 {
			g := f.Gamma
			if f.Gammas != nil {
				g = f.Gammas[j]
			}
			if t := math.Log(a) - g*d2; t > best {
				best, bi = t, j
			}
		}
	}
	return bi
}
