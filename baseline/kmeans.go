package baseline

import (
	"math"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// DefaultMaxIter caps the iterations of KMeans and FuzzyCMeans when their
// MaxIter is 0 (the default max_iter of scikit-learn's KMeans).
const DefaultMaxIter = 300

// KMeansConfig holds the settings of [KMeans]. K must be set; every other
// zero field selects its documented default.
type KMeansConfig struct {
	// K is the number of clusters; it must be ≥ 1 and at most the number
	// of rows.
	K int
	// MaxIter caps the Lloyd iterations of each run; 0 selects
	// DefaultMaxIter.
	MaxIter int
	// Runs is the number of runs from different k-means++ seeds, of which
	// the one with the least inertia is kept; 0 selects 1.
	Runs int
	// Seed seeds the k-means++ initialisation.
	Seed uint64
	// Workers is the number of goroutines of the assignment step; 0 means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
}

// KMeansResult is the result of [KMeans].
type KMeansResult struct {
	// Labels holds the cluster 0 … K−1 of each row.
	Labels []int
	// Centres holds the K centres, row-major (K×d).
	Centres []float64
	// Inertia is Σᵢ ‖xᵢ − centre of xᵢ‖².
	Inertia float64
	// Iterations is the number of Lloyd iterations of the kept run, and
	// Converged tells whether its assignment stopped changing before
	// MaxIter.
	Iterations int
	Converged  bool
}

func validateK(k, maxIter, runs, workers, n int) error {
	switch {
	case k < 1:
		return &svclust.ConfigError{Field: "K", Value: k, Reason: "must be ≥ 1"}
	case n > 0 && k > n:
		return &svclust.ConfigError{Field: "K", Value: k, Reason: "must not exceed the number of rows"}
	case maxIter < 0:
		return &svclust.ConfigError{Field: "MaxIter", Value: maxIter, Reason: "must be ≥ 0 (0 selects the default)"}
	case runs < 0:
		return &svclust.ConfigError{Field: "Runs", Value: runs, Reason: "must be ≥ 0 (0 selects 1)"}
	case workers < 0:
		return &svclust.ConfigError{Field: "Workers", Value: workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return nil
}

// KMeans partitions the n rows of x into
// cfg.K clusters by Lloyd's algorithm (the paper's C-means), started from
// the k-means++ seeding of
//
//	D. Arthur, S. Vassilvitskii. k-means++: the advantages of careful
//	seeding. SODA 2007,
//
// drawn from cfg.Seed. Each iteration assigns every row to its nearest
// centre (lowest index on ties) and moves each centre to the mean of its
// rows; a centre left without rows moves to the row farthest from its
// centre. A run stops when no assignment changes or after MaxIter
// iterations (centre updates).
//
// It returns a *svclust.ConfigError for an invalid cfg (nil is an error:
// K has no default), svclust.ErrNoData for empty x and
// svclust.ErrNotFinite for NaN or Inf.
func KMeans(x mat.Matrix, cfg *KMeansConfig) (*KMeansResult, error) {
	data, d := rowsOf(x)
	return kMeans(data, d, cfg)
}

// kMeans is KMeans on the n = len(x)/d rows of the row-major x. It panics
// if d < 1 or len(x) is not a multiple of d.
func kMeans(x []float64, d int, cfg *KMeansConfig) (*KMeansResult, error) {
	if cfg == nil {
		cfg = &KMeansConfig{}
	}
	// The settings are checked before the data is reported.
	n, dataErr := checkData(x, d)
	if err := validateK(cfg.K, cfg.MaxIter, cfg.Runs, cfg.Workers, n); err != nil {
		return nil, err
	}
	if dataErr != nil {
		return nil, dataErr
	}
	maxIter := cfg.MaxIter
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	w := parallel.Workers(cfg.Workers)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed))
	var best *KMeansResult
	for run := 0; run < max(1, cfg.Runs); run++ {
		r := lloyd(x, d, seedPlusPlus(rng, x, d, cfg.K), maxIter, w)
		if best == nil || r.Inertia < best.Inertia {
			best = r
		}
	}
	return best, nil
}

// seedPlusPlus returns k centres chosen by k-means++: the first uniformly,
// each next one with probability proportional to its squared distance to
// the nearest centre chosen so far (uniformly if all those are 0).
func seedPlusPlus(rng *rand.Rand, x []float64, d, k int) []float64 {
	n := len(x) / d
	centres := make([]float64, 0, k*d)
	c := rng.IntN(n)
	centres = append(centres, x[c*d:c*d+d]...)
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = kernel.SqDist(x[i*d:i*d+d], centres[:d])
	}
	for len(centres) < k*d {
		var total float64
		for _, v := range dist {
			total += v
		}
		c = n - 1
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range dist {
				if u < v {
					c = i
					break
				}
				u -= v
			}
		} else {
			c = rng.IntN(n)
		}
		centre := x[c*d : c*d+d]
		centres = append(centres, centre...)
		for i := range dist {
			dist[i] = min(dist[i], kernel.SqDist(x[i*d:i*d+d], centre))
		}
	}
	return centres
}

// nearestCentre returns the index of the centre nearest to p and the
// squared distance; ties go to the lower index.
func nearestCentre(p, centres []float64) (int, float64) {
	d := len(p)
	best, bestD := 0, math.Inf(1)
	for c := 0; c < len(centres)/d; c++ {
		if dd := kernel.SqDist(p, centres[c*d:c*d+d]); dd < bestD {
			best, bestD = c, dd
		}
	}
	return best, bestD
}

// lloyd runs Lloyd's iterations from centres (modified in place). The
// labels returned are always the assignment to the returned centres.
func lloyd(x []float64, d int, centres []float64, maxIter, workers int) *KMeansResult {
	n, k := len(x)/d, len(centres)/d
	labels := make([]int, n)
	dist := make([]float64, n)
	for i := range labels {
		labels[i] = -1
	}
	// assign labels every row with its nearest centre and reports whether
	// any label changed; each row is written by one worker.
	assign := func() bool {
		var changed atomic.Bool
		parallel.For(n, 256, workers, func(_, lo, hi int) {
			moved := false
			for i := lo; i < hi; i++ {
				c, dd := nearestCentre(x[i*d:i*d+d], centres)
				moved = moved || c != labels[i]
				labels[i], dist[i] = c, dd
			}
			if moved {
				changed.Store(true)
			}
		})
		return changed.Load()
	}
	count := make([]int, k)
	res := &KMeansResult{Labels: labels, Centres: centres}
	assign()
	for res.Iterations < maxIter {
		res.Iterations++
		// Means in row order, so the sums do not depend on workers.
		clear(centres)
		clear(count)
		for i, c := range labels {
			count[c]++
			for j := 0; j < d; j++ {
				centres[c*d+j] += x[i*d+j]
			}
		}
		for c := 0; c < k; c++ {
			if count[c] == 0 {
				// Empty: take the row farthest from its centre, which then
				// leaves its old cluster at the next assignment.
				far := 0
				for i, v := range dist {
					if v > dist[far] {
						far = i
					}
				}
				copy(centres[c*d:c*d+d], x[far*d:far*d+d])
				dist[far] = 0
				continue
			}
			for j := 0; j < d; j++ {
				centres[c*d+j] /= float64(count[c])
			}
		}
		if !assign() {
			res.Converged = true
			break
		}
	}
	for _, v := range dist {
		res.Inertia += v
	}
	return res
}
