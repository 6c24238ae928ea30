package svclust

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/sample"
)

// Constants of the automatic choices of [Choose]. They were calibrated on
// generated data of many shapes, not on the paper's data sets
// (docs/defaults.md, "Kernel width, budget and neighbours").
const (
	// autoSample is the largest number of rows whose statistics Choose
	// measures: its cost is O(autoSample²·d) whatever N is.
	autoSample = 2000
	// autoK is the neighbour whose distance sets the kernel width, as
	// minPts does in HDBSCAN.
	autoK = 5
	// autoWidth is the ratio of the kernel's length scale ℓ = 1/√γ to the
	// median distance to the autoK-th nearest neighbour.
	autoWidth = 1.5
	// autoCover is the number of support vectors per ℓ-ball of a greedy
	// covering of the sample. The centres of a covering by balls of radius
	// ℓ can lie up to 2ℓ apart, and two equal kernels 2ℓ apart leave a dip
	// of 1 − 2e⁻¹/(1 + e⁻⁴) ≈ 28 % at their midpoint, while two ℓ apart
	// leave none (2e^(−1/4) > 1 + e⁻¹); a few support vectors per ball keep
	// f smooth along thin shapes.
	autoCover = 3.0
	// autoCLevel is C·κmax: below 1, every training sample violates the
	// margin, so every SGD step adds its kernel and f + 1 is C times a
	// (budgeted) kernel density estimate.
	autoCLevel = 0.5
)

// AutoCOutsideShare is the share of the sample that the automatic C leaves
// outside the domain f ≥ 0 (see Choose).
const AutoCOutsideShare = 0.05

// Bounds of the automatic budget.
const (
	// MinAutoBudget is the smallest budget Choose selects (fewer rows
	// than that give every row a support vector).
	MinAutoBudget = 50
	// MaxAutoBudget caps the budget Choose selects. Training, scoring
	// and predicting cost O(B·d) per row, so the cap keeps every pass
	// linear in N with a constant of at most MaxAutoBudget kernel terms.
	MaxAutoBudget = 1000
)

// NoBudget as Config.Budget trains without a budget: the paper's
// unbudgeted SGD-LMOC baseline, whose model grows with the data.
const NoBudget = -1

