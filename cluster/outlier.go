package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Defaults of the outlier score (docs/outliers.md gives the measurements).
const (
	// DefaultOutlierThreshold is the outlier score at and above which a
	// point is an outlier when Levels.OutlierThreshold or
	// Components.OutlierThreshold is 0: a score of ½ is a depth D(x)
	// equal to the fence D₀, where the membership strength reaches 0.
	DefaultOutlierThreshold = 0.5
	// OutlierFenceK is the k of the fence D₀ = Q3 + k·IQR of the depths of
	// the training rows: Tukey's "far out" fence, k = 3, checked rather
	// than tuned on generated data with planted outliers and on
	// inlier-only sets (docs/defaults.md, OutlierFenceK).
	OutlierFenceK = 3
	// OutlierMass is the share p of the model's mass (Σαⱼ) that the
	// ball around each support vector holds, whose radius the outlier
	// score adds to the distance from a point (see [OutlierData]): a
	// group of points holding less than p of the mass, such as a clump
	// of outliers, is scored by its distance to the rest. Chosen on
	// generated data, where clumps of up to 6 % of the rows are outliers
	// and p from 1 % to 16 % ranks the other kinds alike
	// (docs/outliers.md).
	OutlierMass = 0.08
)

// ErrNoOutlierScores is returned for the outlier scores of a partition
// without the outlier fence: one read from a model file written before
// the scores existed (version 5 or older). Fitting the model again gives
// them.
var ErrNoOutlierScores = errors.New("cluster: the partition has no outlier fence (a model file of version 5 or older): refit the model (svclust fit) to get outlier scores")

// OutlierData is what a partition stores to give any point its outlier
// score (see [LevelTree.OutlierScores]). A partition fitted now holds the
// whole-space score (version 7 of the model file): Mass, Radius, Center,
// Spread, Fence and Threshold, no Peak. One read from a file of version 6 holds
// the depth score of that version: Peak, Fence and Threshold.
//
// The whole-space score of a point x, scaled as the model scales its
// data, with Px its projection into the kernel's space, ρ² its squared
// distance from the model's subspace (0 for a model without one) and
// dⱼ² = ‖Px − svⱼ‖² + ρ² its squared distance to support vector j placed
// on the subspace's plane:
//
//	rⱼ   = the radius around svⱼ within which the support vectors hold
//	       Mass·Σαⱼ (the coefficients ≤ 0 count as 0), stored as Radius
//	R(x) = min over j of dⱼ + rⱼ       the distance to the nearest such ball
//	L(x) = −log(f(x) + 1) + γρ²         the model's density, the residual at the width γ
//	S(x) = max((R − Center[0])/Spread[0], (L − Center[1])/Spread[1])
//	D(x) = S(x) + Center[0]/Spread[0],  score = D / (D + Fence)
//
// Center and Spread are the median and interquartile range of R and L
// over the training rows, Fence = Q3 + OutlierFenceK·IQR of D over them.
// D is S less the least value S can take (R ≥ 0), so that D ≥ 0 and the
// score ranks every point, the typical ones too: it is 0 only at a
// support vector whose radius is 0. Where every distance ‖Px − svⱼ‖
// grows and ρ does not shrink, R and L never fall, so neither does the
// score.
type OutlierData struct {
	// Peak holds, for each cluster c, Fc of the depth score of model
	// files of version 6: c's own part of f + 1 at c's highest mode, the
	// sum of the terms αⱼk(x, svⱼ) of c's support vectors there. A
	// cluster with Fc = 0 (no support vector) is skipped. Nil for the
	// whole-space score.
	Peak []float64
	// Mass is the share of Σαⱼ of the radii, in (0, 1); 0 for the
	// depth score of version 6. Radius holds rⱼ, ≥ 0, one per support
	// vector.
	Mass   float64
	Radius []float64
	// Center and Spread (> 0) standardize R and L, in that order.
	Center, Spread []float64
	// Fence is D₀ = Q3 + OutlierFenceK·IQR of the depths of the training
	// rows; it is > 0.
	Fence float64
	// Threshold is the score at and above which a point is an outlier,
	// in (0, 1).
	Threshold float64
}

