package assign

import (
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// Merge groups the n = len(pts)/d points of pts greedily in index order:
// each point joins the first representative within distance tol of it
// (nearest first) or becomes a new representative. It returns the
// representatives, row-major, in order of creation. The cost is O(n·M·d)
// for M representatives.
func Merge(pts []float64, d int, tol float64) []float64 {
	tol2 := tol * tol
	var reps []float64
	for i := 0; i < len(pts)/d; i++ {
		p := pts[i*d : i*d+d]
		found := false
		for r := 0; r < len(reps)/d; r++ {
			if kernel.SqDist(p, reps[r*d:r*d+d]) <= tol2 {
				found = true
				break
			}
		}
		if !found {
			reps = append(reps, p...)
		}
	}
	return reps
}

// Link returns the cluster of each of the M = len(reps)/D equilibria and
// the number of clusters. Equilibria with valid[i] (f ≥ 0 there) are the
// vertices of a graph with an edge wherever the m-point segment test holds
// (Field.Segment); its connected components are the clusters, numbered in
// order of their lowest equilibrium. Each equilibrium that is not valid
// takes the cluster of the nearest valid one. If none is valid all
// equilibria form cluster 0. The M(M−1)/2 tests run on workers goroutines.
func Link(f *Field, reps []float64, valid []bool, m, workers int) ([]int, int) {
	d := f.D
	nrep := len(reps) / d
	// Union–find over equilibria.
	parent := make([]int, nrep)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// edges[i] lists j > i linked to i; each row is written by one worker.
	edges := make([][]int, nrep)
	parallel.For(nrep, 1, workers, func(_, i, _ int) {
		if !valid[i] {
			return
		}
		buf := make([]float64, d)
		for j := i + 1; j < nrep; j++ {
			if valid[j] && f.Segment(reps[i*d:i*d+d], reps[j*d:j*d+d], buf, m) {
				edges[i] = append(edges[i], j)
			}
		}
	})
	for i, es := range edges {
		for _, j := range es {
			ri, rj := find(i), find(j)
			if ri != rj {
				parent[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	cluster := make([]int, nrep)
	id := make(map[int]int)
	var validPts []float64
	var validIdx []int
	for i := 0; i < nrep; i++ {
		if !valid[i] {
			continue
		}
		r := find(i)
		c, ok := id[r]
		if !ok {
			c = len(id)
			id[r] = c
		}
		cluster[i] = c
		validPts = append(validPts, reps[i*d:i*d+d]...)
		validIdx = append(validIdx, i)
	}
	if len(validIdx) == 0 {
		return cluster, 1 // all zero
	}
	tree := NewTree(validPts, d)
	for i := 0; i < nrep; i++ {
		if !valid[i] {
			k, _ := tree.Nearest(reps[i*d : i*d+d])
			cluster[i] = cluster[validIdx[k]]
		}
	}
	return cluster, len(id)
}