// Choice reports the settings [Train] used and, for those chosen
// automatically, the statistics they were chosen from.
type Choice struct {
	// Gamma, C and Budget are the values used; the Auto fields tell
	// which were chosen by the rules below rather than given.
	Gamma, C                     float64
	Budget                       int
	GammaAuto, CAuto, BudgetAuto bool
	// Sample is the number of rows the statistics were measured on.
	Sample int
	// Rho is the median distance from a sampled row to its autoK-th
	// nearest other sampled row; the automatic γ is 1/(1.5·Rho)².
	Rho float64
	// Cover is the number of balls of radius ℓ = 1/√γ a greedy covering of
	// the sample needs; the automatic budget is 3·Cover, within
	// [MinAutoBudget, MaxAutoBudget] and at most N.
	Cover int
	// KappaMax is the largest kernel density (1/s)Σⱼ k(x, xⱼ) over the
	// sample; the automatic C trains at 0.5/KappaMax, and Scale is the
	// factor Train then multiplies C and the coefficients by (see Choose).
	KappaMax float64
	Scale    float64

	// RhoWidth is the median distance from a sampled row to its 10th
	// nearest other sampled row, measured when γ and C are both automatic
	// and Config.Width is AdaptiveWidth (0 otherwise). When it is positive,
	// Train gives each support vector svᵢ a width of its own (Adaptive):
	// with rᵢ the distance from svᵢ to its 10th nearest sampled row (not
	// counting svᵢ itself when it is one), its length scale is
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
	Adaptive              bool
	Narrowed              int
	WidthMin, WidthMedian float64

	// The subspace rule, measured when γ and C are both automatic,
	// Config.Space is AutoSpace and the data have at least four features
	// (all zero otherwise; a choice made by Chosen.Within reports the
	// rule of the automatic choice whose subspace it trains in). Concentration is ρ_med/ρ, the median distance
	// between two sampled rows over Rho measured on the features;
	// ConcentrationMax the threshold (6) below which the model is
	// Projected onto Q directions (Model.Subspace): those whose
	// spatial-sign covariance eigenvalue, on a scale where they sum to d,
	// exceeds the noise Edge (1 + √(d/s))²; EigenKept is the smallest
	// eigenvalue kept and EigenNext the next one (0 when Q = d). When no
	// eigenvalue exceeds the edge, Q is 1. IntrinsicDim is ln 2 / ln(ρ₁₀/ρ₅), an estimate of the
	// dimension of the data from their 5th and 10th neighbour distances,
	// reported only. When Projected, Rho, Cover, KappaMax and RhoWidth
	// are measured in the projected space, and ℓ = max(1.5ρ, √2·Silverman)
	// with Silverman the rule-of-thumb bandwidth of the projected sample.
	Concentration, ConcentrationMax float64
	IntrinsicDim                    float64
	Projected                       bool
	Q                               int
	Edge                            float64
	EigenKept, EigenNext            float64
	Silverman                       float64

	// ConcentrationScaled is Concentration scaled to a sample of 2,000
	// rows when the sample has fewer, Concentration·(2000/Sample)^(1/d),
	// and then the value compared with ConcentrationMax (0 when the
	// sample has 2,000 rows or the subspace rule was not measured): k-NN distances grow as the sample shrinks,
	// so that few rows of well-separated clusters would look concentrated
	// (docs/high-dim.md).
	ConcentrationScaled float64

	// MinIter is the number of SGD steps before the stopping rule was
	// first checked when Train chose it from the number of rows (see
	// Config.MinIter) and it differs from DefaultMinIter; 0 otherwise.
	MinIter int
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

// Choose returns the settings Train would use for the rows of x with cfg
// (nil means defaults): the given Gamma, C and Budget, and for each zero
// one the automatic choice, all measured on one seeded sample of at most
// 2,000 rows:
//
//   - γ = 1/ℓ² with ℓ = 1.5·ρ, ρ the median distance from a row to its
//     5th nearest neighbour, as HDBSCAN's core distance with minPts = 5:
//     the kernel resolves the data at the scale of their neighbourhoods
//     (when duplicates make that median 0, the median over the other rows;
//     γ = 1 when all rows coincide);
//   - B = 3·(the number of ℓ-balls of a greedy covering of the sample),
//     within [MinAutoBudget, MaxAutoBudget] and at most N: more clusters,
//     or thinner ones, need more balls to cover them;
//   - C = 0.5/κmax, κmax the largest kernel density over the sample, so
//     that every training sample adds its kernel and f + 1 is a scaled
//     kernel density estimate whose levels the LevelTree rule reads.
//     With that C the domain f ≥ 0 is empty, so Train then multiplies C
//     and every coefficient by the factor (Choice.Scale) that puts the
//     boundary f = 0 at the AutoCOutsideShare (5 %) quantile of f over the
//     sample: the domain holds the densest 95 % of the data. This
//     changes no level set of f, only which one is f = 0; but the model is
//     then not the minimiser of J for the C it reports, since at that C
//     the hinge would have stopped the updates inside the domain. Choose
//     reports the C of training; Model.Choice the final one.
//
// It returns the errors of Train for an invalid cfg or data, and a
// *ConfigError for Gamma or C when the data's scale makes the automatic
// value infinite or zero (squared distances beyond the range of float64,
// as at coordinates of 1e160 or 1e-160): such data must be scaled first.
func Choose(x mat.Matrix, cfg *Config) (Choice, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if err := cfg.Validate(); err != nil {
		return Choice{}, err
	}
	data, n, d, err := flatten(x)
	if err != nil {
		return Choice{}, err
	}
	ch, _, _ := choose(data, n, d, cfg.withDefaults())
	return ch, ch.check()
}

// choose is Choose for a validated c and row-major data. It also returns
// the sample, nil when every setting was given, and the Subspace the
// model is trained in, nil for the features themselves; the sample is
// then projected.
func choose(data []float64, n, d int, c Config) (Choice, []float64, *Subspace) {
	ch := Choice{Gamma: c.Gamma, C: c.C, Budget: c.Budget,
		GammaAuto: c.Gamma == 0, CAuto: c.C == 0, BudgetAuto: c.Budget == 0}
	if !ch.GammaAuto && !ch.CAuto && !ch.BudgetAuto {
		return ch, nil, nil
	}
	rng := rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))
	s := min(n, autoSample)
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
			ch.Rho, ch.RhoWidth = kthNeighbours(smp, s, d, autoK, widthK, c.Workers)
		default:
			ch.Rho = kthNeighbour(smp, s, d, autoK, c.Workers)
		}
		switch {
		case ch.Rho > 0:
			l := autoWidth * ch.Rho
			if sub != nil {
				ch.Silverman = silverman(smp, s, d)
				l = max(l, math.Sqrt2*ch.Silverman)
			}
			ch.Gamma = 1 / (l * l)
		case allEqual(smp, d):
			ch.Gamma = 1 // every sampled row is the same point
		default:
			ch.Gamma = math.NaN() // distinct rows whose distances underflow: check reports it
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
		ch.Budget = min(n, max(MinAutoBudget, min(MaxAutoBudget, int(math.Ceil(autoCover*float64(ch.Cover))))))
	}
	if ch.CAuto {
		ch.KappaMax = maxDensity(smp, s, d, ch.Gamma, w)
		ch.C = autoCLevel / ch.KappaMax
	}
}

