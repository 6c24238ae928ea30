package auto

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// SpaceRule says whether a model trained with the automatic γ and C may
// place its kernel in a subspace of the features (see Config.Space).
type SpaceRule int

const (
	// AutoSpace, the default, projects data of at least four features
	// whose distances concentrate onto the principal directions of their
	// spatial-sign covariance that stand above noise (see [Choose]). It
	// applies only when both γ and C are chosen automatically.
	AutoSpace SpaceRule = iota
	// InputSpace keeps the kernel on the features themselves, as the
	// paper's model has.
	InputSpace
)

// String returns "auto" or "input".
func (r SpaceRule) String() string {
	switch r {
	case AutoSpace:
		return "auto"
	case InputSpace:
		return "input"
	}
	return "SpaceRule(" + strconv.Itoa(int(r)) + ")"
}

// ParseSpace returns the SpaceRule named by s, as String writes it.
func ParseSpace(s string) (SpaceRule, error) {
	switch s {
	case "auto":
		return AutoSpace, nil
	case "input":
		return InputSpace, nil
	}
	return 0, fmt.Errorf("svclust: unknown space rule %q (want auto or input)", s)
}

// Constants of the subspace rule of [Choose] (docs/defaults.md, under
// each name).
const (
	// subspaceMinDim is the fewest features a projected model has: in one
	// to three dimensions a kernel of width 1.5ρ resolves the data.
	subspaceMinDim = 4
	// subspaceFlat is the ratio ρ_med/ρ below which distances count as
	// concentrated: the median distance between two rows is less than
	// 6ρ = 4ℓ for ℓ = 1.5ρ, so most pairs of rows lie within a few kernel
	// widths of each other and f is nearly flat across the data.
	subspaceFlat = 6.0
	// subspacePairs is the number of sampled rows whose pairwise
	// distances give ρ_med: O(subspacePairs²·d) whatever N is.
	subspacePairs = 500
)

// badDim is the message of a panic for rows of the wrong length, as the
// root package's.
const badDim = "svclust: dimension mismatch"

// Subspace is the linear map x ↦ Basis·(x − Mean) from the d features of
// the data to the q dimensions of a model's kernel: the rows of Basis are
// orthonormal directions in feature space. A Model with a Subspace
// applies it to every row it scores; its support vectors are in the
// projected space.
type Subspace struct {
	// Mean is the centre of the sample the directions were learnt on, of
	// length d.
	Mean []float64
	// Basis holds one direction per row: q × d.
	Basis *mat.Dense
}

// Clone returns a copy of p that shares no memory with it.
func (p *Subspace) Clone() *Subspace {
	return &Subspace{Mean: slices.Clone(p.Mean), Basis: mat.DenseCopyOf(p.Basis)}
}

// Dims returns the dimension d of the data and q of the projection.
func (p *Subspace) Dims() (d, q int) {
	q, d = p.Basis.Dims()
	return d, q
}

// Apply sets dst[k] = Basis[k]·(x − Mean) for each direction k and
// returns dst; a nil dst is allocated. It panics if x does not have length
// d or dst length q. Every projection of a model, in training, scoring
// and clustering, is computed by Apply, so that they agree exactly.
func (p *Subspace) Apply(dst, x []float64) []float64 {
	d, q := p.Dims()
	if len(x) != d {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, q)
	}
	if len(dst) != q {
		panic(badDim)
	}
	raw := p.Basis.RawMatrix()
	for k := range q {
		b := raw.Data[k*raw.Stride : k*raw.Stride+d]
		var s float64
		for j, v := range x {
			s += (v - p.Mean[j]) * b[j]
		}
		dst[k] = s
	}
	return dst
}

// Lift returns the point Mean + Basisᵀ·y of the data's space, the point
// of the subspace's plane through Mean that Apply maps to y: how a
// support vector of a projected model is shown among the data. dst, of
// length d, is allocated when nil. It panics if y does not have length q.
func (p *Subspace) Lift(dst, y []float64) []float64 {
	d, q := p.Dims()
	if len(y) != q {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, d)
	}
	if len(dst) != d {
		panic(badDim)
	}
	copy(dst, p.Mean)
	for k, v := range y {
		for j, b := range p.Basis.RawRowView(k) {
			dst[j] += v * b
		}
	}
	return dst
}

// ApplyRows returns the n rows of the row-major data, each of d values,
// projected: n×q values, row-major, computed on workers goroutines (0
// means GOMAXPROCS) with the same result for any number.
func (p *Subspace) ApplyRows(data []float64, n, workers int) []float64 {
	d, q := p.Dims()
	out := make([]float64, n*q)
	parallel.For(n, 256, parallel.Workers(workers), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			p.Apply(out[i*q:i*q+q], data[i*d:i*d+d])
		}
	})
	return out
}

