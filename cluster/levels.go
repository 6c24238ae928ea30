package cluster

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// Defaults of the Levels rule; docs/defaults.md gives the measurements
// each was chosen on.
const (
	// DefaultMinShare sets the smallest cluster when Levels.MinSize is 0:
	// max(5, ⌈0.0075·N⌉) points. Five is HDBSCAN's default
	// min_cluster_size; the share keeps the number of clusters from
	// growing with N, as five points would on a million rows.
	DefaultMinShare = 0.0075
	// DefaultRippleZ is the significance, in standard errors, a cluster
	// needs to stay apart from the cluster it meets when Levels.RippleZ
	// is 0: higher values join real clusters of small data sets, lower
	// ones keep more ripples of the density estimate.
	DefaultRippleZ = 1.5
	// DefaultProjectedRippleZ replaces DefaultRippleZ for a model whose
	// kernel works in a subspace (svclust.Model.Subspace): there f is a
	// density estimate in a few dimensions, from a width with Silverman's
	// floor, whose valleys between real clusters of overlapping Gaussian or
	// Student-t mixtures fall within 1.5 standard errors
	// (docs/defaults.md, DefaultProjectedRippleZ).
	DefaultProjectedRippleZ = 0.5
	// DefaultLevelPower is the power p of f + 1 on which the excess of
	// mass is measured when Levels.LevelPower is 0 and C is automatic
	// (f + 1 is then a kernel density estimate). HDBSCAN measures it in
	// λ = 1/(core distance), which goes as the density to the power 1/d;
	// on the density itself (p = 1) the tops of dense clusters, where a
	// kernel estimate's error grows with f + 1, weigh most.
	DefaultLevelPower = 0.9
)

// Levels reads the clusters off the levels of f, as a [Method]: each
// support vector follows its trajectory (the paper's fixed-point map) to a
// mode of f; modes are joined at the smallest f of the segment test
// between them (the paper's m points, near neighbours only); HDBSCAN's
// excess-of-mass selection (Campello et al. 2013) picks the clusters of
// that tree with at least MinSize rows; with an automatic C, clusters
// whose valley is within the noise of the density estimate are joined
// (RippleZ); without a Subspace, a cluster that the same tree condensed
// with that significance test at every split divides into parts is
// divided where two parts' rows have two significant modes along the path
// between them (the saddle test, docs/defaults.md, saddleAlpha); with the
// default RippleZ, no Subspace and at most two features, a cluster is
// also cut, again and again, where a Gaussian kernel density estimate of
// its rows (a stride sample of at most 2,000) has a significant valley on
// the tree of highest links between its modes (docs/defaults.md, "Cuts
// where the level tree has no split"); and each
// point takes the cluster of its support vector, the one with the largest
// term αᵢk(x, svᵢ) of f(x). It costs one pass of at most B kernel terms
// per point, as scoring does, plus O(B²) for the tree, plus for each pair
// of parts the saddle test compares the pair's rows times at most 256
// points of the path, plus for each cut tried at most 2,000 rows times
// the points on the links between the cluster's modes.
// This goes beyond the paper, whose clusters are the components of the
// single level f ≥ 0 set by C (that is [Components]). Its partition is a
// [*LevelTree]. Of more than 200,000 rows the tree is built from every
// ⌈N/50,000⌉-th row, MinSize scaled to them, and every row then takes
// the label and outlier score the partition predicts for it, in one pass
// (docs/defaults.md, levelRows). For a model whose kernel works in a
// subspace of two or more dimensions the modes are grouped by rank-based
// links instead (see LevelLinks), at O(2,000²·q) more. The zero value
// selects the defaults.
//
//	R. J. G. B. Campello, D. Moulavi, J. Sander. Density-based clustering
//	based on hierarchical density estimates. PAKDD 2013.
type Levels struct {
	// MinSize is the smallest cluster, in points; 0 selects
	// max(5, ⌈DefaultMinShare·N⌉). It must not be negative.
	MinSize int
	// RippleZ is the significance, in standard errors, a cluster needs to
	// stay apart from the one it meets; it applies to models trained with
	// an automatic C (Model.Choice.CAuto), whose f + 1 is a kernel density
	// estimate. 0 selects DefaultRippleZ, or DefaultProjectedRippleZ for
	// a model with a Subspace, and then, without a Subspace and in at most
	// two dimensions (bisectMaxDim), clusters are also cut where the level tree has no
	// significant split but a smoother estimate of their rows has a
	// significant valley (docs/defaults.md, "Cuts where the level tree has
	// no split"); any other value keeps the clusters as the ripple test
	// leaves them, and a negative one keeps every cluster of the
	// excess-of-mass selection. It must be finite.
	RippleZ float64
	// LevelPower is the power p of f + 1 on which the excess of mass is
	// measured with an automatic C; 0 selects DefaultLevelPower and 1
	// measures it on f itself. With a given C it is always measured on f.
	// It must be in (0, 1] or 0.
	LevelPower float64
	// LevelLinks keeps the level tree's grouping of the modes of f for a
	// model whose kernel works in a subspace of two or more dimensions
	// (svclust.Model.Subspace) with an automatic C, where by default the
	// modes are grouped by rank-based links: HDBSCAN's tree of the
	// mutual reachability distance on a stride sample of at most 2,000
	// rows, each mode taking the cluster most of its sampled rows have
	// (docs/high-dim.md); when that tree has fewer than two clusters,
	// the level tree's grouping stays.
	LevelLinks bool
	// Outliers labels as −1 the points whose outlier score is at least
	// OutlierThreshold (see [LevelTree.OutlierScores]). By default every
	// point gets a cluster.
	Outliers bool
	// OutlierThreshold is the outlier score at and above which a point is
	// an outlier; 0 selects DefaultOutlierThreshold. It must be in
	// (0, 1). It is stored with the partition whether or not Outliers is
	// set.
	OutlierThreshold float64
	// M is the number of points of the segment test; 0 selects DefaultM.
	// It must be in [2, MaxM].
	M int
	// Neighbors limits the segment test to each mode's Neighbors nearest
	// ones; 0 selects DefaultNeighbors, a negative value tests every pair.
	Neighbors int
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Labels do
	// not depend on it.
	Workers int
	// Progress, if not nil, is called as done of total points have been
	// scored. The calls are serialised and done does not decrease; the
	// segment tests between modes come after the last call. It must
	// return quickly.
	Progress func(done, total int)

	// anchored makes the trajectories of the support vectors stop at
	// anchors (see anchoredTrajectories): FitUpdate sets it.
	anchored bool
	// allSteps makes the ripple test's T every SGD step the model took
	// (Training.Steps) instead of those of its last run
	// (Stats.Iterations): FitUpdate sets it (see there).
	allSteps bool
}

