package svclust

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/kernel"
)

// autoGammaCentres is the number of centres AutoGamma uses without a budget.
const autoGammaCentres = 50

// autoGammaSample is the largest number of rows whose distances AutoGamma
// measures.
const autoGammaSample = 2000

// autoGammaWidth is the ratio c of the kernel's length scale to the
// covering radius ρ in AutoGamma. It was calibrated on the generated data
// sets of package dataset (n = 1000, z-scored, budget 50), where clustering
// quality peaks for ℓ between about 4ρ and 8ρ.
var autoGammaWidth = 6.0

// AutoGamma returns a kernel width γ for the rows of x chosen without
// labels, as used by [Train] when Config.Gamma is 0. A model with B support
// vectors describes the data by B Gaussian bumps, so their common length
// scale ℓ = 1/√γ must let B centres cover the data: AutoGamma draws
// B = budget rows (50 when budget is 0) at random from seed as centres,
// takes the median distance ρ from a row (of a sample of at most 2,000) to
// its nearest centre, and returns γ = 1/(c·ρ)² with c = 6. It returns 1 when
// x is empty or all its rows coincide.
func AutoGamma(x mat.Matrix, budget int, seed uint64) float64 {
	data, n, d, err := flatten(x)
	if err != nil {
		return 1
	}
	return autoGamma(data, n, d, budget, seed)
}

func autoGamma(data []float64, n, d, budget int, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := budget
	if b <= 0 {
		b = autoGammaCentres
	}
	b = min(b, n)
	perm := rng.Perm(n)
	centres := make([]float64, 0, b*d)
	for _, i := range perm[:b] {
		centres = append(centres, data[i*d:i*d+d]...)
	}
	m := min(n, autoGammaSample)
	rho := make([]float64, 0, m)
	dist := make([]float64, b)
	for _, i := range rng.Perm(n)[:m] {
		kernel.SqDistRowTo(dist, data[i*d:i*d+d], centres)
		if v := slices.Min(dist); v > 0 {
			rho = append(rho, v)
		}
	}
	if len(rho) == 0 {
		return 1
	}
	slices.Sort(rho)
	rho2 := rho[len(rho)/2] // a squared distance
	return 1 / (autoGammaWidth * autoGammaWidth * rho2)
}
