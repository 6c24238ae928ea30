package assign

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/unionfind"
)

// Distinct groups the n = len(pts)/d points of pts greedily in index order:
// each point within distance tol of an existing representative joins it, any
// other becomes a new representative. It returns the representatives,
// row-major, in order of creation; they are pairwise more than tol apart.
//
// While there are at most linearReps representatives each point is compared
// with all of them, O(M·d) per point. Beyond that they are hashed on a grid
// of cells of side tol over the first min(d, 3) coordinates: a point within
// tol of a representative lies in one of the 3^min(d,3) cells around its
// own, so only those are searched, O((3^min(d,3) + c)·d) per point where c
// is the number of representatives in the cells searched. Both searches
// answer the same question, whether any representative lies within tol, so
// the result does not depend on which one is used.
func Distinct(pts []float64, d int, tol float64) []float64 {
	tol2 := tol * tol
	var reps []float64
	var g *repGrid // nil while there are at most linearReps representatives
	for i := 0; i < len(pts)/d; i++ {
		p := pts[i*d : i*d+d]
		var found bool
		if g == nil {
			for r := 0; r < len(reps); r += d {
				if kernel.SqDist(p, reps[r:r+d]) <= tol2 {
					found = true
					break
				}
			}
		} else {
			found = g.near(p, reps, tol2)
		}
		if found {
			continue
		}
		reps = append(reps, p...)
		switch m := len(reps) / d; {
		case g != nil:
			g.add(reps, m-1)
		case m > linearReps:
			g = newRepGrid(d, tol)
			for r := 0; r < m; r++ {
				g.add(reps, r)
			}
		}
	}
	return reps
}

// linearReps is the number of representatives up to which Distinct compares a
// point with each of them rather than searching a grid. Measured with
// BenchmarkDistinct (250 000 points, d = 2 and 9), the linear scan is several
// times faster than the grid with 16 or 48 representatives, still faster
// with 80, and several times slower with 1000.
const linearReps = 64

// repGrid hashes Distinct's representatives, given by index into a row-major
// slice of dimension d, on cells of side a little above tol over the first
// k = min(d, gridDims) coordinates.
type repGrid struct {
	d, k  int
	side  float64 // tol with a margin for rounding in v/side: see cell
	cells map[[gridDims]int64][]int
}

func newRepGrid(d int, tol float64) *repGrid {
	return &repGrid{
		d:     d,
		k:     min(d, gridDims),
		side:  tol * (1 + 1e-6),
		cells: make(map[[gridDims]int64][]int),
	}
}

// key returns the cell of p.
func (g *repGrid) key(p []float64) [gridDims]int64 {
	var key [gridDims]int64
	for j := 0; j < g.k; j++ {
		key[j] = cell(p[j], g.side)
	}
	return key
}

// add hashes representative r of reps.
func (g *repGrid) add(reps []float64, r int) {
	key := g.key(reps[r*g.d : r*g.d+g.d])
	g.cells[key] = append(g.cells[key], r)
}

// near reports whether a representative of reps hashed in g lies within
// squared distance tol2 of p.
func (g *repGrid) near(p, reps []float64, tol2 float64) bool {
	d, k := g.d, g.k
	key := g.key(p)
	// Visit the 3^k neighbouring cells: offsets −1, 0, 1 per dimension.
	for c := 0; c < pow3[k]; c++ {
		nb := key
		for j, r := 0, c; j < k; j, r = j+1, r/3 {
			nb[j] += int64(r%3) - 1
		}
		for _, r := range g.cells[nb] {
			if kernel.SqDist(p, reps[r*d:r*d+d]) <= tol2 {
				return true
			}
		}
	}
	return false
}

// gridDims is the largest number of coordinates Distinct hashes on, and pow3
// the number of cells it searches for each.
const gridDims = 3

var pow3 = [gridDims + 1]int{1, 3, 9, 27}

// cell returns the grid cell of coordinate v for cells of the given side,
// clamped so that neighbouring cells do not overflow. Distinct uses a side a
// little above tol, so that two coordinates at most tol apart fall in
// neighbouring cells despite rounding in v/side (exact while |v|/side < 10⁹,
// far beyond any data range in units of the kernel width).
func cell(v, side float64) int64 {
	const lim = 1 << 60
	return int64(max(-lim, min(lim, math.Floor(v/side))))
}

