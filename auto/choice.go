package auto

// Choice is the outcome of [Choose]: the Decision a model is trained and
// kept with, and the Report of what was measured to reach it. Both are
// embedded, so ch.Gamma and ch.Rho read alike.
type Choice struct {
	Decision
	Report
}

// Decision holds the settings a model is trained with and the rules it
// keeps: what Choose decided, or what was given.
type Decision struct {
	// Gamma, C and Budget are the values used; the Auto fields tell
	// which were chosen by the rules of Choose rather than given.
	Gamma, C                     float64
	Budget                       int
	GammaAuto, CAuto, BudgetAuto bool
	// Scale is the factor by which C and every coefficient were
	// multiplied after training, to put the boundary f = 0 at the
	// COutsideShare quantile of f over the sample (ScaleOf); 0 when they
	// were not. C is then the final C, and C/Scale that of training.
	Scale float64
	// Adaptive reports that each support vector has a kernel width of its
	// own (Widths; see Report.RhoWidth).
	Adaptive bool
	// Projected reports that the kernel lives in a subspace of Q
	// directions of the features (see Report.Concentration and
	// [Subspace]).
	Projected bool
	Q         int
	// MinIter is the number of SGD steps before the stopping rule was
	// first checked when training chose it from the number of rows and it
	// differs from the default; 0 otherwise.
	MinIter int
}

// Report holds the statistics the automatic settings were chosen from.
type Report struct {
	// Sample is the number of rows the statistics were measured on.
	Sample int
	// Rho is the median distance from a sampled row to its 5th nearest
	// other sampled row; the automatic γ is 1/(1.5·Rho)².
	Rho float64
	// Cover is the number of balls of radius ℓ = 1/√γ a greedy covering of
	// the sample needs; the automatic budget is 3·Cover, within
	// [MinBudget, MaxBudget] and at most N.
	Cover int
	// KappaMax is the largest kernel density (1/s)Σⱼ k(x, xⱼ) over the
	// sample; the automatic C trains at 0.5/KappaMax (see
	// Decision.Scale).
	KappaMax float64

	// RhoWidth is the median distance from a sampled row to its 10th
	// nearest other sampled row, measured when γ and C are both automatic
	// and the width rule is AdaptiveWidth (0 otherwise). When it is
	// positive, [Choice.Widths] gives each support vector svᵢ a width of
	// its own: with rᵢ the distance from svᵢ to its 10th nearest sampled
	// row (not counting svᵢ itself when it is one), its length scale is
	//
	//	ℓᵢ = ℓ·min(1, max(¼, rᵢ/RhoWidth)),  γᵢ = 1/ℓᵢ²,
	//
	// so f + 1 = Σᵢ αᵢ exp(−γᵢ‖x − svᵢ‖²) is a sample-point adaptive kernel
	// density estimate (the k-NN distance as the local bandwidth, as
	// HDBSCAN's core distance adapts its scale): where the data are denser
	// than the median, kernels narrow in proportion to the distance to
	// the 10th neighbour, down to ℓ/4; elsewhere they keep the global ℓ
	// (widening them there merged clusters of sparse, high-dimensional
	// sets). Each kernel keeps its coefficient (it is not divided by its
	// volume, which in d dimensions is (ℓᵢ/ℓ)^d of the global one). The
	// widths are set after training, from the final support vectors'
	// positions, and before C is rescaled; training, merges included, uses
	// the global γ. It costs O(B·s·d) for s sampled rows, independent of
	// N. Narrowed counts the support vectors with ℓᵢ < ℓ; WidthMin and
	// WidthMedian are the smallest and median ℓᵢ/ℓ.
	RhoWidth              float64
	Narrowed              int
	WidthMin, WidthMedian float64

	// The subspace rule, measured when γ and C are both automatic, the
	// space rule is AutoSpace and the data have at least four features
	// (all zero otherwise; a choice made by [Within] reports the rule of
	// the automatic choice whose subspace it trains in). Concentration is
	// ρ_med/ρ, the median distance between two sampled rows over Rho
	// measured on the features; ConcentrationMax the threshold (6) below
	// which the model is Projected onto Q directions: those whose
	// spatial-sign covariance eigenvalue, on a scale where they sum to d,
	// exceeds the noise Edge (1 + √(d/s))²; EigenKept is the smallest
	// eigenvalue kept and EigenNext the next one (0 when Q = d). When no
	// eigenvalue exceeds the edge, Q is 1. IntrinsicDim is
	// ln 2 / ln(ρ₁₀/ρ₅), an estimate of the dimension of the data from
	// their 5th and 10th neighbour distances, reported only. When
	// Projected, Rho, Cover, KappaMax and RhoWidth are measured in the
	// projected space, and ℓ = max(ρ, √2·Silverman) with Silverman the
	// rule-of-thumb bandwidth of the projected sample.
	Concentration, ConcentrationMax float64
	IntrinsicDim                    float64
	Edge                            float64
	EigenKept, EigenNext            float64
	Silverman                       float64

	// ConcentrationScaled is Concentration scaled to a sample of 2,000
	// rows when the sample has fewer, Concentration·(2000/Sample)^(1/d),
	// and then the value compared with ConcentrationMax (0 when the sample
	// has 2,000 rows or the subspace rule was not measured): k-NN distances
	// grow as the sample shrinks, so that few rows of well-separated
	// clusters would look concentrated (docs/high-dim.md).
	ConcentrationScaled float64
}

// WidthRule returns the kernel-width rule of the model c was made for:
// AdaptiveWidth when its support vectors have widths of their own
// (Adaptive), GlobalWidth otherwise.
func (c Choice) WidthRule() WidthRule {
	if c.Adaptive {
		return AdaptiveWidth
	}
	return GlobalWidth
}