// check reports automatic settings that are not finite and positive, as
// when the data's squared distances overflow or underflow, as a
// *ConfigError for the field.
func (ch *Choice) check() error {
	const why = "chosen from the data, it is not finite and positive: the data's squared distances overflow or underflow; scale the data or set it"
	if ch.GammaAuto && !(ch.Gamma > 0 && !math.IsInf(ch.Gamma, 0)) {
		return &ConfigError{"Gamma", ch.Gamma, why}
	}
	if ch.CAuto && !(ch.C > 0 && ch.C <= MaxC) {
		return &ConfigError{"C", ch.C, why}
	}
	return nil
}

// rescale multiplies m.C and every coefficient by the factor that puts
// f = 0 at the AutoCOutsideShare quantile of f over the rows of smp, and records
// it in m.Choice. It does nothing when that quantile of f + 1 is not
// positive.
func (m *Model) rescale(smp []float64, d, w int) {
	s := len(smp) / d
	g := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			g[i] = m.value(smp[i*d:i*d+d]) + 1
		}
	})
	slices.Sort(g)
	q := g[min(s-1, int(AutoCOutsideShare*float64(s)))]
	if !(q > 0) || math.IsInf(1/q, 0) {
		return
	}
	f := 1 / q
	for i := range m.Alpha {
		m.Alpha[i] *= f
	}
	m.C *= f
	m.Choice.C, m.Choice.Scale = m.C, f
}

// kthNeighbour returns the median over the s rows of smp of the distance
// to the k-th nearest other row (the farthest one when s ≤ k). Duplicates
// count, as in HDBSCAN's core distance; only when they make that median 0
// is it taken over the rows for which the distance is positive, and when
// there are none (every row has k duplicates, as in discrete data), over
// the distances to the nearest distinct row. It returns 0 when no two rows
// are at a positive distance.
func kthNeighbour(smp []float64, s, d, k, w int) float64 {
	r, _ := kthNeighbours(smp, s, d, k, k, w)
	return r
}

