// Package eom implements HDBSCAN's excess-of-mass selection of clusters
// from a condensed cluster tree, shared by the level tree of package
// cluster and the HDBSCAN of package baseline, which build their condensed
// trees differently (on the levels of f, on λ = 1/distance) but select
// from them alike.
//
//	R. J. G. B. Campello, D. Moulavi, J. Sander. Density-based clustering
//	based on hierarchical density estimates. PAKDD 2013, Section 3.3.
package eom

// Select returns which clusters of a condensed tree the excess-of-mass
// selection keeps: the set of largest total stability with none inside
// another. Cluster 0 is the root, never selected (a caller that keeps a
// root without children does so itself), and parent[c] < c is the parent
// of cluster c > 0; stability[c] is its excess of mass. A cluster without
// children is always a candidate; one with children is kept when its
// stability is at least the best total of its descendants (ties keep the
// parent), and then none of its descendants is. It panics if the lengths
// differ or a parent does not precede its child.
//
// The best total of a cluster's descendants is summed over its children
// from the last to the first; with two children, as in a binary tree, that
// is the same float64 in either order.
func Select(parent []int, stability []float64) []bool {
	k := len(parent)
	if len(stability) != k {
		panic("eom: lengths differ")
	}
	selected := make([]bool, k)
	hasChild := make([]bool, k)
	subtree := make([]float64, k) // best total stability within each cluster
	childSum := make([]float64, k)
	for c := k - 1; c >= 1; c-- {
		p := parent[c]
		if p < 0 || p >= c {
			panic("eom: a parent must precede its child")
		}
		hasChild[p] = true
		if hasChild[c] && childSum[c] > stability[c] {
			subtree[c] = childSum[c]
		} else {
			subtree[c] = stability[c]
			selected[c] = true
		}
		childSum[p] += subtree[c]
	}
	// A selected cluster's descendants are not, parents first.
	inside := make([]bool, k) // some ancestor is selected
	for c := 1; c < k; c++ {
		p := parent[c]
		inside[c] = inside[p] || (p > 0 && selected[p])
		if inside[c] {
			selected[c] = false
		}
	}
	return selected
}