// Residuals sets dst[i] to the squared distance of row i of the n×d
// row-major data from the subspace's plane through Mean,
// ‖xᵢ − Mean‖² − ‖Apply(xᵢ)‖² (≥ 0: the part of xᵢ − Mean off the
// directions, which the projection drops), given proj, the rows'
// projections as ApplyRows returns them, on workers goroutines, and
// returns dst; a nil dst is allocated. The distance from xᵢ to the lifted
// point Lift(y) of any y is then ‖Apply(xᵢ) − y‖² + dst[i]. It panics if
// the lengths do not match.
func (p *Subspace) Residuals(dst, data, proj []float64, n, workers int) []float64 {
	d, q := p.Dims()
	if len(data) != n*d || len(proj) != n*q {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	parallel.For(n, 256, parallel.Workers(workers), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			var all, in float64
			for j, v := range data[i*d : i*d+d] {
				c := v - p.Mean[j]
				all += c * c
			}
			for _, v := range proj[i*q : i*q+q] {
				in += v * v
			}
			dst[i] = max(all-in, 0)
		}
	})
	return dst
}

// orthoTol is the largest departure of Basis·Basisᵀ from the identity
// that Check accepts: the directions svclust learns are orthonormal to
// about 10⁻¹⁵; a basis further off was not learnt (a tampered model
// file), and its projections may overflow.
const orthoTol = 1e-8

// maxSubspaceMean bounds the mean of a Subspace: the mean of rows scaled
// within ±1e150 (dataset.MaxScaled) is within it, and the squared distance
// of such a row from it stays finite in millions of features. Beyond it, a
// finite mean made every score NaN.
const maxSubspaceMean = 1e150

// Check returns an error if p is not a valid projection of d ≥ 1 features
// onto q ≥ 1 directions: a mean of d finite values within ±1e150 and q ≤ d
// finite directions, orthonormal to within orthoTol. It costs O(q²·d).
func (p *Subspace) Check() error {
	if p.Basis == nil {
		return fmt.Errorf("svclust: Subspace: no basis")
	}
	d, q := p.Dims()
	if len(p.Mean) != d {
		return fmt.Errorf("svclust: Subspace: mean of length %d for a basis of %d features", len(p.Mean), d)
	}
	if q > d {
		return fmt.Errorf("svclust: Subspace: %d directions in %d features", q, d)
	}
	for _, v := range p.Mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("svclust: Subspace: mean %v is not finite", v)
		}
		if math.Abs(v) > maxSubspaceMean {
			return fmt.Errorf("svclust: Subspace: mean %v is beyond ±%g, where distances to it overflow", v, maxSubspaceMean)
		}
	}
	for k := range q {
		for _, v := range p.Basis.RawRowView(k) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("svclust: Subspace: basis value %v is not finite", v)
			}
		}
	}
	for k := range q {
		for l := range k + 1 {
			want := 0.0
			if k == l {
				want = 1
			}
			if dot := floats.Dot(p.Basis.RawRowView(k), p.Basis.RawRowView(l)); !(math.Abs(dot-want) <= orthoTol) {
				return fmt.Errorf("svclust: Subspace: directions %d and %d have dot product %v, want %v (not orthonormal)", l+1, k+1, dot, want)
			}
		}
	}
	return nil
}

// concentrationOf returns ρ_med/ρ, with ρ the median distance of the
// sample's rows to their neighbourK-th nearest neighbour (rho, measured by the
// caller) and ρ_med the median distance between two of the first
// subspacePairs rows (med, pairMedian's result; a seeded sample, so any of
// them): how many kernel widths of the k-NN rule separate typical rows. In
// high dimension distances concentrate and the ratio nears 1. It returns
// +Inf when rho is not positive.
func concentrationOf(med, rho float64) float64 {
	if math.IsNaN(med) || !(rho > 0) {
		return math.Inf(1)
	}
	return med / rho
}

// pairMedian returns ρ_med of concentrationOf, NaN when s < 2.
func pairMedian(smp []float64, s, d int) float64 {
	m := min(s, subspacePairs)
	if m < 2 {
		return math.NaN()
	}
	all := make([]float64, 0, m*(m-1)/2)
	for i := range m {
		for j := i + 1; j < m; j++ {
			all = append(all, kernel.SqDist(smp[i*d:i*d+d], smp[j*d:j*d+d]))
		}
	}
	return math.Sqrt(quickSelect(all, len(all)/2))
}

