package auto

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// WidthRule says whether a model trained with the automatic γ and C gives
// each support vector a kernel width of its own (see the Settings' Width).
type WidthRule int

const (
	// AdaptiveWidth, the default, narrows the kernel of each support
	// vector that lies where the data are denser than the median, after
	// training (see Choice.Adaptive). It applies only when both γ and C are
	// chosen automatically; with either given, the model has one width.
	AdaptiveWidth WidthRule = iota
	// GlobalWidth keeps one kernel width γ for every support vector, as
	// the paper's model has.
	GlobalWidth
)

// String returns "adaptive" or "global".
func (w WidthRule) String() string {
	switch w {
	case AdaptiveWidth:
		return "adaptive"
	case GlobalWidth:
		return "global"
	}
	return "WidthRule(" + strconv.Itoa(int(w)) + ")"
}

// ParseWidth returns the WidthRule named by s, as String writes it.
func ParseWidth(s string) (WidthRule, error) {
	switch s {
	case "adaptive":
		return AdaptiveWidth, nil
	case "global":
		return GlobalWidth, nil
	}
	return 0, fmt.Errorf("svclust: unknown width rule %q (want adaptive or global)", s)
}

// Constants of the adaptive widths (see Choice.Adaptive), calibrated on the
// generated kinds of package dataset, then checked on the paper's 15 sets
// (docs/defaults.md, "Adaptive widths").
const (
	// widthK is the neighbour whose distance measures the local density:
	// the variance of a k-NN density estimate falls like 1/k, and 10 gave
	// smoother widths than neighbourK = 5 on the generated kinds.
	widthK = 10
	// widthMin is the narrowest kernel, as a fraction of the global ℓ.
	widthMin = 0.25
)

// adaptiveWidth returns the ratio ℓᵢ/ℓ of the length scale of a support
// vector whose widthK-th nearest sampled row lies at distance r to the
// global one, for the median widthK-th neighbour distance rho of the
// sample: min(1, max(widthMin, r/rho)).
func adaptiveWidth(r, rho float64) float64 {
	return min(1, max(widthMin, r/rho))
}

// kthTo returns the distance from x to its k-th nearest row of the s rows
// of smp (the farthest when s < k), not counting one row at distance 0,
// which is x itself when x is a sampled row, so that a support vector and
// a sampled row are measured alike (kthNeighbour skips each row itself).
// dist is scratch of length s.
func kthTo(x, smp []float64, k int, dist []float64) float64 {
	kernel.SqDistRowTo(dist, x, smp)
	n := len(dist)
	for i, v := range dist {
		if v == 0 {
			dist[i] = dist[n-1]
			n--
			break
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(quickSelect(dist[:n], min(k, n)-1))
}

// Widths gives each of the support vectors sv (row-major, d columns) the
// width of adaptiveWidth, its distance r measured by kthTo against the
// sample smp, and returns their widths γᵢ, recording the rule's
// statistics in ch (Adaptive, Narrowed, WidthMin, WidthMedian). It returns
// nil, and changes nothing, when the median distance ch.RhoWidth is not
// positive and finite. γᵢ = ch.Gamma/(ℓᵢ/ℓ)² ≥ ch.Gamma exactly.
func (ch *Choice) Widths(sv []float64, d int, smp []float64, w int) []float64 {
	rho := ch.RhoWidth
	if !(rho > 0) || math.IsInf(rho, 0) {
		return nil
	}
	s := len(smp) / d
	b := len(sv) / d
	ls := make([]float64, b)
	parallel.For(b, 16, w, func(_, lo, hi int) {
		dist := make([]float64, s)
		for i := lo; i < hi; i++ {
			ls[i] = adaptiveWidth(kthTo(sv[i*d:i*d+d], smp, widthK, dist), rho)
		}
	})
	// γᵢ = γ/(ℓᵢ/ℓ)² ≥ γ exactly, since (ℓᵢ/ℓ)² ≤ 1 after rounding: the
	// index of the support vectors bounds every term by γ
	// (kernel.NewTermsEach).
	gammas := make([]float64, b)
	narrowed := 0
	for i, q := range ls {
		gammas[i] = ch.Gamma / (q * q)
		if q < 1 {
			narrowed++
		}
	}
	slices.Sort(ls)
	ch.Adaptive = true
	ch.Narrowed = narrowed
	ch.WidthMin, ch.WidthMedian = ls[0], ls[b/2]
	return gammas
}
