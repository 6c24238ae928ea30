package cluster

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Defaults and tolerances of the cluster assignment. Lengths are in units of
// the kernel's length scale ℓ = 1/√γ, the distance over which k falls by e.
const (
	// DefaultM is the number of points of the segment test (the paper's
	// m = 20, after Ben-Hur et al. 2001).
	DefaultM = 20
	// DefaultNeighbors is the number of nearest equilibria each
	// equilibrium is tested against by the segment test, which makes
	// linking O(M·k) instead of O(M²) tests for M equilibria. Pruning can
	// only remove edges; with k = 10 the components were those of the full
	// test in every one of 612 runs (13 of the paper's data sets and the 4
	// generated ones, budget 50, the paper's grid of γ and C), with k = 5
	// in all but one; this was measured once with a program outside the
	// repository, and the tests do not repeat it.
	DefaultNeighbors = 10
	// DefaultStripQuantile sets ε when Config.Eps is 0: ε is this
	// quantile of |f(xᵢ)| over the data, so that this fraction of the points
	// (those nearest the boundary f = 0) forms the strip B_ε. The paper never
	// gives ε; a quantile adapts to the scale of f, which varies with γ and
	// C by orders of magnitude, and fixes the cost of the trajectories.
	DefaultStripQuantile = 0.25
	// The trajectories' tolerances, in units of ℓ = 1/√γ, shared with
	// baseline's FSVC: see assign.StepTol, MaxSteps and SameTol.
	trajectoryTol     = assign.StepTol
	trajectoryMaxIter = assign.MaxSteps
	mergeTol          = assign.SameTol
	// Strips of at least anchorMin points are clustered in two rounds:
	// the trajectories from every anchorStride-th strip point run to their
	// end, and their merged equilibria become anchors; every other
	// trajectory stops as soon as it comes within anchorRadius·ℓ of an
	// anchor and takes the anchor's place. Near an equilibrium the
	// trajectory converges linearly, so this saves the slow final approach,
	// about half the steps (measured once on Shuttle and on moons with
	// 100,000 points, with a program outside the repository). An anchor is a local maximum of f, which attracts the points
	// around it, so a trajectory that close would almost always have ended
	// there: with anchors forced on every strip, the partitions were those
	// of the exact computation in all 209 runs tried (the paper's 15 data
	// sets and the 4 generated ones, budget 50 (100 for Shuttle), at the
	// defaults and 10 other settings of γ, C, strategy, seed and All;
	// measured once with a program outside the repository, of which
	// TestAnchorsKeepPartition repeats the 4 generated sets at the
	// defaults). Predict stops at the same anchors.
	anchorStride = 8
	anchorRadius = mergeTol
)

// anchorMin is the smallest strip clustered in two rounds (see
// anchorStride), unless Config.anchorMin says otherwise.
const anchorMin = 2048

// Rule selects how [Fit] assigns points to clusters.
type Rule int

const (
	// LevelTree, the default, reads the clusters off the levels of f:
	// each support vector follows its trajectory (the paper's fixed-point
	// map) to a mode of f; modes are joined at the smallest f of the
	// segment test between them (the paper's m points, near neighbours
	// only); HDBSCAN's excess-of-mass selection (Campello et al. 2013)
	// picks the clusters of that tree with at least MinSize rows; with an
	// automatic C, clusters whose valley is within the noise of the
	// density estimate are joined (RippleZ); and each point takes the
	// cluster of its support vector, the one with the largest term
	// αᵢk(x, svᵢ) of f(x). It costs one pass of at most B kernel terms per
	// point, as scoring does, plus O(B²) for the tree. With
	// Outliers, a point below the level at which its cluster is born is an
	// outlier. This goes beyond the paper, whose clusters are the
	// components of the single level f ≥ 0 set by C; see the README for
	// the measurements behind it.
	LevelTree Rule = iota
	// Components is the paper's Algorithm 3: the points of the strip
	// |f(x)| ≤ ε follow trajectories, equilibria in f ≥ 0 are linked by
	// the segment test, and the clusters are the components of that
	// graph; every other point takes the cluster of its nearest strip
	// point.
	Components
)

