// Package assign implements the cluster assignment of the paper's
// Section 4 (Algorithm 3) for a kernel expansion f(x) = Σᵢ αᵢ k(svᵢ, x) − 1
// (a kernel.Field):
// fixed-point trajectories to equilibrium points, the merging of equilibria
// that coincide, the m-point segment test that links equilibria into
// clusters, and exact nearest-neighbour search with a k-d tree.
//
// Points are flat row-major slices of dimension d, as in package kernel.
// Every function is deterministic: ties are broken by the lower index, so
// results do not depend on the number of workers.
package assign
