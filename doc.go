// Package svclust implements scalable support vector clustering with a
// budget, after
//
//	Tung Pham, Trung Le, Hang Dang. Scalable Support Vector Clustering Using
//	Budget. (the LaTeX source is ../shared/paper/scalable-svc-budget.tex)
//
// Clustering runs in two phases, and the API mirrors them.
//
// # Phase 1: the domain of novelty
//
// [Train] fits a large-margin one-class SVM (the paper's Section 2)
//
//	min_w J(w) = ½‖w‖² + (C/N) Σᵢ max(0, 1 − wᵀφ(xᵢ))
//
// with the Gaussian kernel k(x, y) = exp(−γ‖x − y‖²), by stochastic gradient
// descent with step size ηₜ = 1/t (Algorithm 1). With [Config.Budget] > 0 the
// number of support vectors is kept at most Budget by a [Maintainer]
// (Algorithm 2): [Removal], or [Projection] onto the k nearest or k random
// support vectors (Section 3.3), or, beyond the paper, [Merge] (BSGD-M,
// Wang, Crammer and Vucetic 2012). Training stops when ‖w_{t+1} − w_t‖ ≤ θ
// ([Config.Tol]), computed exactly in feature space and checked from step
// [Config.MinIter] on, or after [Config.MaxIter] steps. The result is a
// [Model] with decision function
//
//	f(x) = Σᵢ αᵢ k(svᵢ, x) − 1,
//
// whose region f ≥ 0 is the domain of novelty: its connected parts are the
// clusters, and points with f < 0 are outliers.
//
// # Phase 2: cluster assignment
//
// With the Components rule, cluster.Fit (package cluster) implements Algorithm 3: the
// points of the strip
// |f(x)| ≤ ε follow the fixed-point map
//
//	x ← Σᵢ αᵢ k(x, svᵢ) svᵢ / Σᵢ αᵢ k(x, svᵢ)
//
// to an equilibrium point; two equilibria share a cluster when f ≥ 0 at m
// equally spaced points of the segment between them; every point outside the
// strip takes the cluster of its nearest strip point. cluster.Fit returns the
// labels with a cluster.Partition, whose Partition.Predict applies the same
// rule to new points, and [Model.Score] returns f. Train's Model is never
// modified; a Partition, which refers to it, is what a model file holds.
//
// # Beyond the paper: the defaults
//
// The zero values of [Config] and cluster.Config go beyond the paper where
// measurements showed better clusters without labels (see the README):
// [Choose] picks γ, C and the budget from the data, and the cluster.LevelTree
// rule reads the clusters off the tree of levels of f, with HDBSCAN's
// excess-of-mass selection, instead of the single level f = 0; with an
// automatic C it measures those levels on (f + 1)^0.9
// (cluster.DefaultLevelPower) and then joins the clusters whose valley is within the noise
// of the density estimate (cluster.Config.RippleZ). Every point
// takes the cluster of its support vector, so Fit and Predict cost one
// pass of at most B kernel terms per point, as Score does.
//
// # Where the paper is silent or wrong
//
// The paper never gives ε; the default here is a quantile of |f| over the
// data (see cluster.Config.Eps). The equilibria with f < 0, the merge
// tolerance of equilibria and the tie-break of the budget maintenance are not
// specified either; each choice is documented where it is made. The paper's
// purity and Davies–Bouldin definitions are discussed in package metrics.
package svclust
