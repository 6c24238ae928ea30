package svclust

import (
	"math"

	"github.com/svclust/svclust/internal/kernel"
)

// mergeSearchTol is the width, as a fraction of the distance between the
// two support vectors, below which the golden-section search of a merge
// stops; the merged point is then within mergeSearchTol of the best one on
// the line. α_z is flat at its maximum, so stopping short costs a
// second-order amount: with c = γ‖xₘ − xₙ‖², each kernel term e^{−cs}
// (s = (1−h)² or h²) has |d²/dh²| = |e^{−cs}(4c²s − 2c)| ≤ 2c, so α_z falls
// short by at most c·mergeSearchTol²·(|αₘ| + |αₙ|), 1e-6·c of the pair's
// weight. From a bracket of width ½ that takes 13 steps, 15 evaluations of
// two exponentials each.
const mergeSearchTol = 1e-3

// invPhi is 1/φ = (√5 − 1)/2, the factor by which golden-section search
// shrinks its bracket per evaluation.
var invPhi = (math.Sqrt(5) - 1) / 2

// Merge is the merging strategy of BSGD-M, beyond the paper (whose Section
// 3.3 has removal and projection): the most redundant support vector xₘ,
// [SupportSet.Smallest], and a partner xₙ are replaced by one new support
// vector z on the line through them,
//
//	αₘφ(xₘ) + αₙφ(xₙ)  ←  α_z φ(z),  z = h xₘ + (1−h) xₙ,
//	α_z = αₘ k(xₘ, z) + αₙ k(xₙ, z),
//
// where α_z is the projection of the pair onto φ(z), so the weight lost is
// E = ‖αₘφ(xₘ) + αₙφ(xₙ)‖² − α_z², and h maximises α_z² by golden-section
// search. With κ = k(xₘ, xₙ), k(xₘ, z) = κ^{(1−h)²} and k(xₙ, z) = κ^{h²}, so
// each candidate costs two exponentials, independent of the dimension. The
// partner is the support vector whose merge loses the least weight, so a
// maintenance costs O(B) searches; this is the published heuristic, which
// fixes xₘ instead of searching all O(B²) pairs:
//
//	Z. Wang, K. Crammer, S. Vucetic. Breaking the curse of kernelization:
//	budgeted stochastic gradient descent for large-scale SVM training.
//	JMLR 13 (2012) 3103–3131, Section 4 (budget maintenance by merging).
//
// The merged vectors are new points, not training points; they can merge
// again. The search brackets are derived for this implementation: let p be
// the coefficient of larger magnitude, q the other and u the weight of p's
// vector in z (u = 1 − h when p = αₙ). If p and q have the same sign, the
// maximum lies in u ∈ [½, 1], where α_z is unimodal. If they have opposite
// signs, z lies beyond p's vector, away from q's: u ∈ [1, 1/(1−r)] with
// r = κ|q|/|p|, where α_z is unimodal too. Under Merge alone the
// coefficients stay positive; opposite signs arise only when a projection
// has made some negative.
//
// A Merge holds no state and is safe for concurrent use.
type Merge struct{}

var _ Maintainer = Merge{}