// whole reports whether o holds the whole-space score.
func (o *OutlierData) whole() bool { return o.Mass != 0 }

// check validates o for k clusters and b support vectors.
func (o *OutlierData) check(k, b int) error {
	if o.whole() {
		if len(o.Radius) != b {
			return fmt.Errorf("cluster: %d outlier radii for %d support vectors", len(o.Radius), b)
		}
		for _, v := range o.Radius {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("cluster: outlier radius %v: must be ≥ 0 and finite", v)
			}
		}
		if o.Peak != nil {
			return errors.New("cluster: outlier peaks belong to the depth score, not beside a mass")
		}
		if !(o.Mass > 0 && o.Mass < 1) {
			return fmt.Errorf("cluster: outlier mass %v: must be in (0, 1)", o.Mass)
		}
		if len(o.Center) != 2 || len(o.Spread) != 2 {
			return fmt.Errorf("cluster: %d outlier centres and %d spreads: want 2 of each", len(o.Center), len(o.Spread))
		}
		for i := range 2 {
			if math.IsNaN(o.Center[i]) || math.IsInf(o.Center[i], 0) {
				return fmt.Errorf("cluster: outlier centre %v: must be finite", o.Center[i])
			}
			if !(o.Spread[i] > 0) || math.IsInf(o.Spread[i], 0) {
				return fmt.Errorf("cluster: outlier spread %v: must be > 0 and finite", o.Spread[i])
			}
		}
		if math.IsInf(o.Center[0]/o.Spread[0], 0) {
			return fmt.Errorf("cluster: outlier centre %v over spread %v: not finite", o.Center[0], o.Spread[0])
		}
	} else {
		if len(o.Peak) != k {
			return fmt.Errorf("cluster: %d outlier peaks for %d clusters", len(o.Peak), k)
		}
		for _, v := range o.Peak {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("cluster: outlier peak %v: must be ≥ 0 and finite", v)
			}
		}
	}
	if !(o.Fence > 0) || math.IsInf(o.Fence, 0) {
		return fmt.Errorf("cluster: outlier fence %v: must be > 0 and finite", o.Fence)
	}
	if !(o.Threshold > 0 && o.Threshold < 1) {
		return fmt.Errorf("cluster: outlier threshold %v: must be in (0, 1)", o.Threshold)
	}
	return nil
}

// validateThreshold checks an OutlierThreshold setting.
func validateThreshold(t float64) error {
	if t != 0 && !(t > 0 && t < 1) {
		return &svclust.ConfigError{Field: "OutlierThreshold", Value: t, Reason: "must be in (0, 1) (0 selects the default ½)"}
	}
	return nil
}

// OutlierScore returns the outlier score of a point at depth d under the
// fence d0:
//
//	score = D / (D + D₀),
//
// 0 at D = 0, ½ at the fence, and below 1 at any finite depth,
// so that far points keep their order; 1 for an infinite depth.
func OutlierScore(d, d0 float64) float64 {
	if math.IsInf(d, 1) {
		return 1
	}
	return d / (d + d0)
}

// MembershipStrength returns the membership strength in [0, 1] of a point
// of outlier score s under the threshold t: 1 − D/Dₜ, where Dₜ is the
// depth at which the score reaches t (Dₜ = D₀ at the default ½). It is 1
// where D = 0, falls linearly in D, and is 0 exactly
// where s ≥ t, the points -outliers labels −1, as hdbscan's probabilities_
// are 0 for its noise.
func MembershipStrength(s, t float64) float64 {
	if s >= t {
		return 0
	}
	// D/D₀ = s/(1 − s), and Dₜ/D₀ = t/(1 − t).
	return 1 - (s/(1-s))/(t/(1-t))
}

