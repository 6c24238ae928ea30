package baseline

import (
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
	"github.com/svclust/svclust/internal/rowmajor"
)

// Defaults of the SVDD solver, used where an [SVDDConfig] field is zero.
const (
	// DefaultSVDDTol is the stopping tolerance of the SMO solver: it stops
	// when the largest violation of the KKT conditions, measured as a
	// difference of squared feature-space distances R²(xᵢ) − R²(xⱼ), is at
	// most this. It is LIBSVM's default ε = 10⁻³, applied to the SVDD dual
	// with Q = 2K as LIBSVM's SVDD extension states it, whose gradient
	// differences are exactly such differences of R².
	DefaultSVDDTol = 1e-3
	// DefaultCacheMB is the size of the kernel-row cache in megabytes,
	// LIBSVM's default (-m 100).
	DefaultCacheMB = 100
)

// ErrExceeded is returned when a run does not finish within its time
// budget (SVDDConfig.Timeout, GraphConfig.Timeout, FSVCConfig.Timeout). It is
// an honest "did not finish", never replaced by a cheaper approximation.
var ErrExceeded = errors.New("baseline: time budget exceeded")

// SVDDConfig holds the settings of [TrainSVDD]. Gamma must be set; every
// other zero field selects its documented default.
type SVDDConfig struct {
	// Gamma is the kernel width γ in k(x, y) = exp(−γ‖x − y‖²), Ben-Hur et
	// al.'s q. It must be > 0 and finite.
	Gamma float64

	// C bounds every coefficient, 0 ≤ βᵢ ≤ C. At most 1/C points can be
	// bounded support vectors, so Ben-Hur et al.'s outlier fraction p
	// corresponds to C = 1/(N·p) (see [OutlierC]). The paper's grid value
	// is used as C directly, the convention of LIBSVM's SVDD (-c). C ≥ 1
	// allows no bounded support vector (a hard margin), since Σβᵢ = 1:
	// TrainSVDD lowers it to 1, which gives the same SVDD. C below 1/N, for
	// which Σβᵢ = 1 is infeasible, is raised to 1/N, where every βᵢ = 1/N.
	// SVDD.C holds the value used. 0 selects 1; otherwise C must be > 0
	// and finite.
	C float64

	// Tol is the stopping tolerance on the KKT violation, in units of R²;
	// 0 selects DefaultSVDDTol. It must be ≥ 0 and finite.
	Tol float64

	// CacheMB is the size of the kernel-row cache in megabytes; 0 selects
	// DefaultCacheMB. The cache always holds at least two rows. Apart from
	// it the solver uses O(N) memory.
	CacheMB float64

	// MaxIter caps the number of SMO steps; 0 selects max(10⁷, 100·N), as
	// LIBSVM. Reaching it is reported in SVDD.Status, not as an error.
	MaxIter int

	// Timeout is the longest time training may take; 0 means no limit. When
	// it runs out TrainSVDD returns ErrExceeded.
	Timeout time.Duration

	// Workers is the number of goroutines that fill a kernel row; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int
}

