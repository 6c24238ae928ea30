// Package tune chooses γ and C by a grid search: it trains and clusters the
// data at every point of a grid and picks the best partition, by an
// external index when true labels are known and by DBCV (the density-based
// clustering validation index, metrics.DBCV) when they are not.
//
// The default grid is centred on the automatic choice of svclust.Train: γ
// at 1/4, 1/2, 1, 2 and 4 times the automatic γ, and the automatic C. The
// point 1×γ with the automatic C is exactly what a plain svclust.Train
// does, so a search never does worse by its own criterion than the
// defaults, and a tie keeps the defaults.
//
// When the automatic choice projects the data onto a subspace
// (svclust.Model.Subspace, at four features or more), every other point
// whose γ is a multiple of the automatic one trains in that subspace
// (svclust.Prepared.Within), where the automatic γ was measured, so that the
// grid scales one kernel; a γ given as a number trains in the features, as
// svclust.Train does with a given γ.
package tune

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/sample"
)

// Value is one value of a grid: a number, or a multiple of the automatic
// choice of svclust.Train.
type Value struct {
	// V is the value, or the multiplier when Auto is set.
	V float64
	// Auto makes the value V times the automatic one; V = 1 leaves the
	// setting to Train (Config.Gamma or Config.C zero).
	Auto bool
}

// String returns v as ParseGrid reads it: "auto" for the automatic value,
// "0.5x" for a multiple of it, or the number.
func (v Value) String() string {
	num := strconv.FormatFloat(v.V, 'g', -1, 64)
	switch {
	case v.Auto && v.V == 1:
		return "auto"
	case v.Auto:
		return num + "x"
	}
	return num
}

// IsAuto reports whether v is the automatic value itself.
func (v Value) IsAuto() bool { return v.Auto && v.V == 1 }

// DefaultGammas returns the default grid of γ: 1/4, 1/2, 1, 2 and 4 times
// the automatic γ, that is kernel widths ℓ = 1/√γ from 2 to 1/2 times the
// automatic one. What DBCV picks from it, against the automatic point
// alone, on the generated kinds and the paper's data sets is measured in
// docs/tuning.md.
func DefaultGammas() []Value {
	return []Value{{0.25, true}, {0.5, true}, {1, true}, {2, true}, {4, true}}
}

// DefaultCs returns the default grid of C: the automatic C alone. Under
// the LevelTree rule the automatic C sets only which level of f is its
// boundary f = 0 (the outliers), not the tree of clusters, so a range of
// C would refit the same partition; give C values to search C, as the
// paper's protocol (-rule components) needs.
func DefaultCs() []Value { return []Value{{1, true}} }

// ParseGrid parses a comma-separated list of grid values: positive
// numbers, "auto" for the automatic value, and, when multiples is set,
// "Fx" for F times the automatic value (F a positive number).
func ParseGrid(s string, multiples bool) ([]Value, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty list")
	}
	var out []Value
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v := Value{}
		num := f
		switch {
		case f == "auto":
			out = append(out, Value{1, true})
			continue
		case strings.HasSuffix(f, "x"):
			if !multiples {
				return nil, fmt.Errorf("%q: multiples of the automatic value are not allowed here; give a number or \"auto\"", f)
			}
			num, v.Auto = strings.TrimSuffix(f, "x"), true
		}
		x, err := strconv.ParseFloat(num, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			if multiples {
				return nil, fmt.Errorf("%q is not a positive number, \"auto\" or a multiple such as 0.5x", f)
			}
			return nil, fmt.Errorf("%q is not a positive number or \"auto\"", f)
		}
		v.V = x
		out = append(out, v)
	}
	return out, nil
}

// DefaultSample is the number of rows, at most, on which a Search
// evaluates DBCV. DBCV costs O(s²·d) for s rows, so the criterion's cost
// stays fixed as N grows; a cluster of 0.75 % of the rows (the default
// minimum cluster size, cluster.DefaultMinShare) has 7 or 8 rows in the
// sample.
const DefaultSample = 1000