// kthNeighbours returns kthNeighbour for k and for k2 ≥ k, from one pass
// over the pairs of rows. Each pair's squared distance is computed once
// and counts for both rows (SqDist(x, y) = SqDist(y, x) to the bit: the
// differences only change sign), half the work of a distance row per row:
// blocks of knnBlock rows are paired in fixed chunks, and each worker
// keeps, per row, the k2 smallest distances it met and the smallest
// positive one. Those are order statistics and a minimum, which do not
// depend on the order in which the pairs are met, so the result does not
// depend on the number of workers and equals that of a selection over each
// row's full distance row (kthNeighboursRows). A NaN distance, which only
// coordinates beyond the range of float64 give, leaves the result to
// kthNeighboursRows, whose selection then defines it.
func kthNeighbours(smp []float64, s, d, k, k2, w int) (float64, float64) {
	if s < 2 {
		return 0, 0
	}
	k, k2 = min(k, s-1), min(k2, s-1)
	blocks := parallel.Chunks(s, knnBlock)
	pairs := blocks * (blocks + 1) / 2
	w = min(parallel.Workers(w), pairs)
	free := make(chan *knnLists, w)
	all := make([]*knnLists, w)
	for i := range all {
		all[i] = newKnnLists(s, k2)
		free <- all[i]
	}
	parallel.For(pairs, 1, w, func(c, _, _ int) {
		l := <-free
		defer func() { free <- l }()
		if l.nan {
			return
		}
		bi, bj := blockPair(c, blocks)
		ihi := min(s, (bi+1)*knnBlock)
		jlo, jhi := bj*knnBlock, min(s, (bj+1)*knnBlock)
		for i := bi * knnBlock; i < ihi; i++ {
			lo := jlo
			if bi == bj {
				lo = i + 1 // each pair once, never a row with itself
			}
			if lo >= jhi {
				continue
			}
			dist := kernel.SqDistRowTo(l.dist[:jhi-lo], smp[i*d:i*d+d], smp[lo*d:jhi*d])
			for jj, v := range dist {
				if v != v {
					l.nan = true
					return
				}
				if !(v >= l.lim[i]) {
					l.keep(i, v)
				}
				if !(v >= l.lim[lo+jj]) {
					l.keep(lo+jj, v)
				}
			}
		}
	})
	for _, l := range all {
		if l.nan {
			return kthNeighboursRows(smp, s, d, k, k2, w)
		}
	}
	// Row i's k2 smallest over all workers: the k2 smallest of the
	// union of each worker's k2 smallest.
	l := all[0]
	for _, o := range all[1:] {
		for i := range s {
			for _, v := range o.near[i*k2 : i*k2+int(o.cnt[i])] {
				l.keep(i, v)
			}
			l.distinct[i] = min(l.distinct[i], o.distinct[i])
		}
	}
	kth := make([]float64, s)
	kth2 := make([]float64, s)
	for i := range s {
		kth[i], kth2[i] = l.near[i*k2+k-1], l.near[i*k2+k2-1]
	}
	return medianDistance(kth, l.distinct), medianDistance(kth2, slices.Clone(l.distinct))
}

// knnBlock is the number of rows of a block of kthNeighbours: a block of
// 64 rows of 128 features is 64 KiB, which stays in cache while the
// distances from each row of the other block are computed.
const knnBlock = 64

// blockPair returns the c-th pair (bi ≤ bj) of blocks of kthNeighbours
// among blocks blocks, row by row of the upper triangle.
func blockPair(c, blocks int) (bi, bj int) {
	for bi = 0; c >= blocks-bi; bi++ {
		c -= blocks - bi
	}
	return bi, bi + c
}

// knnLists is one worker's part of kthNeighbours: for each of s rows,
// the k smallest squared distances to the rows it paired it with,
// ascending, and the smallest positive one (+Inf when none).
type knnLists struct {
	k        int
	near     []float64 // row i's at near[i*k : i*k+cnt[i]]
	cnt      []int32
	distinct []float64
	// lim[i] is the least distance at and above which keep changes
	// nothing for row i: the larger of its k-th smallest and the smallest
	// positive one, or NaN until k are kept, so that !(v >= lim[i]) holds
	// for every v then, +Inf included.
	lim  []float64
	dist []float64 // scratch of knnBlock distances
	nan  bool      // a distance was NaN
}

func newKnnLists(s, k int) *knnLists {
	l := &knnLists{k: k, near: make([]float64, s*k), cnt: make([]int32, s),
		distinct: make([]float64, s), lim: make([]float64, s), dist: make([]float64, knnBlock)}
	for i := range l.distinct {
		l.distinct[i], l.lim[i] = math.Inf(1), math.NaN()
	}
	return l
}

