package cluster

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Defaults shared by both rules.
const (
	// DefaultM is the number of points of the segment test (the paper's
	// m = 20, after Ben-Hur et al. 2001).
	DefaultM = 20
	// DefaultNeighbors is the number of nearest equilibria each
	// equilibrium is tested against by the segment test, which makes
	// linking O(M·k) instead of O(M²) tests for M equilibria; pruning can
	// only remove edges (docs/defaults.md).
	DefaultNeighbors = 10
	// MaxM is the largest M of Levels and Components, the bound of the
	// command line's -m (settings.MaxM): 50 times the paper's 20, and far
	// beyond where a finer segment test changes the links, while each
	// test evaluates f at M points, so that a mistyped M is an error
	// naming it rather than a run of hours (M = 2⁴⁰ on 300 rows ran for
	// minutes).
	MaxM = 1000
)

const badDim = "cluster: dimension mismatch"

// ErrEmptyStrip is returned by [Fit] with [Components] when no point
// satisfies |f(x)| ≤ ε for an explicit ε.
var ErrEmptyStrip = errors.New("cluster: the strip |f(x)| ≤ ε holds no point: increase ε")

// Rule names a clustering rule, as the -rule flag does.
type Rule int

const (
	// RuleLevels is the rule of [Levels], the default.
	RuleLevels Rule = iota
	// RuleComponents is the rule of [Components].
	RuleComponents
)