// Maintain merges the smallest support vector with the partner that loses
// the least weight (ties to the lower index), removing both and adding the
// merged vector. With no partner it removes the smallest.
//
// The nearest support vector is tried first: its loss is usually the least
// or close to it, so that mergeLossBound, and for the partners it keeps
// the tighter mergeLossBoundFine, skip most of the others. The order and
// the bounds change no choice: a partner is skipped only when its loss
// exceeds one already found, and among equal losses the lower index wins.
func (Merge) Maintain(s *SupportSet) {
	m := s.Smallest()
	am := s.Coef(m)
	gamma := s.Gamma()
	// km[j] = k(xₘ, xⱼ), from the support set's cache during training.
	km := s.kernelRow(m)
	// ‖αₘφₘ + αⱼφⱼ‖² − α_z² of the merge with j, and its h and α_z.
	try := func(j int) (loss, h, az float64) {
		aj := s.Coef(j)
		h, az = mergePair(am, aj, gamma*s.SqDist(m, j))
		return am*am + aj*aj + 2*am*aj*km[j] - az*az, h, az
	}
	n, bestH, bestAz, bestLoss := -1, 0.0, 0.0, math.Inf(1)
	// The nearest partner is the one of largest kernel value (the first
	// such, if several round to it; any choice here changes no result).
	near, nearK := -1, math.Inf(-1)
	for j, kj := range km {
		if j != m && kj > nearK {
			near, nearK = j, kj
		}
	}
	if near >= 0 {
		if loss, h, az := try(near); loss < bestLoss {
			n, bestH, bestAz, bestLoss = near, h, az, loss
		}
	}
	// The partners the first bound cannot skip against the best so far,
	// and their powers for the finer bounds, computed in a pass of their
	// own: the square roots and products of one partner form a chain of
	// dependent operations, and those of different partners overlap in
	// the processor when no branch separates them.
	cand := s.idx[:0]
	for j, kj := range km {
		if j == m || j == near {
			continue
		}
		if aj := s.Coef(j); am > 0 && aj > 0 && mergeLossBound(am, aj, kj) > bestLoss {
			continue // this partner cannot lose less than the best so far
		}
		cand = append(cand, j)
	}
	s.idx = cand
	if cap(s.powers) < len(cand) {
		s.powers = make([][2*mergeBoundPieces + 2]float64, len(cand), cap(cand))
	}
	powers := s.powers[:len(cand)]
	if am > 0 {
		for c, j := range cand {
			if s.Coef(j) > 0 {
				powers[c] = mergeBoundPowers(km[j])
			}
		}
	}
	for c, j := range cand {
		kj, aj := km[j], s.Coef(j)
		if am > 0 && aj > 0 {
			p := &powers[c]
			if mergeLossBound(am, aj, kj) > bestLoss || mergeLossBoundFineFrom(am, aj, kj, p) > bestLoss ||
				mergeLossExceeds(am, aj, kj, bestLoss, p) {
				continue
			}
		}
		if loss, h, az := try(j); loss < bestLoss || loss == bestLoss && j < n {
			n, bestH, bestAz, bestLoss = j, h, az, loss
		}
	}
	if n < 0 {
		s.Remove(m)
		return
	}
	z := s.scratch(s.Dim())
	xm, xn := s.Vector(m), s.Vector(n)
	for k := range z {
		z[k] = xn[k] + bestH*(xm[k]-xn[k])
	}
	s.Add(z, bestAz)
	s.Remove(m)
	s.Remove(n)
}

// mergeLossBound returns a lower bound on the weight a merge of two
// support vectors with positive coefficients a ≤ b and kernel value
// κ = k(xₘ, xₙ) = e^{−c}, c = γ‖xₘ − xₙ‖², loses, ‖aφₘ + bφₙ‖² − α_z², so
// that Merge can skip the search for a partner that cannot beat the best
// one found. With z = h xₘ + (1−h) xₙ, α_z = aκ^{(1−h)²} + bκ^{h²}, where
// both powers are at most 1 and their product κ^{(1−h)²+h²} ≤ √κ since
// (1−h)² + h² ≥ ½; so α_z ≤ b + a√κ, and the loss is at least
// a² + b² + 2abκ − (b + a√κ)² = a(1−√κ)(a(1+√κ) − 2b√κ). It is reduced by
// 1e-9 of ab for the rounding of both sides (√κ is within 2 ulp of e^{−c/2},
// which moves the bound by less than 8ab·2⁻⁵², and the computed loss is
// within a few ulp of b²), so that a partner is skipped only when its loss
// exceeds the best by more than rounding: Merge chooses the same partner
// with and without the bound. a ≤ b holds because Merge's xₘ has the
// smallest coefficient.
func mergeLossBound(a, b, kappa float64) float64 {
	r := math.Sqrt(kappa)
	return a*(1-r)*(a*(1+r)-2*b*r) - 1e-9*a*b
}

// mergeBoundPieces is the number of pieces of mergeLossBoundFine's
// majorant; q = κ^{1/(4·pieces²)} then costs log₂(4·pieces²) square roots,
// mergeBoundRoots, which TestMergeBoundRoots keeps in step (pieces must be
// a power of 2).
const (
	mergeBoundPieces = 8
	mergeBoundRoots  = 8 // log₂(4·mergeBoundPieces²)
)

// mergeLossBoundFine is a lower bound, usually tighter than mergeLossBound
// (in 190,641 of the 200,000 pairs of TestMergeLossBound, 95 %), on the
// weight lost by merging support vectors with positive coefficients a ≤ b
// and kernel value κ, for the partners mergeLossBound cannot skip. With v
// the weight of b's vector in z, α_z(v) = bκ^{(1−v)²} + aκ^{v²}, whose
// maximum lies in v ∈ [½, 1] (see Merge), where the first term increases
// and the second decreases with v. On each of P = mergeBoundPieces equal
// pieces [vₖ, vₖ₊₁] of [½, 1], α_z ≤ bκ^{(1−vₖ₊₁)²} + aκ^{vₖ²}; with
// vₖ = (P+k)/(2P) all the powers are pⱼ = κ^{(j/2P)²} = q^{j²}, q = κ^{1/(4P²)},
// which take square roots and products, no exponential. The loss is at least
// a² + b² + 2abκ − (the largest of those majorants)², reduced for rounding
// by 1e-9·ab (as mergeLossBound) and 1e-11·b²: q is within 2⁻⁵² of
// κ^{1/(4P²)} relative, so each power, a product of at most 4P² factors,
// is within 8P²·2⁻⁵² ≈ 1.1·10⁻¹³ (P = 8), and the square of a majorant of
// at most 2b within 2·10⁻¹² b². Merge chooses the same partner with and
// without it.
func mergeLossBoundFine(a, b, kappa float64) float64 {
	p := mergeBoundPowers(kappa)
	return mergeLossBoundFineFrom(a, b, kappa, &p)
}

