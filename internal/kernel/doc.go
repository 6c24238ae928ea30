// Package kernel implements the Gaussian kernel k(x, y) = exp(−γ‖x − y‖²)
// and the few loops built on it that dominate the cost of training and
// cluster assignment: squared distances, kernel rows, kernel expansions and
// the fixed-point (mean-shift) step of the paper's Section 4; and the
// decision function f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 as one value ([Field]), its
// pass over many rows with each row's largest term ([Field.EachOwner]:
// scores, and the owners the level tree and Predict read) and an index of
// the support vectors that sums only the terms that matter ([Terms]).
// Training, the automatic choice and cluster assignment all sum kernels
// here.
//
// Support vectors are passed as one flat row-major slice svs of length n·d,
// where d = len(x). Functions with a To suffix write into dst and return it;
// a nil dst is allocated. All functions panic if lengths do not agree.
package kernel