// Strengths returns the membership strength of each of r's rows (see
// [MembershipStrength]), nil when r has no outlier scores.
func (r *Result) Strengths() []float64 {
	if r.OutlierScores == nil {
		return nil
	}
	st := make([]float64, len(r.OutlierScores))
	for i, s := range r.OutlierScores {
		st[i] = MembershipStrength(s, r.OutlierThreshold)
	}
	return st
}

// scorer gives the outlier scores of a partition: the whole-space score
// (see [OutlierData]), or the depth score of model files of version 6,
// for which support vector j belongs to cluster group[j].
type scorer struct {
	f     *kernel.Field
	terms *kernel.Terms
	fence float64 // D₀; 0 while it is computed
	// The whole-space score: the radii rⱼ (and as the index's offsets
	// where it has one), one as the group of every support vector (for
	// f + 1 in logs), and the centre and spread of R and L.
	whole          bool
	radius         []float64
	offsets        *kernel.Offsets
	one            []int
	center, spread [2]float64
	// The depth score of version 6: log Fc, −Inf where Fc = 0.
	group   []int
	logPeak []float64
	scratch sync.Pool // of *scoreScratch
}

type scoreScratch struct {
	row, top, logPart []float64
	ts                *kernel.TermsScratch
}

// scorerOf is the scorer of the stored outlier data o of a partition of m
// whose support vectors have the clusters group; nil when o is nil (a
// partition read from a model file of version 5 or older).
func scorerOf(m *svclust.Model, terms *kernel.Terms, group []int, o *OutlierData) *scorer {
	switch {
	case o == nil:
		return nil
	case o.whole():
		s := newWholeScorer(field(m), terms, o.Radius)
		s.center, s.spread, s.fence = [2]float64(o.Center), [2]float64(o.Spread), o.Fence
		return s
	}
	return newScorer(field(m), terms, group, o.Peak, o.Fence)
}

// outlierSurface is the part of a partition that gives outlier scores,
// the same under every rule: the stored OutlierData, its scorer, and the
// methods of Partition that read them. A rule embeds it and sets it with
// set once its data are known.
type outlierSurface struct {
	model  *svclust.Model
	out    *OutlierData // nil without outlier scores
	scorer *scorer      // nil without outlier scores
}

// set makes the surface of the outlier data out (nil: none) of a
// partition of m whose support vectors have the clusters group (read by
// the depth score of version 6 only).
func (o *outlierSurface) set(m *svclust.Model, terms *kernel.Terms, group []int, out *OutlierData) {
	o.model, o.out, o.scorer = m, out, scorerOf(m, terms, group, out)
}

// surface returns o: every rule that embeds it has it, which is how
// ScoreOutliers finds the scorer of any partition.
func (o *outlierSurface) surface() *outlierSurface { return o }

// OutlierScores sets dst[i] to the outlier score of row i of x (see
// [Partition]): one pass of B kernel terms per row, as Predict, with a
// search of the support vectors beside it.
func (o *outlierSurface) OutlierScores(dst []float64, x mat.Matrix, workers int) ([]float64, error) {
	dst = checkScores(o.model, dst, x)
	if o.scorer == nil {
		return nil, ErrNoOutlierScores
	}
	kx, r2 := kernelRowsResid(o.model, x, workers)
	o.scorer.scores(dst, kx, r2, parallel.Workers(workers), nil)
	return dst, nil
}

// OutlierThreshold returns the score at and above which a point is an
// outlier, 0 without outlier scores.
func (o *outlierSurface) OutlierThreshold() float64 {
	if o.out != nil {
		return o.out.Threshold
	}
	return 0
}

