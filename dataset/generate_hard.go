package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// HardKind names a generated data set of the kinds where density methods
// are known to fail (issue 36): [GenerateHard] draws them.
type HardKind string

const (
	// BallShell is a ball inside a shell in 3-D: class 0 uniform in the
	// ball of radius 1 about the origin, class 1 uniform in the shell of
	// radii 1.5 to 2, half the points each (the shell is 4.6 times
	// sparser than the ball, the gap half the ball's radius).
	BallShell HardKind = "ballshell"
	// Touching is two touching Gaussians of different density in 2-D:
	// class 0 with standard deviation 0.5 about the origin, class 1 with
	// standard deviation 2 about (3, 0), half the points each; along the
	// line between the centres the density has a shallow valley, about
	// 88 % of the sparse class's peak.
	Touching HardKind = "touching"
	// Noise5, Noise10 and Noise20 are four Gaussians with standard
	// deviation 1.5 about (±3, ±3) (classes 0–3: neighbours 4 standard
	// deviations apart, where the valley between two is 27 % of their
	// peaks) with 5, 10 and 20 % of the points uniform on the square
	// [−8, 8]² as class 4.
	Noise5  HardKind = "noise5"
	Noise10 HardKind = "noise10"
	Noise20 HardKind = "noise20"
)

// HardKinds returns the kinds of GenerateHard.
func HardKinds() []HardKind {
	return []HardKind{BallShell, Touching, Noise5, Noise10, Noise20}
}

// hardShapes are the shapes of the hard kinds.
var hardShapes = map[HardKind]shape{
	BallShell: {
		dim:     3,
		weights: []float64{1, 1},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			// A uniform direction times a radius whose cube is uniform
			// between the cubes of the radii.
			lo, hi := 0.0, 1.0
			if k == 1 {
				lo, hi = 1.5, 2
			}
			r := math.Cbrt(lo*lo*lo + (hi*hi*hi-lo*lo*lo)*rnd.Float64())
			var s float64
			for j := range p {
				p[j] = rnd.NormFloat64()
				s += p[j] * p[j]
			}
			s = r / math.Sqrt(s)
			for j := range p {
				p[j] *= s
			}
		},
	},
	Touching: {
		dim:     2,
		weights: []float64{1, 1},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			if k == 0 {
				p[0], p[1] = 0.5*rnd.NormFloat64(), 0.5*rnd.NormFloat64()
				return
			}
			p[0], p[1] = 3+2*rnd.NormFloat64(), 2*rnd.NormFloat64()
		},
	},
	Noise5:  noisy(5),
	Noise10: noisy(10),
	Noise20: noisy(20),
}

// noisy returns the shape of the noise kinds with pct percent of the
// points noise.
func noisy(pct float64) shape {
	b := (100 - pct) / 4
	return shape{
		dim:     2,
		weights: []float64{b, b, b, b, pct},
		point: func(rnd *rand.Rand, k, _, _ int, p []float64) {
			const (
				sd   = 1.5
				half = 8 // the noise fills [−half, half]²
			)
			if k == 4 {
				p[0] = 2*half*rnd.Float64() - half
				p[1] = 2*half*rnd.Float64() - half
				return
			}
			c := [4][2]float64{{-3, -3}, {3, 3}, {-3, 3}, {3, -3}}[k]
			p[0], p[1] = c[0]+sd*rnd.NormFloat64(), c[1]+sd*rnd.NormFloat64()
		},
	}
}

// GenerateHard returns n points of the kind, with features "x1".."xd"
// (d = 3 for BallShell, 2 otherwise) and labels 0..k−1 whose Classes are
// "0".."k−1", the classes getting n in proportion to the weights given at
// each kind, shuffled, as [Generate] does: a deterministic function of
// kind, n and seed. It returns an error for an unknown kind or n < 1.
func GenerateHard(kind HardKind, n int, seed uint64) (*Dataset, error) {
	sh, ok := hardShapes[kind]
	if !ok {
		return nil, fmt.Errorf("dataset: unknown hard kind %q (want ballshell, touching, noise5, noise10 or noise20)", kind)
	}
	if n < 1 {
		return nil, fmt.Errorf("dataset: cannot generate %d points; need n ≥ 1", n)
	}
	return drawn("GenerateHard", sh, split(n, sh.weights), n, seed)
}
