package svclust

import (
	"fmt"
	"math"
)

// Pick selects the support vectors a [Projection] projects onto.
type Pick int

const (
	// Nearest picks the K support vectors nearest in input space (the
	// paper's kNN, variant BSGD-PNN).
	Nearest Pick = iota
	// Random picks K support vectors uniformly at random, from the training
	// seed (the paper's kRD, variant BSGD-PRN).
	Random
)

// projectionJitter is added to the diagonal of the K×K Gram matrix before
// its Cholesky factorisation. Gaussian Gram matrices of nearby points are
// nearly singular; 1e-10 relative to the unit diagonal keeps the factor
// finite while changing the projection by far less than the stopping
// threshold. If the factorisation still fails the jitter grows tenfold, at
// most to 1e-2.
const projectionJitter = 1e-10

// Projection is the paper's projection strategy (Section 3.3.2): the most
// redundant support vector φ(x_p) is replaced by its orthogonal projection
// onto the span of K other support vectors in feature space,
//
//	w ← w − α_p φ(x_p) + α_p Σⱼ dⱼ φ(xⱼ),  with  K_S d = k_p,
//
// where K_S is the Gram matrix of the chosen support vectors and k_p their
// kernel values with x_p. The zero value projects onto the DefaultK = 5
// nearest. A Projection holds no state and is safe for concurrent use.
type Projection struct {
	// K is the number of support vectors projected onto; 0 selects DefaultK.
	// When fewer than K others exist, all of them are used.
	K int
	// Pick chooses them: Nearest (the default) or Random.
	Pick Pick
}

var _ Maintainer = Projection{}

// checkBudget reports an invalid K as a *ConfigError: K must not be
// negative, and an explicit K must not exceed the budget (the default K is
// simply capped by the number of other support vectors).
func (p Projection) checkBudget(budget int) error {
	if p.K < 0 {
		return &ConfigError{"Maintainer.K", p.K, "must be ≥ 1 (0 selects the default)"}
	}
	if budget > 0 && p.K > budget {
		return &ConfigError{"Maintainer.K", p.K, fmt.Sprintf("must not exceed the budget %d", budget)}
	}
	return nil
}

func (p Projection) k() int {
	if p.K == 0 {
		return DefaultK
	}
	return p.K
}

// Maintain projects the smallest support vector onto K others and removes it.
func (p Projection) Maintain(s *SupportSet) {
	q := s.Smallest()
	k := min(p.k(), s.Len()-1)
	if k <= 0 {
		s.Remove(q)
		return
	}
	var idx []int
	switch p.Pick {
	case Random:
		idx = s.idx[:0]
		for i := 0; i < s.Len(); i++ {
			if i != q {
				idx = append(idx, i)
			}
		}
		// Partial Fisher–Yates: the first k entries become a uniform sample.
		rng := s.Rand()
		for i := 0; i < k; i++ {
			j := i + rng.IntN(len(idx)-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
	default:
		idx = nearest(s, q, k)
	}
	s.idx = idx[:0]
	idx = idx[:k]

	buf := s.scratch(2*k*k + k)
	g, orig, d := buf[:k*k], buf[k*k:2*k*k], buf[2*k*k:]
	for i, a := range idx {
		d[i] = s.Kernel(q, a)
		for j, b := range idx[:i+1] {
			g[i*k+j] = s.Kernel(a, b)
		}
	}
	if solveSPD(g, d, orig, k) {
		ap := s.Coef(q)
		for i, a := range idx {
			s.AddCoef(a, ap*d[i])
		}
	}
	s.Remove(q)
}

// solveSPD solves G x = b in place (x overwrites b) for the symmetric
// positive semi-definite k×k matrix G, of which only the lower triangle is
// read, by Cholesky factorisation with the diagonal jitter described at
// projectionJitter. g is overwritten and orig, of the same length, is
// scratch space. It reports false, leaving b unspecified, if no jitter up to
// 1e-2 makes G positive definite.
func solveSPD(g, b, orig []float64, k int) bool {
	copy(orig, g)
	for jitter := projectionJitter; jitter <= 1e-2; jitter *= 10 {
		copy(g, orig)
		if cholesky(g, k, jitter) {
			// Forward then back substitution with L and Lᵀ.
			for i := 0; i < k; i++ {
				v := b[i]
				for j := 0; j < i; j++ {
					v -= g[i*k+j] * b[j]
				}
				b[i] = v / g[i*k+i]
			}
			for i := k - 1; i >= 0; i-- {
				v := b[i]
				for j := i + 1; j < k; j++ {
					v -= g[j*k+i] * b[j]
				}
				b[i] = v / g[i*k+i]
			}
			return true
		}
	}
	return false
}

// nearest returns the k support vectors other than q nearest to it in input
// space, nearest first, ties to the lower slot, in s's scratch space. It
// costs O(Len·k), where sorting all support vectors would cost O(Len·log Len).
func nearest(s *SupportSet, q, k int) []int {
	idx := s.idx[:0]
	dist := s.scratch(k)[:0] // the distances of idx, each computed once
	for i := 0; i < s.Len(); i++ {
		if i == q {
			continue
		}
		di := s.SqDist(q, i)
		if len(idx) == k && di >= dist[k-1] {
			continue // slots ascend, so an equal distance loses the tie
		}
		if len(idx) < k {
			idx = append(idx, i)
			dist = append(dist, di)
		}
		// Insert i, shifting farther entries right.
		j := len(idx) - 1
		for ; j > 0 && dist[j-1] > di; j-- {
			idx[j], dist[j] = idx[j-1], dist[j-1]
		}
		idx[j], dist[j] = i, di
	}
	return idx
}

// cholesky overwrites the lower triangle of g + jitter·I with its Cholesky
// factor L and reports whether the matrix was positive definite.
func cholesky(g []float64, k int, jitter float64) bool {
	for j := 0; j < k; j++ {
		v := g[j*k+j] + jitter
		for m := 0; m < j; m++ {
			v -= g[j*k+m] * g[j*k+m]
		}
		if !(v > 0) {
			return false
		}
		ljj := math.Sqrt(v)
		g[j*k+j] = ljj
		for i := j + 1; i < k; i++ {
			v := g[i*k+j]
			for m := 0; m < j; m++ {
				v -= g[i*k+m] * g[j*k+m]
			}
			g[i*k+j] = v / ljj
		}
	}
	return true
}
