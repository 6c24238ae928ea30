package metrics

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// DBCV returns the density-based clustering validation index of Moulavi,
// Jaskowiak, Campello, Zimek and Sander ("Density-Based Clustering
// Validation", SDM 2014) of the partition pred of the rows of x. Unlike
// Davies–Bouldin it does not assume round clusters: it compares the
// sparsest region inside each cluster with the densest region between
// clusters, both measured along paths of mutual reachability, so that two
// moons or two nested rings that are well apart score high. It lies in
// [−1, 1], higher is better.
//
// The definitions follow the paper. With n_C the size of cluster C and d
// the number of columns, the all-points core distance of a point x in C is
//
//	core(x) = ( Σ_{y ∈ C, y ≠ x} (1/‖x − y‖)^d / (n_C − 1) )^(−1/d),
//
// the mutual reachability distance is max(core(x), core(y), ‖x − y‖), the
// density sparseness DSC(C) is the largest edge of C's minimum spanning
// tree under it between two internal points (points of degree above 1 in
// that tree), and the density separation DSPC(C, C′) the smallest mutual
// reachability distance between internal points of C and C′. Then
//
//	V(C) = (min_{C′} DSPC(C, C′) − DSC(C)) / max(min_{C′} DSPC(C, C′), DSC(C))
//	DBCV = Σ_C (n_C / n) V(C),
//
// where n counts every row, outliers (negative labels) included, so that
// points left out of every cluster lower the index. Where the paper leaves
// a case open, DBCV does as the validity module of the hdbscan Python
// package does: a tree without internal points (at most two points) makes
// every point internal, and a tree without an edge between two internal
// points (a path of three) takes its largest edge as DSC. A cluster of one
// point has no density and counts as an outlier (V = 0), and a duplicate
// point (distance 0) has core distance 0. Mutual reachability distances tie
// often (every edge of a point to closer neighbours weighs its own core
// distance), so the tree is not unique: DBCV uses the one Prim's algorithm
// grows from the cluster's first row, and may change when rows are
// reordered.
//
// DBCV is −1 when fewer than two clusters remain, by the convention that a
// partition without separation is not valid. It costs O(n²·d) time and
// O(n) memory: evaluate it on a sample of a large data set.
// It panics if len(pred) is not the number of rows of x.
func DBCV(x mat.Matrix, pred []int) float64 {
	n, d := x.Dims()
	if len(pred) != n {
		panic("metrics: DBCV: labels and rows differ in length")
	}
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = mat.Row(nil, i, x)
	}
	between := func(i, j int) float64 { return dist(rows[i], rows[j]) }
	pair := func(i, j int) (float64, float64) {
		r := between(i, j)
		return r, math.Log(r)
	}
	return dbcv(n, d, pred, between, pair)
}

// DBCVRows holds what DBCV computes from the rows alone, whatever the
// partition: the distance of every pair of rows and its logarithm (for the
// core distances). Scoring several partitions of the same rows, as a grid
// search does at each point, then reads them instead of computing them
// again: O(n²) memory (16 bytes a pair), so only for a sample of a few
// thousand rows. It is read-only once made, so it may be used by several
// goroutines at once.
type DBCVRows struct {
	n, d int
	dist []float64 // pair i < j at i·(2n−i−1)/2 + j−i−1
	logs []float64 // math.Log of dist
}

// NewDBCVRows computes the pairwise distances of the rows of x for
// DBCVRows.DBCV.
func NewDBCVRows(x mat.Matrix) *DBCVRows {
	n, d := x.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = mat.Row(nil, i, x)
	}
	r := &DBCVRows{n: n, d: d, dist: make([]float64, n*(n-1)/2), logs: make([]float64, n*(n-1)/2)}
	k := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			v := dist(rows[i], rows[j])
			r.dist[k], r.logs[k] = v, math.Log(v)
			k++
		}
	}
	return r
}

// index returns the position of the pair i ≠ j in r.dist.
func (r *DBCVRows) index(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*(2*r.n-i-1)/2 + j - i - 1
}

// DBCV returns DBCV(x, pred) for the rows x that r was made from, bit for
// bit, without computing their distances again. It panics if len(pred) is
// not the number of rows.
func (r *DBCVRows) DBCV(pred []int) float64 {
	if len(pred) != r.n {
		panic("metrics: DBCV: labels and rows differ in length")
	}
	dist := func(i, j int) float64 { return r.dist[r.index(i, j)] }
	pair := func(i, j int) (float64, float64) {
		k := r.index(i, j)
		return r.dist[k], r.logs[k]
	}
	return dbcv(r.n, r.d, pred, dist, pair)
}

