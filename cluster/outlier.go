package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
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
)

// ErrNoOutlierScores is returned for the outlier scores of a partition
// without the outlier fence: one read from a model file written before
// the scores existed (version 5 or older). Fitting the model again gives
// them.
var ErrNoOutlierScores = errors.New("cluster: the partition has no outlier fence (a model file of version 5 or older): refit the model (svclust fit) to get outlier scores")

// OutlierData is what a partition stores to give any point its outlier
// score (see [LevelTree.OutlierScores]).
type OutlierData struct {
	// Peak holds, for each cluster c, Fc: c's own part of f + 1 at c's
	// highest mode, the sum of the terms αⱼk(x, svⱼ) of c's support
	// vectors there. A cluster with Fc = 0 (no support vector) is
	// skipped.
	Peak []float64
	// Fence is D₀ = Q3 + OutlierFenceK·IQR of the depths of the training
	// rows; it is > 0.
	Fence float64
	// Threshold is the score at and above which a point is an outlier,
	// in (0, 1).
	Threshold float64
}

// check validates o for k clusters.
func (o *OutlierData) check(k int) error {
	if len(o.Peak) != k {
		return fmt.Errorf("cluster: %d outlier peaks for %d clusters", len(o.Peak), k)
	}
	for _, v := range o.Peak {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("cluster: outlier peak %v: must be ≥ 0 and finite", v)
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
// 0 at a cluster's peak, ½ at the fence, and below 1 at any finite depth,
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
// at a cluster's peak, falls linearly in log density, and is 0 exactly
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

// scorer computes the depth D(x) of points (see depth) for a partition
// whose support vector j belongs to cluster group[j].
type scorer struct {
	f       *assign.Field
	terms   *assign.Terms
	group   []int
	logPeak []float64 // log Fc, −Inf where Fc = 0
	fence   float64   // D₀; 0 while it is computed
	scratch sync.Pool // of *logScratch
}

type logScratch struct{ row, top, logPart []float64 }

// scorerOf is the scorer of the stored outlier data o of a partition of m
// whose support vectors have the clusters group; nil when o is nil (a
// partition read from a model file of version 5 or older).
func scorerOf(m *svclust.Model, terms *assign.Terms, group []int, o *OutlierData) *scorer {
	if o == nil {
		return nil
	}
	return newScorer(field(m), terms, group, o.Peak, o.Fence)
}

// outlierScores is Partition.OutlierScores of a partition of m with the
// scorer s (nil without outlier data).
func outlierScores(m *svclust.Model, s *scorer, dst []float64, x mat.Matrix, workers int) ([]float64, error) {
	dst = checkScores(m, dst, x)
	if s == nil {
		return nil, ErrNoOutlierScores
	}
	s.scores(dst, kernelRows(m, x, workers), numWorkers(workers), nil)
	return dst, nil
}

func newScorer(f *assign.Field, terms *assign.Terms, group []int, peak []float64, fence float64) *scorer {
	s := &scorer{f: f, terms: terms, group: group, logPeak: make([]float64, len(peak)), fence: fence}
	for c, p := range peak {
		s.logPeak[c] = math.Log(p) // −Inf for 0
	}
	k := len(peak)
	s.scratch.New = func() any {
		return &logScratch{row: make([]float64, len(f.Alpha)), top: make([]float64, k), logPart: make([]float64, k)}
	}
	return s
}

// each calls do(i, f(xᵢ), owner, D(xᵢ)) for each row of x, on w
// goroutines: one pass of B kernel terms per row, as Predict makes.
//
// D(x) = max(0, min over the clusters c of log(Fc / fc(x))), with fc(x)
// c's part of f(x) + 1: how far, in log density, x lies below the peak of
// the cluster it is densest for. It is GLOSH's 1 − λ(x)/λmax (Campello et
// al. 2015) read on the level tree of f with the density as λ, in logs,
// each cluster on its own part of f + 1. Where every distance to a
// support vector grows every fc falls, so D never decreases; where every
// part underflows it is computed again in logs, so that D stays finite
// and keeps growing far from the data.
//
//	R. J. G. B. Campello, D. Moulavi, A. Zimek, J. Sander. Hierarchical
//	density estimates for data clustering, visualization, and outlier
//	detection. ACM TKDD 10(1), 2015.
func (s *scorer) each(x mat.Matrix, w int, report func(int), do func(i int, fx float64, owner int32, d float64)) {
	s.f.EachPart(x, s.terms, s.group, len(s.logPeak), w, report, func(i int, xi []float64, fx float64, o int32, part []float64) {
		d := depth(part, s.logPeak, false)
		if math.IsInf(d, 1) {
			sc := s.scratch.Get().(*logScratch)
			d = depth(s.f.LogParts(sc.logPart, sc.row, sc.top, xi, s.group), s.logPeak, true)
			s.scratch.Put(sc)
		}
		do(i, fx, o, d)
	})
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

// scores sets dst[i] to the outlier score of row i of x and calls label,
// if not nil, with each row's f, owner and score.
func (s *scorer) scores(dst []float64, x mat.Matrix, w int, label func(i int, fx float64, owner int32, score float64)) {
	s.each(x, w, nil, func(i int, fx float64, o int32, d float64) {
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
	q := func(p float64) float64 {
		x := p * float64(len(d)-1)
		i := int(x)
		if i+1 >= len(d) {
			return d[len(d)-1]
		}
		return d[i] + (x-float64(i))*(d[i+1]-d[i])
	}
	q1, q3 := q(0.25), q(0.75)
	d0 := q3 + OutlierFenceK*(q3-q1)
	switch {
	case math.IsNaN(d0) || math.IsInf(d0, 1):
		return math.MaxFloat64
	case !(d0 > 0):
		return math.SmallestNonzeroFloat64
	}
	return d0
}

// peaks returns, for each of the k clusters, the largest of its own parts
// of f + 1 at the points of the row-major pts whose cluster is ptCluster
// (−1 for none), the support vectors being in clusters group; a cluster
// none of the points reaches takes the largest part at its own support
// vectors. Cost: O((points + B) · B).
func peaks(f *assign.Field, pts []float64, ptCluster, group []int, k int) []float64 {
	d := f.D
	peak := make([]float64, k)
	part := make([]float64, k)
	row := make([]float64, len(f.Alpha))
	for i, c := range ptCluster {
		if c >= 0 {
			f.Parts(part, row, pts[i*d:i*d+d], group)
			peak[c] = max(peak[c], part[c])
		}
	}
	for j, c := range group {
		if peak[c] == 0 || math.IsNaN(peak[c]) {
			f.Parts(part, row, f.SV[j*d:j*d+d], group)
			peak[c] = max(peak[c], part[c])
		}
	}
	for c, p := range peak {
		if !(p > 0) || math.IsInf(p, 0) {
			peak[c] = 0
		}
	}
	return peak
}

// fenceRows bounds the training rows whose depths set the fence D₀: of
// more rows, every ⌈N/fenceRows⌉-th in the order of the data (no random
// choice). The quartiles of 100,000 depths have a rank error of about
// √(¼·¾/10⁵) ≈ 0.14 %, and scoring them costs a tenth of a pass over a
// million rows (docs/defaults.md, fenceRows).
const fenceRows = 100_000

// fitOutliers computes the depths of the rows of the n×d row-major
// training data (see scorer.each) and returns the fence D₀ of those
// depths and the rows' scores under it. Beyond fenceRows rows the fence
// comes from every stride-th row, and the scores of all rows, one more
// pass, are computed only when all is set (nil otherwise).
func fitOutliers(f *assign.Field, terms *assign.Terms, group []int, peak []float64, data []float64, n, d, w int, all bool) (d0 float64, score []float64) {
	s := newScorer(f, terms, group, peak, 0)
	stride := (n + fenceRows - 1) / fenceRows
	m := (n + stride - 1) / stride
	x := mat.NewDense(n, d, data)
	sample := x
	if stride > 1 {
		rows := make([]float64, 0, m*d)
		for i := 0; i < n; i += stride {
			rows = append(rows, data[i*d:i*d+d]...)
		}
		sample = mat.NewDense(m, d, rows)
	}
	depths := make([]float64, m)
	s.each(sample, w, nil, func(i int, _ float64, _ int32, dd float64) { depths[i] = dd })
	d0 = fence(slices.Clone(depths))
	if stride == 1 {
		for i, dd := range depths {
			depths[i] = OutlierScore(dd, d0) // in place: the scores
		}
		return d0, depths
	}
	if !all {
		return d0, nil
	}
	s.fence = d0
	score = make([]float64, n)
	s.scores(score, x, w, nil)
	return d0, score
}

// ScoreOutliers sets fx[i] to f(xᵢ) of row i of x, as p.Model().Score
// gives it, and scores[i] to its outlier score under p (see
// [Partition]): in one pass of B kernel terms per row where p indexes its
// support vectors (assign.Terms, through which Score computes f too, to
// the bit), else in two. It returns ErrNoOutlierScores for a partition
// without outlier scores and panics as Partition.OutlierScores does.
func ScoreOutliers(p Partition, fx, scores []float64, x mat.Matrix, workers int) error {
	var s *scorer
	switch q := p.(type) {
	case *LevelTree:
		s = q.scorer
	case *Graph:
		s = q.scorer
	}
	if s == nil {
		return ErrNoOutlierScores
	}
	m := p.Model()
	checkScores(m, scores, x)
	checkScores(m, fx, x)
	w := numWorkers(workers)
	if s.terms == nil {
		m.Score(fx, x, w)
		s.scores(scores, kernelRows(m, x, w), w, nil)
		return nil
	}
	s.scores(scores, kernelRows(m, x, w), w, func(i int, f float64, _ int32, _ float64) { fx[i] = f })
	return nil
}

// threshold resolves an OutlierThreshold setting.
func threshold(t float64) float64 {
	if t == 0 {
		return DefaultOutlierThreshold
	}
	return t
}
