package svclust

import (
	"math"
	"math/rand/v2"

	"github.com/svclust/svclust/internal/kernel"
)

// SupportSet is the model under training as a [Maintainer] sees it:
// w = c·Σᵢ aᵢ φ(svᵢ) for a positive factor c common to all support vectors,
// so strategies that are invariant to scaling w (as the paper's are) can
// work on the coefficients aᵢ directly. Indices run from 0 to Len()−1 and
// stay valid until Maintain returns: removals take effect afterwards.
type SupportSet struct {
	d     int
	gamma float64
	x     []float64 // support vectors, row-major, slot i at x[i*d:]
	a     []float64 // unscaled coefficients
	id    []int     // data index of each slot
	stamp []int     // step at which each slot entered, for tie-breaking
	now   int       // the current step, the stamp of the vectors Add enters
	rng   *rand.Rand

	// Kernel values k(svᵢ, svⱼ) between slots, stride cap; kept only with
	// a budget, the only case in which a Maintainer sees the support set
	// and the stopping rule reads kernel values between slots. The cache
	// starts small and grows with the support set up to limit slots, so
	// that its memory follows the support set, not the budget. Each value
	// is kernel.OfSqDist(SqDist(i, j), γ) to the bit: a step evaluates the
	// exponentials of its new support vectors only, not those of every row
	// Merge and the stopping rule read.
	k          []float64
	cap, limit int

	// Changes made during the current step: every slot whose coefficient
	// changed, with its coefficient at the start of the step, and the slots
	// to remove.
	touched []int
	before  []float64
	removed []int

	// Scratch space of the package's own strategies, reused across calls.
	idx    []int
	buf    []float64
	powers [][2*mergeBoundPieces + 2]float64 // Merge's bound powers
}

// scratch returns s.buf resized to n values, keeping its capacity.
func (s *SupportSet) scratch(n int) []float64 {
	if cap(s.buf) < n {
		s.buf = make([]float64, n)
	}
	return s.buf[:n]
}

// Len returns the number of support vectors.
func (s *SupportSet) Len() int { return len(s.a) }

// Dim returns the dimension of the support vectors.
func (s *SupportSet) Dim() int { return s.d }

// Gamma returns the kernel width γ.
func (s *SupportSet) Gamma() float64 { return s.gamma }

// Vector returns support vector i. The caller must not modify it.
func (s *SupportSet) Vector(i int) []float64 { return s.x[i*s.d : i*s.d+s.d] }

// Coef returns the coefficient of support vector i, up to the common
// positive factor.
func (s *SupportSet) Coef(i int) float64 { return s.a[i] }

// SqDist returns ‖svᵢ − svⱼ‖². It costs O(Dim): the support set caches
// kernel values, not distances. (The squared differences do not depend on
// the order of i and j, so SqDist(i, j) = SqDist(j, i) to the bit.)
func (s *SupportSet) SqDist(i, j int) float64 {
	return kernel.SqDist(s.Vector(i), s.Vector(j))
}

// Kernel returns k(svᵢ, svⱼ) = exp(−γ‖svᵢ − svⱼ‖²), from the kernel cache.
func (s *SupportSet) Kernel(i, j int) float64 { return s.k[i*s.cap+j] }

// kernelRow returns k(svᵢ, svⱼ) for j = 0 … Len()−1, equal to Kernel(i, j):
// row i of the kernel cache. The caller must not modify it.
func (s *SupportSet) kernelRow(i int) []float64 { return s.k[i*s.cap : i*s.cap+s.Len()] }

// Rand returns the seeded source of training, for strategies that choose at
// random.
func (s *SupportSet) Rand() *rand.Rand { return s.rng }

