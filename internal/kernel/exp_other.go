//go:build !amd64

package kernel

import "math"

// expArch returns math.Exp(x).
func expArch(x float64) float64 { return math.Exp(x) }
