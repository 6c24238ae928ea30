package kernel

import "math"

const badLength = "kernel: length mismatch"

// SqDist returns ‖x − y‖². It panics if len(x) != len(y).
func SqDist(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(badLength)
	}
	y = y[:len(x)]
	var s float64
	for i, v := range x {
		t := v - y[i]
		s += t * t
	}
	return s
}

// rows returns the number of d-vectors in svs and panics unless len(svs) is
// a multiple of d.
func rows(svs []float64, d int) int {
	if d == 0 {
		if len(svs) != 0 {
			panic(badLength)
		}
		return 0
	}
	if len(svs)%d != 0 {
		panic(badLength)
	}
	return len(svs) / d
}

// SqDistRowTo sets dst[i] = ‖x − sv_i‖² for every row sv_i of svs.
// It panics if len(svs) is not a multiple of len(x) or dst has the wrong length.
func SqDistRowTo(dst, x, svs []float64) []float64 {
	d := len(x)
	n := rows(svs, d)
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(badLength)
	}
	sqDistRow(dst, x, svs)
	return dst
}

// sqDist4 returns SqDist(x, yₖ) for four rows yₖ of the length of x, each
// to the bit: every sum is accumulated in SqDist's order, and the four
// independent chains of additions overlap in the processor, where one
// chain waits on the latency of each addition.
func sqDist4(x, y0, y1, y2, y3 []float64) (s0, s1, s2, s3 float64) {
	y0, y1, y2, y3 = y0[:len(x)], y1[:len(x)], y2[:len(x)], y3[:len(x)]
	for i, v := range x {
		t0 := v - y0[i]
		t1 := v - y1[i]
		t2 := v - y2[i]
		t3 := v - y3[i]
		s0 += t0 * t0
		s1 += t1 * t1
		s2 += t2 * t2
		s3 += t3 * t3
	}
	return s0, s1, s2, s3
}

// sqDistRow sets dst[i] = SqDist(x, sv_i) for the len(dst) first rows of
// svs, four rows at a time (see sqDist4). The caller checks the lengths.
func sqDistRow(dst, x, svs []float64) {
	d := len(x)
	if d == 2 {
		// SqDist's two additions for each row, from 0, without its loop.
		x0, x1 := x[0], x[1]
		svs = svs[:2*len(dst)]
		for i := range dst {
			t0, t1 := x0-svs[2*i], x1-svs[2*i+1]
			s := t0 * t0
			s += t1 * t1
			dst[i] = s
		}
		return
	}
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		r := svs[i*d : i*d+4*d]
		dst[i], dst[i+1], dst[i+2], dst[i+3] = sqDist4(x, r[:d], r[d:2*d], r[2*d:3*d], r[3*d:])
	}
	for ; i < len(dst); i++ {
		dst[i] = SqDist(x, svs[i*d:i*d+d])
	}
}

// RowTo sets dst[i] = exp(−γ‖x − sv_i‖²) for every row sv_i of svs.
// It panics if len(svs) is not a multiple of len(x) or dst has the wrong length.
func RowTo(dst, x, svs []float64, gamma float64) []float64 {
	dst = SqDistRowTo(dst, x, svs)
	expNegRow(dst, gamma, nil)
	return dst
}

// expNegRow sets v[i] = ExpNeg(γᵢ·v[i]), with γᵢ = gammas[i], or gamma
// when gammas is nil, four at a time (expNeg4).
func expNegRow(v []float64, gamma float64, gammas []float64) {
	i := 0
	for ; i+4 <= len(v); i += 4 {
		u := v[i : i+4]
		g0, g1, g2, g3 := gamma, gamma, gamma, gamma
		if gammas != nil {
			g := gammas[i : i+4]
			g0, g1, g2, g3 = g[0], g[1], g[2], g[3]
		}
		u[0], u[1], u[2], u[3] = expNeg4(g0*u[0], g1*u[1], g2*u[2], g3*u[3])
	}
	for ; i < len(v); i++ {
		g := gamma
		if gammas != nil {
			g = gammas[i]
		}
		v[i] = ExpNeg(g * v[i])
	}
}

// ExpNegTo sets v[i] = ExpNeg(v[i]) for every i, four at a time: the same
// bits as one ExpNeg call each.
func ExpNegTo(v []float64) { expNegRow(v, 1, nil) }

// RowEachTo sets dst[i] = exp(−gammas[i]‖x − sv_i‖²) for every row sv_i of
// svs: RowTo with a width of its own for each support vector. It panics if
// len(svs) is not a multiple of len(x), or dst or gammas has the wrong
// length.
func RowEachTo(dst, x, svs, gammas []float64) []float64 {
	if len(gammas) != rows(svs, len(x)) {
		panic(badLength)
	}
	dst = SqDistRowTo(dst, x, svs)
	expNegRow(dst, 0, gammas)
	return dst
}