// Validate reports the first invalid field of c as a *svclust.ConfigError,
// or nil.
func (c *SVDDConfig) Validate() error {
	if !(c.Gamma > 0) || math.IsInf(c.Gamma, 0) {
		return &svclust.ConfigError{Field: "Gamma", Value: c.Gamma, Reason: "must be > 0 and finite"}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"C", c.C}, {"Tol", c.Tol}, {"CacheMB", c.CacheMB}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return &svclust.ConfigError{Field: f.name, Value: f.v, Reason: "must be > 0 and finite (0 selects the default)"}
		}
	}
	if c.MaxIter < 0 {
		return &svclust.ConfigError{Field: "MaxIter", Value: c.MaxIter, Reason: "must be ≥ 0 (0 selects the default)"}
	}
	if c.Timeout < 0 {
		return &svclust.ConfigError{Field: "Timeout", Value: c.Timeout, Reason: "must be ≥ 0 (0 means no limit)"}
	}
	if c.Workers < 0 {
		return &svclust.ConfigError{Field: "Workers", Value: c.Workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return nil
}

// OutlierC returns the bound C = 1/(n·p) that makes p the largest fraction
// of n points that can be bounded support vectors, Ben-Hur et al.'s
// parametrisation of the SVDD by the outlier fraction p ∈ (0, 1].
func OutlierC(n int, p float64) float64 { return 1 / (float64(n) * p) }

// SVDD is a support vector data description with the Gaussian kernel: the
// smallest sphere, centre a = Σᵢ βᵢ φ(xᵢ) and squared radius R2, that holds
// the images φ(xᵢ) of the training points up to the slack allowed by C.
// Its squared distance function is
//
//	R²(x) = ‖φ(x) − a‖² = 1 − 2 Σᵢ βᵢ k(xᵢ, x) + βᵀKβ,
//
// and x lies inside the sphere, in the domain of the SVDD, when
// R²(x) ≤ R2.
type SVDD struct {
	// Gamma is the kernel width γ.
	Gamma float64
	// C is the bound on the coefficients actually used, after the
	// clamping described at SVDDConfig.C.
	C float64
	// D is the dimension of the input space.
	D int
	// SV holds the support vectors (the training points with βᵢ > 0), one
	// per row in training order, and Index their row numbers in the
	// training data.
	SV    []float64
	Index []int
	// Beta holds the coefficient βᵢ > 0 of each support vector; they sum
	// to 1.
	Beta []float64
	// Bounded is the number of support vectors with βᵢ = C, the bounded
	// support vectors, which lie outside the sphere (up to Tol).
	Bounded int
	// R2 is the squared radius: the mean of R²(xᵢ) over the free support
	// vectors (0 < βᵢ < C), or, when there is none, the middle of the
	// interval the KKT conditions allow, as LIBSVM does for its ρ.
	R2 float64
	// BKB is βᵀKβ, the dual objective minimised by the solver; the SVDD
	// dual maximises 1 − βᵀKβ.
	BKB float64
	// Gap is the final KKT violation, in units of R².
	Gap float64
	// Iterations is the number of SMO steps, and KernelRows the number of
	// kernel rows computed (cache misses).
	Iterations, KernelRows int
	// Status is svclust.Converged when Gap ≤ Tol, else
	// svclust.IterationLimit.
	Status svclust.Status
	// Runtime is the wall time of TrainSVDD.
	Runtime time.Duration
}

// Dist2 returns R²(x) = 1 − 2 Σᵢ βᵢ k(xᵢ, x) + βᵀKβ. It panics if len(x) is
// not s.D.
func (s *SVDD) Dist2(x []float64) float64 {
	if len(x) != s.D {
		panic(badDim)
	}
	return 1 - 2*kernel.Sum(x, s.SV, s.Beta, s.Gamma) + s.BKB
}

// Inside reports whether R²(x) ≤ R2. It panics if len(x) is not s.D.
func (s *SVDD) Inside(x []float64) bool { return s.Dist2(x) <= s.R2 }

// roundSlack is added to R2 in the inside test of the labellings: the
// gradient the solver updates incrementally drifts from a fresh Dist2 by
// about 1e-16 per step, and up to 10⁷ steps are allowed.
const roundSlack = 1e-9

// Bound returns R2 + 10⁻⁹, the squared radius of the inside test of the
// labellings: y is inside the sphere when R²(y) ≤ Bound(). The 10⁻⁹ covers
// rounding, so that with a tight Tol the free support vectors, which lie
// on the sphere and outline the clusters, are not cut off, as
// implementations of support vector clustering usually ensure by adding a
// small constant to R. With the default Tol the free support vectors
// straddle R2 by up to Gap; those left outside are labelled like bounded
// support vectors. Bound does not include Gap, so that the labellings use
// the same domain as [SVDD.Model]; widened by Gap it would be a larger
// domain, which can only join clusters.
func (s *SVDD) Bound() float64 { return s.R2 + roundSlack }

// within reports whether R²(x) ≤ Bound(), the inside test of the
// labellings.
func (s *SVDD) within(x []float64) bool { return s.Dist2(x) <= s.Bound() }

// Rho returns ρ = (1 + βᵀKβ − R2)/2, the level of the kernel expansion
// Σᵢ βᵢ k(xᵢ, x) at the sphere: R²(x) ≤ R2 exactly when Σᵢ βᵢ k(xᵢ, x) ≥ ρ.
func (s *SVDD) Rho() float64 { return (1 + s.BKB - s.R2) / 2 }

// Model returns s as a *svclust.Model with the same support vectors and
// coefficients αᵢ = βᵢ/ρ, so that its decision function
// f(x) = Σᵢ αᵢ k(xᵢ, x) − 1 is ≥ 0 exactly where R²(x) ≤ R2 (up to
// rounding). The model can then be clustered by cluster.Fit
// (the paper's Algorithm 3 on an exact SVDD), scored and plotted. Its
// Status, Stats.Iterations (SMO steps) and Stats.Runtime are those of s;
// its Stats.Objective, which is the paper's J, is left 0. It panics if
// ρ ≤ 0, which a converged SVDD never has.
func (s *SVDD) Model() *svclust.Model {
	rho := s.Rho()
	if !(rho > 0) {
		panic("baseline: SVDD with ρ ≤ 0")
	}
	alpha := make([]float64, len(s.Beta))
	for i, b := range s.Beta {
		alpha[i] = b / rho
	}
	sv := make([]float64, len(s.SV))
	copy(sv, s.SV)
	return &svclust.Model{
		Gamma:  s.Gamma,
		C:      s.C,
		SV:     mat.NewDense(len(s.Beta), s.D, sv),
		Alpha:  alpha,
		Status: s.Status,
		Stats:  svclust.Stats{Iterations: s.Iterations, Runtime: s.Runtime},
	}
}

const (
	badDim    = "baseline: dimension mismatch"
	badLength = "baseline: len(x) is not a multiple of d"
)

// rowsOf returns the rows of x as one row-major slice (x's own data for a
// compact *mat.Dense, no copy) and their length, at least 1 so that
// checkData reports no rows as svclust.ErrNoData: for a nil x, nil and 1.
func rowsOf(x mat.Matrix) (data []float64, d int) {
	if rowmajor.Nil(x) {
		return nil, 1
	}
	data, _, d = rowmajor.Of(x)
	return data, max(d, 1)
}

// labelRows returns the rows of x as rowsOf does, for labelling with s: an
// error wrapping svclust.ErrNotTrained for an SVDD that is nil or whose
// fields disagree (such as the zero SVDD), one wrapping
// svclust.ErrDimension unless x has s.D columns, and nil rows for a nil x
// (which labelSetup reports as svclust.ErrNoData).
func (s *SVDD) labelRows(x mat.Matrix) ([]float64, error) {
	switch {
	case s == nil:
		return nil, fmt.Errorf("%w: nil *SVDD", svclust.ErrNotTrained)
	case s.D < 1 || len(s.Beta) == 0 || len(s.SV) != len(s.Beta)*s.D:
		return nil, fmt.Errorf("%w: SVDD with D = %d, %d coefficients and %d support-vector values", svclust.ErrNotTrained, s.D, len(s.Beta), len(s.SV))
	case !(s.Gamma > 0) || math.IsInf(s.Gamma, 0):
		return nil, fmt.Errorf("%w: SVDD with Gamma = %v", svclust.ErrNotTrained, s.Gamma)
	}
	if _, c := rowmajor.Dims(x); c == 0 {
		return nil, nil
	} else if c != s.D {
		return nil, svclust.DimensionError(c, s.D)
	}
	data, _ := rowsOf(x)
	return data, nil
}

// checkData panics if d < 1 or len(x) is not a multiple of d, and returns
// svclust.ErrNoData for empty x or svclust.ErrNotFinite (with the row and
// column, counted from 1) for NaN or Inf.
func checkData(x []float64, d int) (n int, err error) {
	if d < 1 || len(x)%d != 0 {
		panic(badLength)
	}
	if len(x) == 0 {
		return 0, svclust.ErrNoData
	}
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: row %d, column %d", svclust.ErrNotFinite, k/d+1, k%d+1)
		}
	}
	return len(x) / d, nil
}

