package assign

import (
	"math"
	"slices"

	"github.com/svclust/svclust/internal/kernel"
)

// leafSize is the largest number of points a k-d tree leaf holds; small
// leaves cost more nodes, large ones more distance computations.
const leafSize = 8

// Tree is a k-d tree over a fixed set of points for exact nearest-neighbour
// queries. It is safe for concurrent queries.
type Tree struct {
	pts   []float64
	d     int
	idx   []int32 // permutation of point indices; nodes own ranges of it
	nodes []node
}

// node is a cell of the tree. Its left child, if any, is the next node;
// the indices are 32-bit to keep the tree small next to the points.
type node struct {
	split  float64
	lo, hi int32 // range of idx
	dim    int32 // split dimension, −1 for a leaf
	right  int32 // right child node
}

// NewTree builds a k-d tree over the n = len(pts)/d points of pts, which it
// keeps (not copies). It panics if len(pts) is not a multiple of d or n is
// 2³¹ or more.
func NewTree(pts []float64, d int) *Tree {
	if d < 1 || len(pts)%d != 0 || len(pts)/d > math.MaxInt32 {
		panic("assign: bad point set")
	}
	n := len(pts) / d
	t := &Tree{pts: pts, d: d, idx: make([]int32, n)}
	for i := range t.idx {
		t.idx[i] = int32(i)
	}
	if n > 0 {
		t.build(0, n)
	}
	return t
}

// Point returns point i of the tree's set, which the caller must not modify.
func (t *Tree) Point(i int) []float64 { return t.pts[i*t.d : i*t.d+t.d] }

func (t *Tree) build(lo, hi int) int32 {
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{lo: int32(lo), hi: int32(hi), dim: -1})
	if hi-lo <= leafSize {
		return id
	}
	// Split the widest dimension at the median.
	dim, split, ok := kernel.MedianSplit(t.pts, t.d, t.idx[lo:hi])
	if !ok {
		// All points are equal: only the lowest index can be nearest
		// (ties go to it), so the leaf keeps just that one. Data with many
		// repeated rows (Shuttle) would otherwise scan them all per query.
		first := slices.Min(t.idx[lo:hi])
		k := slices.Index(t.idx[lo:hi], first)
		t.idx[lo], t.idx[lo+k] = t.idx[lo+k], t.idx[lo]
		t.nodes[id].hi = int32(lo + 1)
		return id
	}
	mid := lo + (hi-lo)/2
	t.build(lo, mid) // the left child is node id+1
	right := t.build(mid, hi)
	t.nodes[id].dim, t.nodes[id].split, t.nodes[id].right = int32(dim), split, right
	return id
}

// Nearest returns the index of the point nearest to q in Euclidean
// distance, and the squared distance; among equally near points the lowest
// index. It returns −1 for an empty tree.
//
// The search keeps, for the cell being visited, the offset of q from the
// cell along every split dimension so far, and so the exact squared
// distance from q to the cell's box as far as the splits define it (Arya
// and Mount's incremental distance); a cell farther than the best point
// found is skipped. In high dimension this prunes far more than the
// distance to the last split plane alone.
func (t *Tree) Nearest(q []float64) (int, float64) {
	if len(t.idx) == 0 {
		return -1, 0
	}
	var buf [32]float64
	s := search{t: t, q: q, best: -1}
	if t.d <= len(buf) {
		s.off = buf[:t.d]
	} else {
		s.off = make([]float64, t.d)
	}
	s.visit(0, 0)
	return s.best, s.bestD
}

// search is the state of one Nearest query.
type search struct {
	t     *Tree
	q     []float64
	off   []float64 // offset of q from the current cell, per dimension
	best  int
	bestD float64
}

// visit searches node id, whose cell is at squared distance rd from q.
func (s *search) visit(id int32, rd float64) {
	t := s.t
	nd := &t.nodes[id]
	if nd.dim < 0 {
		for _, i32 := range t.idx[nd.lo:nd.hi] {
			i := int(i32)
			if s.best < 0 {
				s.best, s.bestD = i, kernel.SqDist(s.q, t.pts[i*t.d:i*t.d+t.d])
				continue
			}
			dd, ok := sqDistWithin(s.q, t.pts[i*t.d:i*t.d+t.d], s.bestD)
			if ok && (dd < s.bestD || i < s.best) {
				s.best, s.bestD = i, dd
			}
		}
		return
	}
	diff := s.q[nd.dim] - nd.split
	near, far := id+1, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	s.visit(near, rd)
	old := s.off[nd.dim]
	farD := rd - old*old + diff*diff
	// Visit the far cell on equality too, for the tie-break.
	if farD <= s.bestD {
		s.off[nd.dim] = diff
		s.visit(far, farD)
		s.off[nd.dim] = old
	}
}

// sqDistWithin returns ‖x − y‖² and true if it is at most limit; otherwise
// it may stop summing early and returns false. In high dimension most
// candidates of a nearest-neighbour search are rejected after a few terms.
func sqDistWithin(x, y []float64, limit float64) (float64, bool) {
	y = y[:len(x)]
	var s float64
	for i, v := range x {
		t := v - y[i]
		s += t * t
		if s > limit {
			return s, false
		}
	}
	return s, true
}