// predictScores is PredictScores of a rule: pre, if not nil, labels the
// rows of x in the kernel's space, then the scorer's pass gives each row
// its score and, when cluster is not nil, the label cluster(owner) of its
// support vector; with outliers a row at or above the threshold is −1.
func (o *outlierSurface) predictScores(dst []int, scores []float64, x mat.Matrix, workers int, outliers bool,
	pre func(dst []int, kx mat.Matrix, w int), cluster func(owner int32) int) ([]int, []float64, error) {
	dst = checkPredict(o.model, dst, x)
	scores = checkScores(o.model, scores, x)
	if o.scorer == nil {
		return nil, nil, ErrNoOutlierScores
	}
	kx, r2 := kernelRowsResid(o.model, x, workers)
	w := parallel.Workers(workers)
	if pre != nil {
		pre(dst, kx, w)
	}
	t := o.out.Threshold
	o.scorer.scores(scores, kx, r2, w, func(i int, _ float64, owner int32, s float64) {
		if cluster != nil {
			dst[i] = cluster(owner)
		}
		if outliers && s >= t {
			dst[i] = -1
		}
	})
	return dst, scores, nil
}

// kernelRowsResid returns the rows of x in the space of m's kernel, as
// kernelRows does, and their squared distances from m's subspace (see
// auto.Subspace.Residuals): nil for a model without a subspace.
func kernelRowsResid(m *svclust.Model, x mat.Matrix, workers int) (mat.Matrix, []float64) {
	if m.Subspace == nil {
		return kernelRows(m, x, workers), nil
	}
	data, n, _ := rowmajor.Of(x)
	proj := m.Subspace.ApplyRows(data, n, workers)
	_, q := m.Subspace.Dims()
	return mat.NewDense(n, q, proj), m.Subspace.Residuals(nil, data, proj, n, workers)
}

// newWholeScorer returns the scorer of the whole-space score with the
// radii rⱼ, its centre, spread and fence not yet set.
func newWholeScorer(f *kernel.Field, terms *kernel.Terms, radius []float64) *scorer {
	b := len(f.Alpha)
	s := &scorer{f: f, terms: terms, whole: true, radius: radius, one: make([]int, b)}
	if terms != nil {
		s.offsets = terms.NewOffsets(radius)
	}
	s.scratch.New = func() any {
		sc := &scoreScratch{row: make([]float64, b), top: make([]float64, 1), logPart: make([]float64, 1)}
		if terms != nil {
			sc.ts = terms.NewScratch()
		}
		return sc
	}
	return s
}

// radii returns rⱼ for each support vector of f (see OutlierData): the
// smallest distance from svⱼ within which the support vectors with
// αᵢ > 0 hold the share mass of their sum, by the index's query where
// there is one, else by a selection over the B distances. Cost: B
// queries, O(B²) at most.
func radii(f *kernel.Field, terms *kernel.Terms, mass float64) []float64 {
	var total float64
	for _, a := range f.Alpha {
		if a > 0 {
			total += a
		}
	}
	need := mass * total
	b, d := len(f.Alpha), f.D
	r := make([]float64, b)
	var ts *kernel.TermsScratch
	var row, bd, bw []float64
	if terms != nil {
		ts = terms.NewScratch()
	} else {
		row, bd, bw = make([]float64, b), make([]float64, b), make([]float64, b)
	}
	for j := range b {
		x := f.SV[j*d : j*d+d]
		var r2 float64
		if terms != nil {
			r2 = terms.MassRadius(x, ts, need)
		} else {
			kernel.SqDistRowTo(row, x, f.SV)
			r2 = massRadius(row, f.Alpha, need, bd, bw)
		}
		if math.IsInf(r2, 1) { // no positive coefficient
			r2 = 0
		}
		r[j] = math.Sqrt(r2)
	}
	return r
}

func newScorer(f *kernel.Field, terms *kernel.Terms, group []int, peak []float64, fence float64) *scorer {
	s := &scorer{f: f, terms: terms, group: group, logPeak: make([]float64, len(peak)), fence: fence}
	for c, p := range peak {
		s.logPeak[c] = math.Log(p) // −Inf for 0
	}
	k := len(peak)
	s.scratch.New = func() any {
		return &scoreScratch{row: make([]float64, len(f.Alpha)), top: make([]float64, k), logPart: make([]float64, k)}
	}
	return s
}

