//go:build !amd64

package kernel

import "math"

// expArch returns math.Exp(x).
func expArch(x float64) float64 { return math.Exp(x) }

// expArch4 returns expArch of four arguments.
func expArch4(x0, x1, x2, x3 float64) (float64, float64, float64, float64) {
	return math.Exp(x0), math.Exp(x1), math.Exp(x2), math.Exp(x3)
}
