package assign

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// OwnerChunk is the number of rows a worker of EachOwner takes at a time.
const OwnerChunk = 256

// Terms returns the index of the support vectors that lets a point
// evaluate only the terms of f that matter at it (see Terms), or nil where
// it does not apply (a coefficient not positive, as after projection) or
// would not pay (most terms matter, as in high dimension).
// On a million 2-D moons rows with the automatic settings of one width (γ = 146, B =
// 1000 on z-scores) a row evaluates 139 of the 1000 terms on average
// (first 100,000 rows of `svclust gen -kind moons -n 1000000 -seed 1`).
func (f *Field) Terms() *Terms {
	return NewTermsEach(f.SV, f.D, f.Alpha, f.Gamma, f.Gammas)
}

// EachOwner calls do(i, f(xᵢ), owner) for each row xᵢ of x, on w
// goroutines, with owner the support vector with the largest term
// αⱼk(xᵢ, svⱼ) of f(xᵢ) + 1 (the lowest index among equal ones): one pass of
// B kernel terms per row, shared by scoring, clustering and predicting so
// that their results agree exactly. With terms (f.Terms(); nil for none) each row
// evaluates only the terms within kernel.CutOff of its largest: the same
// owner, and f to within rounding (see Terms). It reports the rows
// done to report (nil reports nothing).
func (f *Field) EachOwner(x mat.Matrix, terms *Terms, w int, report func(int), do func(i int, f float64, owner int32)) {
	svs := f.SV
	n, d := x.Dims()
	rows := rowmajor.Source(x)
	// The scratch of the terms' queries, reused across chunks: its
	// slices grow to the terms a row keeps.
	var scratch sync.Pool
	if terms != nil {
		scratch.New = func() any { return terms.NewScratch() }
	}
	parallel.For(n, OwnerChunk, w, func(_, lo, hi int) {
		buf := rowmajor.Buffer(x, d)
		if terms != nil {
			s := scratch.Get().(*TermsScratch)
			defer scratch.Put(s)
			for i := lo; i < hi; i++ {
				v, o := terms.Owner(rows(i, buf), s)
				do(i, v-1, int32(o))
			}
		} else {
			row := make([]float64, len(f.Alpha))
			for i := lo; i < hi; i++ {
				v, o := f.owner(row, rows(i, buf), svs)
				do(i, v, o)
			}
		}
		if report != nil {
			report(hi - lo)
		}
	})
}

// owner returns f(x) and the support vector of x (see EachOwner); row is
// scratch of length B. Far from every support vector each term underflows
// to 0; the owner is then the support vector with the largest
// log αⱼ − γ‖x − svⱼ‖², the same argmax computed without underflow.
func (f *Field) owner(row, x, svs []float64) (float64, int32) {
	if f.Gammas != nil {
		kernel.RowEachTo(row, x, svs, f.Gammas)
	} else {
		kernel.RowTo(row, x, svs, f.Gamma)
	}
	var s float64
	best, bi := math.Inf(-1), 0
	for j, k := range row {
		t := f.Alpha[j] * k
		s += t
		if t > best {
			best, bi = t, j
		}
	}
	if best <= 0 {
		kernel.SqDistRowTo(row, x, svs)
		best = math.Inf(-1)
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
	}
	return s - 1, int32(bi)
}