// String returns "levels" or "components".
func (r Rule) String() string {
	switch r {
	case LevelTree:
		return "levels"
	case Components:
		return "components"
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// ParseRule returns the Rule named by s, as String writes it.
func ParseRule(s string) (Rule, error) {
	switch s {
	case "levels":
		return LevelTree, nil
	case "components":
		return Components, nil
	}
	return 0, fmt.Errorf("svclust: unknown rule %q (want levels or components)", s)
}

// Config holds the settings of [Fit]. The zero value
// selects the defaults.
type Config struct {
	// Rule is the assignment rule; the zero value is LevelTree.
	Rule Rule
	// MinSize is the smallest cluster of the LevelTree rule, in points;
	// 0 selects max(5, ⌈DefaultMinShare·N⌉). It must not be negative.
	MinSize int
	// RippleZ is the significance, in standard errors, a cluster of the
	// LevelTree rule needs to stay apart from the one it meets (see
	// DefaultRippleZ and the README's "Clusters without labels"); it
	// applies to models trained with an automatic C, whose f + 1 is a
	// kernel density estimate. 0 selects DefaultRippleZ; a negative value
	// keeps every cluster of the excess-of-mass selection. It must be
	// finite. Whether C was automatic is known from Model.Choice.CAuto,
	// which the model file stores from version 4 on; a Model read from an
	// older file joins no ripple when clustered again.
	RippleZ float64
	// LevelPower is the power p of f + 1 on which the LevelTree rule
	// measures its clusters' excess of mass, with an automatic C (see
	// DefaultLevelPower); 0 selects DefaultLevelPower and 1 measures it on
	// f itself, as HDBSCAN's selection read on the density would. It must
	// be in (0, 1] or 0. With a given C the excess of mass is always
	// measured on f; so it is for a Model read from a file older than
	// version 4, which does not store whether C was automatic (see
	// RippleZ).
	LevelPower float64
	// Eps is the half-width ε of the strip B_ε = {xᵢ : |f(xᵢ)| ≤ ε} whose
	// points follow trajectories (Components only). 0 selects the DefaultStripQuantile of
	// |f(xᵢ)|; it must not be negative.
	Eps float64
	// All runs a trajectory from every point instead of the strip only
	// (Components only).
	All bool
	// Outliers labels as −1 the points with f(x) < 0 (Components) or
	// below the birth level of their cluster (LevelTree). By default, as
	// in the paper, every point gets a cluster.
	Outliers bool
	// M is the number of points of the segment test; 0 selects DefaultM. It
	// must be ≥ 2.
	M int
	// Neighbors limits the segment test to plausible pairs of equilibria:
	// each is tested against its Neighbors nearest ones (see
	// DefaultNeighbors). 0 selects DefaultNeighbors; a negative value tests
	// every pair, as the paper does.
	Neighbors int
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Labels do
	// not depend on it.
	Workers int
	// Progress, if not nil, is called as most of the work of Fit is
	// done: with Components, done of total strip points have followed
	// their trajectories; with LevelTree, done of total points have been
	// scored. The calls are serialised and done does not decrease; the
	// segment tests between equilibria come after the last call. It must
	// return quickly.
	Progress func(done, total int)
}

// limits, when not 0, replace the constants anchorMin and MaxLandmarks in
// fit, so that tests can force anchors (a negative anchorMin anchors every
// strip) or small partitions.
type limits struct {
	anchorMin, maxLandmarks int
}

// Validate reports the first invalid field of c as a *ConfigError, or nil.
func (c *Config) Validate() error {
	if math.IsNaN(c.Eps) || math.IsInf(c.Eps, 0) || c.Eps < 0 {
		return &svclust.ConfigError{Field: "Eps", Value: c.Eps, Reason: "must be ≥ 0 and finite (0 selects the default)"}
	}
	if c.M != 0 && c.M < 2 {
		return &svclust.ConfigError{Field: "M", Value: c.M, Reason: "must be ≥ 2 (0 selects the default)"}
	}
	if c.Workers < 0 {
		return &svclust.ConfigError{Field: "Workers", Value: c.Workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	if c.Rule != LevelTree && c.Rule != Components {
		return &svclust.ConfigError{Field: "Rule", Value: c.Rule, Reason: "must be LevelTree or Components"}
	}
	if math.IsNaN(c.RippleZ) || math.IsInf(c.RippleZ, 0) {
		return &svclust.ConfigError{Field: "RippleZ", Value: c.RippleZ, Reason: "must be finite (0 selects the default, a negative value joins no ripple)"}
	}
	if !(c.LevelPower >= 0 && c.LevelPower <= 1) {
		return &svclust.ConfigError{Field: "LevelPower", Value: c.LevelPower, Reason: "must be in (0, 1] (0 selects the default)"}
	}
	if c.MinSize < 0 {
		return &svclust.ConfigError{Field: "MinSize", Value: c.MinSize, Reason: "must be ≥ 0 (0 selects the default)"}
	}
	return nil
}

// Result is the result of [Fit]: the labels of the data
// clustered and the Partition that gives them.
type Result struct {
	// Partition is the clustering as a rule for any point, which
	// Partition.Predict applies to new data and which a model file stores.
	Partition *Partition
	// Labels holds the cluster of each row of the data, −1 for outliers
	// when Config.Outliers is set.
	Labels []int
	// Clusters is the number of clusters (outliers excluded).
	Clusters int
	// StripSize is the number of points that followed a trajectory.
	StripSize int
	// Equilibria is the number of distinct equilibrium points M.
	Equilibria int
	// Eps is the strip half-width used.
	Eps float64
	// MinSize is the smallest cluster allowed (LevelTree), and Stability
	// the excess of mass of each cluster found: Σ over its points of the
	// range of levels over which the point is in it, measured on
	// (f + 1)^p with an automatic C (see Config.LevelPower) and on
	// f otherwise (for clusters joined as ripples, the sum over the
	// joined ones).
	MinSize   int
	Stability []float64
	// Ripples is the number of clusters of the excess-of-mass selection
	// that were joined to a neighbour as ripples of the density estimate
	// (LevelTree; see Config.RippleZ): Clusters + Ripples is the
	// number the selection chose.
	Ripples int
	// Runtime is the wall time of Fit.
	Runtime time.Duration
}

// fieldOf returns f of m as the assignment's field.
func fieldOf(m *svclust.Model) *assign.Field {
	return &assign.Field{SV: svData(m), Alpha: m.Alpha, Gamma: m.Gamma, Gammas: m.Gammas, D: m.Dim()}
}

// svData returns the support vectors of m as one row-major slice. It
// panics if SV is not compact (a view of a wider matrix), whose rows are
// not one slice.
func svData(m *svclust.Model) []float64 {
	raw := m.SV.RawMatrix()
	if raw.Stride != raw.Cols {
		panic("cluster: Model.SV must be a compact matrix (stride = columns), not a view")
	}
	return raw.Data[:len(m.Alpha)*raw.Cols]
}

// badDim is the panic of data whose width is not the model's.
const badDim = "cluster: dimension mismatch"

// scoreChunk is the number of rows a worker labels at a time.
const scoreChunk = assign.OwnerChunk

// flatten returns the rows of x as one row-major slice, without copying
// when x is a compact *mat.Dense, and checks that every value is finite.
func flatten(x mat.Matrix) (data []float64, n, d int, err error) {
	if x == nil {
		return nil, 0, 0, svclust.ErrNoData
	}
	data, n, d = rowmajor.Of(x)
	if n == 0 || d == 0 {
		return nil, 0, 0, svclust.ErrNoData
	}
	for k, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, 0, fmt.Errorf("%w: row %d, column %d", svclust.ErrNotFinite, k/d+1, k%d+1)
		}
	}
	return data, n, d, nil
}

// Fit assigns the rows of x, normally the training data, to clusters by
// the rule of cfg (nil means defaults: LevelTree; Components is the paper's
// Algorithm 3), and returns their labels with the resulting Partition,
// which labels new points. m is not modified: one Model can be clustered
// several ways, concurrently. It returns a *svclust.ConfigError for an invalid cfg, svclust.ErrNotFinite for NaN or Inf
// in x and ErrEmptyStrip when an explicit ε selects no point. It panics if x
// does not have the model's dimension.
func Fit(m *svclust.Model, x mat.Matrix, cfg *Config) (*Result, error) {
	return fit(m, x, cfg, limits{})
}

// fit is Fit with the limits lim.
func fit(m *svclust.Model, x mat.Matrix, cfg *Config, lim limits) (*Result, error) {
	start := time.Now()
	if cfg == nil {
		cfg = &Config{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	data, n, d, err := flatten(x)
	if err != nil {
		return nil, err
	}
	if d != m.Dim() {
		panic(badDim)
	}
	w := parallel.Workers(cfg.Workers)
	mm := cfg.M
	if mm == 0 {
		mm = DefaultM
	}
	if cfg.Rule == LevelTree {
		return clusterTree(m, data, n, d, cfg, mm, w, start), nil
	}
	am, maxl := anchorMin, MaxLandmarks
	if lim.anchorMin != 0 {
		am = lim.anchorMin
	}
	if lim.maxLandmarks != 0 {
		maxl = lim.maxLandmarks
	}
	f := fieldOf(m)
	flags, ns, eps := strip(m, data, n, d, cfg, w)
	if ns == 0 {
		return nil, ErrEmptyStrip
	}

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
	if !cfg.All {
		eq = slices.Clone(pts)
	}
	scale := f.Scale()
	first := firstSlots(ns, am)
	report := progressOf(cfg.Progress, ns)
	trajectories(f, eq[:first*d], nil, w, report)
	var anchors []float64
	if first < ns {
		// The anchors come first among the representatives, as Predict
		// expects: Merge is greedy in index order.
		anchors = assign.Merge(eq[:first*d], d, mergeTol*scale)
		trajectories(f, eq[first*d:], anchors, w, report)
	}
	reps := assign.Merge(eq, d, mergeTol*scale)
	nrep := len(reps) / d
	valid := make([]bool, nrep)
	for r := range valid {
		valid[r] = f.Value(reps[r*d:r*d+d]) >= 0
	}
	nb := cfg.Neighbors
	if nb == 0 {
		nb = DefaultNeighbors
	}
	eqCluster, nc, _ := assign.LinkUntil(f, reps, valid, mm, nb, w, nil)

	p := &Partition{
		model: m, rule: Components,
		eps: eps, all: cfg.All, outliers: cfg.Outliers, segM: mm, clusters: nc,
		equilibria:         mat.NewDense(nrep, d, reps),
		equilibriumCluster: eqCluster,
		anchors:            len(anchors) / d,
	}
	p.buildTrees()
	stripCluster := make([]int, ns)
	for s := range stripCluster {
		r, _ := p.eqTree.Nearest(eq[s*d : s*d+d])
		stripCluster[s] = eqCluster[r]
	}
	if !cfg.All {
		p.strip, p.stripCluster = landmarks(pts, stripCluster, d, maxl, am)
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
	parallel.For(n, scoreChunk, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			switch {
			case flags[i]&outlier != 0:
				labels[i] = -1
			case flags[i]&inStrip == 0:
				labels[i] = stripLabel(p.stripTree, nc, p.stripCluster, data[i*d:i*d+d])
			}
		}
	})
	return &Result{
		Partition: p,
		Labels:    labels, Clusters: nc,
		StripSize: ns, Equilibria: nrep, Eps: eps,
		Runtime: time.Since(start),
	}, nil
}

// MaxLandmarks bounds the strip points a Components partition keeps to
// label the points outside the strip (each takes the cluster of the
// nearest kept one), so that the partition, and the model file, stay of
// size O(B + M + MaxLandmarks) whatever N is. A strip of at most
// MaxLandmarks points is kept whole, as Algorithm 3 has it (every strip
// point of the data sets of the paper but Shuttle's); a larger one keeps
// every ⌈ns/MaxLandmarks⌉-th strip point in the order of the data.
// Fit labels the points outside the strip through the kept points
// too, so that Predict reproduces its labels. With 10,000 kept points the
// model file of 1,000,000 2-D moons points (-rule components) is 495 KB,
// against 10.9 MB when it kept the whole strip of 250,000.
const MaxLandmarks = 10_000

// landmarks returns the strip points that a Components partition keeps
// (see MaxLandmarks) and their clusters, from the strip points pts (in
// slot order, d values each) and their clusters.
func landmarks(pts []float64, clusters []int, d, maxLandmarks, am int) (*mat.Dense, []int) {
	ns := len(clusters)
	if ns <= maxLandmarks {
		return mat.NewDense(ns, d, pts), clusters
	}
	stride := (ns + maxLandmarks - 1) / maxLandmarks
	nl := (ns + stride - 1) / stride
	kept := make([]float64, 0, nl*d)
	keptCluster := make([]int, 0, nl)
	for k := 0; k < ns; k += stride {
		s := slot(k, ns, am)
		kept = append(kept, pts[s*d:s*d+d]...)
		keptCluster = append(keptCluster, clusters[s])
	}
	return mat.NewDense(nl, d, kept), keptCluster
}

// Flags of a point in Fit.
const (
	inStrip = 1 << iota // the point follows a trajectory
	outlier             // the point is labelled −1
)

// strip scores the n×d row-major data and returns the flags of each point,
// the number of points in the strip and the strip's half-width ε.
func strip(m *svclust.Model, data []float64, n, d int, cfg *Config, w int) (flags []uint8, ns int, eps float64) {
	scores := m.Score(nil, mat.NewDense(n, d, data), w)
	eps = cfg.Eps
	if eps == 0 {
		eps = quantileAbs(scores, DefaultStripQuantile)
	}
	flags = make([]uint8, n)
	for i, v := range scores {
		if cfg.All || math.Abs(v) <= eps {
			flags[i] |= inStrip
			ns++
		}
		if cfg.Outliers && v < 0 {
			flags[i] |= outlier
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

// firstSlots returns the number of leading slots of a strip of n points
// whose trajectories run to their end: all of them for n < anchorMin,
// otherwise every anchorStride-th point's. The trajectories from the
// other slots stop early at the anchors, the first ones' merged ends.
func firstSlots(n, anchorMin int) int {
	if n < anchorMin {
		return n
	}
	return (n + anchorStride - 1) / anchorStride
}

// slot returns the slot of the k-th point (from 0, in the order of the
// data) of a strip of n points: every anchorStride-th point takes one of
// the firstSlots(n) leading slots, the others follow in order.
func slot(k, n, anchorMin int) int {
	first := firstSlots(n, anchorMin)
	switch {
	case first == n:
		return k
	case k%anchorStride == 0:
		return k / anchorStride
	}
	return first + k - k/anchorStride - 1
}

// trajectories moves each row of the row-major eq to its equilibrium on w
// goroutines, stopping early at anchors (row-major equilibria found
// before) if there are any.
func trajectories(f *assign.Field, eq []float64, anchors []float64, w int, report func(int)) {
	d := f.D
	var tree *assign.Tree
	if len(anchors) > 0 {
		tree = assign.NewTree(anchors, d)
	}
	parallel.For(len(eq)/d, 64, w, func(_, lo, hi int) {
		scratch := f.Scratch()
		for k := lo; k < hi; k++ {
			equilibrium(f, eq[k*d:k*d+d], scratch, tree)
		}
		if report != nil {
			report(hi - lo)
		}
	})
}

// progressOf returns the function that trajectories calls with the number
// of trajectories of a chunk just followed, which adds them up and calls
// progress with the total so far, serialised; nil if progress is nil.
func progressOf(progress func(done, total int), total int) func(int) {
	if progress == nil {
		return nil
	}
	var mu sync.Mutex
	done := 0
	return func(n int) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		progress(done, total)
	}
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

// equilibrium moves e along its trajectory to its end or, with anchors, to
// the first anchor within anchorRadius·ℓ of it, and returns e. Fit and
// Predict share it, so that Predict reproduces Fit's labels.
func equilibrium(f *assign.Field, e, scratch []float64, anchors *assign.Tree) []float64 {
	scale := f.Scale()
	a := f.EquilibriumNear(e, scratch, trajectoryTol*scale, trajectoryMaxIter, anchors, anchorRadius*scale)
	if a >= 0 {
		copy(e, anchors.Point(a))
	}
	return e
}
