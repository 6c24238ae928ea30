package auto

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/svclust/svclust/sample"
)

// Constants of the automatic choices of [Choose]. They were calibrated on
// generated data of many shapes, not on the paper's data sets
// (docs/defaults.md, "Kernel width, budget and neighbours").
const (
	// SampleRows is the largest number of rows whose statistics Choose
	// measures: its cost is O(SampleRows²·d) whatever N is.
	SampleRows = 2000
	// neighbourK is the neighbour whose distance sets the kernel width, as
	// minPts does in HDBSCAN.
	neighbourK = 5
	// widthRatio is the ratio of the kernel's length scale ℓ = 1/√γ to the
	// median distance to the neighbourK-th nearest neighbour.
	widthRatio = 1.5
	// projectedWidthRatio replaces widthRatio in the projected space of
	// the subspace rule (docs/high-dim.md, "The width in the projected
	// space").
	projectedWidthRatio = 1.0
	// coverRatio is the number of support vectors per ℓ-ball of a greedy
	// covering of the sample. The centres of a covering by balls of radius
	// ℓ can lie up to 2ℓ apart, and two equal kernels 2ℓ apart leave a dip
	// of 1 − 2e⁻¹/(1 + e⁻⁴) ≈ 28 % at their midpoint, while two ℓ apart
	// leave none (2e^(−1/4) > 1 + e⁻¹); a few support vectors per ball keep
	// f smooth along thin shapes.
	coverRatio = 3.0
	// cLevel is C·κmax: below 1, every training sample violates the
	// margin, so every SGD step adds its kernel and f + 1 is C times a
	// (budgeted) kernel density estimate.
	cLevel = 0.5
)

// COutsideShare is the share of the sample that the automatic C leaves
// outside the domain f ≥ 0 (see Choose).
const COutsideShare = 0.05

// Bounds of the automatic budget.
const (
	// MinBudget is the smallest budget Choose selects (fewer rows than
	// that give every row a support vector).
	MinBudget = 50
	// MaxBudget caps the budget Choose selects. Training, scoring and
	// predicting cost O(B·d) per row, so the cap keeps every pass linear
	// in N with a constant of at most MaxBudget kernel terms.
	MaxBudget = 1000
)

// Settings are the settings Choose starts from: a zero Gamma, C or Budget
// is chosen from the data.
type Settings struct {
	Gamma, C float64
	Budget   int
	// Seed seeds the sample the statistics are measured on.
	Seed uint64
	// Width and Space are the rules of the per-support-vector widths and
	// of the subspace; they apply when Gamma and C are both zero.
	Width WidthRule
	Space SpaceRule
	// Workers is the number of goroutines (0: GOMAXPROCS); no result
	// depends on it.
	Workers int
}

// Choose returns the settings of a model of the n rows of data (row-major,
// d columns) with the given settings c: the given Gamma, C and Budget, and
// for each zero one the automatic choice, all measured on one seeded
// sample of at most 2,000 rows:
//
//   - γ = 1/ℓ² with ℓ = 1.5·ρ, ρ the median distance from a row to its
//     5th nearest neighbour, as HDBSCAN's core distance with minPts = 5:
//     the kernel resolves the data at the scale of their neighbourhoods
//     (when duplicates make that median 0, the median over the other rows;
//     γ = 1 when all rows coincide);
//   - B = 3·(the number of ℓ-balls of a greedy covering of the sample),
//     within [MinBudget, MaxBudget] and at most N: more clusters,
//     or thinner ones, need more balls to cover them;
//   - C = 0.5/κmax, κmax the largest kernel density over the sample, so
//     that every training sample adds its kernel and f + 1 is a scaled
//     kernel density estimate whose levels the LevelTree rule reads.
//     With that C the domain f ≥ 0 is empty, so Train then multiplies C
//     and every coefficient by the factor (Choice.Scale) that puts the
//     boundary f = 0 at the COutsideShare (5 %) quantile of f over the
//     sample: the domain holds the densest 95 % of the data. This
//     changes no level set of f, only which one is f = 0; but the model is
//     then not the minimiser of J for the C it reports, since at that C
//     the hinge would have stopped the updates inside the domain. Choose
//     reports the C of training; the model's Choice the final one.
//
// When γ and C are both automatic, the data have at least four features
// and c.Space is AutoSpace, the subspace rule (Report.Concentration) may
// project the kernel onto a subspace of the features; Choose then returns
// that Subspace, nil otherwise, and measures the settings above in it,
// with ℓ = max(ρ, √2·h) for h Silverman's bandwidth of the projected
// sample instead of 1.5·ρ (docs/high-dim.md).
// It also returns the seeded sample of at most 2,000 rows the statistics
// were measured on, projected when the Subspace is not nil, or nil when
// every setting was given. Data whose scale makes an automatic value
// infinite, zero or NaN (squared distances beyond the range of float64,
// as at coordinates of 1e160 or 1e-160) give that value: the caller
// checks it.
func Choose(data []float64, n, d int, c Settings) (Choice, []float64, *Subspace) {
	var ch Choice
	ch.Gamma, ch.C, ch.Budget = c.Gamma, c.C, c.Budget
	ch.GammaAuto, ch.CAuto, ch.BudgetAuto = c.Gamma == 0, c.C == 0, c.Budget == 0
	if !ch.GammaAuto && !ch.CAuto && !ch.BudgetAuto {
		return ch, nil, nil
	}
	rng := rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))
	s := min(n, SampleRows)
	smp := sample.Rows(data, n, d, s, rng)
	ch.Sample = s
	var sub *Subspace
	var rho5, rho10 float64 // measured on the features by chooseSpace
	if ch.GammaAuto && ch.CAuto && c.Space == AutoSpace && d >= subspaceMinDim {
		sub, rho5, rho10 = chooseSpace(&ch, smp, s, d, c.Workers)
		if sub != nil {
			_, d = sub.Dims()
			smp = sub.ApplyRows(smp, s, c.Workers)
		}
	}
	if ch.GammaAuto {
		switch {
		case ch.ConcentrationMax > 0 && sub == nil && c.Width == AdaptiveWidth:
			ch.Rho, ch.RhoWidth = rho5, rho10 // the same pass as below
		case ch.CAuto && c.Width == AdaptiveWidth:
			ch.Rho, ch.RhoWidth = kthNeighbours(smp, s, d, neighbourK, widthK, c.Workers)
		default:
			ch.Rho = kthNeighbour(smp, s, d, neighbourK, c.Workers)
		}
		switch {
		case ch.Rho > 0:
			l := widthRatio * ch.Rho
			if sub != nil {
				// In the projected space: ρ itself, with Silverman's
				// bandwidth h as a floor (a Gaussian of standard deviation
				// h is exp(−‖x − y‖²/(2h²)), so the floor is ℓ = √2·h).
				// 1.5ρ grows with the dimension q like the distances within
				// one cluster and merged clusters that a narrower kernel
				// separates (docs/high-dim.md, "The width in the projected
				// space").
				ch.Silverman = silverman(smp, s, d)
				l = max(projectedWidthRatio*ch.Rho, math.Sqrt2*ch.Silverman)
			}
			ch.Gamma = 1 / (l * l)
		case allEqual(smp, d):
			ch.Gamma = 1 // every sampled row is the same point
		default:
			ch.Gamma = math.NaN() // distinct rows whose distances underflow: the caller reports it
		}
	}
	ch.budgetAndC(smp, s, d, n, c.Workers)
	return ch, smp, sub
}

