package kernel

import "math"

// The exponential of every kernel value. It is this package's own, not
// math.Exp, for speed: math.Exp's amd64 assembly is called through a
// wrapper that nothing inlines, and its algorithm (a degree-7 polynomial on
// the argument divided by 16, squared four times) is a long chain of
// dependent operations. Here exp(−u) = 2^{−k/64} · e^r with k = round(64u/ln 2)
// and |r| ≤ ln 2/128: 2^{−k/64} is a power of two times an entry of a table
// of 2^{j/64}, and e^r a polynomial of degree 5, whose truncation error
// r⁶/720 < 3.5·10⁻¹⁷ is below half an ulp. Four values are computed side by
// side (expNeg4), which halves the cost of a kernel row against math.Exp
// (BENCHMARKS.md, "Issue 23: the kernel's own exponential").
//
// Accuracy: within 2 ulp of math.Exp (itself within 1 ulp of exp) over
// [0, expZero], and 78 % of values equal to math.Exp's (TestExpNegAccuracy).
// Every operation is an IEEE double multiply or add written so that no
// compiler may fuse it (explicit conversions), so the bits do not depend on
// the processor or its fused multiply-add, as math.Exp's do on amd64.

// exp2Table[j] is 2^{j/64} rounded to the nearest double (computed with
// 60-digit decimal arithmetic; TestExp2Table checks each entry's rounding).
var exp2Table = [64]float64{
	0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0, 0x1.0874518759bc8p+0,
	0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0, 0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0,
	0x1.172b83c7d517bp+0, 0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
	0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0, 0x1.2d285a6e4030bp+0,
	0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0, 0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0,
	0x1.3dea64c123422p+0, 0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
	0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0, 0x1.56f4736b527dap+0,
	0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0, 0x1.6247eb03a5585p+0, 0x1.6623882552225p+0,
	0x1.6a09e667f3bcdp+0, 0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
	0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0, 0x1.868d99b4492edp+0,
	0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0, 0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0,
	0x1.9c49182a3f090p+0, 0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
	0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0, 0x1.bcc1e904bc1d2p+0,
	0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0, 0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0,
	0x1.d5818dcfba487p+0, 0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
	0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0, 0x1.fa7c1819e90d8p+0,
}

const (
	// expInvLn2x64 is 64/ln 2.
	expInvLn2x64 = 92.33248261689366
	// expLn2Hi64 + expLn2Lo64 is ln 2/64; the high part has 21
	// significant bits, so that k·expLn2Hi64 is exact for every k below
	// 2¹⁷ (k ≤ 64·expZero/ln 2 < 68,900).
	expLn2Hi64 = 0.010830417275428772
	expLn2Lo64 = 7.420820373486988e-09

	// expNormal is the largest u for which exp(−u) is a normal number
	// (e⁻⁷⁰⁸ ≈ 3.3·10⁻³⁰⁸ > 2⁻¹⁰²², the smallest normal).
	expNormal = 708
)

// expNeg returns exp(−u) for 0 ≤ u ≤ expNormal.
func expNeg(u float64) float64 {
	v, e := expNegParts(u)
	return v * math.Float64frombits(uint64(e+1023)<<52)
}

// expNegParts returns v in [½, 2] and e with exp(−u) = v·2^e, for
// 0 ≤ u ≤ expZero.
func expNegParts(u float64) (v float64, e int64) {
	k := math.RoundToEven(u * expInvLn2x64)
	r := float64(float64(k*expLn2Hi64)-u) + float64(k*expLn2Lo64)
	p := r + float64(r*float64(r*float64(0.5+float64(r*float64(1.0/6+float64(r*float64(1.0/24+float64(r*(1.0/120)))))))))
	m := -int64(k)
	t := exp2Table[m&63]
	return float64(t + float64(t*p)), m >> 6
}

// expNegAny returns exp(−u) for any u: expNeg where the result is normal,
// the same steps with the scaling split in two where it is subnormal (so
// that it rounds once), 0 beyond expZero, and math.Exp(−u) for negative u
// and NaN, which no kernel value has.
func expNegAny(u float64) float64 {
	switch {
	case u >= 0 && u <= expNormal:
		return expNeg(u)
	case u > expZero:
		return 0
	case u > expNormal:
		// 2^e = 2^{e+64}·2^{−64}, both factors normal for e ≥ −1086.
		v, e := expNegParts(u)
		return float64(v*math.Float64frombits(uint64(e+64+1023)<<52)) * 0x1p-64
	}
	return math.Exp(-u)
}

// expNeg4 returns expNegAny of four arguments, side by side where all four
// are in expNeg's range, so that their chains of dependent operations
// overlap.
func expNeg4(u0, u1, u2, u3 float64) (float64, float64, float64, float64) {
	if !(u0 >= 0 && u0 <= expNormal && u1 >= 0 && u1 <= expNormal && u2 >= 0 && u2 <= expNormal && u3 >= 0 && u3 <= expNormal) {
		return expNegAny(u0), expNegAny(u1), expNegAny(u2), expNegAny(u3)
	}
	k0 := math.RoundToEven(u0 * expInvLn2x64)
	k1 := math.RoundToEven(u1 * expInvLn2x64)
	k2 := math.RoundToEven(u2 * expInvLn2x64)
	k3 := math.RoundToEven(u3 * expInvLn2x64)
	r0 := float64(float64(k0*expLn2Hi64)-u0) + float64(k0*expLn2Lo64)
	r1 := float64(float64(k1*expLn2Hi64)-u1) + float64(k1*expLn2Lo64)
	r2 := float64(float64(k2*expLn2Hi64)-u2) + float64(k2*expLn2Lo64)
	r3 := float64(float64(k3*expLn2Hi64)-u3) + float64(k3*expLn2Lo64)
	p0 := r0 + float64(r0*float64(r0*float64(0.5+float64(r0*float64(1.0/6+float64(r0*float64(1.0/24+float64(r0*(1.0/120)))))))))
	p1 := r1 + float64(r1*float64(r1*float64(0.5+float64(r1*float64(1.0/6+float64(r1*float64(1.0/24+float64(r1*(1.0/120)))))))))
	p2 := r2 + float64(r2*float64(r2*float64(0.5+float64(r2*float64(1.0/6+float64(r2*float64(1.0/24+float64(r2*(1.0/120)))))))))
	p3 := r3 + float64(r3*float64(r3*float64(0.5+float64(r3*float64(1.0/6+float64(r3*float64(1.0/24+float64(r3*(1.0/120)))))))))
	m0, m1, m2, m3 := -int64(k0), -int64(k1), -int64(k2), -int64(k3)
	t0, t1, t2, t3 := exp2Table[m0&63], exp2Table[m1&63], exp2Table[m2&63], exp2Table[m3&63]
	return float64(t0+float64(t0*p0)) * math.Float64frombits(uint64(m0>>6+1023)<<52),
		float64(t1+float64(t1*p1)) * math.Float64frombits(uint64(m1>>6+1023)<<52),
		float64(t2+float64(t2*p2)) * math.Float64frombits(uint64(m2>>6+1023)<<52),
		float64(t3+float64(t3*p3)) * math.Float64frombits(uint64(m3>>6+1023)<<52)
}