// mergeBoundPowers returns the powers pⱼ = q^{j²}, j = 0 … 2·mergeBoundPieces,
// q = κ^{1/(4·mergeBoundPieces²)}, of mergeLossBoundFine's majorant (the
// last entry is q itself, which mergeLossExceeds refines from).
func mergeBoundPowers(kappa float64) [2*mergeBoundPieces + 2]float64 {
	const P = mergeBoundPieces
	q := kappa
	for range mergeBoundRoots {
		q = math.Sqrt(q)
	}
	var p [2*P + 2]float64
	p[0] = 1
	q2, odd := q*q, q // odd = q^{2j−1}
	for j := 1; j <= 2*P; j++ {
		p[j] = p[j-1] * odd
		odd *= q2
	}
	p[2*P+1] = q
	return p
}

// mergeLossBoundFineFrom is mergeLossBoundFine from the powers of
// mergeBoundPowers(kappa).
func mergeLossBoundFineFrom(a, b, kappa float64, p *[2*mergeBoundPieces + 2]float64) float64 {
	const P = mergeBoundPieces
	ub := 0.0
	for k := range P {
		ub = max(ub, b*p[P-k-1]+a*p[P+k])
	}
	return a*a + b*b + 2*a*b*kappa - ub*ub - 1e-9*a*b - 1e-11*b*b
}

// mergeRefineLevels is how often mergeLossExceeds halves a piece of
// mergeLossBoundFine's majorant, and mergeRefinePieces the number of
// pieces of [½, 1] at the finest.
const (
	mergeRefineLevels = 4
	mergeRefinePieces = mergeBoundPieces << mergeRefineLevels
)

// mergeLossExceeds reports whether the weight lost by merging support
// vectors with positive coefficients a ≤ b and kernel value κ = e^{−c}
// certainly exceeds best, for the partners the bounds above cannot skip (in
// high dimensions, where kernel values between support vectors are small,
// mergeLossBoundFine leaves about half of them to the golden-section
// search). With v the weight of b's vector in z,
// α_z(v) = bκ^{(1−v)²} + aκ^{v²} on [½, 1] (see mergeLossBoundFine), the
// loss exceeds best when α_z stays below the value a loss of best needs.
// Each piece of [½, 1], from mergeBoundPieces pieces on, is bounded twice:
// by mergeLossBoundFine's majorant bκ^{(1−vₖ₊₁)²} + aκ^{vₖ²}, and by the
// second-order bound about its midpoint m, α_z(m) + |α_z′(m)|·w/2 +
// c(a+b)(w/2)² for a piece of width w (|α_z″| ≤ 2c(a+b), see
// mergeSearchTol), which is tight near the maximum, where the majorant is
// not; a piece that neither bound clears is halved, down to
// mergeRefinePieces pieces. At P pieces the powers are q^{j²} with
// q = κ^{1/(4P²)}, square roots and products as in mergeLossBoundFine, the
// midpoints' at 2P; with exponents j² ≤ 16·mergeRefinePieces² = 2¹⁸, q is
// within 2⁻⁵² of its value relative and a power within 2·j²·2⁻⁵² ≤ 2⁻³³,
// so the square of a bound of at most 2b is within 10⁻⁹ b², and a margin of
// 1e-8·b² (beside mergeLossBound's 1e-9·ab for the rounding of the loss)
// makes the answer true only when the computed loss exceeds best: Merge
// chooses the same partner with and without it (TestMergeLossExceeds,
// TestMergePartnerOrder).
//
// p holds mergeBoundPowers(kappa).
func mergeLossExceeds(a, b, kappa, best float64, p *[2*mergeBoundPieces + 2]float64) bool {
	t := a*a + b*b + 2*a*b*kappa - best - 1e-9*a*b - 1e-8*b*b
	if !(t > 0) || !(kappa > 0) {
		return false
	}
	c := -math.Log(kappa)
	// q[l] = κ^{1/(4P²)} for P = mergeBoundPieces·2^l pieces, computed
	// when first needed.
	var q [mergeRefineLevels + 2]float64
	q[0] = p[2*mergeBoundPieces+1]
	var below func(l, k int) bool
	below = func(l, k int) bool {
		n := mergeBoundPieces << l // pieces at this level; k is the piece
		var m float64
		if l == 0 {
			m = b*p[n-k-1] + a*p[n+k]
		} else {
			m = b*powInt(q[l], (n-k-1)*(n-k-1)) + a*powInt(q[l], (n+k)*(n+k))
		}
		if m*m < t {
			return true
		}
		if q[l+1] == 0 {
			q[l+1] = math.Sqrt(math.Sqrt(q[l]))
		}
		// The midpoint v = (2n+2k+1)/(4n), 1 − v = (2n−2k−1)/(4n).
		i, j := 2*n-2*k-1, 2*n+2*k+1
		e1, e2 := powInt(q[l+1], i*i), powInt(q[l+1], j*j)
		h := 1 / float64(4*n)
		der := 2 * c * (b*float64(i)*h*e1 - a*float64(j)*h*e2)
		if m := b*e1 + a*e2 + math.Abs(der)*h + c*(a+b)*h*h; m*m < t {
			return true
		}
		if n >= mergeRefinePieces {
			return false
		}
		return below(l+1, 2*k) && below(l+1, 2*k+1)
	}
	for k := range mergeBoundPieces {
		if !below(0, k) {
			return false
		}
	}
	return true
}

