package figure

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/svclust/svclust"
)

// ErrTooFewColumns is the error of Principal for data of fewer than two
// columns, which have no plane to project onto.
var ErrTooFewColumns = errors.New("figure: a projection needs at least 2 columns")

// PCA holds the first two principal axes of a data set: the directions of
// largest variance, which Principal draws the data along.
type PCA struct {
	// Mean is the mean of each column, subtracted before projecting.
	Mean []float64
	// Axes holds the two unit axes as the columns of a d×2 matrix. The sign
	// of each is chosen so that its entry of largest magnitude is positive,
	// which makes the figure the same on every machine.
	Axes *mat.Dense
	// Share is the share of the total variance along each axis, in [0, 1].
	Share [2]float64
}

// NewPCA returns the first two principal axes of the rows of x (n×d, d ≥
// 2), from the eigenvectors of its covariance matrix: O(n·d²) time and
// O(d²) memory beyond x. It returns ErrTooFewColumns if d < 2 and
// ErrNotFinite if x holds NaN or Inf, and an error if x has no row.
func NewPCA(x mat.Matrix) (*PCA, error) {
	n, d := x.Dims()
	if d < 2 {
		return nil, fmt.Errorf("%w; got d=%d", ErrTooFewColumns, d)
	}
	if n == 0 {
		return nil, errors.New("figure: a projection needs at least one row")
	}
	mean := make([]float64, d)
	for i := range n {
		for j := range d {
			v := x.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w (row %d)", ErrNotFinite, i+1)
			}
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	// The scatter matrix Σᵢ (xᵢ − μ)(xᵢ − μ)ᵀ, one row at a time.
	cov := mat.NewSymDense(d, nil)
	row := make([]float64, d)
	for i := range n {
		for j := range d {
			row[j] = x.At(i, j) - mean[j]
		}
		cov.SymRankOne(cov, 1, mat.NewVecDense(d, row))
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, errors.New("figure: the principal axes did not converge")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, d)
	for j := range order {
		order[j] = j
	}
	// Largest eigenvalue first; ties in index order, for determinism.
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	total := 0.0
	for _, v := range vals {
		total += max(v, 0)
	}
	p := &PCA{Mean: mean, Axes: mat.NewDense(d, 2, nil)}
	for k := range 2 {
		c := order[k]
		big := 0
		for j := range d {
			if math.Abs(vecs.At(j, c)) > math.Abs(vecs.At(big, c)) {
				big = j
			}
		}
		sign := 1.0
		if vecs.At(big, c) < 0 {
			sign = -1
		}
		for j := range d {
			p.Axes.Set(j, k, sign*vecs.At(j, c))
		}
		if total > 0 {
			p.Share[k] = max(vals[c], 0) / total
		}
	}
	return p, nil
}

// Project returns the rows of x (n×d) projected onto the two axes, as an
// n×2 matrix.
func (p *PCA) Project(x mat.Matrix) *mat.Dense {
	n, d := x.Dims()
	c := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			c.Set(i, j, x.At(i, j)-p.Mean[j])
		}
	}
	var out mat.Dense
	out.Mul(c, p.Axes)
	return &out
}

// Principal returns a scatter plot of the rows of x (n×d, d ≥ 2, in the
// space of the model m) along their first two principal axes (see NewPCA),
// coloured by labels as in Clusters, outliers included; with
// opt.SupportVectors the support vectors of m (which may then not be nil)
// are drawn as light rings. It is the picture of a model of any dimension:
// the domain of novelty is not drawn, since a plane through a
// d-dimensional domain would misrepresent it. Unless opt names them, the
// axes say what they are: "PC1 (62% of the variance)".
//
// It returns the errors of NewPCA, and panics if labels is not nil and its
// length is not the number of rows of x.
func Principal(m *svclust.Model, x mat.Matrix, labels []int, opt *Options) (*plot.Plot, *PCA, error) {
	if opt == nil {
		opt = &Options{}
	}
	pca, err := NewPCA(x)
	if err != nil {
		return nil, nil, err
	}
	o := *opt
	of := ""
	if o.Of != "" {
		of = " of " + o.Of
	}
	if o.XLabel == "" {
		o.XLabel = fmt.Sprintf("PC1%s (%.0f%% of the variance)", of, 100*pca.Share[0])
	}
	if o.YLabel == "" {
		o.YLabel = fmt.Sprintf("PC2%s (%.0f%% of the variance)", of, 100*pca.Share[1])
	}
	p := newPlot(&o)
	px := pca.Project(x)
	if err := addPoints(p, px, labels, &o); err != nil {
		return nil, nil, err
	}
	ms := []mat.Matrix{px}
	if o.SupportVectors {
		psv := pca.Project(m.SupportVectors())
		sv, err := plotter.NewScatter(rows{psv})
		if err != nil {
			return nil, nil, fmt.Errorf("figure: support vectors: %w", err)
		}
		sv.GlyphStyle = lightSVStyle(o.radius(rows{px}.Len()))
		p.Add(sv)
		if o.Legend {
			p.Legend.Add("support vectors", sv)
		}
		ms = append(ms, psv)
	}
	setRange(p, ms...)
	return p, pca, nil
}