// TrainSVDD solves the SVDD dual for the n rows of x with the settings of
// cfg (nil is an error: Gamma has no
// default),
//
//	min_β βᵀKβ  subject to  Σᵢ βᵢ = 1, 0 ≤ βᵢ ≤ C,
//
// the dual of Ben-Hur et al.'s support vector clustering (with k(x, x) = 1
// the term Σᵢ βᵢ k(xᵢ, xᵢ) is the constant 1), which is also Schölkopf et
// al.'s ν-one-class SVM with ν = 1/(nC). It uses sequential minimal
// optimisation with the second-order working-set selection of
//
//	R.-E. Fan, P.-H. Chen, C.-J. Lin. Working set selection using second
//	order information for training support vector machines. JMLR 6
//	(2005) 1889–1918, Algorithm WSS 2,
//
// as LIBSVM does, and a least-recently-used cache of kernel rows; memory is
// O(n) apart from the cache. There is no shrinking. Training stops when
// the KKT violation is at most cfg.Tol (see DefaultSVDDTol) or after
// MaxIter steps.
//
// It returns a *svclust.ConfigError for an invalid cfg, svclust.ErrNoData
// for empty x, svclust.ErrNotFinite for NaN or Inf and ErrExceeded when
// cfg.Timeout runs out.
func TrainSVDD(x mat.Matrix, cfg *SVDDConfig) (*SVDD, error) {
	data, d := rowsOf(x)
	return trainSVDD(data, d, cfg)
}

