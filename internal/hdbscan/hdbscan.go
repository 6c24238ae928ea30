// Package hdbscan holds the steps of exact HDBSCAN (Campello, Moulavi
// and Sander 2013; McInnes, Healy and Astels 2017) that package baseline's
// HDBSCAN and the rank-based links of package cluster share: core
// distances, the minimum spanning tree of the mutual reachability
// distance, the single-linkage tree, the condensed tree with its
// excess-of-mass selection, and noise given to the nearest clustered row.
// Rows are row-major slices of d values; every function costs O(n²·d)
// time and O(n) memory beyond its input and output.
package hdbscan

import (
	"math"
	"sort"

	"github.com/svclust/svclust/internal/eom"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/unionfind"
)

// Cluster runs exact HDBSCAN on the n = len(x)/d rows of x with core
// distance to the minPts-th nearest row (the row itself counted; minPts
// ≤ n) and minimum cluster size mcs ≥ 2, on workers ≥ 1 goroutines (the
// result does not depend on them). It returns the label of each row (−1
// for noise, clusters numbered by their lowest row) and the stability of
// each cluster; see baseline.HDBSCAN for the contract. n ≥ 2.
func Cluster(x []float64, d, minPts, mcs, workers int) ([]int, []float64) {
	n := len(x) / d
	core := coreDistances(x, d, minPts, workers)
	edges := primMST(x, d, core, workers)
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].dist < edges[j].dist })
	return condenseAndSelect(singleLinkage(edges, n), n, mcs)
}

// NoiseToNearest sets every label −1 of labels, those of the rows of x,
// to the label of the nearest clustered row (Euclidean, the lowest row on
// ties), in place, on workers goroutines; with no clustered row it does
// nothing.
func NoiseToNearest(labels []int, x []float64, d, workers int) {
	var clustered []int
	for i, l := range labels {
		if l >= 0 {
			clustered = append(clustered, i)
		}
	}
	if len(clustered) == 0 {
		return
	}
	out := make([]int, len(labels))
	parallel.For(len(labels), 64, max(workers, 1), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = labels[i]
			if labels[i] >= 0 {
				continue
			}
			xi := x[i*d : i*d+d]
			bestD, best := math.Inf(1), -1
			for _, j := range clustered {
				if v := kernel.SqDist(xi, x[j*d:j*d+d]); v < bestD {
					bestD, best = v, j
				}
			}
			out[i] = labels[best]
		}
	})
	copy(labels, out)
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