// Rule returns RuleLevels.
func (c *Levels) Rule() Rule { return RuleLevels }

// Validate reports the first invalid field of c as a *svclust.ConfigError,
// or nil.
func (c *Levels) Validate() error {
	if err := validateCommon(c.M, c.Workers, c.OutlierThreshold); err != nil {
		return err
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

// LevelTree is the partition of [Levels]: a point x takes the cluster of
// its support vector, the one with the largest term of f(x), and with
// Outliers it is −1 when its outlier score is at least the threshold (in
// a tree read from a file of version 5 or older, which has no outlier
// scores: when f(x) is below the level at which that cluster is born, the
// rule of those files). It is made by Fit or [NewLevelTree], read-only afterwards and safe
// for concurrent use.
type LevelTree struct {
	model *svclust.Model
	data  LevelTreeData
	// terms indexes the support vectors, so that f is computed as the
	// model's Score computes it (nil when the index does not pay).
	terms *kernel.Terms
	// outlierSurface gives the outlier scores (OutlierScores,
	// OutlierThreshold).
	outlierSurface
}

// LevelTreeData is what a [LevelTree] stores. A model file holds it.
type LevelTreeData struct {
	// SVCluster holds the cluster of each support vector and Birth the
	// level of f at which each cluster is born; len(Birth) is the number
	// of clusters.
	SVCluster []int
	Birth     []float64
	// Outliers is the setting of Levels, and M the points of the segment
	// test the tree was built with.
	Outliers bool
	M        int
	// Outlier holds what the outlier scores need; nil for a tree read
	// from a model file of version 5 or older, which has no scores.
	Outlier *OutlierData
}

// NewLevelTree returns the LevelTree of the model m with the stored data
// t, validated: it returns an error for M < 2, no cluster or more
// clusters than support vectors, a cluster number outside
// [0, len(Birth)), a length of SVCluster other than m's support vectors,
// a birth level that is not finite, or invalid outlier data (see
// [OutlierData]: a mass in (0, 1) with two centres and positive spreads,
// or version 6's peak per cluster, ≥ 0 and finite; a fence > 0 and
// finite; a threshold in (0, 1)). The LevelTree takes t's slices over, which must not be
// modified afterwards.
func NewLevelTree(m *svclust.Model, t LevelTreeData) (*LevelTree, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := t.check(len(m.Alpha)); err != nil {
		return nil, err
	}
	if t.Outlier != nil {
		if err := t.Outlier.check(len(t.Birth), len(m.Alpha)); err != nil {
			return nil, err
		}
	}
	p := &LevelTree{model: m, data: t, terms: kernel.NewTermsOf(field(m))}
	p.setScorer()
	return p, nil
}

// setScorer makes the outlier surface of p's data.
func (p *LevelTree) setScorer() {
	p.set(p.model, p.terms, p.data.SVCluster, p.data.Outlier)
}

// PredictScores sets dst[i] and scores[i] to the cluster and the outlier
// score of row i of x (see [Partition]) in one pass of B kernel terms per
// row.
func (p *LevelTree) PredictScores(dst []int, scores []float64, x mat.Matrix, workers int) ([]int, []float64, error) {
	return p.predictScores(dst, scores, x, workers, p.data.Outliers, nil, func(o int32) int { return p.data.SVCluster[o] })
}

// Data returns what p stores. Its slices are p's own, shared: they must
// not be modified.
func (p *LevelTree) Data() LevelTreeData { return p.data }

// Model returns the phase-1 model p was found with.
func (p *LevelTree) Model() *svclust.Model { return p.model }

// Rule returns RuleLevels.
func (p *LevelTree) Rule() Rule { return RuleLevels }

// Clusters returns the number of clusters.
func (p *LevelTree) Clusters() int { return len(p.data.Birth) }

// Outliers reports whether Predict labels outliers −1.
func (p *LevelTree) Outliers() bool { return p.data.Outliers }

// Predict sets dst[i] to the cluster of row i of x by the rule of
// [LevelTree] and returns dst (see [Partition]): one pass of B kernel
// terms per row, as Score.
func (p *LevelTree) Predict(dst []int, x mat.Matrix, workers int) []int {
	dst = checkPredict(p.model, dst, x)
	if p.data.Outliers && p.scorer != nil {
		p.PredictScores(dst, nil, x, workers)
		return dst
	}
	x = kernelRows(p.model, x, workers)
	field(p.model).EachOwner(x, p.terms, parallel.Workers(workers), nil, func(i int, f float64, o int32) {
		dst[i] = p.label(f, o)
	})
	return dst
}

// label is the label of a point with f(x) = f whose support vector is
// owner, without outlier scores: the owner's cluster, or −1 with Outliers
// below the level at which that cluster is born (the rule of model files
// of version 5 and older).
func (p *LevelTree) label(f float64, owner int32) int {
	c := p.data.SVCluster[owner]
	if p.data.Outliers && f < p.data.Birth[c] {
		return -1
	}
	return c
}

// fit is Fit with the Levels rule.
func (cfg *Levels) fit(m *svclust.Model, data, r2 []float64, n, d int) (*Result, error) {
	if n > levelRows {
		return cfg.fitSampled(m, data, r2, n, d, levelSample), nil
	}
	minSize := cfg.MinSize
	if minSize == 0 {
		minSize = defaultMinSize(n)
	}
	mm := orDefault(cfg.M, DefaultM)
	lt := cfg.clusterLevels(m, data, n, d, minSize, mm, parallel.Workers(cfg.Workers))
	// The outlier scores: one more pass over the rows, now that the
	// clusters are known, for the fence and the scores.
	o, score := fitOutliers(m, lt.terms, data, r2, n, d, parallel.Workers(cfg.Workers), nil, nil)
	t := threshold(cfg.OutlierThreshold)
	o.Threshold = t
	p := &LevelTree{
		model: m, terms: lt.terms,
		data: LevelTreeData{SVCluster: lt.svCluster, Birth: lt.birth, Outliers: cfg.Outliers, M: mm, Outlier: o},
	}
	p.setScorer()
	labels := make([]int, n)
	for i, o := range lt.owner {
		labels[i] = lt.svCluster[o]
		if cfg.Outliers && score[i] >= t {
			labels[i] = -1
		}
	}
	return &Result{
		Partition: p,
		Labels:    labels, Clusters: lt.clusters, Equilibria: lt.modes,
		MinSize: minSize, Stability: lt.stability, Ripples: lt.ripples, RankLinks: lt.rankLinks,
		OutlierScores: score, OutlierFence: o.Fence, OutlierThreshold: t,
	}, nil
}

// defaultMinSize is the smallest cluster when Levels.MinSize is 0.
func defaultMinSize(n int) int {
	return max(5, int(math.Ceil(DefaultMinShare*float64(n))))
}

// levelTree is the outcome of the Levels rule on a data set.
type levelTree struct {
	svCluster []int     // the cluster of each support vector
	birth     []float64 // the level of f at which each cluster appears
	stability []float64 // each selected cluster's excess of mass
	clusters  int
	ripples   int  // clusters of the selection joined as ripples
	rankLinks bool // the modes were grouped by rankClusters
	modes     int
	fx        []float64 // f at each row; nil once the levels hold it
	owner     []int32   // each row's support vector (see kernel.Field.EachOwner)
	terms     *kernel.Terms
}

// modeEdge links modes i and j, connected at level h.
type modeEdge struct {
	h    float64
	i, j int
}

// dnode is a node of the single-linkage tree of the modes: leaves (l < 0)
// are modes, inner nodes join their children at level h.
type dnode struct {
	l, r int
	h    float64
}

// clusterLevels assigns the rows of data by the rule of [Levels]: every
// support vector follows its trajectory to a mode of f, modes are joined
// at the level their segment test reaches, clusters are chosen from that
// tree by excess of mass, ripples are joined (with an automatic C; see
// Levels.RippleZ), clusters are divided by the saddle test (automatic C,
// no subspace; see divide), and each row takes the cluster of its support vector
// (see kernel.Field.EachOwner). Whether C was automatic and the SGD's T
// are read from m.Choice and m.Stats, which the model file stores, so
// that a loaded model clusters again as it did when trained.
func (cfg *Levels) clusterLevels(m *svclust.Model, data []float64, n, d int, minSize, mm, w int) *levelTree {
	f := field(m)
	b := len(m.Alpha)
	eq := slices.Clone(f.SV)
	if cfg.anchored {
		anchoredTrajectories(f, eq, w)
	} else {
		trajectories(f, eq, nil, w, nil)
	}
	reps := assign.Distinct(eq, d, mergeTol*f.Scale())
	nm := len(reps) / d
	tree := assign.NewTree(reps, d)
	svMode := make([]int, b)
	for i := range b {
		svMode[i], _ = tree.Nearest(eq[i*d : i*d+d])
	}

	lt := &levelTree{fx: make([]float64, n), owner: make([]int32, n), modes: nm, terms: kernel.NewTermsOf(f)}
	f.EachOwner(mat.NewDense(n, d, data), lt.terms, w, progressOf(cfg.Progress, n), func(i int, fx float64, o int32) {
		lt.fx[i], lt.owner[i] = fx, o
	})
	// The levels of f at the rows of each mode, sorted, with prefix sums.
	// One allocation of exactly n levels, cut per mode after a count:
	// appending per mode would leave up to as much again in grown
	// slices' garbage (8 MB a million rows).
	count := make([]int, nm)
	for _, o := range lt.owner {
		count[svMode[o]]++
	}
	all := make([]float64, n)
	levels := make([][]float64, nm)
	for j, k := range count {
		levels[j], all = all[:0:k], all[k:]
	}
	for i, o := range lt.owner {
		j := svMode[o]
		levels[j] = append(levels[j], lt.fx[i])
	}
	// The lowest level: below every row and every link (see below).
	low := slices.Min(lt.fx)
	// No label reads f at a row again; the levels hold it now, so the
	// 8 bytes a row are freed before the prefix sums take as much (1M
	// moons fit: peak RSS 63,640 → 55,416 KiB).
	lt.fx = nil
	for _, lv := range levels {
		slices.Sort(lv)
	}
	// The excess of mass is measured on g(f) = (f + 1)^p (see
	// DefaultLevelPower), the ripples' significance on f: prefix sums of
	// g for the selection, then of f in the same slices (a million rows:
	// 8 MB, once).
	g, onF := levelPower(cfg, m.Choice.CAuto)
	prefix := prefixSums(levels, g)
	nb := orDefault(cfg.Neighbors, DefaultNeighbors)
	edges := modeEdges(f, lt.terms, reps, nm, d, nb, mm, w)
	// The lowest level: below every row and every link, so that the
	// components left apart join beneath everything else.
	if len(edges) > 0 {
		low = min(low, edges[len(edges)-1].h)
	}
	dn, root := linkage(edges, nm, low)
	// With an automatic C and no subspace the tree is condensed a second
	// time with the significance test (see divide).
	joining := cfg.RippleZ >= 0 && m.Choice.CAuto
	saddle := joining && m.Subspace == nil
	var z, sgd float64
	var peak []float64
	if joining {
		z = cfg.RippleZ
		switch {
		case z == 0 && m.Subspace != nil:
			z = DefaultProjectedRippleZ
		case z == 0:
			z = DefaultRippleZ
		}
		peak = make([]float64, nm)
		for i := range peak {
			peak[i] = f.Value(reps[i*d : i*d+d])
		}
		t := m.Stats.Iterations
		if cfg.allSteps && m.Training != nil {
			t = m.Training.Steps
		}
		if t > 0 {
			sgd = float64(n) / float64(t) // N/T: the SGD's sampling noise relative to the data's
		}
	}
	var prefixF [][]float64 // the prefix sums of f, for the saddle step
	var sigCluster []int
	var sigBirth, sigStab []float64
	if saddle {
		prefixF = prefix
		if !onF {
			prefixF = prefixSums(levels, identity)
		}
		sig := &significance{z: z, sgd: sgd, prefixF: prefixF, peak: peak}
		sigCluster, sigBirth, sigStab = condenseSig(dn, root, levels, prefix, g, minSize, low, sig).selectClusters(dn, nm)
		spread(sigCluster, edges, reps, d)
	}
	ct := condense(dn, root, levels, prefix, g, minSize, low)
	modeCluster, birth, stab := ct.selectClusters(dn, nm)
	spread(modeCluster, edges, reps, d)
	if joining && len(birth) > 1 {
		pf := prefixF
		if pf == nil {
			pf = prefix
			if !onF {
				prefixSumsTo(prefix, levels, identity) // the sums of f, in place of g's
			}
		}
		k := len(birth)
		modeCluster, birth, stab = joinRipples(modeCluster, edges, peak, levels, pf, birth, stab, z, sgd)
		lt.ripples = k - len(birth)
	}
	var rows [][]int // the rows of each mode, for the saddle test
	if saddle {
		rows = make([][]int, nm)
		for i, o := range lt.owner {
			j := svMode[o]
			rows[j] = append(rows[j], i)
		}
	}
	if saddle && len(sigBirth) > 1 {
		sigCluster, _, sigStab = joinRipples(sigCluster, edges, peak, levels, prefixF, sigBirth, sigStab, z, sgd)
		modeCluster, birth, stab = divide(modeCluster, sigCluster, birth, stab, sigStab, rows, data, reps, peak, d)
	}
	if saddle && cfg.RippleZ == 0 && d <= bisectMaxDim {
		// Clusters the level tree leaves whole are cut where a smoother
		// estimate has a significant valley (bisect); a RippleZ of one's
		// own keeps the clusters as the ripple test joins them.
		modeCluster, birth, stab = bisect(modeCluster, birth, stab, edges, rows, data, reps, d, minSize)
	}

	if cfg.rankLinks(m, d) {
		if mc, bi, st := rankClusters(data, n, d, lt.owner, svMode, nm, edges, reps, low, rankMinPts, w); mc != nil {
			modeCluster, birth, stab = mc, bi, st
			lt.ripples, lt.rankLinks = 0, true
		}
	}
	lt.svCluster = make([]int, b)
	for i := range b {
		lt.svCluster[i] = modeCluster[svMode[i]]
	}
	lt.birth, lt.stability, lt.clusters = birth, stab, len(birth)
	return lt
}