// OfSqDistRowTo sets dst[i] = OfSqDist(d2[i], γᵢ), with γᵢ = gammas[i], or
// gamma when gammas is nil, and returns dst: the kernel row that RowTo and
// RowEachTo compute, to the bit, from the squared distances SqDistRowTo
// gives, for a caller that keeps those distances too. dst may be d2. It
// panics if dst or gammas (when not nil) is not of the length of d2.
func OfSqDistRowTo(dst, d2 []float64, gamma float64, gammas []float64) []float64 {
	if len(dst) != len(d2) || gammas != nil && len(gammas) != len(d2) {
		panic(badLength)
	}
	copy(dst, d2)
	expNegRow(dst, gamma, gammas)
	return dst
}

// OfSqDist returns the Gaussian kernel exp(−γ·d2) of two points at squared
// distance d2, as every function of this package computes it.
func OfSqDist(d2, gamma float64) float64 { return ExpNeg(gamma * d2) }

// expZero is an exponent beyond which exp underflows to zero: exp(−u) is
// below half the smallest subnormal, 2⁻¹⁰⁷⁵, for every u > 745.14, so it
// rounds to 0 and ExpNeg returns 0 without computing it (TestExpZero).
const expZero = 746

// ExpNeg returns exp(−u), within 2 ulp (see exp.go), and 0 beyond expZero.
// Every kernel value of this package is computed by it, as ExpNeg(γ·d2),
// or by the same steps four at a time, to the same bits; NaN gives NaN.
func ExpNeg(u float64) float64 { return expNegAny(u) }

// Dot returns Σᵢ a[i]·k[i] over the entries of k, summed in order: with k
// as RowTo writes it, the kernel expansion Sum computes, to the bit. It
// panics if len(a) is less than len(k).
func Dot(a, k []float64) float64 {
	if len(a) < len(k) {
		panic(badLength)
	}
	a = a[:len(k)]
	var s float64
	for i, v := range k {
		s += a[i] * v
	}
	return s
}

// Sum returns the kernel expansion Σᵢ a[i]·exp(−γ‖x − sv_i‖²) without
// allocating. It panics if len(a) is not the number of rows of svs.
func Sum(x, svs, a []float64, gamma float64) float64 {
	d := len(x)
	if rows(svs, d) != len(a) {
		panic(badLength)
	}
	var s float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		r := svs[i*d : i*d+4*d]
		d0, d1, d2, d3 := sqDist4(x, r[:d], r[d:2*d], r[2*d:3*d], r[3*d:])
		k := [4]float64{d0, d1, d2, d3}
		expNegRow(k[:], gamma, nil)
		s += a[i] * k[0]
		s += a[i+1] * k[1]
		s += a[i+2] * k[2]
		s += a[i+3] * k[3]
	}
	for ; i < len(a); i++ {
		s += a[i] * ExpNeg(gamma*SqDist(x, svs[i*d:i*d+d]))
	}
	return s
}

// MeanShiftTo performs one step of the fixed-point map of the paper's
// Section 4,
//
//	P(x) = Σᵢ aᵢ k(x, svᵢ) svᵢ / Σᵢ aᵢ k(x, svᵢ),
//
// writing the numerator Σᵢ aᵢ k(x, svᵢ) svᵢ into dst and returning it with
// the denominator den = Σᵢ aᵢ k(x, svᵢ), which is also f(x) + 1. The caller
// divides; den may be zero or negative when coefficients are negative.
// dst must not alias x. It panics on a length mismatch.
func MeanShiftTo(dst, x, svs, a []float64, gamma float64) (num []float64, den float64) {
	d := len(x)
	if rows(svs, d) != len(a) {
		panic(badLength)
	}
	if dst == nil {
		dst = make([]float64, d)
	}
	if len(dst) != d {
		panic(badLength)
	}
	clear(dst)
	for i, ai := range a {
		sv := svs[i*d : i*d+d]
		w := ai * ExpNeg(gamma*SqDist(x, sv))
		den += w
		for j, v := range sv {
			dst[j] += w * v
		}
	}
	return dst, den
}

// CutOff is the gap, in the exponent, beyond which MeanShiftCutTo drops a
// term: e⁻⁴⁰ ≈ 4·10⁻¹⁸.
const CutOff = 40

