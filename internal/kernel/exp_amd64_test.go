//go:build amd64

package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpArch: the exponential ExpNeg calls gives math.Exp's bits on 10⁷
// arguments over [−expZero, 0] (uniform, and dense near 0 where kernel
// values live), and at the ends of the range.
func TestExpArch(t *testing.T) {
	if expPath == 0 {
		t.Skip("neither path of the assembly agrees with math.Exp here: ExpNeg calls math.Exp")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	check := func(x float64) {
		if got, want := expArch(x), math.Exp(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("path %d: exp(%v) = %v, math.Exp %v", expPath, x, got, want)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -1e-300, -708, -708.0001, -709, -745, -expZero, math.NaN(), 1, expOverflow, 710} {
		check(x)
	}
	for i := range 10_000_000 {
		switch i % 3 {
		case 0:
			check(-rng.Float64() * expZero)
		case 1:
			check(-rng.Float64() * 8)
		default:
			check(-rng.ExpFloat64() * 30)
		}
	}
}

// TestExpProbesTellPathsApart: the two paths of the assembly differ on some
// of the probes, so init cannot take one for the other.
func TestExpProbesTellPathsApart(t *testing.T) {
	differ := 0
	for i := range expProbes {
		if x := expProbe(i); expFMA(x) != expPlain(x) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("expFMA and expPlain agree on every probe")
	}
	t.Logf("%d of %d probes differ", differ, expProbes)
}

// TestExpArch4: expArch4 gives expArch's bits lane by lane, with arguments
// that take the fast path and ones that do not.
func TestExpArch4(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 2_000_000 {
		var x [4]float64
		for l := range x {
			x[l] = -rng.Float64() * 30
			if i%50 == 0 {
				x[l] = -rng.Float64() * expZero
			}
		}
		y0, y1, y2, y3 := expArch4(x[0], x[1], x[2], x[3])
		for l, y := range [4]float64{y0, y1, y2, y3} {
			if want := expArch(x[l]); math.Float64bits(y) != math.Float64bits(want) {
				t.Fatalf("lane %d: exp(%v) = %v, want %v", l, x[l], y, want)
			}
		}
	}
}