// each calls do(i, f(xᵢ), owner, D(xᵢ)) for each row xᵢ of x, in the
// kernel's space at squared distance r2[i] from the model's subspace (r2
// nil: 0), on w goroutines: one pass of B kernel terms per row, as
// Predict makes, and for the whole-space score one more over the B
// squared distances.
//
// The depth of version 6 is D(x) = max(0, min over the clusters c of
// log(Fc / fc(x))), with fc(x) c's part of f(x) + 1: how far, in log
// density, x lies below the peak of the cluster it is densest for,
// GLOSH's 1 − λ(x)/λmax (Campello et al. 2015) read on the level tree of
// f; where every part underflows it is computed again in logs.
//
//	R. J. G. B. Campello, D. Moulavi, A. Zimek, J. Sander. Hierarchical
//	density estimates for data clustering, visualization, and outlier
//	detection. ACM TKDD 10(1), 2015.
func (s *scorer) each(x mat.Matrix, r2 []float64, w int, report func(int), do func(i int, fx float64, owner int32, d float64)) {
	if s.whole {
		s.eachRaw(x, r2, w, report, func(i int, fx float64, o int32, c [2]float64) { do(i, fx, o, s.depthOf(c)) })
		return
	}
	s.f.EachPart(x, s.terms, s.group, len(s.logPeak), w, report, func(i int, xi []float64, sum float64, o int32, part []float64) {
		d := depth(part, s.logPeak, false)
		if math.IsInf(d, 1) {
			sc := s.scratch.Get().(*scoreScratch)
			d = depth(s.f.LogParts(sc.logPart, sc.row, sc.top, xi, s.group), s.logPeak, true)
			s.scratch.Put(sc)
		}
		do(i, sum-1, o, d)
	})
}

// eachRaw calls do(i, f(xᵢ), owner, (R(xᵢ), L(xᵢ))) for each row of x (see
// each and OutlierData), for the whole-space score.
func (s *scorer) eachRaw(x mat.Matrix, r2 []float64, w int, report func(int), do func(i int, fx float64, owner int32, c [2]float64)) {
	s.f.EachDist(x, s.terms, w, report, func(i int, xi []float64, sum float64, o int32, d2 []float64) {
		var ri float64
		if r2 != nil {
			ri = r2[i]
		}
		sc := s.scratch.Get().(*scoreScratch)
		c := s.raw(sc, xi, d2, ri, sum)
		s.scratch.Put(sc)
		do(i, sum-1, o, c)
	})
}

// raw returns R(x) and L(x) (see OutlierData) of the point xi of the
// kernel's space at squared distance r2 from the model's subspace, where
// f(xi) + 1 = sum and d2 holds the squared distances to the support
// vectors (the pass of Predict, kernel.Field.EachDist; nil with the
// index): R by the index's search where the model has one, else from d2;
// L from sum, or in logs where every term underflows.
func (s *scorer) raw(sc *scoreScratch, xi, d2 []float64, r2, sum float64) [2]float64 {
	var r float64
	if s.terms != nil {
		r = s.terms.MinPlus(xi, r2, s.offsets, sc.ts)
	} else {
		r = math.Inf(1)
		for j, v := range d2 {
			r = min(r, math.Sqrt(v+r2)+s.radius[j])
		}
	}
	l := -math.Log(sum)
	if !(sum > 0) {
		l = -s.f.LogParts(sc.logPart, sc.row, sc.top, xi, s.one)[0]
	}
	return [2]float64{r, l + s.f.Gamma*r2}
}