// budgetAndC sets the automatic budget and C of ch for its γ from the s
// rows of smp in d dimensions (of n rows in all): the budget from a
// covering of the sample at the kernel's width, C from the sample's
// largest kernel density (Choose).
func (ch *Choice) budgetAndC(smp []float64, s, d, n, w int) {
	if ch.BudgetAuto {
		ch.Cover = cover(smp, s, d, 1/math.Sqrt(ch.Gamma))
		ch.Budget = min(n, max(MinBudget, min(MaxBudget, int(math.Ceil(coverRatio*float64(ch.Cover))))))
	}
	if ch.CAuto {
		ch.KappaMax = maxDensity(smp, s, d, ch.Gamma, w)
		ch.C = cLevel / ch.KappaMax
	}
}

// Within returns the choice for the settings c made in the subspace of the
// automatic choice a, whose projected sample smp (Choose) has q columns,
// of n rows in all: the settings c leaves zero are chosen as Choose
// chooses them on that sample (a zero γ is a's γ, the budget from a
// covering of the sample, C from its largest kernel density), and the
// Choice reports a's subspace rule (Projected, Q, …). Settings given as
// multiples of a's automatic γ are thus used on the scale that γ was
// measured on.
func Within(a Choice, smp []float64, q, n int, c Settings) Choice {
	var ch Choice
	ch.Gamma, ch.C, ch.Budget = c.Gamma, c.C, c.Budget
	ch.GammaAuto, ch.CAuto, ch.BudgetAuto = c.Gamma == 0, c.C == 0, c.Budget == 0
	ch.Sample, ch.IntrinsicDim = a.Sample, a.IntrinsicDim
	ch.Concentration, ch.ConcentrationMax, ch.ConcentrationScaled = a.Concentration, a.ConcentrationMax, a.ConcentrationScaled
	ch.Projected, ch.Q, ch.Edge, ch.EigenKept, ch.EigenNext = a.Projected, a.Q, a.Edge, a.EigenKept, a.EigenNext
	if ch.GammaAuto {
		ch.Gamma, ch.Rho, ch.Silverman = a.Gamma, a.Rho, a.Silverman
	}
	ch.budgetAndC(smp, a.Sample, q, n, c.Workers)
	return ch
}

// ScaleOf returns the factor that puts f = 0 at the COutsideShare
// quantile of the values g = f + 1 over the sample, sorting g: the
// automatic C and every coefficient are multiplied by it after training
// (Decision.Scale). It returns false when that quantile is not positive
// or its inverse not finite; nothing is then rescaled.
func ScaleOf(g []float64) (float64, bool) {
	s := len(g)
	slices.Sort(g)
	q := g[min(s-1, int(COutsideShare*float64(s)))]
	if !(q > 0) || math.IsInf(1/q, 0) {
		return 0, false
	}
	return 1 / q, true
}
