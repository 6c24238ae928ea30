package baseline

import (
	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/hdbscan"
	"github.com/svclust/svclust/internal/parallel"
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
	w := parallel.Workers(cfg.Workers)
	res := &HDBSCANResult{Labels: make([]int, n), workers: w}
	for i := range res.Labels {
		res.Labels[i] = -1
	}
	if n < 2 {
		return res, nil
	}
	res.Labels, res.Stabilities = hdbscan.Cluster(data, d, min(minPts, n), mcs, w)
	res.Clusters = len(res.Stabilities)
	return res, nil
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
	hdbscan.NoiseToNearest(out, data, d, r.workers)
	return out
}