// massRadius returns the smallest of the squared distances d2[j] within
// which the coefficients αⱼ > 0 sum to at least need (the largest such
// d2 when they never do, +Inf when no coefficient is positive; see
// kernel.WeightedRadius). bd and bw are scratch of len(d2).
func massRadius(d2, alpha []float64, need float64, bd, bw []float64) float64 {
	n := 0
	for j, a := range alpha {
		if a > 0 {
			bd[n], bw[n] = d2[j], a
			n++
		}
	}
	if n == 0 {
		return math.Inf(1)
	}
	return kernel.WeightedRadius(bd[:n], bw[:n], need)
}

// depthOf returns D(x) = S(x) + Center[0]/Spread[0] of the whole-space
// score from c = (R(x), L(x)) (see OutlierData).
func (s *scorer) depthOf(c [2]float64) float64 {
	z := max((c[0]-s.center[0])/s.spread[0], (c[1]-s.center[1])/s.spread[1])
	return max(0, z+s.center[0]/s.spread[0])
}

// calibrate sets s's centre, spread and fence from the components raw[i]
// of the training rows i that are multiples of stride (see OutlierData).
func (s *scorer) calibrate(raw [][2]float64, stride int) {
	m := (len(raw) + stride - 1) / stride
	v := make([]float64, 0, m)
	for k := range 2 {
		v = v[:0]
		for i := 0; i < len(raw); i += stride {
			if x := raw[i][k]; !math.IsInf(x, 0) && !math.IsNaN(x) {
				v = append(v, x)
			}
		}
		s.center[k], s.spread[k] = robustScale(v)
	}
	v = v[:0]
	for i := 0; i < len(raw); i += stride {
		v = append(v, s.depthOf(raw[i]))
	}
	s.fence = fence(v)
}

// robustScale returns the median and the interquartile range of v
// (sorted in place; quantiles as quantile computes them). Where the
// range is not positive, as when more than half the values are equal,
// the spread is the largest distance of a value from the median, and 1
// when every value is the median or v is empty (centre 0).
func robustScale(v []float64) (center, spread float64) {
	if len(v) == 0 {
		return 0, 1
	}
	slices.Sort(v)
	center = quantile(v, 0.5)
	spread = quantile(v, 0.75) - quantile(v, 0.25)
	if !(spread > 0) || math.IsInf(spread, 0) {
		spread = max(center-v[0], v[len(v)-1]-center)
	}
	if !(spread > 0) || math.IsInf(spread, 0) {
		spread = 1
	}
	return center, spread
}

// quantile returns the p-quantile of the sorted d, interpolated linearly
// as numpy's default does.
func quantile(d []float64, p float64) float64 {
	x := p * float64(len(d)-1)
	i := int(x)
	if i+1 >= len(d) {
		return d[len(d)-1]
	}
	return d[i] + (x-float64(i))*(d[i+1]-d[i])
}

// depth returns max(0, min over c of logPeak[c] − log part[c]) over the
// clusters with a peak and a positive part (part holds the logarithms of
// the parts when logs is set), +Inf when there is none.
func depth(part, logPeak []float64, logs bool) float64 {
	best := math.Inf(1)
	for c, p := range part {
		lp := p
		if !logs {
			if !(p > 0) {
				continue
			}
			lp = math.Log(p)
		}
		if !math.IsInf(logPeak[c], -1) && !math.IsInf(lp, -1) {
			best = min(best, logPeak[c]-lp)
		}
	}
	return max(best, 0)
}

// scores sets dst[i] to the outlier score of row i of x (in the kernel's
// space, at squared distance r2[i] from the subspace; see each) and
// calls label, if not nil, with each row's f, owner and score.
func (s *scorer) scores(dst []float64, x mat.Matrix, r2 []float64, w int, label func(i int, fx float64, owner int32, score float64)) {
	s.each(x, r2, w, nil, func(i int, fx float64, o int32, d float64) {
		dst[i] = OutlierScore(d, s.fence)
		if label != nil {
			label(i, fx, o, dst[i])
		}
	})
}

