package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// DefaultStripQuantile sets ε when Components.Eps is 0: ε is this quantile
// of |f(xᵢ)| over the data, so that this fraction of the points (those
// nearest the boundary f = 0) forms the strip B_ε. The paper never gives
// ε; a quantile adapts to the scale of f, which varies with γ and C by
// orders of magnitude, and fixes the cost of the trajectories.
const DefaultStripQuantile = 0.25

// MaxLandmarks bounds the strip points a [Graph] keeps to label the points
// outside the strip (each takes the cluster of the nearest kept one), so
// that the partition, and the model file, stay of size
// O(B + M + MaxLandmarks) whatever N is. A larger strip keeps every
// ⌈ns/MaxLandmarks⌉-th strip point in the order of the data; Fit labels
// the points outside the strip through the kept points too, so that
// Predict reproduces its labels (docs/defaults.md).
const MaxLandmarks = 10_000

// Components is the paper's Algorithm 3 as a [Method]: the points of the
// strip |f(x)| ≤ ε follow trajectories, equilibria in f ≥ 0 are linked by
// the segment test, and the clusters are the components of that graph;
// every other point takes the cluster of its nearest strip point. Its
// partition is a [*Graph]. The zero value selects the defaults.
type Components struct {
	// Eps is the half-width ε of the strip B_ε = {xᵢ : |f(xᵢ)| ≤ ε} whose
	// points follow trajectories. 0 selects the DefaultStripQuantile of
	// |f(xᵢ)|; it must not be negative.
	Eps float64
	// All runs a trajectory from every point instead of the strip only.
	All bool
	// Outliers labels as −1 the points whose outlier score is at least
	// OutlierThreshold (see [Graph.OutlierScores]). By default, as in the
	// paper, every point gets a cluster.
	Outliers bool
	// OutlierThreshold is the outlier score at and above which a point is
	// an outlier; 0 selects DefaultOutlierThreshold. It must be in
	// (0, 1).
	OutlierThreshold float64
	// M is the number of points of the segment test; 0 selects DefaultM.
	// It must be in [2, MaxM].
	M int
	// Neighbors limits the segment test to each equilibrium's Neighbors
	// nearest ones; 0 selects DefaultNeighbors, a negative value tests
	// every pair, as the paper does.
	Neighbors int
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Labels do
	// not depend on it.
	Workers int
	// Progress, if not nil, is called as done of total strip points have
	// followed their trajectories. The calls are serialised and done does
	// not decrease; the segment tests come after the last call. It must
	// return quickly.
	Progress func(done, total int)

	// anchorMin is the smallest strip clustered in two rounds (see
	// anchorStride), 0 for defaultAnchorMin, and maxLandmarks bounds the
	// strip points kept, 0 for MaxLandmarks: tests set them to force
	// either way.
	anchorMin, maxLandmarks int
}

// Rule returns RuleComponents.
func (c *Components) Rule() Rule { return RuleComponents }

// Validate reports the first invalid field of c as a *svclust.ConfigError,
// or nil.
func (c *Components) Validate() error {
	if math.IsNaN(c.Eps) || math.IsInf(c.Eps, 0) || c.Eps < 0 {
		return &svclust.ConfigError{Field: "Eps", Value: c.Eps, Reason: "must be ≥ 0 and finite (0 selects the default)"}
	}
	return validateCommon(c.M, c.Workers, c.OutlierThreshold)
}

// Graph is the partition of [Components]: the clusters of a graph of
// equilibria as a rule for any point x.
//
//   - if All is set or |f(x)| ≤ ε, x follows its trajectory to an
//     equilibrium e and takes the cluster of the stored equilibrium nearest
//     to e;
//   - otherwise x takes the cluster of the nearest strip point that the
//     partition keeps (all of them, or MaxLandmarks for a larger strip);
//   - with Outliers, x is labelled −1 when its outlier score is at least
//     the threshold (in a graph read from a model file of version 5 or
//     older, which has no outlier scores: when f(x) < 0).
//
// The graph stores each support vector's cluster as the rule gives it to
// the support vector as a point, which the depth score of model files of
// version 6 reads.
//
// A Graph is made by Fit or [NewGraph], which build the search trees
// Predict needs before returning; it is read-only afterwards and safe for
// concurrent use.
type Graph struct {
	model *svclust.Model
	data  GraphData

	// terms indexes the support vectors, so that f is computed as the
	// model's Score computes it (nil when the index does not pay).
	terms *kernel.Terms
	// outlierSurface gives the outlier scores (OutlierScores,
	// OutlierThreshold).
	outlierSurface
	// The search trees over the equilibria, the anchors and (with more
	// than one cluster) the strip.
	eqTree     *assign.Tree
	anchorTree *assign.Tree
	stripTree  *assign.Tree
}