// atFullSample returns the concentration r = ρ_med/ρ measured on a sample
// of s < SampleRows rows of d features scaled to SampleRows rows, the
// sample of every larger data set, on which subspaceFlat separates the
// data the kernel resolves from those it does not: r·(SampleRows/s)^(1/d).
// ρ_med does not depend on s, but k-NN distances shrink as s^(−1/m) for
// data of local dimension m, so that few rows of well-separated clusters
// look concentrated. Since m ≤ d, ρ on SampleRows rows is at most
// (s/SampleRows)^(1/d)·ρ and the result is the least the ratio would be
// there: the bound, rather than the estimate IntrinsicDim, which two
// neighbour distances on a few hundred rows make noisy.
func atFullSample(r float64, s, d int) float64 {
	return r * math.Pow(float64(SampleRows)/float64(s), 1/float64(d))
}

// intrinsicDim returns the estimate ln 2 / ln(ρ₁₀/ρ₅) of the data's
// dimension from the median distances to the 5th and 10th nearest
// neighbours (a k-NN distance grows as k^(1/d)); d when they do not grow.
func intrinsicDim(rho5, rho10 float64, d int) float64 {
	if !(rho5 > 0) || !(rho10 > rho5) || math.IsInf(rho10, 0) {
		return float64(d)
	}
	return math.Ln2 / math.Log(rho10/rho5)
}