// String returns "levels" or "components".
func (r Rule) String() string {
	switch r {
	case RuleLevels:
		return "levels"
	case RuleComponents:
		return "components"
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// ParseRule returns the Rule named by s, as String writes it.
func ParseRule(s string) (Rule, error) {
	switch s {
	case "levels":
		return RuleLevels, nil
	case "components":
		return RuleComponents, nil
	}
	return 0, fmt.Errorf("cluster: unknown rule %q (want levels or components)", s)
}

// Method is a clustering rule with its settings: [*Levels] or
// [*Components]. Fit applies it.
type Method interface {
	// Rule names the method.
	Rule() Rule
	// Validate reports the first invalid setting as a
	// *svclust.ConfigError, or nil.
	Validate() error
	// fit clusters the n×d row-major data, checked by Fit and in the
	// space of m's kernel, whose rows lie at squared distances r2 from
	// m's subspace (nil without one; see auto.Subspace.Residuals).
	fit(m *svclust.Model, data, r2 []float64, n, d int) (*Result, error)
}

var (
	_ Method = (*Levels)(nil)
	_ Method = (*Components)(nil)
)

// Partition is a clustering as a rule for any point: what a Method found
// on the data, which Predict applies to new points and package modelfile
// stores. [*LevelTree] and [*Graph] implement it.
type Partition interface {
	// Model returns the phase-1 model the partition was found with; it is
	// shared, not copied, and must not be modified.
	Model() *svclust.Model
	// Rule names the rule that found the partition.
	Rule() Rule
	// Clusters returns the number of clusters, numbered 0 … Clusters−1.
	Clusters() int
	// Outliers reports whether Predict labels outliers −1.
	Outliers() bool
	// OutlierScores sets dst[i] to the outlier score in [0, 1] of row i
	// of x and returns dst; a nil dst is allocated. The score is 0 where
	// the data are typical and grows with the point's distance from the
	// mass of the model and its remoteness in density, in the whole
	// space of the features (see [OutlierData]; a partition read from a
	// file of version 6 keeps that version's depth below its cluster's
	// peak); it is defined
	// by the partition alone, so a new point gets the score a training
	// row at the same place got, and on the data given to Fit it returns
	// Result.OutlierScores. It runs on workers goroutines (0 means
	// GOMAXPROCS) at the cost of Predict. It returns ErrNoOutlierScores
	// for a partition read from a file written before the scores existed,
	// and panics as Predict does.
	OutlierScores(dst []float64, x mat.Matrix, workers int) ([]float64, error)
	// OutlierThreshold returns the score at and above which a point is an
	// outlier (and labelled −1 when Outliers is set), 0 for a partition
	// without outlier scores.
	OutlierThreshold() float64
	// PredictScores is Predict and OutlierScores at once, in one pass
	// over x where the rule allows it (Levels): the same labels and
	// scores, returned in dst and scores (nil ones are allocated).
	PredictScores(dst []int, scores []float64, x mat.Matrix, workers int) ([]int, []float64, error)
	// Predict sets dst[i] to the cluster of row i of x, −1 for an
	// outlier, and returns dst; a nil dst is allocated. It runs on
	// workers goroutines (0 means GOMAXPROCS); the labels do not depend
	// on it. On the data given to Fit it returns Fit's labels. It panics
	// if x does not have the model's dimension or dst has the wrong
	// length.
	Predict(dst []int, x mat.Matrix, workers int) []int
}

var (
	_ Partition = (*LevelTree)(nil)
	_ Partition = (*Graph)(nil)
)

// Result is the outcome of [Fit]: the labels of the data clustered and
// the Partition that gives them.
type Result struct {
	// Partition is the clustering as a rule for any point.
	Partition Partition
	// Labels holds the cluster of each row of the data, −1 for outliers
	// when the Method's Outliers is set.
	Labels []int
	// Clusters is the number of clusters (outliers excluded).
	Clusters int
	// Equilibria is the number of distinct equilibrium points: the modes
	// of f with Levels.
	Equilibria int
	// StripSize is the number of points that followed a trajectory, and
	// Eps the strip half-width used (Components).
	StripSize int
	Eps       float64
	// MinSize is the smallest cluster allowed (Levels), and Stability
	// the excess of mass of each cluster found (see LevelTree).
	MinSize   int
	Stability []float64
	// OutlierScores holds the outlier score of each row (see
	// Partition.OutlierScores), OutlierFence the fence D₀ of the
	// scores and OutlierThreshold the score at and above which a row is
	// an outlier; Strengths gives the membership strengths. They are
	// always filled: Partition.OutlierScores on the data gives the same
	// scores. Of more than 100,000 rows the centre, spread and fence of
	// the scores are set by a stride sample of them.
	OutlierScores    []float64
	OutlierFence     float64
	OutlierThreshold float64
	// Ripples is the number of clusters of the excess-of-mass selection
	// joined to a neighbour as ripples of the density estimate (Levels;
	// see Levels.RippleZ): Clusters + Ripples is the number the selection
	// chose.
	Ripples int
	// RankLinks reports that the modes of f were grouped into clusters by
	// rank-based links instead of the level tree (Levels, a model with a
	// Subspace of two or more dimensions; see Levels.LevelLinks); Ripples
	// and Stability then come from those links: 0, and the sampled rows
	// of each cluster.
	RankLinks bool
	// Runtime is the wall time of Fit.
	Runtime time.Duration
}

// Fit assigns the rows of x, normally the training data, to clusters by
// method (nil means [Levels] with its defaults) and returns their labels
// with the Partition that gives them. m is not modified: one Model can be
// clustered several ways, concurrently. Fit returns a *svclust.ConfigError
// for invalid settings, svclust.ErrNoData for an empty x,
// svclust.ErrNotFinite for NaN or Inf in x, and ErrEmptyStrip when an
// explicit ε selects no point. It returns an error wrapping
// svclust.ErrNotTrained for a Model that is not valid (see
// svclust.Model.Validate), such as a nil one or its zero value, one
// wrapping svclust.ErrDimension if x does not have the model's dimension,
// and a *svclust.ConfigError for a nil *Levels or *Components.
func Fit(m *svclust.Model, x mat.Matrix, method Method) (*Result, error) {
	start := time.Now()
	switch c := method.(type) {
	case nil:
		method = &Levels{}
	case *Levels:
		if c == nil {
			return nil, &svclust.ConfigError{Field: "method", Value: "(*Levels)(nil)", Reason: "must not be a nil pointer (a nil Method selects Levels)"}
		}
	case *Components:
		if c == nil {
			return nil, &svclust.ConfigError{Field: "method", Value: "(*Components)(nil)", Reason: "must not be a nil pointer (a nil Method selects Levels)"}
		}
	}
	if err := method.Validate(); err != nil {
		return nil, err
	}
	data, n, d, err := checkedRows(m, x)
	if err != nil {
		return nil, err
	}
	var r2 []float64
	if m.Subspace != nil {
		// The rules work in the space of the kernel; the outlier score
		// also sees each row's distance from it.
		proj := m.Subspace.ApplyRows(data, n, 0)
		r2 = m.Subspace.Residuals(nil, data, proj, n, 0)
		data, d = proj, m.KernelDim()
	}
	r, err := method.fit(m, data, r2, n, d)
	if err != nil {
		return nil, err
	}
	r.Runtime = time.Since(start)
	return r, nil
}

// field returns the f of m as package internal/kernel evaluates it. It panics if
// m.SV is not compact (a view of a wider matrix).
func field(m *svclust.Model) *kernel.Field {
	return kernel.FieldOf(m.SV, m.Alpha, m.Gamma, m.Gammas)
}

// checkScores checks the arguments of OutlierScores against the model m
// and returns dst, allocated if nil.
func checkScores(m *svclust.Model, dst []float64, x mat.Matrix) []float64 {
	n, d := x.Dims()
	if d != m.Dim() {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	return dst
}

// checkPredict checks the arguments of Predict against the model m and
// returns dst, allocated if nil.
func checkPredict(m *svclust.Model, dst []int, x mat.Matrix) []int {
	n, d := x.Dims()
	if d != m.Dim() {
		panic(badDim)
	}
	if dst == nil {
		dst = make([]int, n)
	}
	if len(dst) != n {
		panic(badDim)
	}
	return dst
}

// kernelRows returns the rows of x, of m's input dimension, in the space
// of m's kernel, where its support vectors, partitions and outlier scorer
// work: x itself for a model without a Subspace (see
// svclust.Model.Project).
func kernelRows(m *svclust.Model, x mat.Matrix, workers int) mat.Matrix {
	return m.Project(x, workers)
}

// validateCommon checks the settings both rules share.
func validateCommon(m, workers int, threshold float64) error {
	if m != 0 && m < 2 {
		return &svclust.ConfigError{Field: "M", Value: m, Reason: "must be ≥ 2 (0 selects the default)"}
	}
	if m > MaxM {
		return &svclust.ConfigError{Field: "M", Value: m, Reason: "must be ≤ MaxM = 1,000, the points of each segment test (the paper uses 20)"}
	}
	if workers < 0 {
		return &svclust.ConfigError{Field: "Workers", Value: workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return validateThreshold(threshold)
}

// orDefault returns v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// WithWorkers returns a copy of method (nil for the default Levels) that
// runs on workers goroutines, for callers that run several clusterings at
// once, each on its own goroutine.
//
// A nil *Levels or *Components is returned as it is, for Fit to report.
func WithWorkers(method Method, workers int) Method {
	switch c := method.(type) {
	case nil:
		return &Levels{Workers: workers}
	case *Levels:
		if c == nil {
			return c
		}
		cc := *c
		cc.Workers = workers
		return &cc
	case *Components:
		if c == nil {
			return c
		}
		cc := *c
		cc.Workers = workers
		return &cc
	}
	panic("cluster: unknown Method")
}

// checkedRows validates the model m and returns the rows of x, row-major,
// with their number and width: svclust.ErrNoData for a nil or empty x,
// ErrNotFinite for NaN or ±Inf, a DimensionError for rows other than m's
// width.
func checkedRows(m *svclust.Model, x mat.Matrix) ([]float64, int, int, error) {
	if err := m.Validate(); err != nil {
		return nil, 0, 0, err
	}
	data, n, d, err := rowmajor.Checked(x, svclust.ErrNoData, svclust.ErrNotFinite)
	if err != nil {
		return nil, 0, 0, err
	}
	if d != m.Dim() {
		return nil, 0, 0, svclust.DimensionError(d, m.Dim())
	}
	return data, n, d, nil
}