// Search describes a grid search. The zero value of each field is its
// default.
type Search struct {
	// Train is the configuration of every fit; its Gamma and C are
	// replaced by the grid's.
	Train svclust.Config
	// Cluster is the rule of every clustering, with its settings; nil
	// selects cluster.Levels with its defaults. Its Workers is replaced
	// by the Search's.
	Cluster cluster.Method
	// Gammas and Cs are the grids; nil selects DefaultGammas and
	// DefaultCs. Multiples of the automatic C are not supported.
	Gammas, Cs []Value
	// Truth holds the true classes of the rows (0, 1, …), or nil. With
	// them the best point has the largest Metric, otherwise the largest
	// DBCV. A class of −1 (metrics.Unlabelled) marks an unlabelled row,
	// which Metric does not see.
	Truth []int
	// Metric scores a partition against Truth, given the labelled rows
	// only; nil selects NMI.
	Metric func(truth, pred []int) float64
	// Sample is the number of rows DBCV is evaluated on; 0 selects
	// DefaultSample. The rows are a uniform sample drawn with Train.Seed.
	Sample int
	// Runs is the number of training seeds per grid point, Train.Seed,
	// Train.Seed+1, …; 0 selects 1. With 2 or more, Point.Stability is
	// the mean adjusted Rand index between the partitions of every pair
	// of seeds; the other outcomes are those of Train.Seed. A multiple
	// of a projected automatic γ keeps the value measured for Train.Seed
	// and trains, at each other seed, in the subspace the automatic
	// choice finds for that seed (in the features if it finds none), so
	// that Stability then also measures how the projection varies.
	Runs int
	// Workers is the number of grid points fitted at once, and of the
	// goroutines of the passes over the data within each fit; 0 selects
	// GOMAXPROCS. The result does not depend on it.
	Workers int
	// Keep keeps the model and the clustering of the best point, from its
	// run with Train.Seed, in Result.Model and Result.Fit, so that a
	// caller that writes them need not fit that point again. While the
	// grid runs, only the best point so far is held.
	Keep bool
}

// Point is the outcome of one grid point.
type Point struct {
	// GammaValue and CValue are the grid values; Gamma and C the values
	// they resolve to (C is the C of the trained model, which the
	// automatic choice sets after training: see svclust.Choose).
	GammaValue, CValue Value
	Gamma, C           float64
	// Clusters is the number of clusters found, DBCV the index of the
	// partition on the sample, and Index the external validity index
	// Metric against the truth (NaN without one). (Score means f(x)
	// elsewhere in this project.)
	Clusters int
	DBCV     float64
	Index    float64
	// Stability is the mean seed-to-seed ARI of Search.Runs ≥ 2 runs,
	// NaN with one run.
	Stability float64
	// Err is the error of the fit, if it failed; the point is then
	// skipped.
	Err error
	// Projected reports that the point's model works in the subspace of
	// the automatic choice (auto.Choice.Projected): the automatic
	// point's own, or a multiple of its γ (see the package doc), which
	// svclust.Train with that γ given would not reproduce.
	Projected bool
}

// Result is the outcome of a Search.
type Result struct {
	// Points holds every grid point, γ-major in the order of the grids.
	Points []Point
	// Best is the index in Points of the best point; Criterion names what
	// chose it: "dbcv", or "metric" with Truth.
	Best      int
	Criterion string
	// AutoGamma is the automatic γ the multiples refer to.
	AutoGamma float64
	// Model and Fit are the model and the clustering of Points[Best]
	// when Search.Keep is set, else nil.
	Model *svclust.Model
	Fit   *cluster.Result
}

// ErrAllFailed is wrapped by the error of Search.Run when the fit of
// every grid point failed.
var ErrAllFailed = errors.New("every grid point failed")