// dbcv is DBCV of the partition pred of n rows in d dimensions, with dist
// the distance of two distinct rows and pair that distance and its
// logarithm.
func dbcv(n, d int, pred []int, dist func(i, j int) float64, pair func(i, j int) (float64, float64)) float64 {
	// The members of each cluster, in label order.
	index := map[int]int{}
	var groups [][]int
	for i, l := range pred {
		if l < 0 {
			continue
		}
		g, ok := index[l]
		if !ok {
			g = len(groups)
			index[l] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	kept := groups[:0]
	for _, g := range groups {
		if len(g) >= 2 {
			kept = append(kept, g)
		}
	}
	groups = kept
	if len(groups) < 2 {
		return -1
	}

	core := make([]float64, n)
	logs := make([]float64, 0, n)
	for _, g := range groups {
		for _, i := range g {
			core[i] = coreDistance(i, g, d, pair, logs)
		}
	}
	mreach := func(i, j int) float64 {
		return math.Max(math.Max(core[i], core[j]), dist(i, j))
	}

	// The internal points and the sparseness of each cluster, from its
	// minimum spanning tree by Prim's algorithm on the complete graph.
	internal := make([][]int, len(groups))
	dsc := make([]float64, len(groups))
	for c, g := range groups {
		m := len(g)
		in := make([]bool, m)
		best := make([]float64, m)
		parent := make([]int, m)
		degree := make([]int, m)
		type edge struct {
			a, b int
			w    float64
		}
		edges := make([]edge, 0, m-1)
		for i := range best {
			best[i], parent[i] = math.Inf(1), -1
		}
		best[0] = 0
		for range m {
			u := -1
			for v := range m {
				if !in[v] && (u < 0 || best[v] < best[u]) {
					u = v
				}
			}
			in[u] = true
			if p := parent[u]; p >= 0 {
				edges = append(edges, edge{p, u, best[u]})
				degree[p]++
				degree[u]++
			}
			for v := range m {
				if !in[v] {
					if w := mreach(g[u], g[v]); w < best[v] {
						best[v], parent[v] = w, u
					}
				}
			}
		}
		for v := range m {
			if degree[v] > 1 {
				internal[c] = append(internal[c], g[v])
			}
		}
		isInternal := func(v int) bool { return degree[v] > 1 }
		if len(internal[c]) == 0 {
			internal[c] = g
			isInternal = func(int) bool { return true }
		}
		inner := false
		for _, e := range edges {
			if isInternal(e.a) && isInternal(e.b) {
				dsc[c] = math.Max(dsc[c], e.w)
				inner = true
			}
		}
		if !inner {
			for _, e := range edges {
				dsc[c] = math.Max(dsc[c], e.w)
			}
		}
	}

	var total float64
	for c, g := range groups {
		sep := math.Inf(1)
		for c2 := range groups {
			if c2 == c {
				continue
			}
			for _, i := range internal[c] {
				for _, j := range internal[c2] {
					sep = math.Min(sep, mreach(i, j))
				}
			}
		}
		v := 0.0
		if den := math.Max(sep, dsc[c]); den > 0 {
			v = (sep - dsc[c]) / den
		}
		total += float64(len(g)) / float64(n) * v
	}
	return total
}

// coreDistance returns the all-points core distance of row i within the
// cluster g of rows in d dimensions (see DBCV), computed in logarithms so
// that the d-th powers neither overflow nor underflow; pair returns the
// distance of two rows and its logarithm. logs is scratch space.
func coreDistance(i int, g []int, d int, pair func(i, j int) (float64, float64), logs []float64) float64 {
	logs = logs[:0]
	top := math.Inf(-1)
	for _, j := range g {
		if j == i {
			continue
		}
		r, logR := pair(i, j)
		if r == 0 {
			return 0 // (1/r)^d is infinite: the mean is, and the core distance 0
		}
		v := -float64(d) * logR
		logs = append(logs, v)
		top = math.Max(top, v)
	}
	var s float64
	for _, v := range logs {
		s += math.Exp(v - top)
	}
	logMean := top + math.Log(s/float64(len(logs)))
	return math.Exp(-logMean / float64(d))
}
