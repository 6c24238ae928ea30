package kernel

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Field is the decision function f(x) = Σᵢ Alpha[i]·exp(−Gamma‖x − svᵢ‖²) − 1
// with the support vectors svᵢ stored row-major in SV.
type Field struct {
	SV    []float64
	Alpha []float64
	Gamma float64
	// Gammas, when not nil, gives each support vector a width of its
	// own: f(x) = Σᵢ Alpha[i]·exp(−Gammas[i]‖x − svᵢ‖²) − 1. Gamma then is
	// the reference width, the unit of the tolerances (see Scale).
	Gammas []float64
	D      int

	once sync.Once
	lnA  []float64 // ln|Alpha[i]| (+ ln Gammas[i]), for MeanShiftCutTo (MeanShiftEachCutTo)
}

// FieldOf returns the Field of the support vectors sv (one per row, a
// compact matrix), their coefficients alpha and the widths gamma and
// gammas (nil: one width), as a svclust.Model holds them. It panics if sv
// is a view of a wider matrix: a Model's rows are compact.
func FieldOf(sv *mat.Dense, alpha []float64, gamma float64, gammas []float64) *Field {
	raw := sv.RawMatrix()
	if raw.Stride != raw.Cols {
		panic("svclust: Model.SV must be a compact matrix (stride = columns), not a view")
	}
	return &Field{SV: raw.Data[:len(alpha)*raw.Cols], Alpha: alpha, Gamma: gamma, Gammas: gammas, D: raw.Cols}
}

// Value returns f(x).
func (f *Field) Value(x []float64) float64 {
	if f.Gammas != nil {
		return SumEach(x, f.SV, f.Alpha, f.Gammas) - 1
	}
	return Sum(x, f.SV, f.Alpha, f.Gamma) - 1
}

// Scale returns the length scale 1/√γ of the kernel, the unit of the
// tolerances of package assign.
func (f *Field) Scale() float64 { return 1 / math.Sqrt(f.Gamma) }

// LogCoefs returns ln|Alpha[i]| (plus ln Gammas[i] with widths of their
// own) for each term, the weights MeanShiftCutTo and CutCandidates take;
// they are computed once, on first use, and shared: do not modify them.
func (f *Field) LogCoefs() []float64 {
	f.once.Do(func() {
		f.lnA = make([]float64, len(f.Alpha))
		for i, a := range f.Alpha {
			f.lnA[i] = math.Log(math.Abs(a))
			if f.Gammas != nil {
				f.lnA[i] += math.Log(f.Gammas[i])
			}
		}
	})
	return f.lnA
}