// fence returns D₀ = Q3 + OutlierFenceK·IQR of the depths d (sorted in
// place), the quartiles interpolated linearly as numpy's default does. A
// fence that is not positive and finite, from degenerate depths (most
// rows at a peak, or infinitely deep), is replaced by the smallest
// positive float64 or the largest finite one.
func fence(d []float64) float64 {
	slices.Sort(d)
	q1, q3 := quantile(d, 0.25), quantile(d, 0.75)
	d0 := q3 + OutlierFenceK*(q3-q1)
	switch {
	case math.IsNaN(d0) || math.IsInf(d0, 1):
		return math.MaxFloat64
	case !(d0 > 0):
		return math.SmallestNonzeroFloat64
	}
	return d0
}

// fenceRows bounds the training rows whose components set the centre,
// spread and fence of the outlier score: of more rows, every
// ⌈N/fenceRows⌉-th in the order of the data (no random choice). The
// quartiles of 100,000 values have a rank error of about
// √(¼·¾/10⁵) ≈ 0.14 %, and sorting them costs a tenth of what a million
// would (docs/defaults.md, fenceRows).
const fenceRows = 100_000

// fitOutliers returns the whole-space outlier data (without its
// threshold) of the n×d row-major training data of m, in the kernel's
// space, at squared distances r2 from m's subspace (nil without one), and
// the scores of all rows under it, from one pass over the rows that also
// calls owner, if not nil, with each row's support vector (as Predict's
// pass gives it) and reports the rows done to report (nil: none). Beyond
// fenceRows rows the centre, spread and fence come from every stride-th
// row. Memory: two floats per row beside the scores.
func fitOutliers(m *svclust.Model, terms *kernel.Terms, data, r2 []float64, n, d, w int, report func(int), owner func(i int, o int32)) (*OutlierData, []float64) {
	f := field(m)
	s := newWholeScorer(f, terms, radii(f, terms, OutlierMass))
	raw := make([][2]float64, n)
	s.eachRaw(mat.NewDense(n, d, data), r2, w, report, func(i int, _ float64, o int32, c [2]float64) {
		raw[i] = c
		if owner != nil {
			owner(i, o)
		}
	})
	s.calibrate(raw, (n+fenceRows-1)/fenceRows)
	score := make([]float64, n)
	for i, c := range raw {
		score[i] = OutlierScore(s.depthOf(c), s.fence) // as scorer.scores computes it
	}
	return s.data(), score
}

// data returns the outlier data of the whole-space scorer s, without its
// threshold.
func (s *scorer) data() *OutlierData {
	return &OutlierData{Mass: OutlierMass, Radius: s.radius, Center: s.center[:], Spread: s.spread[:], Fence: s.fence}
}

// ScoreOutliers sets fx[i] to f(xᵢ) of row i of x, as p.Model().Score
// gives it, and scores[i] to its outlier score under p (see
// [Partition]): in one pass of B kernel terms per row where p indexes its
// support vectors (kernel.Terms, through which Score computes f too, to
// the bit), else in two. It returns ErrNoOutlierScores for a partition
// without outlier scores and panics as Partition.OutlierScores does.
func ScoreOutliers(p Partition, fx, scores []float64, x mat.Matrix, workers int) error {
	var s *scorer
	if q, ok := p.(interface{ surface() *outlierSurface }); ok {
		s = q.surface().scorer
	}
	if s == nil {
		return ErrNoOutlierScores
	}
	m := p.Model()
	checkScores(m, scores, x)
	checkScores(m, fx, x)
	w := parallel.Workers(workers)
	kx, r2 := kernelRowsResid(m, x, w)
	if s.terms == nil {
		m.ScoreKernel(fx, kx, w)
		s.scores(scores, kx, r2, w, nil)
		return nil
	}
	s.scores(scores, kx, r2, w, func(i int, f float64, _ int32, _ float64) { fx[i] = f })
	return nil
}

// threshold resolves an OutlierThreshold setting.
func threshold(t float64) float64 {
	if t == 0 {
		return DefaultOutlierThreshold
	}
	return t
}