// powInt returns x^n for n ≥ 0 by repeated squaring: at most 2·log₂ n
// products, so that with x within ε of its value relative the result is
// within about 2nε.
func powInt(x float64, n int) float64 {
	r := 1.0
	for n > 0 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
		n >>= 1
	}
	return r
}

// mergePair returns the weight h of xₘ in the merged point
// z = h xₘ + (1−h) xₙ of two support vectors with coefficients a and b and
// c = γ‖xₘ − xₙ‖², and the coefficient α_z = a e^{−c(1−h)²} + b e^{−ch²},
// with h the maximiser of α_z² found by golden-section search to mergeSearchTol
// (see Merge for the brackets).
func mergePair(a, b, c float64) (h, az float64) {
	if math.Abs(a) < math.Abs(b) {
		u, az := mergeLarger(b, a, c)
		return 1 - u, az
	}
	return mergeLarger(a, b, c)
}

// mergeLarger is mergePair for |p| ≥ |q|, returning the weight u of p's
// vector.
func mergeLarger(p, q, c float64) (u, az float64) {
	switch {
	case q == 0 || c == 0:
		// α_z = p e^{−c(1−u)²} is largest at u = 1; with c = 0 the points
		// coincide and any u gives p + q.
		return 1, p + q
	}
	// g is α_z as a function of u, times the sign of p, so that the search
	// maximises it. Its maximiser is inside the bracket: g′ > 0 at the
	// lower end (or, at u = ½, the maximiser is ½ itself, when p = q) and
	// g′ < 0 at the upper end.
	// The kernel values go through kernel.ExpNeg, as every kernel value
	// does, with c = γ‖xₘ − xₙ‖²: k(z, xₘ) = e^{−c(1−u)²}, k(z, xₙ) = e^{−cu²}.
	sp := math.Copysign(1, p)
	g := func(u float64) float64 {
		return sp * (p*kernel.ExpNeg(c*(1-u)*(1-u)) + q*kernel.ExpNeg(c*u*u))
	}
	lo, hi := 0.5, 1.0
	if q*p < 0 {
		kc := kernel.ExpNeg(c)
		r := kc * math.Abs(q) / math.Abs(p)
		if r >= 1 {
			// Equal and opposite at (numerically) one point: they cancel.
			return 1, p + q*kc
		}
		lo, hi = 1, 1/(1-r)
	}
	u, gu := goldenMax(g, lo, hi, mergeSearchTol)
	return u, sp * gu
}

// goldenMax searches for the maximum of f, unimodal on [lo, hi], by
// golden-section search until the bracket is at most tol wide, and returns
// the better of its last two probes, which lies in the final bracket and so
// within tol of the maximiser, and its value.
func goldenMax(f func(float64) float64, lo, hi, tol float64) (x, fx float64) {
	x1 := hi - invPhi*(hi-lo)
	x2 := lo + invPhi*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for hi-lo > tol {
		if f1 < f2 {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + invPhi*(hi-lo)
			f2 = f(x2)
		} else {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - invPhi*(hi-lo)
			f1 = f(x1)
		}
	}
	if f1 < f2 {
		return x2, f2
	}
	return x1, f1
}