// Smallest returns the most redundant support vector of the paper's
// Section 3.3, p = argminᵢ |αᵢ| k(xᵢ, xᵢ), among those not already removed.
// k(x, x) = 1 for the Gaussian kernel. Ties, which are common because every
// SGD update adds the same amount, go to the support vector that entered
// first, so that the support set keeps being renewed; the paper does not say.
func (s *SupportSet) Smallest() int {
	if len(s.removed) == 0 && len(s.a) > 0 {
		// The same choice without the test for removal, as Merge calls
		// it: before it removes anything.
		best, bv := 0, math.Abs(s.a[0])
		for i, ai := range s.a[1:] {
			if v := math.Abs(ai); v < bv || (v == bv && s.stamp[i+1] < s.stamp[best]) {
				best, bv = i+1, v
			}
		}
		return best
	}
	best := -1
	for i, ai := range s.a {
		if s.isRemoved(i) {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		v, bv := math.Abs(ai), math.Abs(s.a[best])
		if v < bv || (v == bv && s.stamp[i] < s.stamp[best]) {
			best = i
		}
	}
	return best
}

// AddCoef adds delta to the coefficient of support vector i.
func (s *SupportSet) AddCoef(i int, delta float64) {
	s.touch(i)
	s.a[i] += delta
}

// Add appends z, a new support vector that is not a training point, with
// coefficient coef, and returns its index. It is for strategies that
// replace support vectors by new points, as [Merge] does. The support set
// has room for one vector more than it holds when Maintain is called, so a
// strategy may call Add once per call; it panics if there is no room. For
// the ties of Smallest, z counts as entered at the current step.
func (s *SupportSet) Add(z []float64, coef float64) int {
	if len(z) != s.d {
		panic("svclust: SupportSet.Add: dimension mismatch")
	}
	i := s.push(z, -1, s.now, nil, "svclust: SupportSet.Add: no room: call it at most once per Maintain")
	s.AddCoef(i, coef)
	return i
}

// push appends x as a support vector with coefficient 0, training-point
// index id (−1 for none) and entry step stamp, fills its row and column of
// the kernel cache from krow (its kernel values with the vectors before
// it, exp(−γ·SqDist) as Kernel computes them) or, if krow is nil, by
// computing them, and returns its index. It panics with full if the cache
// has no room.
func (s *SupportSet) push(x []float64, id, stamp int, krow []float64, full string) int {
	i := s.Len()
	if s.k != nil && i >= s.cap {
		if s.cap >= s.limit {
			panic(full)
		}
		s.grow(min(max(2*s.cap, minCacheSlots), s.limit))
	}
	s.x = append(s.x, x...)
	s.a = append(s.a, 0)
	s.id = append(s.id, id)
	s.stamp = append(s.stamp, stamp)
	if s.k != nil {
		// Row i, then column i from it. RowTo computes each value as
		// OfSqDist(SqDist(x, svⱼ), γ), and SqDist does not depend on the
		// order of its arguments, so the row equals Kernel's definition.
		row := s.k[i*s.cap : i*s.cap+i]
		if krow != nil {
			copy(row, krow[:i])
		} else {
			kernel.RowTo(row, x, s.x[:i*s.d], s.gamma)
		}
		for j, v := range row {
			s.k[j*s.cap+i] = v
		}
		s.k[i*s.cap+i] = kernel.OfSqDist(0, s.gamma)
	}
	return i
}

// minCacheSlots is the number of slots of the kernel cache when the
// first support vector enters.
const minCacheSlots = 64

// grow enlarges the kernel cache to c slots (stride c), keeping the
// values between the slots in use.
func (s *SupportSet) grow(c int) {
	k := make([]float64, c*c)
	for i := range s.Len() {
		copy(k[i*c:i*c+s.Len()], s.k[i*s.cap:i*s.cap+s.Len()])
	}
	s.k, s.cap = k, c
}

// Remove drops support vector i from the model (its weight is lost unless
// the strategy moved it elsewhere with AddCoef first).
func (s *SupportSet) Remove(i int) {
	if s.isRemoved(i) {
		return
	}
	s.touch(i)
	s.a[i] = 0
	s.removed = append(s.removed, i)
}

func (s *SupportSet) isRemoved(i int) bool {
	for _, r := range s.removed {
		if r == i {
			return true
		}
	}
	return false
}

func (s *SupportSet) touch(i int) {
	for _, t := range s.touched {
		if t == i {
			return
		}
	}
	s.touched = append(s.touched, i)
	s.before = append(s.before, s.a[i])
}
