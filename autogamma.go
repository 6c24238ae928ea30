package svclust

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// autoGammaCentres is the number of centres AutoGamma uses without a budget.
const autoGammaCentres = 50

// autoGammaSample is the largest number of rows whose distances AutoGamma
// measures.
const autoGammaSample = 2000

// autoGammaWidth is the ratio c of the kernel's length scale to the
// covering radius ρ in AutoGamma, and autoGammaDraws the number of random
// sets of centres whose radii it averages. Both were calibrated, once, with
// a program outside the repository, on the generated data sets of package
// dataset (n = 1000, z-scored, budget 50,
// BSGD-M merging, the default; data seeds 1–3 × training seeds 1–10): the
// mean ARI was, for c = 1.6, 1.7, 1.8, 1.9, 0.93, 0.97, 0.94, 0.94 on moons
// and 0.79, 0.82, 0.86, 0.88 on nested, and 0.96–1.00 on gauss3 and gauss4
// for c between 1.8 and 2.5; a wider kernel bridges the rings of nested, a
// narrower one breaks the moons. One draw of centres made γ vary by 30 %
// between seeds (6.8–8.9 on nested); ten draws steady it.
const (
	autoGammaWidth = 1.9
	autoGammaDraws = 10
)

// AutoGamma returns a kernel width γ for the rows of x chosen without
// labels, as used by [Train] when Config.Gamma is 0. A model with B support
// vectors describes the data by B Gaussian bumps, so their common length
// scale ℓ = 1/√γ must let B centres cover the data: AutoGamma draws
// B = budget rows (50 when budget is 0) at random from seed as centres,
// takes the median distance from a row (of a sample of at most 2,000) to
// its nearest centre, averages it over 10 draws of centres into ρ, and
// returns γ = 1/(c·ρ)² with c = 1.9. Rows at distance 0 from their nearest
// centre do not count; when no row is left, as when x has at most B rows
// and every row is a centre, the median distance from a centre to its
// nearest other centre counts instead. It returns 1 when x is empty or all
// its rows coincide.
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
	m := min(n, autoGammaSample)
	sample := sampleRows(data, n, d, m, rng)
	dist := make([]float64, b)
	rho := make([]float64, 0, m)
	var sum float64 // of the draws' median distances
	draws := 0
	for range autoGammaDraws {
		centres := sampleRows(data, n, d, b, rng)
		rho = rho[:0]
		for i := range m {
			kernel.SqDistRowTo(dist, sample[i*d:i*d+d], centres)
			if v := slices.Min(dist); v > 0 {
				rho = append(rho, v)
			}
		}
		if len(rho) == 0 {
			// Every sampled row coincides with a centre, as when n ≤
			// budget makes every row a centre: measure instead from each
			// centre to its nearest distinct other centre.
			rho = nearestOther(rho, centres, b, d)
		}
		if len(rho) > 0 {
			slices.Sort(rho)
			sum += math.Sqrt(rho[len(rho)/2])
			draws++
		}
	}
	if draws == 0 {
		return 1
	}
	r := autoGammaWidth * sum / float64(draws)
	return 1 / (r * r)
}

// nearestOther appends to dst, for each of the b rows of centres, the
// squared distance to its nearest other centre that does not coincide with
// it, if there is one.
func nearestOther(dst, centres []float64, b, d int) []float64 {
	dist := make([]float64, b)
	for i := range b {
		kernel.SqDistRowTo(dist, centres[i*d:i*d+d], centres)
		v := math.Inf(1)
		for _, s := range dist {
			if s > 0 && s < v {
				v = s
			}
		}
		if !math.IsInf(v, 1) {
			dst = append(dst, v)
		}
	}
	return dst
}

// autoCLevel is the level a of AutoC. Measured on the generated sets
// (n = 1000, budget 50, k-NN projection and the AutoGamma of that time,
// c = 2.5 with one draw; the current defaults were then calibrated with
// a = 16 kept): a = 8 breaks nested into
// 8 clusters, a = 16 and 32 find 2–3; larger a makes more of the data inside
// the domain and bridges close clusters.
const autoCLevel = 16

// AutoC returns the trade-off C used by [Train] when Config.C is 0, for the
// rows of x and kernel width gamma: C = a/κ with a = 16, where κ is the median
// over rows of the kernel density κ(x) = (1/N) Σⱼ k(x, xⱼ), both estimated on
// a seeded sample of at most 2,000 rows.
//
// The paper searches C on a fixed grid, but the C that places the boundary
// f = 0 at a given density level depends on γ: with every coefficient at its
// bound C/N the decision function is f(x) ≈ C·κ(x) − 1, so C·κ is what
// matters. C = a/κ puts the typical point well inside the domain (a > 1)
// whatever γ, data size and scale are.
func AutoC(x mat.Matrix, gamma float64, seed uint64) float64 {
	data, n, d, err := flatten(x)
	if err != nil || !(gamma > 0) {
		return DefaultC
	}
	return autoC(data, n, d, gamma, seed, numWorkers(0))
}

// autoC is AutoC on w goroutines: each density is one row's sum, so the
// result does not depend on w.
func autoC(data []float64, n, d int, gamma float64, seed uint64, w int) float64 {
	rng := rand.New(rand.NewPCG(seed, seed^0x3c6ef372fe94f82b))
	m := min(n, autoGammaSample)
	sample := sampleRows(data, n, d, m, rng)
	dens := make([]float64, m)
	ones := make([]float64, m)
	for i := range ones {
		ones[i] = 1
	}
	parallel.For(m, 64, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dens[i] = kernel.Sum(sample[i*d:i*d+d], sample, ones, gamma) / float64(m)
		}
	})
	slices.Sort(dens)
	return autoCLevel / dens[m/2]
}

// sampleRows returns m ≤ n of the n rows of data, drawn without
// replacement from rng, as one row-major slice. It takes O(m) memory: the
// first m steps of a Fisher–Yates shuffle, with the moved entries of the
// permutation kept in a map.
func sampleRows(data []float64, n, d, m int, rng *rand.Rand) []float64 {
	out := make([]float64, 0, m*d)
	moved := make(map[int]int, 2*m) // entry of the permutation, where it is not the identity
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	for i := range m {
		j := i + rng.IntN(n-i)
		pi, pj := at(i), at(j)
		moved[i], moved[j] = pj, pi
		out = append(out, data[pj*d:pj*d+d]...)
	}
	return out
}
