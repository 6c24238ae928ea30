package svclust

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

const badDim = "svclust: dimension mismatch"

// Model is a trained domain of novelty, f(x) = Σᵢ Alpha[i]·k(svᵢ, x) − 1
// with k(x, y) = exp(−Gamma‖x − y‖²), or exp(−Gammas[i]‖x − y‖²) for the
// term of svᵢ when the model has adaptive widths: phase 1 of the method, as [Train]
// returns it. Package cluster finds a partition from it, which labels
// points; the Model itself is never modified by its methods, and it is safe
// for concurrent use by all of them. Its fields are read-only once trained
// (a partition of package cluster refers to the Model it was found with).
type Model struct {
	// Gamma is the kernel width γ.
	Gamma float64
	// Gammas, when not nil, holds a width γᵢ of its own for each support
	// vector (see Config.Width); Gamma is then the reference width.
	Gammas []float64
	// C is the trade-off the model was trained with.
	C float64
	// SV holds the support vectors, one per row, ordered by their index in
	// the training data.
	SV *mat.Dense
	// Alpha holds the coefficients αᵢ of the support vectors.
	Alpha []float64
	// Status tells why training stopped.
	Status Status
	// Stats describes the training run.
	Stats Stats
	// Choice reports how Gamma, C and the budget were chosen.
	Choice auto.Choice
	// Subspace, when not nil, maps the rows the model is given into the
	// space of its kernel (see Config.Space): SV and every point of a
	// partition of package cluster are then in that space, and each
	// method that takes rows, Decision, Score, Project and those of
	// package cluster, applies it first.
	Subspace *auto.Subspace
	// Training, when not nil, is the state of the SGD that trained the
	// model, which [Update] continues with new rows; Train sets it, and
	// a model without it (built by hand, or read from a model file
	// older than version 8) cannot be updated.
	Training *Training
}

// Dim returns the dimension of the input space: the number of features
// of the rows the model scores; 0 for a nil Model or one without support
// vectors.
func (m *Model) Dim() int {
	if m == nil {
		return 0
	}
	if m.Subspace != nil {
		d, _ := m.Subspace.Dims()
		return d
	}
	return m.KernelDim()
}

// KernelDim returns the dimension of the space of the kernel: that of the
// support vectors, which is Dim unless the model has a Subspace; 0 for a
// nil Model or one without support vectors.
func (m *Model) KernelDim() int {
	if m == nil || m.SV == nil {
		return 0
	}
	_, d := m.SV.Dims()
	return d
}

