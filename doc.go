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
// Phase 2 is package cluster: cluster.Fit reads clusters off a Model
// (the paper's Algorithm 3 is its Components rule; the default, Levels,
// reads them off the tree of levels of f) and returns a partition, a
// value that labels new points; package modelfile stores the Model with
// its partition. This package does not import them: [Model.Score] is the
// one pass of f they share with it.
//
// # Beyond the paper: the defaults
//
// The zero value of [Config] goes beyond the paper where measurements
// showed better clusters without labels (docs/defaults.md): [Choose] picks
// γ, C and the budget from the data.
//
// # Where the paper is silent or wrong
//
// The paper never gives ε; package cluster's default is a quantile of |f|
// over the data. The equilibria with f < 0, the merge
// tolerance of equilibria and the tie-break of the budget maintenance are not
// specified either; each choice is documented where it is made. The paper's
// purity and Davies–Bouldin definitions are discussed in package metrics.
package svclust