// keep counts the squared distance v, not NaN, for row i.
func (l *knnLists) keep(i int, v float64) {
	if v > 0 && v < l.distinct[i] {
		l.distinct[i] = v
	}
	near := l.near[i*l.k : i*l.k+l.k]
	n := int(l.cnt[i])
	if n == l.k {
		if v >= near[n-1] {
			return
		}
		n-- // the largest drops out
	} else {
		l.cnt[i]++
	}
	// Insert v among the n kept, ascending.
	j := n
	for j > 0 && near[j-1] > v {
		near[j] = near[j-1]
		j--
	}
	near[j] = v
	if int(l.cnt[i]) == l.k {
		l.lim[i] = max(near[l.k-1], l.distinct[i])
	}
}

// kthNeighboursRows is kthNeighbours from each row's full distance row, a
// selection in each: every distance is computed twice.
func kthNeighboursRows(smp []float64, s, d, k, k2, w int) (float64, float64) {
	kth := make([]float64, s)
	kth2 := make([]float64, s)
	distinct := make([]float64, s) // squared distance to the nearest distinct row, or +Inf
	parallel.For(s, 16, w, func(_, lo, hi int) {
		dist := make([]float64, s)
		for i := lo; i < hi; i++ {
			kernel.SqDistRowTo(dist, smp[i*d:i*d+d], smp)
			dist[i] = math.Inf(1)
			distinct[i] = math.Inf(1)
			for _, v := range dist {
				if v > 0 && v < distinct[i] {
					distinct[i] = v
				}
			}
			// After selecting the k2-th smallest, the k2 − 1 before it
			// are the smaller ones, among which the k-th is selected.
			kth2[i] = quickSelect(dist, k2-1)
			kth[i] = kth2[i]
			if k < k2 {
				kth[i] = quickSelect(dist[:k2-1], k-1)
			}
		}
	})
	return medianDistance(kth, distinct), medianDistance(kth2, slices.Clone(distinct))
}

// medianDistance returns the median of the squared distances kth, or the
// fallbacks of kthNeighbour, as a distance. It reorders kth and distinct.
func medianDistance(kth, distinct []float64) float64 {
	s := len(kth)
	for _, v := range [][]float64{kth, distinct} {
		pos := slices.DeleteFunc(slices.Clone(v), func(x float64) bool { return !(x > 0) || math.IsInf(x, 1) })
		if len(pos) == 0 {
			continue
		}
		slices.Sort(v)
		if m := v[s/2]; m > 0 && !math.IsInf(m, 1) || math.IsNaN(m) {
			return math.Sqrt(m)
		}
		slices.Sort(pos)
		return math.Sqrt(pos[len(pos)/2])
	}
	return 0
}

// allEqual reports whether every row of the row-major smp equals the
// first.
func allEqual(smp []float64, d int) bool {
	for i := d; i < len(smp); i += d {
		if !slices.Equal(smp[:d], smp[i:i+d]) {
			return false
		}
	}
	return true
}

