package baseline

import (
	"math"
	"time"
)

// tau replaces a non-positive curvature aᵢⱼ = Kᵢᵢ + Kⱼⱼ − 2Kᵢⱼ (two
// identical points), LIBSVM's TAU.
const tau = 1e-12

// budgetEvery is the number of SMO steps between two looks at the clock.
const budgetEvery = 256

// smo minimises ½βᵀKβ subject to Σβᵢ = 1, 0 ≤ βᵢ ≤ c, for a Gaussian
// kernel (Kᵢᵢ = 1), keeping the gradient g = Kβ. The KKT conditions of
// the problem are, for some ρ,
//
//	βₜ = 0 ⇒ gₜ ≥ ρ,  0 < βₜ < c ⇒ gₜ = ρ,  βₜ = c ⇒ gₜ ≤ ρ,
//
// so the violation is max{gₜ : βₜ > 0} − min{gₜ : βₜ < c}, and ρ is the
// level of Σβₖk(xₖ, ·) at the sphere.
type smo struct {
	n      int
	c, tol float64
	cache  *rowCache
	budget time.Duration
	start  time.Time

	beta, g []float64
	iter    int
	gap     float64 // last measured violation, in units of g
}

// solve runs SMO from a feasible start until the violation is at most tol
// or maxIter steps were taken. It returns ErrExceeded when the budget runs
// out.
func (s *smo) solve(maxIter int) error {
	n, c := s.n, s.c
	s.beta = make([]float64, n)
	s.g = make([]float64, n)
	// Start as LIBSVM's one-class solver does: the first ⌊1/c⌋ coefficients
	// at the bound and the remainder on the next one.
	full := min(n, int(math.Floor(1/c)))
	for i := 0; i < full; i++ {
		s.beta[i] = c
	}
	if rest := 1 - float64(full)*c; rest > 0 && full < n {
		s.beta[full] = rest
	} else if rest < 0 {
		s.beta[full-1] = 1 - float64(full-1)*c
	}
	for i, b := range s.beta {
		if b > 0 {
			for t, k := range s.cache.get(i) {
				s.g[t] += b * k
			}
		}
	}

	for ; ; s.iter++ {
		if s.budget > 0 && s.iter%budgetEvery == 0 && time.Since(s.start) > s.budget {
			return ErrExceeded
		}
		// i: the coefficient that may grow with the smallest gradient
		// (the maximal violator of Fan et al.'s WSS 2 for y = +1).
		i, gmin := -1, math.Inf(1)
		for t, b := range s.beta {
			if b < c && s.g[t] < gmin {
				i, gmin = t, s.g[t]
			}
		}
		if i < 0 {
			s.gap = 0 // every βₜ = c = 1/n: the only feasible point
			return nil
		}
		ki := s.cache.get(i)
		// j: among the coefficients that may shrink and violate with i,
		// the one whose pair promises the largest decrease b²/a of the
		// objective (second-order selection); ties go to the lower index.
		j, best, gmax := -1, 0.0, math.Inf(-1)
		for t, b := range s.beta {
			if b <= 0 {
				continue
			}
			gmax = max(gmax, s.g[t])
			if diff := s.g[t] - gmin; diff > 0 {
				a := 2 - 2*ki[t]
				if a <= 0 {
					a = tau
				}
				if o := -diff * diff / a; o < best {
					j, best = t, o
				}
			}
		}
		s.gap = gmax - gmin
		if s.gap <= s.tol || j < 0 || s.iter >= maxIter {
			return nil
		}
		kj := s.cache.get(j) // ki stays valid: it is the most recent row
		a := 2 - 2*ki[j]
		if a <= 0 {
			a = tau
		}
		// Newton step along e_i − e_j, clipped to the box.
		delta := (s.g[j] - s.g[i]) / a
		delta = min(delta, c-s.beta[i], s.beta[j])
		if delta == c-s.beta[i] {
			s.beta[i] = c
		} else {
			s.beta[i] = min(s.beta[i]+delta, c)
		}
		if delta == s.beta[j] {
			s.beta[j] = 0
		} else {
			s.beta[j] = max(s.beta[j]-delta, 0)
		}
		for t := range s.g {
			s.g[t] += delta * (ki[t] - kj[t])
		}
	}
}

// rho returns the level ρ of the KKT conditions: the mean gradient over
// the free coefficients, or, without any, the middle of the interval
// [max{gₜ : βₜ = c}, min{gₜ : βₜ = 0}] that the conditions allow (LIBSVM's
// calculate_rho).
func (s *smo) rho() float64 {
	var sum float64
	var free int
	lb, ub := math.Inf(-1), math.Inf(1)
	for t, b := range s.beta {
		switch {
		case b == 0:
			ub = min(ub, s.g[t])
		case b == s.c:
			lb = max(lb, s.g[t])
		default:
			sum += s.g[t]
			free++
		}
	}
	switch {
	case free > 0:
		return sum / float64(free)
	case math.IsInf(lb, 0):
		return ub
	case math.IsInf(ub, 0):
		return lb
	}
	return (lb + ub) / 2
}
