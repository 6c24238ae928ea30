package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulpDiff returns the distance in units in the last place between two
// non-negative doubles.
func ulpDiff(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

// TestExpNegAccuracy: ExpNeg is within 2 ulp of math.Exp, itself within 1
// ulp of exp (Go's documentation of math.Exp: "very accurate"; its
// reference is FreeBSD's e_exp.c, error < 1 ulp), on 10⁷ arguments over
// [0, expZero] (uniform, dense near 0 where kernel values live, and in the
// subnormal range), and most of the time equal to it. The bound is what the
// error analysis of exp.go gives: half an ulp from the table entry, one
// rounding in each of t·p and t + t·p, the polynomial's truncation below
// half an ulp.
func TestExpNegAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var hist [3]int
	for i := range 10_000_000 {
		var u float64
		switch i % 4 {
		case 0:
			u = rng.Float64() * expZero
		case 1:
			u = rng.Float64() * 8
		case 2:
			u = rng.ExpFloat64() * 30
		default:
			u = expNormal + rng.Float64()*(expZero-expNormal)
		}
		got, want := ExpNeg(u), math.Exp(-u)
		d := ulpDiff(got, want)
		if d > 2 {
			t.Fatalf("ExpNeg(%v) = %v, math.Exp %v: %d ulp apart", u, got, want, d)
		}
		hist[d]++
	}
	if hist[0] < 5_000_000 {
		t.Errorf("only %d of 10⁷ values equal math.Exp's (want most): %v", hist[0], hist)
	}
	t.Logf("ulp from math.Exp: 0: %d, 1: %d, 2: %d", hist[0], hist[1], hist[2])
	for _, u := range []float64{0, math.Copysign(0, -1), 1e-300, 1e-17, expNormal, 708.5, 745, 745.13, expZero} {
		if got, want := ExpNeg(u), math.Exp(-u); ulpDiff(got, want) > 2 {
			t.Errorf("ExpNeg(%v) = %v, math.Exp %v", u, got, want)
		}
	}
	if ExpNeg(0) != 1 {
		t.Errorf("ExpNeg(0) = %v, want 1", ExpNeg(0))
	}
	for _, u := range []float64{-1, -0.5, math.Inf(-1)} {
		if got, want := ExpNeg(u), math.Exp(-u); got != want {
			t.Errorf("ExpNeg(%v) = %v, want math.Exp's %v", u, got, want)
		}
	}
}

// TestExp2Table: each entry t is 2^{j/64} rounded to nearest: with m− and
// m+ the midpoints between t and its neighbours, (m−)⁶⁴ < 2ʲ < (m+)⁶⁴,
// computed in 1,000-bit arithmetic (far more than the 2⁻⁵⁴ relative gap
// the comparison needs).
func TestExp2Table(t *testing.T) {
	const prec = 1000
	// pow64Mid returns ((a + b)/2)⁶⁴.
	pow64Mid := func(a, b float64) *big.Float {
		v := new(big.Float).SetPrec(prec).SetFloat64(a)
		v.Add(v, new(big.Float).SetFloat64(b))
		v.Quo(v, big.NewFloat(2))
		for range 6 { // 2⁶ = 64
			v.Mul(v, v)
		}
		return v
	}
	for j, e := range exp2Table {
		want := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), j)
		if pow64Mid(e, math.Nextafter(e, 0)).Cmp(want) >= 0 || pow64Mid(e, math.Nextafter(e, 3)).Cmp(want) <= 0 {
			t.Errorf("exp2Table[%d] = %v is not 2^(%d/64) rounded to nearest", j, e, j)
		}
	}
}

func BenchmarkExpNeg4(b *testing.B) {
	u := make([]float64, 1024)
	for i := range u {
		u[i] = float64(i) * 0.37
	}
	var sink float64
	for b.Loop() {
		for i := 0; i < len(u); i += 4 {
			e0, e1, e2, e3 := expNeg4(u[i], u[i+1], u[i+2], u[i+3])
			sink += e0 + e1 + e2 + e3
		}
	}
	_ = sink
}