// learnSubspace returns the projection onto the principal directions of
// the spatial-sign covariance of the s rows of smp (each row minus the
// sample mean, divided by its norm, so that heavy tails do not dominate)
// whose eigenvalues, rescaled to trace d (that of z-scored data), exceed
// the Marchenko–Pastur edge (1 + √(d/s))² of unit-variance noise on s
// rows; at least one. It also returns the rescaled eigenvalues, descending,
// and the edge; a nil Subspace when the eigendecomposition fails. It costs
// O(s·d² + d³), independent of N.
//
//	Marchenko, V. A. and Pastur, L. A. (1967). Distribution of eigenvalues
//	for some sets of random matrices. Math. USSR-Sbornik 1(4), 457–483.
//	Visuri, S., Koivunen, V. and Oja, H. (2000). Sign and rank covariance
//	matrices. J. Statist. Plann. Inference 91(2), 557–575.
func learnSubspace(smp []float64, s, d int) (*Subspace, []float64, float64) {
	mean := make([]float64, d)
	for i := range s {
		for j, v := range smp[i*d : i*d+d] {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(s)
	}
	// The centred rows, each weighted by 1/(s·‖row‖²) in the covariance
	// Σᵢ wᵢ rᵢrᵢᵀ (rows of norm 0 add nothing: weight 0).
	c := mat.NewDense(s, d, nil)
	wts := make([]float64, s)
	for i := range s {
		row := c.RawRowView(i)
		var nrm float64
		for j, v := range smp[i*d : i*d+d] {
			row[j] = v - mean[j]
			nrm += row[j] * row[j]
		}
		if nrm != 0 {
			wts[i] = (1 / nrm) / float64(s)
		}
	}
	var vals []float64 // ascending, d of them
	var vecs *mat.Dense
	if s < d {
		vals, vecs = gramEigen(c, wts, s, d)
	} else {
		vals, vecs = covEigen(c, wts, s, d)
	}
	if vecs == nil {
		return nil, nil, 0
	}
	var tr float64
	for _, v := range vals {
		tr += v
	}
	eig := make([]float64, d)
	for k := range d {
		eig[k] = vals[d-1-k]
		if tr > 0 {
			eig[k] *= float64(d) / tr
		}
	}
	edge := math.Pow(1+math.Sqrt(float64(d)/float64(s)), 2)
	q := 0
	for _, v := range eig {
		if v > edge {
			q++
		}
	}
	q = max(q, 1)
	basis := mat.NewDense(q, d, nil)
	for k := range q {
		for j := range d {
			basis.Set(k, j, vecs.At(j, d-1-k))
		}
	}
	return &Subspace{Mean: mean, Basis: basis}, eig, edge
}

// covEigen returns the eigenvalues, ascending, and the eigenvectors (as
// columns) of the d×d covariance Σᵢ wᵢ rᵢrᵢᵀ of the s rows rᵢ of c:
// O(s·d² + d³).
func covEigen(c *mat.Dense, wts []float64, s, d int) ([]float64, *mat.Dense) {
	cov := mat.NewSymDense(d, nil)
	for i := range s {
		if wts[i] != 0 {
			cov.SymRankOne(cov, wts[i], mat.NewVecDense(d, c.RawRowView(i)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(cov, true) {
		return nil, nil
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	return es.Values(nil), &vecs
}

// gramEigen is covEigen for s < d rows, from the s×s Gram matrix aaᵀ of
// the rows aᵢ = √wᵢ·rᵢ, whose covariance aᵀa has the same nonzero
// eigenvalues: an eigenvector u of aaᵀ with eigenvalue λ > 0 gives the
// eigenvector aᵀu/√λ of aᵀa. O(s²·d + s³) instead of O(s·d² + d³): 60
// rows of 2,000 features took 47 s by covEigen, 0.1 s this way. The d − s
// eigenvalues it does not see are 0 (aᵀa has rank at most s) and their
// vectors are left 0: the caller keeps only the directions of eigenvalues
// above the noise edge, which is positive.
func gramEigen(c *mat.Dense, wts []float64, s, d int) ([]float64, *mat.Dense) {
	a := mat.NewDense(s, d, nil)
	for i := range s {
		row := a.RawRowView(i)
		copy(row, c.RawRowView(i))
		f := math.Sqrt(wts[i])
		for j := range row {
			row[j] *= f
		}
	}
	g := mat.NewSymDense(s, nil)
	g.SymOuterK(1, a)
	var es mat.EigenSym
	if !es.Factorize(g, true) {
		return nil, nil
	}
	var u mat.Dense
	es.VectorsTo(&u)
	vals := make([]float64, d)
	vecs := mat.NewDense(d, d, nil)
	col := mat.NewVecDense(d, nil)
	for k, l := range es.Values(nil) {
		// Ascending: the s eigenvalues of the Gram matrix are the largest.
		j := d - s + k
		vals[j] = max(l, 0)
		if !(l > 0) {
			continue
		}
		col.MulVec(a.T(), u.ColView(k))
		col.ScaleVec(1/mat.Norm(col, 2), col)
		vecs.SetCol(j, col.RawVector().Data)
	}
	return vals, vecs
}

// silverman returns Silverman's rule-of-thumb bandwidth for the s rows of
// smp: σ̄·(4/((d+2)s))^(1/(d+4)), σ̄² the mean variance of a coordinate.
//
//	Silverman, B. W. (1986). Density Estimation for Statistics and Data
//	Analysis. Chapman & Hall, eq. (4.14).
func silverman(smp []float64, s, d int) float64 {
	var v float64
	for j := range d {
		var m, m2 float64
		for i := range s {
			x := smp[i*d+j]
			m += x
			m2 += x * x
		}
		m /= float64(s)
		v += m2/float64(s) - m*m
	}
	sd := math.Sqrt(max(v/float64(d), 0))
	return sd * math.Pow(4/(float64(d+2)*float64(s)), 1/float64(d+4))
}

// chooseSpace measures, on the sample smp of s rows of d ≥ subspaceMinDim
// features, the statistics of the subspace rule into ch and returns the
// projection when distances concentrate (nil otherwise). It also returns
// the median 5th and 10th neighbour distances of the sample, which the
// caller reuses when it does not project.
//
// With more than one worker, the median pair distance and the principal
// directions, which do not depend on the k-NN distances, are computed on a
// goroutine of their own while the workers measure those: they are the
// serial part of the rule (O(subspacePairs²·d) and O(s·d² + d³)). The
// directions are then computed whether or not the rule projects, which is
// why this is done only for d ≤ s, where they cost no more than the k-NN.
func chooseSpace(ch *Choice, smp []float64, s, d, w int) (*Subspace, float64, float64) {
	var (
		med  float64
		p    *Subspace
		eig  []float64
		edge float64
		done chan struct{}
	)
	// The directions are learnt beside the k-NN distances, before the rule
	// has decided whether to project, only where they cost no more than
	// those distances: O(d³ + s·d²) against O(s²·d), so for d ≤ s. Beyond
	// (few rows in many dimensions: 60 × 2,000 took 47 s of eigenvalues for
	// a rule that did not project) they wait for the decision.
	if parallel.Workers(w) > 1 && s >= 3 && d <= s {
		done = make(chan struct{})
		go func() {
			defer close(done)
			med = pairMedian(smp, s, d)
			p, eig, edge = learnSubspace(smp, s, d)
		}()
	}
	rho5, rho10 := kthNeighbours(smp, s, d, neighbourK, widthK, w)
	if done != nil {
		<-done
	} else {
		med = pairMedian(smp, s, d)
	}
	ch.IntrinsicDim = intrinsicDim(rho5, rho10, d)
	r := concentrationOf(med, rho5)
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return nil, rho5, rho10 // no positive distance: nothing to measure
	}
	ch.Concentration, ch.ConcentrationMax = r, subspaceFlat
	if s < SampleRows {
		r = atFullSample(r, s, d)
		ch.ConcentrationScaled = r
	}
	if !(r < subspaceFlat) || s < 3 {
		return nil, rho5, rho10
	}
	if done == nil {
		p, eig, edge = learnSubspace(smp, s, d)
	}
	if p == nil {
		return nil, rho5, rho10
	}
	_, q := p.Dims()
	ch.Projected, ch.Q, ch.Edge = true, q, edge
	ch.EigenKept = eig[q-1]
	if q < d {
		ch.EigenNext = eig[q]
	}
	return p, rho5, rho10
}
