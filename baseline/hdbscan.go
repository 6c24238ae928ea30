package baseline

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/eom"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/unionfind"
)

// DefaultMinPts is the MinPts of [HDBSCAN] when HDBSCANConfig.MinPts is 0
// (the minPts of the anchors, the default min_cluster_size of the Python
// hdbscan package and of scikit-learn's HDBSCAN).
const DefaultMinPts = 5

// HDBSCANConfig holds the settings of [HDBSCAN]; a nil config or a zero
// field selects the documented default.
type HDBSCANConfig struct {
	// MinPts sets the core distance of a row: the Euclidean distance to
	// its MinPts-th nearest row, counting the row itself (as R's dbscan
	// and scikit-learn count), so MinPts = 1 gives core distance 0 and
	// plain single linkage. It must be ≥ 0; 0 selects DefaultMinPts. A
	// MinPts above the number of rows n is taken as n (the core distance
	// is then the distance to the farthest row).
	MinPts int
	// MinClusterSize is the least number of rows of a cluster in the
	// condensed tree. It must be 0 or ≥ 2; 0 selects max(MinPts, 2) with
	// MinPts after its default.
	MinClusterSize int
	// Workers is the number of goroutines of the distance loops; 0 means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
}

// HDBSCANResult is the result of [HDBSCAN].
type HDBSCANResult struct {
	// Labels holds the cluster 0 … Clusters−1 of each row, or −1 for
	// noise. Clusters are numbered in the order of their lowest row.
	Labels []int
	// Clusters is the number of clusters, noise not counted: 0 or ≥ 2.
	Clusters int
	// Stabilities holds the excess-of-mass stability of each cluster of
	// Labels, in λ = 1/distance (see HDBSCAN for distance 0).
	Stabilities []float64

	workers int
}

func validateHDBSCAN(cfg *HDBSCANConfig) error {
	switch {
	case cfg.MinPts < 0:
		return &svclust.ConfigError{Field: "MinPts", Value: cfg.MinPts, Reason: "must be ≥ 0 (0 selects the default)"}
	case cfg.MinClusterSize < 0 || cfg.MinClusterSize == 1:
		return &svclust.ConfigError{Field: "MinClusterSize", Value: cfg.MinClusterSize, Reason: "must be ≥ 2 (0 selects the default)"}
	case cfg.Workers < 0:
		return &svclust.ConfigError{Field: "Workers", Value: cfg.Workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return nil
}

// HDBSCAN clusters the n rows of x by exact HDBSCAN, the hierarchical
// density-based clustering of
//
//	R. J. G. B. Campello, D. Moulavi, J. Sander. Density-based clustering
//	based on hierarchical density estimates. PAKDD 2013,
//
// as described by L. McInnes, J. Healy, S. Astels, hdbscan: hierarchical
// density based clustering, JOSS 2(11) (2017), with the Euclidean
// distance and no option beyond MinPts and MinClusterSize. It is the
// reference users would run instead of svclust; the anchors of the
// project's benchmarks come from R's dbscan package (hdbscan, minPts 5).
//
// The steps: the core distance of every row (see HDBSCANConfig.MinPts);
// a minimum spanning tree of the mutual reachability distance
// max(core(a), core(b), ‖a − b‖) by Prim's algorithm from row 0, in
// O(n²·d) time and O(n) memory (no n×n matrix), taking the lowest index
// on ties; the single-linkage tree of its edges sorted by weight (ties in
// the order Prim added them); the condensed tree; the stabilities; and
// the excess-of-mass selection. The condensed tree, stabilities and
// selection follow R's dbscan package (1.1-11, computeStability and
// extractUnsupervised/fosc in src/R_buildHDBSCAN.cpp), with λ =
// 1/distance:
//
//   - Going down the single-linkage tree from the root (all rows), a
//     merge whose two parts both have at least MinClusterSize rows is the
//     death of its cluster, at λ of the merge, and the birth of two new
//     clusters there. Any other merge keeps its cluster for both parts:
//     a part smaller than MinClusterSize does not fall out as a whole
//     where it splits off but stays in the cluster, and each row leaves
//     the cluster at the merge that makes it a single row, at λ of that
//     merge, or at λ of the cluster's death if that is smaller (a part
//     still hanging on when its cluster splits leaves at the split).
//   - The stability of a cluster is Σ over the rows that leave it of
//     λ(row leaves) − λ(cluster born), plus, if it dies, its size at
//     death times λ(death) − λ(born).
//   - Excess of mass, bottom-up: a cluster is kept unless the summed
//     best stabilities of its children are strictly larger (R's fosc
//     keeps the parent on equality). The root, all the rows, is never
//     selected (R's hdbscan and the Python package's default
//     allow_single_cluster = false).
//
// So a result has at least two clusters or none: when no split leaves
// two parts of MinClusterSize rows (for instance when n < 2·MinClusterSize,
// or all rows are equal) every row is noise and Clusters is 0. A row
// belongs to the selected cluster it left or that is above the cluster it
// left (as R's getSalientAssignments); rows that left the root or a
// cluster above the selected ones are noise (−1); see
// [HDBSCANResult.NoiseToNearest]. With MinPts 5 and the anchors'
// preprocessing this reproduces the cluster counts of R's hdbscan on the
// 14 sets of the project's anchors that it runs.
//
// Distance 0: repeated rows (MinPts or more copies) can be joined at
// distance 0, where λ = 1/0 would be infinite. HDBSCAN takes λ at
// distance 0 as the largest finite λ of the tree, 1/(the smallest positive
// merge distance), or 1 if every merge is at distance 0, so stabilities
// stay finite; such copies then leave their cluster at that λ (or at the
// cluster's death, if that is smaller). R takes 1/0 = +Inf there, which
// makes such stabilities infinite. R's Prim's algorithm may also break
// ties between equal distances differently.
//
// It returns a *svclust.ConfigError for an invalid cfg, svclust.ErrNoData
// for empty x and svclust.ErrNotFinite for NaN or Inf.
func HDBSCAN(x mat.Matrix, cfg *HDBSCANConfig) (*HDBSCANResult, error) {
	data, d := rowsOf(x)
	if cfg == nil {
		cfg = &HDBSCANConfig{}
	}
	// The settings are checked before the data is reported.
	n, dataErr := checkData(data, d)
	if err := validateHDBSCAN(cfg); err != nil {
		return nil, err
	}
	if dataErr != nil {
		return nil, dataErr
	}
	minPts := cfg.MinPts
	if minPts == 0 {
		minPts = DefaultMinPts
	}
	mcs := cfg.MinClusterSize
	if mcs == 0 {
		mcs = max(minPts, 2)
	}
	w := numWorkers(cfg.Workers)
	res := &HDBSCANResult{Labels: make([]int, n), workers: w}
	for i := range res.Labels {
		res.Labels[i] = -1
	}
	if n < 2 {
		return res, nil
	}
	core := coreDistances(data, d, min(minPts, n), w)
	edges := primMST(data, d, core, w)
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].dist < edges[j].dist })
	res.Labels, res.Stabilities = condenseAndSelect(singleLinkage(edges, n), n, mcs)
	res.Clusters = len(res.Stabilities)
	return res, nil
}