// Validate returns nil if m can be used: at least one support vector, as
// many coefficients as support vectors, a compact SV (stride = columns),
// Gamma > 0 and every value finite, Gammas nil or one positive finite
// width per support vector, and Subspace nil or valid (see
// Subspace.Check) with as many directions as the support vectors have
// columns. Otherwise it returns an error wrapping ErrNotTrained that
// names the field, such as for a nil Model or its zero value. A Model
// that Train returns is valid; the functions of package cluster,
// modelfile and figure that take a Model call Validate first, so that a
// Model built by hand gives an error there rather than a panic. It costs
// one pass over the support vectors and O(q²·d) for a subspace.
func (m *Model) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrNotTrained}, args...)...)
	}
	if m == nil {
		return bad("nil *Model")
	}
	if m.SV == nil {
		return bad("SV is nil")
	}
	raw := m.SV.RawMatrix()
	if raw.Rows == 0 || raw.Cols == 0 {
		return bad("SV is empty")
	}
	if raw.Stride != raw.Cols {
		return bad("SV must be a compact matrix (stride = columns), not a view")
	}
	if len(m.Alpha) != raw.Rows {
		return bad("%d coefficients (Alpha) for %d support vectors", len(m.Alpha), raw.Rows)
	}
	if !(m.Gamma > 0) || math.IsInf(m.Gamma, 0) {
		return bad("Gamma = %v: must be > 0 and finite", m.Gamma)
	}
	if m.Gammas != nil && len(m.Gammas) != raw.Rows {
		return bad("%d widths (Gammas) for %d support vectors", len(m.Gammas), raw.Rows)
	}
	for i, g := range m.Gammas {
		if !(g > 0) || math.IsInf(g, 0) {
			return bad("Gammas[%d] = %v: must be > 0 and finite", i, g)
		}
	}
	for i, a := range m.Alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return bad("Alpha[%d] = %v: not finite", i, a)
		}
	}
	for k, v := range raw.Data[:raw.Rows*raw.Cols] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return bad("SV row %d, column %d: %v is not finite", k/raw.Cols+1, k%raw.Cols+1, v)
		}
	}
	if err := m.Training.Check(raw.Rows); err != nil {
		return bad("Training: %v", err)
	}
	if m.Subspace != nil {
		if m.Subspace.Basis == nil {
			return bad("Subspace without a Basis")
		}
		if d, q := m.Subspace.Dims(); d < 1 || q != raw.Cols {
			return bad("Subspace maps %d features to %d, but the support vectors have %d", d, q, raw.Cols)
		}
		if err := m.Subspace.Check(); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

// Project returns the rows of x in the space of the kernel: x itself for a
// model without a Subspace, a new matrix otherwise, computed on workers
// goroutines (0 means GOMAXPROCS). It panics if x does not have Dim
// columns.
func (m *Model) Project(x mat.Matrix, workers int) mat.Matrix {
	n, d := x.Dims()
	if d != m.Dim() {
		panic(badDim)
	}
	if m.Subspace == nil {
		return x
	}
	data, _, _ := rowmajor.Of(x)
	_, q := m.Subspace.Dims()
	return mat.NewDense(n, q, m.Subspace.ApplyRows(data, n, workers))
}

// svData returns the support vectors as one row-major slice. It panics if
// SV is not compact (a view of a wider matrix), whose rows are not one
// slice.
func (m *Model) svData() []float64 {
	raw := m.SV.RawMatrix()
	if raw.Stride != raw.Cols {
		panic("svclust: Model.SV must be a compact matrix (stride = columns), not a view")
	}
	return raw.Data[:len(m.Alpha)*raw.Cols]
}

// Decision returns f(x) = Σᵢ αᵢ k(svᵢ, x) − 1, each term with its own γᵢ
// when Gammas is not nil, for a row x of Dim features (projected first
// when the model has a Subspace). It panics if len(x) is not Dim.
func (m *Model) Decision(x []float64) float64 {
	if len(x) != m.Dim() {
		panic(badDim)
	}
	if m.Subspace != nil {
		x = m.Subspace.Apply(nil, x)
	}
	return m.value(x)
}

// value returns f at the point x of the kernel's space.
func (m *Model) value(x []float64) float64 {
	if m.Gammas != nil {
		return kernel.SumEach(x, m.svData(), m.Alpha, m.Gammas) - 1
	}
	return kernel.Sum(x, m.svData(), m.Alpha, m.Gamma) - 1
}

// field returns f as package internal/kernel evaluates it.
func (m *Model) field() *kernel.Field {
	return kernel.FieldOf(m.SV, m.Alpha, m.Gamma, m.Gammas)
}

// Score sets dst[i] = f(xᵢ) for each row xᵢ of x, on workers goroutines
// (0 means GOMAXPROCS), and returns dst; a nil dst is allocated. f is the
// novelty score: negative outside the domain of novelty. The rows of x
// have Dim features; a model with a Subspace projects them first. It
// panics if x has the wrong number of columns or dst the wrong length.
//
// Where the coefficients are positive and the support vectors can be
// indexed with profit (low dimension, a kernel narrow next to the data's
// extent: see kernel.Terms), each row evaluates only the terms within
// e⁻⁴⁰ of its largest, and f(xᵢ) may then differ from Decision(xᵢ) in its
// last bits (by less than B·4·10⁻¹⁸ of f(xᵢ) + 1 for the terms left out,
// plus the rounding of a sum in another order). Score and package
// cluster's level tree compute f by the same pass, so their results agree
// exactly.
func (m *Model) Score(dst []float64, x mat.Matrix, workers int) []float64 {
	n, d := x.Dims()
	if d != m.Dim() {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	return m.ScoreKernel(dst, m.Project(x, workers), workers)
}

// ScoreKernel is Score for rows already in the space of the kernel, as
// Project returns them (KernelDim columns): package cluster's rules work
// there. It panics if x does not have KernelDim columns or dst is not of
// its length (a nil dst is allocated).
func (m *Model) ScoreKernel(dst []float64, x mat.Matrix, workers int) []float64 {
	n, d := x.Dims()
	if d != m.KernelDim() {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	f := m.field()
	if terms := kernel.NewTermsOf(f); terms != nil {
		// The pass of the level tree's clustering and Predict, whose f
		// it keeps.
		f.EachOwner(x, terms, parallel.Workers(workers), nil, func(i int, fx float64, _ int32) { dst[i] = fx })
		return dst
	}
	rows := rowmajor.Source(x)
	parallel.For(n, kernel.ScoreChunk, parallel.Workers(workers), func(_, lo, hi int) {
		buf := rowmajor.Buffer(x, d)
		for i := lo; i < hi; i++ {
			dst[i] = m.value(rows(i, buf))
		}
	})
	return dst
}

// SupportVectors returns the support vectors of m in the data's space: SV
// itself for a model without a Subspace, else each lifted by
// Subspace.Lift (a new matrix).
func (m *Model) SupportVectors() *mat.Dense {
	if m.Subspace == nil {
		return m.SV
	}
	b := len(m.Alpha)
	out := mat.NewDense(b, m.Dim(), nil)
	for i := range b {
		m.Subspace.Lift(out.RawRowView(i), m.SV.RawRowView(i))
	}
	return out
}