// LinkUntil returns the cluster of each of the M = len(reps)/D equilibria
// and the number of clusters. Equilibria with valid[i] (f ≥ 0 there) are
// the vertices of a graph with an edge wherever the m-point segment test
// holds (Field.Segment); its connected components are the clusters,
// numbered in order of their lowest equilibrium. Each equilibrium that is
// not valid takes the cluster of the nearest valid one. If none is valid
// all equilibria form cluster 0. The segment tests run on workers
// goroutines.
//
// With k > 0 the segment test is applied only to plausible pairs: i and j
// are tested when j is among the k valid equilibria nearest to i
// (Euclidean, ties to the lower index) or i among those nearest to j. That
// is O(M·k) segment tests instead of O(M²); k ≤ 0, or k ≥ the number of
// valid equilibria less one, tests every pair. Choosing the pairs is not
// O(M·k), though: it sorts the distances from each valid equilibrium to
// all the others, O(M²·d + M² log M) time on one goroutine, and the
// workers still look up all M(M−1)/2 pairs in the chosen set before
// testing the few in it. A pruned graph can only have fewer edges, so its
// components refine those of the full test: they coincide unless a
// cluster is held together only by segments between equilibria that are
// not near neighbours.
//
// LinkUntil gives up when stop, called by the workers before each
// equilibrium's pairs and then every 64 pairs, returns true: it then
// returns ok = false and no clusters. A nil stop never stops. It lets a
// caller with a time budget bound the O(M²) full test; stop is not called
// while the pairs are chosen.
func LinkUntil(f *kernel.Field, reps []float64, valid []bool, m, k, workers int, stop func() bool) ([]int, int, bool) {
	d := f.D
	nrep := len(reps) / d
	parent := unionfind.New(nrep) // over equilibria
	find := parent.Find
	test := candidates(reps, d, valid, k)
	// edges[i] lists j > i linked to i; each row is written by one worker.
	edges := make([][]int, nrep)
	var stopped atomic.Bool
	parallel.For(nrep, 1, workers, func(_, i, _ int) {
		if !valid[i] || stopped.Load() {
			return
		}
		buf := make([]float64, d)
		for j := i + 1; j < nrep; j++ {
			if stop != nil && (j-i)%64 == 1 && stop() {
				stopped.Store(true)
				return
			}
			if valid[j] && test(i, j) && Segment(f, reps[i*d:i*d+d], reps[j*d:j*d+d], buf, m) {
				edges[i] = append(edges[i], j)
			}
		}
	})
	if stopped.Load() {
		return nil, 0, false
	}
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
		return cluster, 1, true // all zero
	}
	tree := NewTree(validPts, d)
	for i := 0; i < nrep; i++ {
		if !valid[i] {
			k, _ := tree.Nearest(reps[i*d : i*d+d])
			cluster[i] = cluster[validIdx[k]]
		}
	}
	return cluster, len(id), true
}

// candidates returns the pair filter of LinkUntil: test(i, j) reports
// whether j is among the k valid equilibria nearest to i or i among those
// nearest to j. For k ≤ 0 or k at least the number of valid equilibria less
// one, every pair is a candidate. It takes O(M²·d + M² log M) time on the
// calling goroutine, a full sort per equilibrium, and O(M·k) memory.
func candidates(reps []float64, d int, valid []bool, k int) func(i, j int) bool {
	var idx []int
	for i, ok := range valid {
		if ok {
			idx = append(idx, i)
		}
	}
	if k <= 0 || k >= len(idx)-1 {
		return func(int, int) bool { return true }
	}
	near := make(map[[2]int]bool, len(idx)*k)
	type cand struct {
		j  int
		dd float64
	}
	cs := make([]cand, 0, len(idx))
	for _, i := range idx {
		cs = cs[:0]
		for _, j := range idx {
			if j != i {
				cs = append(cs, cand{j, kernel.SqDist(reps[i*d:i*d+d], reps[j*d:j*d+d])})
			}
		}
		slices.SortFunc(cs, func(a, b cand) int {
			if c := cmp.Compare(a.dd, b.dd); c != 0 {
				return c
			}
			return a.j - b.j
		})
		for _, c := range cs[:k] {
			near[[2]int{min(i, c.j), max(i, c.j)}] = true
		}
	}
	return func(i, j int) bool { return near[[2]int{min(i, j), max(i, j)}] }
}