// quickSelect returns the k-th smallest value of v (from 0), reordering v.
func quickSelect(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		p := v[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// cover returns the number of balls of radius r a greedy covering of the s
// rows of smp needs: each row, in order, not within r of a centre becomes
// one.
func cover(smp []float64, s, d int, r float64) int {
	r2 := r * r
	var centres []float64
	for i := range s {
		x := smp[i*d : i*d+d]
		covered := false
		for c := 0; c < len(centres); c += d {
			if kernel.SqDist(x, centres[c:c+d]) <= r2 {
				covered = true
				break
			}
		}
		if !covered {
			centres = append(centres, x...)
		}
	}
	return len(centres) / d
}

// maxDensity returns the largest kernel density (1/s)Σⱼ k(x, xⱼ) over the s
// rows x of smp.
//
// Where an index of the rows pays (assign.NewTerms: low dimension, a
// kernel narrow next to the data's extent), each row's sum runs over the
// rows within kernel.CutOff of its largest term, as objective's and Score's
// sums do (maxDensityTerms). Elsewhere (maxDensityPairs) the result is
// kernel.Sum's maximum: each pair's kernel value is computed once and counts for both rows
// (k(x, y) = k(y, x) to the bit), which gives every row's sum in another
// order: a row's sum over its later rows, in fixed chunks of rows, plus,
// per worker, the values of its earlier rows. Sums of s nonnegative terms
// in any two orders differ by less than 2(s−1)·2⁻⁵³ of their value
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2),
// far below maxDensityTol for s ≤ autoSample, so the rows whose sum in
// that order comes within maxDensityTol of the largest include every row
// whose kernel.Sum is the largest; only those are summed again by
// kernel.Sum. The result is therefore kernel.Sum's maximum, for any
// number of workers. A NaN value (coordinates beyond the range of
// float64) leaves it to maxDensityRows.
func maxDensity(smp []float64, s, d int, gamma float64, w int) float64 {
	ones := unitWeights(s)
	if t := assign.NewTerms(smp, d, ones, gamma); t != nil {
		return maxDensityTerms(t, smp, s, d, w)
	}
	return maxDensityPairs(smp, ones, d, gamma, w)
}

// unitWeights returns s coefficients of 1: those of the kernel density
// Σⱼ k(x, xⱼ) as a kernel expansion.
func unitWeights(s int) []float64 {
	ones := make([]float64, s)
	for i := range ones {
		ones[i] = 1
	}
	return ones
}

// maxDensityPairs is maxDensity by pairs, ones its unitWeights:
// kernel.Sum's maximum.
func maxDensityPairs(smp, ones []float64, d int, gamma float64, w int) float64 {
	s := len(ones)
	const chunk = 64
	w = min(parallel.Workers(w), parallel.Chunks(s, chunk))
	free := make(chan []float64, w)
	lower := make([][]float64, w) // per worker: the values of earlier rows, then scratch
	for k := range lower {
		lower[k] = make([]float64, 2*s)
		free <- lower[k]
	}
	sum := make([]float64, s) // row i's sum over itself and its later rows
	parallel.For(s, chunk, w, func(_, lo, hi int) {
		l := <-free
		defer func() { free <- l }()
		for i := lo; i < hi; i++ {
			row := kernel.RowTo(l[s:2*s-i-1], smp[i*d:i*d+d], smp[(i+1)*d:], gamma)
			v := kernel.OfSqDist(0, gamma)
			for j, k := range row {
				v += k
				l[i+1+j] += k
			}
			sum[i] = v
		}
	})
	top := math.Inf(-1)
	for i := range sum {
		for _, l := range lower {
			sum[i] += l[i]
		}
		if math.IsNaN(sum[i]) {
			return maxDensityRows(smp, ones, d, gamma, w)
		}
		top = max(top, sum[i])
	}
	best := math.Inf(-1)
	for i, v := range sum {
		if v >= top*(1-maxDensityTol) {
			best = max(best, kernel.Sum(smp[i*d:i*d+d], smp, ones, gamma)/float64(s))
		}
	}
	return best
}

// maxDensityTol is the relative distance below the largest approximate
// sum of maxDensity within which a row is summed again exactly: valid
// while 2(s−1)·2⁻⁵³ ≪ maxDensityTol, that is for samples of up to about
// 10⁵ rows (autoSample is 2,000).
const maxDensityTol = 1e-9

// maxDensityRows is maxDensity with every row summed by kernel.Sum, ones
// its unitWeights.
func maxDensityRows(smp, ones []float64, d int, gamma float64, w int) float64 {
	s := len(ones)
	dens := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dens[i] = kernel.Sum(smp[i*d:i*d+d], smp, ones, gamma) / float64(s)
		}
	})
	return slices.Max(dens)
}

// maxDensityTerms is maxDensity with each row's sum over the terms t keeps
// (the index of the s rows of smp, with coefficients 1).
func maxDensityTerms(t *assign.Terms, smp []float64, s, d, w int) float64 {
	dens := make([]float64, s)
	parallel.For(s, 64, w, func(_, lo, hi int) {
		sc := t.NewScratch()
		for i := lo; i < hi; i++ {
			v, _ := t.Owner(smp[i*d:i*d+d], sc)
			dens[i] = v / float64(s)
		}
	})
	return slices.Max(dens)
}