// GraphData is what a [Graph] stores: its settings as resolved and the
// points and clusters Predict reads. A model file holds it.
type GraphData struct {
	// Eps is the strip half-width ε, All and Outliers the settings of
	// Components, and M the points of the segment test.
	Eps           float64
	All, Outliers bool
	M             int
	// Clusters is the number of clusters.
	Clusters int
	// Equilibria holds the distinct equilibrium points, one per row, and
	// EquilibriumCluster their clusters.
	Equilibria         *mat.Dense
	EquilibriumCluster []int
	// Anchors is the number of leading equilibria at which trajectories
	// stop early: one that comes within anchorRadius·ℓ of one of them ends
	// there; 0 means every trajectory runs to its end.
	Anchors int
	// Strip holds the strip points kept (at most MaxLandmarks) and
	// StripCluster their clusters; both are empty when All is set.
	Strip        *mat.Dense
	StripCluster []int
	// SVCluster holds the cluster of each support vector and Outlier
	// what the outlier scores need; both are nil in a graph read from a
	// model file of version 5 or older, which has no outlier scores.
	SVCluster []int
	Outlier   *OutlierData
}

// NewGraph returns the Graph of the model m with the stored data g,
// validated: it returns an error for settings out of range, cluster
// numbers outside [0, Clusters), arrays of disagreeing lengths, rows of
// another dimension than m's, or values that are not finite. The Graph
// takes g's slices and matrices over, which must not be modified
// afterwards.
func NewGraph(m *svclust.Model, g GraphData) (*Graph, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := g.check(m.KernelDim()); err != nil {
		return nil, err
	}
	if (g.SVCluster == nil) != (g.Outlier == nil) {
		return nil, errors.New("cluster: sv_cluster and the outlier data go together")
	}
	if g.Outlier != nil {
		if len(g.SVCluster) != len(m.Alpha) {
			return nil, fmt.Errorf("cluster: %d support-vector clusters for %d support vectors", len(g.SVCluster), len(m.Alpha))
		}
		for _, c := range g.SVCluster {
			if c < 0 || c >= g.Clusters {
				return nil, fmt.Errorf("cluster: cluster %d outside [0, %d)", c, g.Clusters)
			}
		}
		if err := g.Outlier.check(g.Clusters, len(m.Alpha)); err != nil {
			return nil, err
		}
	}
	p := &Graph{model: m, data: g}
	p.buildTrees()
	p.setScorer()
	return p, nil
}

// setScorer makes the outlier surface of p's data.
func (p *Graph) setScorer() {
	p.set(p.model, p.terms, p.data.SVCluster, p.data.Outlier)
}

// PredictScores sets dst[i] and scores[i] to the cluster and the outlier
// score of row i of x (see [Partition]): the pass of Predict, then that of
// OutlierScores.
func (p *Graph) PredictScores(dst []int, scores []float64, x mat.Matrix, workers int) ([]int, []float64, error) {
	return p.predictScores(dst, scores, x, workers, p.data.Outliers, func(dst []int, kx mat.Matrix, w int) {
		p.predict(dst, kx, w, false)
	}, nil)
}

// Data returns what p stores. Its slices and matrices are p's own, shared:
// they must not be modified.
func (p *Graph) Data() GraphData { return p.data }

// Model returns the phase-1 model p was found with.
func (p *Graph) Model() *svclust.Model { return p.model }

// Rule returns RuleComponents.
func (p *Graph) Rule() Rule { return RuleComponents }

// Clusters returns the number of clusters.
func (p *Graph) Clusters() int { return p.data.Clusters }

// Outliers reports whether Predict labels outliers −1.
func (p *Graph) Outliers() bool { return p.data.Outliers }

// buildTrees builds the index of the support vectors and the search trees
// over the equilibria, the anchors and (once it is set) the strip.
func (p *Graph) buildTrees() {
	p.terms = kernel.NewTermsOf(field(p.model))
	eq := p.data.Equilibria.RawMatrix()
	p.eqTree = assign.NewTree(eq.Data, eq.Cols)
	if p.data.Anchors > 0 {
		p.anchorTree = assign.NewTree(eq.Data[:p.data.Anchors*eq.Cols], eq.Cols)
	}
	p.buildStripTree()
}

// buildStripTree builds the search tree over the strip points, with more
// than one cluster.
func (p *Graph) buildStripTree() {
	if p.data.Strip != nil && p.data.Clusters > 1 {
		raw := p.data.Strip.RawMatrix()
		p.stripTree = assign.NewTree(raw.Data, raw.Cols)
	}
}