// coreDistances returns the Euclidean distance of every row to its k-th
// nearest row, the row itself counted (k ≤ n).
func coreDistances(x []float64, d, k, workers int) []float64 {
	n := len(x) / d
	core := make([]float64, n)
	parallel.For(n, 16, workers, func(_, lo, hi int) {
		near := make([]float64, 0, k) // the k smallest squared distances, ascending
		for i := lo; i < hi; i++ {
			near = near[:0]
			xi := x[i*d : i*d+d]
			for j := 0; j < n; j++ {
				v := kernel.SqDist(xi, x[j*d:j*d+d])
				if len(near) == k {
					if v >= near[k-1] {
						continue
					}
					near = near[:k-1]
				}
				p := len(near)
				near = append(near, v)
				for p > 0 && near[p-1] > v {
					near[p] = near[p-1]
					p--
				}
				near[p] = v
			}
			core[i] = math.Sqrt(near[k-1])
		}
	})
	return core
}

// mstEdge is an edge of the minimum spanning tree.
type mstEdge struct {
	a, b int
	dist float64
}

// primMST returns the n−1 edges of a minimum spanning tree of the mutual
// reachability distance, in the order Prim's algorithm from row 0 adds
// them; ties go to the lowest row index (and the earliest tree row).
func primMST(x []float64, d int, core []float64, workers int) []mstEdge {
	n := len(core)
	const chunk = 512
	chunks := parallel.Chunks(n, chunk)
	inTree := make([]bool, n)
	best := make([]float64, n)
	from := make([]int, n)
	for i := range best {
		best[i] = math.Inf(1)
	}
	argmin := make([]int, chunks)
	edges := make([]mstEdge, 0, n-1)
	v := 0
	for len(edges) < n-1 {
		inTree[v] = true
		xv, cv := x[v*d:v*d+d], core[v]
		parallel.For(n, chunk, workers, func(c, lo, hi int) {
			m := -1
			for j := lo; j < hi; j++ {
				if inTree[j] {
					continue
				}
				r := max(cv, core[j], math.Sqrt(kernel.SqDist(xv, x[j*d:j*d+d])))
				if r < best[j] {
					best[j], from[j] = r, v
				}
				if m < 0 || best[j] < best[m] {
					m = j
				}
			}
			argmin[c] = m
		})
		next := -1
		for _, m := range argmin {
			if m >= 0 && (next < 0 || best[m] < best[next]) {
				next = m
			}
		}
		edges = append(edges, mstEdge{from[next], next, best[next]})
		v = next
	}
	return edges
}

// merge is a node of the single-linkage tree: nodes 0 … n−1 are the rows,
// node n+k is merge k of children a and b at distance dist.
type merge struct {
	a, b, size int
	dist       float64
}