// Run trains and clusters x at every grid point and picks the best: the
// largest criterion (Metric with Truth, else DBCV), ties going to the
// automatic point (1×γ with the automatic C) when it is among them, else
// to the earliest point. A partition with fewer than two clusters has
// DBCV −1. Points whose fit fails are kept with their error. Run returns
// an error if the configuration is invalid or ctx is cancelled (the points
// not yet started are then skipped), and if every point fails, the Result
// (with Best −1) and an error that wraps ErrAllFailed and the first
// point's error.
func (s *Search) Run(ctx context.Context, x mat.Matrix) (*Result, error) {
	n, d := x.Dims()
	gammas, cs := s.Gammas, s.Cs
	if gammas == nil {
		gammas = DefaultGammas()
	}
	if cs == nil {
		cs = DefaultCs()
	}
	for _, c := range cs {
		if c.Auto && !c.IsAuto() {
			return nil, fmt.Errorf("tune: C value %v: multiples of the automatic C are not supported", c)
		}
	}
	if s.Truth != nil && len(s.Truth) != n {
		return nil, fmt.Errorf("tune: %d true classes for %d rows", len(s.Truth), n)
	}
	for i, c := range s.Truth {
		if c < metrics.Unlabelled {
			return nil, fmt.Errorf("tune: true class %d of row %d is below −1", c, i)
		}
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	base := s.Train
	base.Gamma, base.C = 0, 0
	base.Workers = workers
	auto, err := svclust.Prepare(x, &base)
	if err != nil {
		return nil, err
	}
	choice := auto.Choice()
	res := &Result{AutoGamma: choice.Gamma, Criterion: "dbcv"}
	if s.Truth != nil {
		res.Criterion = "metric"
	}
	for _, g := range gammas {
		for _, c := range cs {
			p := Point{GammaValue: g, CValue: c, Gamma: g.V, C: c.V, Index: math.NaN(), Stability: math.NaN()}
			if g.Auto {
				p.Gamma = g.V * choice.Gamma
			}
			res.Points = append(res.Points, p)
		}
	}
	size := s.Sample
	if size <= 0 {
		size = DefaultSample
	}
	rows := sample.SortedIndices(n, size, rand.New(rand.NewPCG(s.Train.Seed, sampleStream)))
	sub := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		sub.SetRow(i, mat.Row(nil, r, x))
	}
	// DBCV's distances depend on the sample alone: computed once for
	// every point, when they fit in sharedDBCV rows.
	dbcv := func(pred []int) float64 { return metrics.DBCV(sub, pred) }
	if len(rows) <= sharedDBCV {
		dbcv = metrics.NewDBCVRows(sub).DBCV
	}
	metric := s.Metric
	if metric == nil {
		metric = metrics.NMI
	}
	if s.Truth != nil {
		metric = labelledOnly(s.Truth, metric)
	}
	var (
		mu    sync.Mutex
		kept  = -1        // the best point so far whose fit is held in res
		keptJ func()      // the pass that completes res.Model (TrainDeferred)
		autos autoChoices // the automatic choices of the other seeds (trainWithin)
	)
	for lo := 0; lo < len(res.Points) && ctx.Err() == nil; lo += chosenBatch {
		// What does not depend on the grid point is measured once: the
		// automatic choice of each point (its sample, and for the
		// automatic point the neighbour distances and the subspace),
		// shared read-only. A point whose choice fails records the error
		// when it is fitted.
		chosen := make([]*svclust.Prepared, min(chosenBatch, len(res.Points)-lo))
		chosenErr := make([]error, len(chosen))
		for k := range chosen {
			cfg := s.config(&res.Points[lo+k], 0, workers)
			if cfg.Gamma == 0 && cfg.C == 0 {
				chosen[k] = auto
				continue
			}
			if res.Points[lo+k].GammaValue.Auto {
				// A multiple of the automatic γ is on the scale of the
				// space it was measured in: the automatic point's
				// subspace when it has one.
				chosen[k], chosenErr[k] = auto.Within(x, &cfg)
				continue
			}
			chosen[k], chosenErr[k] = svclust.Prepare(x, &cfg)
		}
		// Each point is fitted by one call of eval and written to its own
		// slot, so the result depends neither on the number of workers
		// nor on the order: the costliest points start first (see
		// byCost), and the passes of each fit may use every worker, so
		// that the last fits do not leave cores idle.
		order := byCost(chosen, d)
		Each(ctx, len(order), workers, nil, func(j int) {
			k := order[j]
			p := &res.Points[lo+k]
			if chosenErr[k] != nil {
				// Not trained another way: a multiple of a projected
				// γ means nothing in the features.
				p.Err = chosenErr[k]
				return
			}
			model, cl, objective := s.eval(x, dbcv, rows, metric, chosen[k], &autos, workers, p)
			if !s.Keep || p.Err != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if kept < 0 || picked(res.Points, lo+k, kept, s.Truth != nil) {
				kept, res.Model, res.Fit, keptJ = lo+k, model, cl, objective
			}
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if keptJ != nil {
		// Only the kept model's objective is computed, once the grid
		// has run: the others are not written.
		keptJ()
	}
	res.Best = pick(res.Points, s.Truth != nil)
	if res.Best < 0 {
		return res, fmt.Errorf("tune: %w; the first: %w", ErrAllFailed, res.Points[0].Err)
	}
	return res, nil
}

// config returns the training configuration of run r at the grid point p.
func (s *Search) config(p *Point, r, workers int) svclust.Config {
	cfg := s.Train
	cfg.Workers = workers
	cfg.Seed += uint64(r)
	if !p.GammaValue.IsAuto() {
		cfg.Gamma = p.Gamma
	}
	if !p.CValue.IsAuto() {
		cfg.C = p.C
	}
	return cfg
}

// byCost returns the indices of the grid points, those whose fits cost
// the most first: by their number of support vectors times the dimension
// of their kernel, the factor of every kernel pass in training and
// clustering, in grid order on a tie. A point without a choice comes
// last.
func byCost(chosen []*svclust.Prepared, d int) []int {
	cost := make([]float64, len(chosen))
	for i, p := range chosen {
		if p == nil {
			continue
		}
		ch := p.Choice()
		b := float64(ch.Budget)
		if ch.Budget <= 0 { // unbudgeted: as many as there are rows
			b = math.Inf(1)
		}
		kd := d
		if ch.Projected {
			kd = ch.Q
		}
		cost[i] = b * float64(kd)
	}
	order := make([]int, len(chosen))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	return order
}

// eval fits and clusters x at the grid point p, once per run, and records
// the outcome in p. The first run uses the choice pre when it is not nil;
// workers is the number of goroutines of the passes of each fit; dbcv
// scores the labels of the sampled rows. It
// returns the model and the clustering of the first run, and the pass
// that completes that model's Stats.Objective, or nil (see
// svclust.Prepared.TrainDeferred: no other outcome reads the objective, so
// only a model that is kept needs it); nils when a fit failed.
func (s *Search) eval(x mat.Matrix, dbcv func(pred []int) float64, rows []int, metric func(truth, pred []int) float64, pre *svclust.Prepared, autos *autoChoices, workers int, p *Point) (first *svclust.Model, firstFit *cluster.Result, objective func()) {
	runs := max(s.Runs, 1)
	var labels [][]int
	for r := range runs {
		cfg := s.config(p, r, workers)
		var model *svclust.Model
		var later func()
		var err error
		switch {
		case r == 0 && pre != nil:
			model, later, err = pre.TrainDeferred(context.Background(), x, &cfg)
		case p.GammaValue.Auto && !(p.GammaValue.IsAuto() && p.CValue.IsAuto()) && pre != nil && pre.Choice().Projected:
			// The other seeds of a multiple train in the subspace of
			// the automatic choice of their own seed, as that point's
			// runs do.
			model, err = trainWithin(x, cfg, autos)
		default:
			// Prepare and Prepared.TrainDeferred make the Model of
			// Train, with its errors, but for the objective.
			var own *svclust.Prepared
			if own, err = svclust.Prepare(x, &cfg); err == nil {
				model, later, err = own.TrainDeferred(context.Background(), x, &cfg)
			}
		}
		if err != nil {
			p.Err = err
			return nil, nil, nil
		}
		cl, err := cluster.Fit(model, x, cluster.WithWorkers(s.Cluster, workers))
		if err != nil {
			p.Err = err
			return nil, nil, nil
		}
		labels = append(labels, cl.Labels)
		if r > 0 {
			continue
		}
		first, firstFit, objective = model, cl, later
		p.Gamma, p.C = model.Gamma, model.C
		p.Projected = model.Choice.Projected
		p.Clusters = cl.Clusters
		if s.Truth != nil {
			p.Index = metric(s.Truth, cl.Labels)
		}
		pred := make([]int, len(rows))
		for i, r := range rows {
			pred[i] = cl.Labels[r]
		}
		p.DBCV = dbcv(pred)
	}
	if runs > 1 {
		var sum float64
		for i := range labels {
			for j := range i {
				sum += metrics.AdjustedRand(labels[i], labels[j])
			}
		}
		p.Stability = sum / float64(runs*(runs-1)/2)
	}
	return first, firstFit, objective
}

// autoChoices holds, for one search, the automatic choice of each
// setting of Budget, Seed, Width and Space that trainWithin has needed:
// it depends on those alone, and several multiples share it.
type autoChoices struct {
	mu sync.Mutex
	m  map[autoKey]*autoChoice
}

type autoKey struct {
	budget int
	seed   uint64
	width  auto.WidthRule
	space  auto.SpaceRule
}

type autoChoice struct {
	once sync.Once
	p    *svclust.Prepared
	err  error
}

// of returns the automatic choice for base (γ and C zero) on x, measured
// by the first caller, shared with the others (read-only).
func (a *autoChoices) of(x mat.Matrix, base svclust.Config) (*svclust.Prepared, error) {
	k := autoKey{base.Budget, base.Seed, base.Width, base.Space}
	a.mu.Lock()
	if a.m == nil {
		a.m = make(map[autoKey]*autoChoice)
	}
	e := a.m[k]
	if e == nil {
		e = &autoChoice{}
		a.m[k] = e
	}
	a.mu.Unlock()
	e.once.Do(func() { e.p, e.err = svclust.Prepare(x, &base) })
	return e.p, e.err
}

// trainWithin trains x with cfg in the subspace of the automatic choice
// for cfg's seed (see svclust.Prepared.Within), taken from autos.
func trainWithin(x mat.Matrix, cfg svclust.Config, autos *autoChoices) (*svclust.Model, error) {
	base := cfg
	base.Gamma, base.C = 0, 0
	auto, err := autos.of(x, base)
	if err != nil {
		return nil, err
	}
	pre, err := auto.Within(x, &cfg)
	if err != nil {
		return nil, err
	}
	m, _, err := pre.TrainDeferred(context.Background(), x, &cfg)
	return m, err
}

// pick returns the index of the best point (see Search.Run), or −1 if
// every point failed.
func pick(points []Point, labelled bool) int {
	scores := make([]float64, len(points))
	for i, p := range points {
		v := p.DBCV
		if labelled {
			v = p.Index
		}
		if math.IsNaN(v) {
			v = math.Inf(-1) // a point that ran but scored NaN still beats none
		}
		scores[i] = v
	}
	return Best(scores,
		func(i int) bool { return points[i].Err == nil },
		func(i int) bool { return points[i].GammaValue.IsAuto() && points[i].CValue.IsAuto() })
}

// picked reports whether pick prefers point i to point j of points, both
// evaluated: pick's rule is a total order (the criterion, then the
// automatic point, then on a tie of two automatic points the later one,
// else the earlier), so the best of all points is the best of any
// sequence of pairwise comparisons, in whatever order the points finish.
func picked(points []Point, i, j int, labelled bool) bool {
	lo, hi := min(i, j), max(i, j)
	return (pick([]Point{points[lo], points[hi]}, labelled) == 0) == (i == lo)
}

// chosenBatch is the number of grid points whose automatic choices are
// measured, held and fitted together: each choice holds its sample, up to
// 2,000 rows (16 KB a feature), so a grid of thousands of points holds at
// most this many at once. The default grid has 5 points, the paper's 36
// (with γ, C and the budget given, a choice without a sample).
const chosenBatch = 16

// sharedDBCV is the largest DBCV sample whose pairwise distances a Search
// computes once and shares between the points (metrics.DBCVRows, 16 bytes
// a pair: 8 MB at DefaultSample, 32 MB at 2,000 rows); a larger sample is
// scored by metrics.DBCV at each point, in O(sample) memory.
const sharedDBCV = 2000

// sampleStream is the second seed word of the sample's random source, so
// that its numbers differ from those of training (rand.NewPCG(seed, seed)).
const sampleStream = 0x7475_6e65_5f64_6263 // "tune_dbc"

// labelledOnly returns metric applied to the rows whose class in truth is
// not metrics.Unlabelled, or metric itself when every row has a class.
func labelledOnly(truth []int, metric func(truth, pred []int) float64) func(truth, pred []int) float64 {
	var keep []int
	for i, c := range truth {
		if c != metrics.Unlabelled {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(truth) {
		return metric
	}
	known := make([]int, len(keep))
	for k, i := range keep {
		known[k] = truth[i]
	}
	return func(_, pred []int) float64 {
		sub := make([]int, len(keep))
		for k, i := range keep {
			sub[k] = pred[i]
		}
		return metric(known, sub)
	}
}
