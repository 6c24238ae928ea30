// Package unionfind is the disjoint-set forest shared by the clusterings
// of the module: the level tree's linkage and spreading, Algorithm 3's
// components and the single-linkage tree of baseline's HDBSCAN.
package unionfind

// Forest is a disjoint-set forest over 0 … len−1: Forest[i] is the parent
// of i, a root its own parent. Callers join two roots ra and rb by setting
// Forest[rb] = ra (or both to a new node, when the forest has room for
// the nodes of a tree).
type Forest []int

// New returns a forest of n singletons.
func New(n int) Forest {
	u := make(Forest, n)
	for i := range u {
		u[i] = i
	}
	return u
}

// Find returns the root of i, halving the path to it on the way.
func (u Forest) Find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}