// singleLinkage returns the n−1 merges of the single-linkage tree of the
// sorted MST edges.
func singleLinkage(edges []mstEdge, n int) []merge {
	parent := unionfind.New(2*n - 1) // over nodes, each root its top node
	find := parent.Find
	merges := make([]merge, 0, n-1)
	for _, e := range edges {
		ra, rb := find(e.a), find(e.b)
		node := n + len(merges)
		merges = append(merges, merge{ra, rb, nodeSize(merges, n, ra) + nodeSize(merges, n, rb), e.dist})
		parent[ra], parent[rb] = node, node
	}
	return merges
}

// nodeSize returns the rows under node of the single-linkage tree whose
// first merges are given: 1 for a row (node < n), else the merge's size.
func nodeSize(merges []merge, n, node int) int {
	if node < n {
		return 1
	}
	return merges[node-n].size
}

// condenseAndSelect builds the condensed tree of the single-linkage tree
// with minimum cluster size mcs, selects clusters by excess of mass
// without the root, and returns the labels of the rows (−1 for noise,
// clusters numbered by their lowest row) and the stabilities of the
// selected clusters.
func condenseAndSelect(merges []merge, n, mcs int) ([]int, []float64) {
	// λ at distance 0 is the largest finite λ of the tree.
	lamZero := 1.0
	for _, m := range merges {
		if m.dist > 0 {
			lamZero = 1 / m.dist
			break // merges are in ascending distance
		}
	}
	lambda := func(dist float64) float64 {
		if dist > 0 {
			return 1 / dist
		}
		return lamZero
	}
	// Condensed tree, built top-down over the merges (merge k is node
	// n+k, its children have lower indices): cluster 0 is the root and a
	// cluster's parent has a lower index. owner[k] is the cluster merge k
	// belongs to. A merge of two parts of at least mcs rows each is the
	// death of its cluster and the birth of two new ones; any other merge
	// passes its cluster on to its non-row children, so a part smaller
	// than mcs stays in the cluster and its rows leave one by one, each
	// at the merge that makes it a single row, at
	// min(λ of that merge, λ of the cluster's death) (R dbscan's
	// computeStability).
	owner := make([]int, n-1)
	cParent := []int{-1}
	birth := []float64{0}
	death := []float64{math.Inf(1)} // λ of the death; +Inf while a leaf
	stability := []float64{0}
	fellFrom := make([]int, n)
	for k := n - 2; k >= 0; k-- {
		m, c := merges[k], owner[k]
		lam := lambda(m.dist)
		if nodeSize(merges, n, m.a) >= mcs && nodeSize(merges, n, m.b) >= mcs { // both are merges: mcs ≥ 2
			death[c] = lam
			stability[c] += (lam - birth[c]) * float64(m.size)
			for _, child := range []int{m.a, m.b} {
				owner[child-n] = len(cParent)
				cParent = append(cParent, c)
				birth = append(birth, lam)
				death = append(death, math.Inf(1))
				stability = append(stability, 0)
			}
			continue
		}
		for _, child := range []int{m.a, m.b} {
			if child >= n {
				owner[child-n] = c
				continue
			}
			fellFrom[child] = c
			stability[c] += min(lam, death[c]) - birth[c]
		}
	}
	// Excess of mass (eom.Select, which the level tree of package
	// cluster shares); the root is not a candidate.
	k := len(cParent)
	selected := eom.Select(cParent, stability)
	// Each cluster takes the selected cluster above it (or itself),
	// parents first.
	top := make([]int, k)
	top[0] = -1
	for c := 1; c < k; c++ {
		top[c] = top[cParent[c]]
		if top[c] < 0 && selected[c] {
			top[c] = c
		}
	}
	labels := make([]int, n)
	number := make([]int, k) // each selected cluster's label, −1 until its lowest row
	for c := range number {
		number[c] = -1
	}
	var stab []float64
	for i := range labels {
		c := top[fellFrom[i]]
		if c < 0 {
			labels[i] = -1
			continue
		}
		if number[c] < 0 {
			number[c] = len(stab)
			stab = append(stab, stability[c])
		}
		labels[i] = number[c]
	}
	return labels, stab
}

// NoiseToNearest returns a copy of r.Labels in which every noise row takes
// the label of the nearest clustered row of x (Euclidean, the lowest row
// on ties), as the project's anchors treat HDBSCAN's noise; x must be the
// data r was computed from. If r has no cluster, every label stays −1. It
// panics if x does not have len(r.Labels) rows.
func (r *HDBSCANResult) NoiseToNearest(x mat.Matrix) []int {
	out := append([]int(nil), r.Labels...)
	if r.Clusters == 0 || len(out) == 0 {
		return out
	}
	data, d := rowsOf(x)
	if len(data) != len(out)*d {
		panic(badDim)
	}
	var clustered []int
	for i, l := range r.Labels {
		if l >= 0 {
			clustered = append(clustered, i)
		}
	}
	parallel.For(len(out), 64, max(r.workers, 1), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if r.Labels[i] >= 0 {
				continue
			}
			xi := data[i*d : i*d+d]
			bestD, best := math.Inf(1), -1
			for _, j := range clustered {
				if v := kernel.SqDist(xi, data[j*d:j*d+d]); v < bestD {
					bestD, best = v, j
				}
			}
			out[i] = r.Labels[best]
		}
	})
	return out
}
