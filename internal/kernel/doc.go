// Package kernel implements the Gaussian kernel k(x, y) = exp(−γ‖x − y‖²)
// and the few loops built on it that dominate the cost of training and
// cluster assignment: squared distances, kernel rows, kernel expansions and
// the fixed-point (mean-shift) step of the paper's Section 4.
//
// Support vectors are passed as one flat row-major slice svs of length n·d,
// where d = len(x). Functions with a To suffix write into dst and return it;
// a nil dst is allocated. All functions panic if lengths do not agree.
package kernel