// MeanShiftCutTo is MeanShiftTo without the terms too small to matter. With
// uᵢ = γ‖x − svᵢ‖² − lnA[i], where lnA[i] = ln|aᵢ| (−Inf for aᵢ = 0), the
// term aᵢk(x, svᵢ) has magnitude e^{−uᵢ}; those with uᵢ more than CutOff
// above the smallest are below e⁻⁴⁰ ≈ 4·10⁻¹⁸ of the largest term and are
// skipped, as is their exponential, the costly part. Together they change
// num and den by less than n·4·10⁻¹⁸ of the largest term, below the rounding
// error of the full sums (n·2⁻⁵³ ≈ n·1.1·10⁻¹⁶ of the same). z is scratch
// space of length len(a); on return z[i] = γ‖x − svᵢ‖². As for MeanShiftTo,
// dst must have length len(x) or be nil, when it is allocated, and must not
// alias x. It panics on a length mismatch.
func MeanShiftCutTo(dst, z, x, svs, a, lnA []float64, gamma float64) (num []float64, den float64) {
	if len(lnA) != len(a) {
		panic(badLength)
	}
	return meanShiftCut(dst, z, x, svs, a, lnA, gamma, nil)
}

// SumEach returns Σᵢ a[i]·exp(−gammas[i]‖x − sv_i‖²): the kernel expansion
// with a width of its own for each support vector. It panics on a length
// mismatch.
func SumEach(x, svs, a, gammas []float64) float64 {
	d := len(x)
	if rows(svs, d) != len(a) || len(gammas) != len(a) {
		panic(badLength)
	}
	var s float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		r := svs[i*d : i*d+4*d]
		d0, d1, d2, d3 := sqDist4(x, r[:d], r[d:2*d], r[2*d:3*d], r[3*d:])
		k := [4]float64{d0, d1, d2, d3}
		expNegRow(k[:], 0, gammas[i:i+4])
		s += a[i] * k[0]
		s += a[i+1] * k[1]
		s += a[i+2] * k[2]
		s += a[i+3] * k[3]
	}
	for ; i < len(a); i++ {
		s += a[i] * ExpNeg(gammas[i]*SqDist(x, svs[i*d:i*d+d]))
	}
	return s
}

// MeanShiftEachCutTo is MeanShiftCutTo for a width of its own per support
// vector: the fixed-point map of ∇f = 0 for f + 1 = Σᵢ aᵢ exp(−γᵢ‖x − svᵢ‖²),
//
//	P(x) = Σᵢ aᵢγᵢ kᵢ(x) svᵢ / Σᵢ aᵢγᵢ kᵢ(x),
//
// since ∇f(x) = −2 Σᵢ aᵢγᵢ kᵢ(x)(x − svᵢ). lnW[i] must be ln|aᵢγᵢ|; den is
// Σᵢ aᵢγᵢ kᵢ(x) (not f(x) + 1). Terms more than CutOff below the largest
// in the exponent are dropped, as in MeanShiftCutTo; on return
// z[i] = γᵢ‖x − svᵢ‖².
func MeanShiftEachCutTo(dst, z, x, svs, a, gammas, lnW []float64) (num []float64, den float64) {
	if len(lnW) != len(a) || len(gammas) != len(a) {
		panic(badLength)
	}
	return meanShiftCut(dst, z, x, svs, a, lnW, 0, gammas)
}

// meanShiftCut is MeanShiftCutTo with one width gamma (nil gammas) and
// MeanShiftEachCutTo with a width per support vector; lnW has the length
// of a.
func meanShiftCut(dst, z, x, svs, a, lnW []float64, gamma float64, gammas []float64) (num []float64, den float64) {
	d := len(x)
	if rows(svs, d) != len(a) || len(z) != len(a) {
		panic(badLength)
	}
	if dst == nil {
		dst = make([]float64, d)
	}
	if len(dst) != d {
		panic(badLength)
	}
	umin := math.Inf(1)
	sqDistRow(z, x, svs)
	for i := range a {
		g := gamma
		if gammas != nil {
			g = gammas[i]
		}
		z[i] *= g
		umin = min(umin, z[i]-lnW[i])
	}
	return dst, shiftKept(dst, z, lnW, umin+CutOff, svs, a, gammas, nil)
}

// shiftTerm adds the term of support vector sv (index k, coefficient ak,
// kernel value e) to the mean-shift numerator dst and returns den plus its
// weight.
func shiftTerm(dst []float64, den float64, sv []float64, ak, e float64, k int, gammas []float64) float64 {
	w := ak * e
	if gammas != nil {
		w = ak * gammas[k] * e
	}
	for j, v := range sv {
		dst[j] += w * v
	}
	return den + w
}