// Predict sets dst[i] to the cluster of row i of x by the rule of [Graph]
// and returns dst (see [Partition]).
func (p *Graph) Predict(dst []int, x mat.Matrix, workers int) []int {
	dst = checkPredict(p.model, dst, x)
	w := parallel.Workers(workers)
	if p.data.Outliers && p.scorer != nil {
		p.PredictScores(dst, nil, x, workers)
		return dst
	}
	return p.predict(dst, kernelRows(p.model, x, w), w, p.data.Outliers)
}

// predict is Predict with f(x) < 0 labelled −1 when fNeg is set, for
// rows in the space of the kernel.
func (p *Graph) predict(dst []int, x mat.Matrix, w int, fNeg bool) []int {
	n, d := x.Dims()
	f := field(p.model)
	g := &p.data
	rows := rowmajor.Source(x)
	parallel.For(n, kernel.ScoreChunk, w, func(_, lo, hi int) {
		buf := rowmajor.Buffer(x, d)
		e := make([]float64, d)
		scratch := assign.NewScratch(f)
		var ts *kernel.TermsScratch
		if p.terms != nil {
			ts = p.terms.NewScratch()
		}
		for i := lo; i < hi; i++ {
			xi := rows(i, buf)
			var v float64
			if ts != nil {
				sum, _ := p.terms.Owner(xi, ts)
				v = sum - 1 // as Score computes it, which Fit uses
			} else {
				v = f.Value(xi)
			}
			switch {
			case fNeg && v < 0:
				dst[i] = -1
			case g.All || math.Abs(v) <= g.Eps:
				copy(e, xi)
				r, _ := p.eqTree.Nearest(equilibrium(f, e, scratch, p.anchorTree))
				dst[i] = g.EquilibriumCluster[r]
			default:
				dst[i] = stripLabel(p.stripTree, g.Clusters, g.StripCluster, xi)
			}
		}
	})
	return dst
}

// fit is Fit with the Components rule.
func (c *Components) fit(m *svclust.Model, data, r2 []float64, n, d int) (*Result, error) {
	w := parallel.Workers(c.Workers)
	mm := orDefault(c.M, DefaultM)
	f := field(m)
	flags, ns, eps := c.strip(m, data, n, d, w)
	if ns == 0 {
		return nil, ErrEmptyStrip
	}
	am := orDefault(c.anchorMin, defaultAnchorMin)

	// The strip points, in the order of their slots (see slot), and the
	// trajectories from them, each written in its own slot.
	pts := make([]float64, ns*d)
	k := 0
	for i, fl := range flags {
		if fl&inStrip != 0 {
			s := slot(k, ns, am)
			copy(pts[s*d:s*d+d], data[i*d:i*d+d])
			k++
		}
	}
	eq := pts
	if !c.All {
		eq = slices.Clone(pts)
	}
	scale := f.Scale()
	first := firstSlots(ns, am)
	report := progressOf(c.Progress, ns)
	trajectories(f, eq[:first*d], nil, w, report)
	var anchors []float64
	if first < ns {
		// The anchors come first among the representatives, as Predict
		// expects: Distinct is greedy in index order.
		anchors = assign.Distinct(eq[:first*d], d, mergeTol*scale)
		trajectories(f, eq[first*d:], anchors, w, report)
	}
	reps := assign.Distinct(eq, d, mergeTol*scale)
	nrep := len(reps) / d
	valid := make([]bool, nrep)
	for r := range valid {
		valid[r] = f.Value(reps[r*d:r*d+d]) >= 0
	}
	nb := orDefault(c.Neighbors, DefaultNeighbors)
	eqCluster, nc, _ := assign.LinkUntil(f, reps, valid, mm, nb, w, nil)

	t := threshold(c.OutlierThreshold)
	p := &Graph{model: m, data: GraphData{
		Eps: eps, All: c.All, Outliers: c.Outliers, M: mm, Clusters: nc,
		Equilibria:         mat.NewDense(nrep, d, reps),
		EquilibriumCluster: eqCluster,
		Anchors:            len(anchors) / d,
	}}
	p.buildTrees()
	stripCluster := make([]int, ns)
	for s := range stripCluster {
		r, _ := p.eqTree.Nearest(eq[s*d : s*d+d])
		stripCluster[s] = eqCluster[r]
	}
	if !c.All {
		p.data.Strip, p.data.StripCluster = landmarks(pts, stripCluster, d, am, orDefault(c.maxLandmarks, MaxLandmarks))
		p.buildStripTree()
	}

	labels := make([]int, n)
	k = 0
	for i, fl := range flags {
		if fl&inStrip != 0 {
			labels[i] = stripCluster[slot(k, ns, am)]
			k++
		}
	}
	g := &p.data
	parallel.For(n, kernel.ScoreChunk, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if flags[i]&inStrip == 0 {
				labels[i] = stripLabel(p.stripTree, nc, g.StripCluster, data[i*d:i*d+d])
			}
		}
	})

	// The outlier scores, from a pass over the rows; each support
	// vector's cluster by the rule is stored beside them.
	g.SVCluster = p.predict(make([]int, len(m.Alpha)), mat.NewDense(len(m.Alpha), d, f.SV), w, false)
	var score []float64
	g.Outlier, score = fitOutliers(m, p.terms, data, r2, n, d, w, nil, nil)
	g.Outlier.Threshold = t
	p.setScorer()
	if c.Outliers {
		for i, s := range score {
			if s >= t {
				labels[i] = -1
			}
		}
	}
	return &Result{
		Partition: p,
		Labels:    labels, Clusters: nc,
		StripSize: ns, Equilibria: nrep, Eps: eps,
		OutlierScores: score, OutlierFence: g.Outlier.Fence, OutlierThreshold: t,
	}, nil
}