// trainSVDD is TrainSVDD on the n = len(x)/d rows of the row-major x. It
// panics if d < 1 or len(x) is not a multiple of d.
func trainSVDD(x []float64, d int, cfg *SVDDConfig) (*SVDD, error) {
	start := time.Now()
	if cfg == nil {
		cfg = &SVDDConfig{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, err := checkData(x, d)
	if err != nil {
		return nil, err
	}
	c := cfg.C
	if c == 0 {
		c = 1
	}
	c = min(max(c, 1/float64(n)), 1)
	tol := cfg.Tol
	if tol == 0 {
		tol = DefaultSVDDTol
	}
	cacheMB := cfg.CacheMB
	if cacheMB == 0 {
		cacheMB = DefaultCacheMB
	}
	maxIter := cfg.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*n)
	}
	sol := &smo{
		n: n, c: c, tol: tol / 2, // the solver works with G = Kβ = (1 − R² + βᵀKβ)/2
		cache:  newRowCache(x, d, cfg.Gamma, int64(cacheMB*(1<<20)), parallel.Workers(cfg.Workers)),
		budget: cfg.Timeout, start: start,
	}
	if err := sol.solve(maxIter); err != nil {
		return nil, err
	}

	s := &SVDD{Gamma: cfg.Gamma, C: c, D: d, Iterations: sol.iter,
		KernelRows: sol.cache.computed, Gap: 2 * sol.gap, Status: svclust.Converged}
	if sol.gap > sol.tol {
		s.Status = svclust.IterationLimit
	}
	for i, b := range sol.beta {
		if b > 0 {
			s.SV = append(s.SV, x[i*d:i*d+d]...)
			s.Index = append(s.Index, i)
			s.Beta = append(s.Beta, b)
			s.BKB += b * sol.g[i]
			if b == c {
				s.Bounded++
			}
		}
	}
	s.R2 = 1 - 2*sol.rho() + s.BKB
	s.Runtime = time.Since(start)
	return s, nil
}