// MeanShiftCutNear is meanShiftCut (MeanShiftCutTo with nil gammas,
// MeanShiftEachCutTo otherwise) over the support vectors whose indices
// list holds, in increasing order. When list holds every support vector
// whose term meanShiftCut keeps at x (CutCandidates gives such a list for
// every x within its radius), num and den are meanShiftCut's to the bit:
// the smallest uᵢ is among them, the terms kept are the same, and they are
// added in the same order. z[i] is set for the listed i only.
func MeanShiftCutNear(dst, z, x, svs, a, lnW []float64, gamma float64, gammas []float64, list []int32) (num []float64, den float64) {
	d := len(x)
	if rows(svs, d) != len(a) || len(z) != len(a) || len(lnW) != len(a) || (gammas != nil && len(gammas) != len(a)) || len(dst) != d {
		panic(badLength)
	}
	umin := math.Inf(1)
	for _, k := range list {
		sv := svs[int(k)*d : int(k)*d+d]
		var s float64
		if d == 2 {
			t0, t1 := x[0]-sv[0], x[1]-sv[1]
			s = t0 * t0
			s += t1 * t1
		} else {
			s = SqDist(x, sv)
		}
		g := gamma
		if gammas != nil {
			g = gammas[k]
		}
		s *= g
		z[k] = s
		umin = min(umin, s-lnW[k])
	}
	return dst, shiftKept(dst, z, lnW, umin+CutOff, svs, a, gammas, list)
}

// shiftKept adds into dst, cleared first, the mean-shift terms of the
// support vectors i (every one when list is nil, else those list holds,
// in its order) whose zᵢ − lnWᵢ is at most lim, and returns the sum of
// their weights. The exponentials are taken four at a time (expNeg4) and
// the terms added in the order of i all the same.
func shiftKept(dst, z, lnW []float64, lim float64, svs, a, gammas []float64, list []int32) (den float64) {
	d := len(dst)
	clear(dst)
	n := len(a)
	if list != nil {
		n = len(list)
	}
	var kept [4]int
	m := 0
	for t := range n {
		i := t
		if list != nil {
			i = int(list[t])
		}
		if !(z[i]-lnW[i] <= lim) {
			continue
		}
		kept[m] = i
		if m++; m < 4 {
			continue
		}
		m = 0
		var e [4]float64
		e[0], e[1], e[2], e[3] = expNeg4(z[kept[0]], z[kept[1]], z[kept[2]], z[kept[3]])
		for l, k := range kept {
			den = shiftTerm(dst, den, svs[k*d:k*d+d], a[k], e[l], k, gammas)
		}
	}
	for _, k := range kept[:m] {
		den = shiftTerm(dst, den, svs[k*d:k*d+d], a[k], ExpNeg(z[k]), k, gammas)
	}
	return den
}

// CutCandidates returns in list (reusing its memory) the indices, in
// increasing order, of the support vectors whose terms meanShiftCut may
// keep at any point within distance rho of x0, given z as meanShiftCut
// left it at x0 (z[i] = γᵢ‖x0 − svᵢ‖²) and its lnW. With Dᵢ = ‖x0 − svᵢ‖
// and x within rho of x0, ‖x − svᵢ‖ lies in [Dᵢ − rho, Dᵢ + rho], so
// uᵢ(x) = γᵢ‖x − svᵢ‖² − lnW[i] is at least Lᵢ = γᵢ max(0, Dᵢ − rho)² − lnW[i]
// and the smallest uⱼ(x) at most U = minⱼ γⱼ(Dⱼ + rho)² − lnW[j]; a term
// with Lᵢ > U + CutOff is below the cut everywhere in the ball. A margin
// of 1e-6 of the magnitudes involved, far above the rounding of z and of
// these bounds (a few 2⁻⁵³ relative), keeps the list a superset of the
// terms kept as computed. ok is false (and the list must not be used)
// when a value is not finite, where the bounds say nothing.
func CutCandidates(list []int32, z, lnW []float64, gamma float64, gammas []float64, rho float64) (_ []int32, ok bool) {
	list = list[:0]
	if !(rho >= 0) || math.IsInf(rho, 0) {
		return list, false
	}
	g := gamma
	u := math.Inf(1)
	for i, zi := range z {
		if gammas != nil {
			g = gammas[i]
		}
		if math.IsInf(lnW[i], -1) {
			continue // a zero coefficient: never kept while the cut is finite
		}
		if !(zi >= 0) || math.IsInf(zi, 0) || !(g > 0) || math.IsInf(g, 0) || math.IsNaN(lnW[i]) || math.IsInf(lnW[i], 0) {
			return list, false
		}
		di := math.Sqrt(zi/g) + rho
		u = min(u, g*di*di-lnW[i])
	}
	if math.IsInf(u, 0) || math.IsNaN(u) {
		return list, false
	}
	for i, zi := range z {
		if math.IsInf(lnW[i], -1) {
			continue
		}
		if gammas != nil {
			g = gammas[i]
		}
		di := max(0, math.Sqrt(zi/g)-rho)
		hi := g * (math.Sqrt(zi/g) + rho) * (math.Sqrt(zi/g) + rho)
		li := g*di*di - lnW[i]
		margin := 1e-6 * (1 + math.Abs(u) + CutOff + hi + 2*math.Abs(lnW[i]))
		if li <= u+CutOff+margin {
			list = append(list, int32(i))
		}
	}
	return list, true
}
