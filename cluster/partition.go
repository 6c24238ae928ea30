package cluster

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Partition is a clustering as a rule for any point x: the phase-1 Model
// it was found with and what [Fit] derived from it. With the
// LevelTree rule x takes the cluster of its support vector, the one with
// the largest term of f(x), and with Outliers it is −1 when f(x) is below
// the level at which that cluster is born. With the Components rule:
//
//   - if All is set or |f(x)| ≤ ε, x follows its trajectory to an
//     equilibrium e and takes the cluster of the stored equilibrium nearest
//     to e;
//   - otherwise x takes the cluster of the nearest strip point that the
//     partition keeps (all of them, or MaxLandmarks for a larger strip);
//   - with Outliers, x is labelled −1 when f(x) < 0.
//
// On the data given to Fit this reproduces its labels exactly.
//
// A Partition is a value separate from its Model so that training stays
// immutable: Fit never modifies the Model, one Model can be clustered
// several ways without training again, and a Partition exists only
// complete. It is made only by [Fit] or read by
// [Partition.UnmarshalJSON], which build everything Predict needs (the
// search trees over the equilibria and the strip) before returning, so a
// Partition is read-only afterwards and safe for concurrent use: many
// goroutines may call Predict on one Partition, as a worker that loads a
// model once and labels rows in parallel does. Its JSON form is the
// library's model file, the Model with its partition.
//
// The zero Partition is only a target for UnmarshalJSON; its other methods
// panic.
type Partition struct {
	model *svclust.Model
	rule  Rule
	// svCluster holds the cluster of each support vector and birth the
	// level of f at which each cluster is born (LevelTree).
	svCluster []int
	birth     []float64

	eps      float64
	all      bool
	outliers bool
	segM     int // the points of the segment test
	clusters int
	// equilibria are the distinct equilibrium points, one per row, and
	// equilibriumCluster their clusters.
	equilibria         *mat.Dense
	equilibriumCluster []int
	// strip holds the points of the strip, one per row, or at most
	// MaxLandmarks of them (see landmarks), and stripCluster their
	// clusters; both are empty when all is set.
	strip        *mat.Dense
	stripCluster []int
	// anchors is the number of leading equilibria at which trajectories
	// stop early: one that comes within anchorRadius·ℓ of one of them
	// ends there. Fit sets it for large strips (see anchorMin); 0
	// means every trajectory runs to its end.
	anchors int

	// terms indexes the support vectors, so that f is computed as Score
	// computes it (nil when the index does not pay; see Model.terms),
	// built with the Partition.
	terms *assign.Terms

	// The search trees of the Components rule, built with the Partition.
	eqTree     *assign.Tree
	anchorTree *assign.Tree
	stripTree  *assign.Tree
}

// buildTrees builds the index of the support vectors of the LevelTree
// rule, or the search trees of the Components rule over the equilibria,
// the anchors and (with more than one cluster) the strip.
func (p *Partition) buildTrees() {
	p.terms = fieldOf(p.model).Terms()
	if p.rule != Components {
		return
	}
	eq := p.equilibria.RawMatrix()
	p.eqTree = assign.NewTree(eq.Data, eq.Cols)
	if p.anchors > 0 {
		p.anchorTree = assign.NewTree(eq.Data[:p.anchors*eq.Cols], eq.Cols)
	}
	p.buildStripTree()
}

// buildStripTree builds the search tree over the strip points, with more
// than one cluster.
func (p *Partition) buildStripTree() {
	if p.strip != nil && p.clusters > 1 {
		raw := p.strip.RawMatrix()
		p.stripTree = assign.NewTree(raw.Data, raw.Cols)
	}
}

// mustModel returns p's Model, and panics for a zero Partition.
func (p *Partition) mustModel() *svclust.Model {
	if p.model == nil {
		panic("svclust: zero Partition: make it with Fit or UnmarshalJSON")
	}
	return p.model
}

// Model returns the phase-1 model p was found with. It is shared, not
// copied: it must not be modified.
func (p *Partition) Model() *svclust.Model { return p.mustModel() }

// Rule returns the assignment rule of p.
func (p *Partition) Rule() Rule {
	p.mustModel()
	return p.rule
}

// Clusters returns the number of clusters, numbered 0 … Clusters−1.
func (p *Partition) Clusters() int {
	p.mustModel()
	return p.clusters
}

// Outliers reports whether Predict labels outliers −1 (see
// Config.Outliers).
func (p *Partition) Outliers() bool {
	p.mustModel()
	return p.outliers
}

// Predict sets dst[i] to the cluster of row i of x by the rule of p (see
// [Partition]), −1 for an outlier, and returns dst; a nil dst is
// allocated. It runs on workers goroutines (0 means GOMAXPROCS); the
// labels do not depend on it. It panics if x does not have the model's
// number of columns or dst has the wrong length. On the data given to
// Fit it returns Fit's labels.
func (p *Partition) Predict(dst []int, x mat.Matrix, workers int) []int {
	m := p.mustModel()
	n, d := x.Dims()
	if d != m.Dim() {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]int, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	if p.rule == LevelTree {
		p.predictTree(dst, x, workers)
		return dst
	}
	f := fieldOf(m)
	rows := rowmajor.Source(x)
	parallel.For(n, scoreChunk, parallel.Workers(workers), func(_, lo, hi int) {
		buf := rowmajor.Buffer(x, d)
		e := make([]float64, d)
		scratch := f.Scratch()
		var ts *assign.TermsScratch
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
			case p.outliers && v < 0:
				dst[i] = -1
			case p.all || math.Abs(v) <= p.eps:
				copy(e, xi)
				r, _ := p.eqTree.Nearest(equilibrium(f, e, scratch, p.anchorTree))
				dst[i] = p.equilibriumCluster[r]
			default:
				dst[i] = stripLabel(p.stripTree, p.clusters, p.stripCluster, xi)
			}
		}
	})
	return dst
}
