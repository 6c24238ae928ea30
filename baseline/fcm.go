package baseline

import (
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// Defaults of FuzzyCMeans.
const (
	// DefaultFuzzifier is the fuzzifier m of FuzzyCMeans when
	// FCMConfig.M is 0, Bezdek's usual choice m = 2.
	DefaultFuzzifier = 2
	// DefaultFCMTol stops FuzzyCMeans when no membership changes by more
	// than this in an iteration.
	DefaultFCMTol = 1e-5
)

// FCMConfig holds the settings of [FuzzyCMeans]. K must be set; every
// other zero field selects its documented default.
type FCMConfig struct {
	// K is the number of clusters; it must be ≥ 1 and at most the number
	// of rows.
	K int
	// M is the fuzzifier m > 1; 0 selects DefaultFuzzifier.
	M float64
	// Tol stops the iterations when max |u_new − u_old| over all
	// memberships is below it; 0 selects DefaultFCMTol. It must be ≥ 0.
	Tol float64
	// MaxIter caps the iterations; 0 selects DefaultMaxIter.
	MaxIter int
	// Seed seeds the k-means++ choice of the initial centres.
	Seed uint64
	// Workers is the number of goroutines of the membership step; 0 means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
}

// FCMResult is the result of [FuzzyCMeans].
type FCMResult struct {
	// Labels holds the hard cluster of each row: the cluster of largest
	// membership, the lower index on ties.
	Labels []int
	// Membership holds uᵢₖ, row-major (n×K); each row sums to 1.
	Membership []float64
	// Centres holds the K centres, row-major (K×d).
	Centres []float64
	// Objective is J_m = Σᵢ Σₖ uᵢₖᵐ ‖xᵢ − vₖ‖² at the returned memberships
	// and centres.
	Objective float64
	// Iterations is the number of centre updates, and Converged tells
	// whether the memberships settled before MaxIter.
	Iterations int
	Converged  bool
}

// FuzzyCMeans partitions the n rows of x into
// cfg.K fuzzy clusters by the alternating optimisation of
//
//	J. C. Bezdek. Pattern Recognition with Fuzzy Objective Function
//	Algorithms. Plenum, 1981:
//
// memberships uᵢₖ = 1 / Σⱼ (‖xᵢ − vₖ‖/‖xᵢ − vⱼ‖)^{2/(m−1)} and centres
// vₖ = Σᵢ uᵢₖᵐ xᵢ / Σᵢ uᵢₖᵐ, alternately, from k-means++ centres drawn from
// cfg.Seed, until no membership changes by cfg.Tol or more. A row that
// coincides with a centre belongs to it alone (to the first of several).
// The hard labels are the clusters of largest membership.
//
// It returns a *svclust.ConfigError for an invalid cfg (nil is an error:
// K has no default), svclust.ErrNoData for empty x and
// svclust.ErrNotFinite for NaN or Inf. Memory is O(n·K).
func FuzzyCMeans(x mat.Matrix, cfg *FCMConfig) (*FCMResult, error) {
	data, d := rowsOf(x)
	return fuzzyCMeans(data, d, cfg)
}

// fuzzyCMeans is FuzzyCMeans on the n = len(x)/d rows of the row-major x.
// It panics if d < 1 or len(x) is not a multiple of d.
func fuzzyCMeans(x []float64, d int, cfg *FCMConfig) (*FCMResult, error) {
	if cfg == nil {
		cfg = &FCMConfig{}
	}
	// The settings are checked before the data is reported.
	n, dataErr := checkData(x, d)
	if err := validateK(cfg.K, cfg.MaxIter, 0, cfg.Workers, n); err != nil {
		return nil, err
	}
	if math.IsNaN(cfg.M) || math.IsInf(cfg.M, 0) || (cfg.M != 0 && cfg.M <= 1) {
		return nil, &svclust.ConfigError{Field: "M", Value: cfg.M, Reason: "must be > 1 and finite (0 selects the default)"}
	}
	if math.IsNaN(cfg.Tol) || math.IsInf(cfg.Tol, 0) || cfg.Tol < 0 {
		return nil, &svclust.ConfigError{Field: "Tol", Value: cfg.Tol, Reason: "must be ≥ 0 and finite (0 selects the default)"}
	}
	if dataErr != nil {
		return nil, dataErr
	}
	m, tol, maxIter := cfg.M, cfg.Tol, cfg.MaxIter
	if m == 0 {
		m = DefaultFuzzifier
	}
	if tol == 0 {
		tol = DefaultFCMTol
	}
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	k := cfg.K
	w := parallel.Workers(cfg.Workers)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed))
	res := &FCMResult{
		Membership: make([]float64, n*k),
		Centres:    seedPlusPlus(rng, x, d, k),
	}
	u := res.Membership
	expo := 1 / (m - 1) // applied to squared distances: (d²)^{1/(m−1)} = d^{2/(m−1)}

	// memberships sets u from the centres and returns the largest change.
	memberships := func() float64 {
		var mu sync.Mutex
		var change float64
		parallel.For(n, 256, w, func(_, lo, hi int) {
			d2 := make([]float64, k)
			var local float64
			for i := lo; i < hi; i++ {
				row := u[i*k : i*k+k]
				zero := -1
				for c := range d2 {
					d2[c] = kernel.SqDist(x[i*d:i*d+d], res.Centres[c*d:c*d+d])
					if d2[c] == 0 && zero < 0 {
						zero = c
					}
				}
				for c := range row {
					var v float64
					switch {
					case zero >= 0 && c == zero:
						v = 1
					case zero >= 0:
						v = 0
					default:
						var s float64
						for j := range d2 {
							s += math.Pow(d2[c]/d2[j], expo)
						}
						v = 1 / s
					}
					local = max(local, math.Abs(v-row[c]))
					row[c] = v
				}
			}
			mu.Lock()
			change = max(change, local)
			mu.Unlock()
		})
		return change
	}

	memberships()
	um := make([]float64, n*k)
	sum := make([]float64, k*d)
	den := make([]float64, k)
	for res.Iterations < maxIter {
		res.Iterations++
		// Centres: weighted means in row order, so the sums do not depend
		// on workers.
		for i, v := range u {
			um[i] = math.Pow(v, m)
		}
		clear(sum)
		clear(den)
		for i := 0; i < n; i++ {
			for c := 0; c < k; c++ {
				wt := um[i*k+c]
				den[c] += wt
				for j := 0; j < d; j++ {
					sum[c*d+j] += wt * x[i*d+j]
				}
			}
		}
		for c := 0; c < k; c++ {
			// A centre with no membership at all (possible only when
			// every row sits on another centre) stays where it is.
			if den[c] > 0 {
				for j := 0; j < d; j++ {
					res.Centres[c*d+j] = sum[c*d+j] / den[c]
				}
			}
		}
		if memberships() < tol {
			res.Converged = true
			break
		}
	}

	res.Labels = make([]int, n)
	for i := 0; i < n; i++ {
		row := u[i*k : i*k+k]
		best := 0
		for c, v := range row {
			if v > row[best] {
				best = c
			}
			res.Objective += math.Pow(v, m) * kernel.SqDist(x[i*d:i*d+d], res.Centres[c*d:c*d+d])
		}
		res.Labels[i] = best
	}
	return res, nil
}
