//go:build amd64

package kernel

import "math"

// The exponential of math.Exp on amd64 (its assembly, math/exp_amd64.s)
// written in Go, operation for operation, so that it gives the same bits
// while the compiler can inline and schedule it (math.Exp's assembly is
// called through a wrapper that nothing can inline). The assembly takes one of two paths, with fused
// multiply-adds on processors that have them and without; expFMA and
// expPlain are the two, and init keeps the one that agrees with math.Exp
// on expProbes arguments (both paths round differently on some of them,
// TestExpProbesTellPathsApart), or math.Exp itself if neither does.
const (
	expLn2U     = 0.69314718055966295651160180568695068359375
	expLn2L     = 0.28235290563031577122588448175013436025525412068e-12
	expLog2e    = 1.4426950408889634073599246810018920
	expOverflow = 7.09782712893384e+02
)

// expPath is the path ExpNeg takes: 0 math.Exp, 1 expFMA, 2 expPlain.
var expPath = pickExp()

// expProbes is the number of arguments init compares.
const expProbes = 256

// expProbe returns the i-th argument init compares: spread over
// [−expZero, 0], where ExpNeg calls the exponential.
func expProbe(i int) float64 {
	return -expZero * float64((i*7919)%expProbes) / expProbes * (1 - 1e-3*float64(i%13))
}

func pickExp() int {
	for path, f := range []func(float64) float64{expFMA, expPlain} {
		ok := true
		for i := range expProbes {
			x := expProbe(i)
			if math.Float64bits(f(x)) != math.Float64bits(math.Exp(x)) {
				ok = false
				break
			}
		}
		if ok {
			return path + 1
		}
	}
	return 0
}

// expArch returns math.Exp(x) for x ≤ 0 by the path init chose.
func expArch(x float64) float64 {
	switch expPath {
	case 1:
		return expFMA(x)
	case 2:
		return expPlain(x)
	}
	return math.Exp(x)
}

// expFMA is the assembly's path with fused multiply-adds, for finite
// x ≤ 0 whose result is a normal number; other x go to math.Exp.
func expFMA(x float64) float64 {
	if !(x >= -708 && x <= expOverflow) {
		return math.Exp(x)
	}
	k := math.RoundToEven(x * expLog2e) // CVTSD2SL rounds to nearest even
	r := math.FMA(-expLn2U, k, x)
	r = math.FMA(-expLn2L, k, r)
	r *= 0.0625
	p := 2.4801587301587301587e-5
	p = math.FMA(p, r, 1.9841269841269841270e-4)
	p = math.FMA(p, r, 1.3888888888888888889e-3)
	p = math.FMA(p, r, 8.3333333333333333333e-3)
	p = math.FMA(p, r, 4.1666666666666666667e-2)
	p = math.FMA(p, r, 1.6666666666666666667e-1)
	p = math.FMA(p, r, 0.5)
	p = math.FMA(p, r, 1.0)
	r *= p
	r *= r + 2
	r *= r + 2
	r *= r + 2
	r = math.FMA(r, r+2, 1.0)
	return r * math.Float64frombits(uint64(int64(k)+0x3FF)<<52)
}

// expPlain is the assembly's path without fused multiply-adds (the
// conversions to float64 forbid fusing), for the same x as expFMA.
func expPlain(x float64) float64 {
	if !(x >= -708 && x <= expOverflow) {
		return math.Exp(x)
	}
	k := math.RoundToEven(x * expLog2e)
	r := x - float64(expLn2U*k)
	r = r - float64(expLn2L*k)
	r *= 0.0625
	p := float64(2.4801587301587301587e-5 * r)
	p = float64((p + 1.9841269841269841270e-4) * r)
	p = float64((p + 1.3888888888888888889e-3) * r)
	p = float64((p + 8.3333333333333333333e-3) * r)
	p = float64((p + 4.1666666666666666667e-2) * r)
	p = float64((p + 1.6666666666666666667e-1) * r)
	p = float64((p + 0.5) * r)
	p += 1.0
	r *= p
	r *= r + 2
	r *= r + 2
	r *= r + 2
	r *= r + 2
	r += 1.0
	return r * math.Float64frombits(uint64(int64(k)+0x3FF)<<52)
}

// expArch4 returns expArch of four arguments ≤ 0. On the path with fused
// multiply-adds it runs expFMA's operations on the four side by side, so
// that their chains of dependent operations overlap; each result has
// expFMA's bits.
func expArch4(x0, x1, x2, x3 float64) (float64, float64, float64, float64) {
	if expPath != 1 || !(x0 >= -708 && x1 >= -708 && x2 >= -708 && x3 >= -708) {
		return expArch(x0), expArch(x1), expArch(x2), expArch(x3)
	}
	k0 := math.RoundToEven(x0 * expLog2e)
	k1 := math.RoundToEven(x1 * expLog2e)
	k2 := math.RoundToEven(x2 * expLog2e)
	k3 := math.RoundToEven(x3 * expLog2e)
	r0 := math.FMA(-expLn2L, k0, math.FMA(-expLn2U, k0, x0)) * 0.0625
	r1 := math.FMA(-expLn2L, k1, math.FMA(-expLn2U, k1, x1)) * 0.0625
	r2 := math.FMA(-expLn2L, k2, math.FMA(-expLn2U, k2, x2)) * 0.0625
	r3 := math.FMA(-expLn2L, k3, math.FMA(-expLn2U, k3, x3)) * 0.0625
	r0 *= expPoly(r0)
	r1 *= expPoly(r1)
	r2 *= expPoly(r2)
	r3 *= expPoly(r3)
	for range 3 {
		r0 *= r0 + 2
		r1 *= r1 + 2
		r2 *= r2 + 2
		r3 *= r3 + 2
	}
	r0 = math.FMA(r0, r0+2, 1.0)
	r1 = math.FMA(r1, r1+2, 1.0)
	r2 = math.FMA(r2, r2+2, 1.0)
	r3 = math.FMA(r3, r3+2, 1.0)
	return r0 * math.Float64frombits(uint64(int64(k0)+0x3FF)<<52),
		r1 * math.Float64frombits(uint64(int64(k1)+0x3FF)<<52),
		r2 * math.Float64frombits(uint64(int64(k2)+0x3FF)<<52),
		r3 * math.Float64frombits(uint64(int64(k3)+0x3FF)<<52)
}

// expPoly is the polynomial of expFMA, by fused multiply-adds.
func expPoly(r float64) float64 {
	p := 2.4801587301587301587e-5
	p = math.FMA(p, r, 1.9841269841269841270e-4)
	p = math.FMA(p, r, 1.3888888888888888889e-3)
	p = math.FMA(p, r, 8.3333333333333333333e-3)
	p = math.FMA(p, r, 4.1666666666666666667e-2)
	p = math.FMA(p, r, 1.6666666666666666667e-1)
	p = math.FMA(p, r, 0.5)
	return math.FMA(p, r, 1.0)
}
