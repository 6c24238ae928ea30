package assign

import (
	"math"

	"github.com/svclust/svclust/internal/kernel"
)

// Tolerances of the trajectories, in units of the kernel's length scale
// ℓ = 1/√γ, shared by svclust's cluster assignment and baseline's FSVC.
const (
	// StepTol stops a trajectory when a step is shorter than this many ℓ,
	// and MaxSteps caps its steps; near a non-degenerate equilibrium the
	// fixed-point map converges linearly, so the cap is reached only on
	// plateaus, whose end points are still inside the domain and linked by
	// the segment test.
	StepTol  = 1e-4
	MaxSteps = 500
	// SameTol: equilibria closer than this many ℓ are one equilibrium.
	// Trajectories stopped by StepTol end within a few 1e-4·ℓ of their
	// limit, and two genuine local maxima of f closer than 0.1·ℓ cannot be
	// separated by a region of f < 0 unless f ≈ 0 at both.
	SameTol = 0.1
)

// Scratch is scratch space for EquilibriumNear, from NewScratch.
type Scratch struct {
	num, z, x0 []float64
	list       []int32 // the terms that may be kept within nearRadius of x0
	// Path, when Record is set, has each point of the trajectories of
	// EquilibriumNear appended to it (row-major) before each step is
	// taken from it: the starting point first, the end point not.
	Record bool
	Path   []float64
}

// NewScratch returns scratch space for EquilibriumNear on f.
func NewScratch(f *kernel.Field) *Scratch {
	return &Scratch{num: make([]float64, f.D), z: make([]float64, len(f.Alpha)), x0: make([]float64, f.D),
		list: make([]int32, 0, len(f.Alpha))}
}

// nearRadius is the radius, in units of ℓ, of the ball about the point of
// a trajectory's last full pass within which its steps sum over the
// candidate terms of kernel.CutCandidates only; leaving it costs one full
// pass more. Its value changes no result, only the time: 1 was the best
// of 0.25, 0.5, 1, 2 and 4 on 1,000 2-D moons (instructions of the whole
// fit under valgrind: 3.83, 3.74, 3.70, 3.72 and 3.83 G).
const nearRadius = 1

// EquilibriumNear moves x in place along the trajectory x ← P(x) of the
// paper's Section 4,
//
//	P(x) = Σᵢ αᵢ k(x, svᵢ) svᵢ / Σᵢ αᵢ k(x, svᵢ),
//
// (with Gammas, the weights αᵢγᵢ instead of αᵢ: the fixed point of ∇f = 0)
// until a step is shorter than tol or maxIter steps were taken. The
// trajectory also stops, where it is, when the denominator
// Σᵢ αᵢ k(x, svᵢ) = f(x) + 1 (Σᵢ αᵢγᵢ kᵢ(x)) is not positive and finite: with negative
// coefficients (after projection) or far from every support vector
// the map is undefined there, and such a point lies outside the domain
// (f ≤ −1). Each step drops the terms below e⁻⁴⁰ of the largest (see
// kernel.MeanShiftCutTo), a change below the rounding of the sums. scratch
// comes from NewScratch; a Field is safe for concurrent use with separate
// scratch spaces.
//
// It can also stop early: before each step, if x lies within distance r of
// a point of anchors (equilibria found before), the trajectory stops there
// and EquilibriumNear returns the index of the nearest such point as
// anchor; otherwise anchor is −1. A nil anchors never stops early.
func EquilibriumNear(f *kernel.Field, x []float64, scratch *Scratch, tol float64, maxIter int, anchors *Tree, r float64) (anchor int) {
	lnA := f.LogCoefs()
	num, z, x0 := scratch.num, scratch.z, scratch.x0
	tol2, r2 := tol*tol, r*r
	// Each step sums over the terms kernel.CutCandidates listed at the
	// last full pass while x stays within rho of its point x0 (the same
	// sums to the bit, see kernel.MeanShiftCutNear); near is false until
	// the first full pass and when a list could not be made.
	rho := nearRadius * f.Scale()
	near := false
	for range maxIter {
		if anchors != nil {
			if a, dd := anchors.Nearest(x); a >= 0 && dd <= r2 {
				return a
			}
		}
		if scratch.Record {
			scratch.Path = append(scratch.Path, x...)
		}
		var den float64
		if near && kernel.SqDist(x, x0) <= rho*rho*(1-1e-9) {
			num, den = kernel.MeanShiftCutNear(num, z, x, f.SV, f.Alpha, lnA, f.Gamma, f.Gammas, scratch.list)
		} else {
			if f.Gammas != nil {
				num, den = kernel.MeanShiftEachCutTo(num, z, x, f.SV, f.Alpha, f.Gammas, lnA)
			} else {
				num, den = kernel.MeanShiftCutTo(num, z, x, f.SV, f.Alpha, lnA, f.Gamma)
			}
			copy(x0, x)
			scratch.list, near = kernel.CutCandidates(scratch.list, z, lnA, f.Gamma, f.Gammas, rho)
		}
		if !(den > 0) || math.IsInf(den, 0) {
			return -1
		}
		var step float64
		for j, v := range num {
			nx := v / den
			step += (nx - x[j]) * (nx - x[j])
			x[j] = nx
		}
		if step <= tol2 {
			return -1
		}
	}
	return -1
}

// Segment reports whether f ≥ 0 at each of the m equally spaced points
// a + λ(b − a), λ = j/(m−1), j = 0, …, m−1, of the segment from a to b (the
// sample-point test of Ben-Hur et al. 2001 used by Algorithm 3). The end
// points are included. The points are tested in SegmentIndex order, from
// the middle outwards, which rejects a segment sooner and gives the same
// answer. buf is scratch space of length D.
func Segment(f *kernel.Field, a, b, buf []float64, m int) bool {
	for k := 0; k < m; k++ {
		lam := float64(SegmentIndex(k, m)) / float64(m-1)
		for i := range buf {
			buf[i] = a[i] + lam*(b[i]-a[i])
		}
		if f.Value(buf) < 0 {
			return false
		}
	}
	return true
}

// SegmentMin returns the smallest value that value (f, or an evaluation of
// it such as Terms') takes at the m equally spaced points a + λ(b − a),
// λ = j/(m−1), of the segment from a to b, ends included: the level at
// which the m-point test connects a and b (a dip between the points can be
// missed, as in Segment). buf is scratch space of length len(a).
func SegmentMin(value func(x []float64) float64, a, b, buf []float64, m int) float64 {
	v := math.Inf(1)
	for j := range m {
		lam := float64(j) / float64(m-1)
		for i := range buf {
			buf[i] = a[i] + lam*(b[i]-a[i])
		}
		v = min(v, value(buf))
	}
	return v
}

// SegmentIndex returns the index j of the k-th point tested of the m
// points of a segment test, for k = 0, …, m−1: the middle point (m−1)/2
// first, then alternately one step further right and left, mid+1, mid−1,
// mid+2, …, so that the two end points, usually data points already known
// to be inside, come last. It is a permutation of 0, …, m−1 because the
// right of the middle has as many points as the left or one more.
func SegmentIndex(k, m int) int {
	mid := (m - 1) / 2
	if k%2 == 1 {
		return mid + (k+1)/2
	}
	return mid - k/2
}