// landmarks returns the strip points that a Graph keeps (see
// MaxLandmarks, here maxKept) and their clusters, from the strip points
// pts (in slot order for anchorMin, d values each) and their clusters.
func landmarks(pts []float64, clusters []int, d, anchorMin, maxKept int) (*mat.Dense, []int) {
	ns := len(clusters)
	if ns <= maxKept {
		return mat.NewDense(ns, d, pts), clusters
	}
	stride := (ns + maxKept - 1) / maxKept
	nl := (ns + stride - 1) / stride
	kept := make([]float64, 0, nl*d)
	keptCluster := make([]int, 0, nl)
	for k := 0; k < ns; k += stride {
		s := slot(k, ns, anchorMin)
		kept = append(kept, pts[s*d:s*d+d]...)
		keptCluster = append(keptCluster, clusters[s])
	}
	return mat.NewDense(nl, d, kept), keptCluster
}

// Flags of a point in fit.
const (
	inStrip = 1 << iota // the point follows a trajectory
)

// strip scores the n×d row-major data and returns the flags of each point,
// the number of points in the strip and the strip's half-width ε.
func (c *Components) strip(m *svclust.Model, data []float64, n, d int, w int) (flags []uint8, ns int, eps float64) {
	scores := m.ScoreKernel(nil, mat.NewDense(n, d, data), w)
	eps = c.Eps
	if eps == 0 {
		eps = quantileAbs(scores, DefaultStripQuantile)
	}
	flags = make([]uint8, n)
	for i, v := range scores {
		if c.All || math.Abs(v) <= eps {
			flags[i] |= inStrip
			ns++
		}
	}
	return flags, ns, eps
}

// quantileAbs returns the q-quantile of |v| (the smallest value with at
// least a fraction q of the values at or below it). It selects the value
// without sorting or copying v: the bits of a non-negative float64, read as
// an unsigned integer, are ordered as the values are, so four counting
// passes over v find the bits of the quantile 16 at a time.
func quantileAbs(v []float64, q float64) float64 {
	k := max(0, min(int(math.Ceil(q*float64(len(v))))-1, len(v)-1)) // rank sought, from 0
	var prefix uint64                                               // the leading bits found so far
	count := make([]int, 1<<16)
	for shift := 48; shift >= 0; shift -= 16 {
		clear(count)
		for _, x := range v {
			b := math.Float64bits(math.Abs(x))
			// A shift by 64 gives 0 in Go, as prefix is in the first pass.
			if b>>(shift+16) == prefix {
				count[b>>shift&0xffff]++
			}
		}
		for digit, c := range count {
			if k < c {
				prefix = prefix<<16 | uint64(digit)
				break
			}
			k -= c
		}
	}
	return math.Float64frombits(prefix)
}

// stripLabel returns the cluster of the point of tree nearest to x, where
// stripCluster holds the clusters of the tree's points and clusters is
// their number. With a single cluster that is cluster 0, found without the
// search (tree may then be nil), which is most of the cost of Fit and
// Predict when the domain is one region.
func stripLabel(tree *assign.Tree, clusters int, stripCluster []int, x []float64) int {
	if clusters == 1 {
		return 0
	}
	s, _ := tree.Nearest(x)
	return stripCluster[s]
}
