package baseline

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/internal/parallel"
)

// FSVCConfig holds the settings of [SVDD.LabelFSVC]. The zero value labels
// by the stable equilibrium of every row, with no partition and no
// intermediate merging.
type FSVCConfig struct {
	// P is the radius R1 of the balls of the partition phase, in the units
	// of x: a seeded random row not yet covered becomes a ball centre and
	// covers every uncovered row closer than P, until all are covered. We
	// take it to be the paper's p (see the package documentation). 0 makes
	// every row its own ball. It must be ≥ 0 and finite.
	P float64
	// Eps is the radius R2 of the intermediate merging, in the units of x:
	// after each step, a moving trajectory closer than Eps to a found
	// equilibrium joins it, and moving trajectories closer than Eps to an
	// earlier one follow it. We take it to be the paper's ε. 0 merges
	// only trajectories that arrive at the same equilibrium. It must be
	// ≥ 0 and finite.
	Eps float64
	// M is the number of points of the segment test between equilibria;
	// 0 selects cluster.DefaultM. It must be ≥ 2.
	M int
	// Seed seeds the random order in which ball centres are chosen.
	Seed uint64
	// Timeout is the longest time the labelling may take; 0 means no limit.
	// When it runs out LabelFSVC returns ErrExceeded.
	Timeout time.Duration
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Labels do
	// not depend on it.
	Workers int
}

// Validate reports the first invalid field of c as a *svclust.ConfigError,
// or nil.
func (c *FSVCConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"P", c.P}, {"Eps", c.Eps}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return &svclust.ConfigError{Field: f.name, Value: f.v, Reason: "must be ≥ 0 and finite"}
		}
	}
	g := GraphConfig{M: c.M, Timeout: c.Timeout, Workers: c.Workers}
	return g.Validate()
}

// trajectory states of LabelFSVC.
const (
	moving   = iota
	arrived  // at equilibrium eq[t]
	follower // follows trajectory link[t] < t to its equilibrium
)

// LabelFSVC assigns the n rows of x (normally the training
// data) to clusters by the fast support-based clustering of
//
//	K.-H. Jung, D. Lee, J. Lee. Fast support-based clustering method for
//	large-scale problems. Pattern Recognition 43(5) (2010) 1975–1983,
//
// as far as public sources describe it (see the package documentation for
// what could not be confirmed):
//
//  1. Partition: the rows are covered by balls of radius cfg.P around
//     centres picked in a seeded random order (a leader clustering).
//  2. From each ball centre a trajectory descends the trained kernel
//     radius function R²(x) by the fixed-point map
//     x ← Σᵢ βᵢ k(x, xᵢ) xᵢ / Σᵢ βᵢ k(x, xᵢ), whose stable fixed points
//     are the local minima of R² (the stable equilibrium points of the
//     gradient system dx/dt = −∇R²(x) of Lee and Lee 2005). All moving
//     trajectories take one step at a time; after each step a moving
//     trajectory within cfg.Eps of a found equilibrium joins it, and the
//     remaining moving ones within cfg.Eps of an earlier (lower-numbered)
//     one follow it — the intermediate merging that saves steps.
//  3. The equilibria are labelled by the complete graph of the segment
//     test with cfg.M points (assign.LinkUntil, which stops at the
//     budget); an equilibrium outside the sphere takes the cluster of the
//     nearest one inside.
//  4. Every row takes the cluster of its ball's equilibrium.
//
// Trajectories run in parallel, each writing its own slot, and every merge
// is decided in index order, so labels do not depend on cfg.Workers.
//
// It returns a *svclust.ConfigError for an invalid cfg, svclust.ErrNoData
// for empty x, svclust.ErrNotFinite for NaN or Inf in x and ErrExceeded
// when cfg.Timeout runs out. It returns an error wrapping
// svclust.ErrDimension if x does not have s.D columns, and one wrapping
// svclust.ErrNotTrained for an SVDD that TrainSVDD did not return (such
// as the zero SVDD).
func (s *SVDD) LabelFSVC(x mat.Matrix, cfg *FSVCConfig) (*Labelling, error) {
	data, err := s.labelRows(x)
	if err != nil {
		return nil, err
	}
	return s.labelFSVC(data, cfg)
}

// labelFSVC is LabelFSVC on the row-major rows of x.
func (s *SVDD) labelFSVC(x []float64, cfg *FSVCConfig) (*Labelling, error) {
	start := time.Now()
	if cfg == nil {
		cfg = &FSVCConfig{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, m, w, err := s.labelSetup(x, cfg.M, cfg.Workers)
	if err != nil {
		return nil, err
	}
	d := s.D
	over := func() bool { return cfg.Timeout > 0 && time.Since(start) > cfg.Timeout }

	// 1. Partition into balls.
	centres, ball := partitionBalls(x, d, cfg.P, cfg.Seed, over)
	if centres == nil {
		return nil, ErrExceeded
	}
	nb := len(centres)

	// 2. Trajectories from the ball centres, with intermediate merging.
	ell := 1 / math.Sqrt(s.Gamma)
	stepTol2 := (assign.StepTol * ell) * (assign.StepTol * ell)
	pos := make([]float64, nb*d)
	for b, i := range centres {
		copy(pos[b*d:b*d+d], x[i*d:i*d+d])
	}
	state := make([]int, nb)
	link := make([]int, nb) // equilibrium (arrived) or leader (follower)
	stopped := make([]bool, nb)
	rank := make([]int, nb) // scratch space of mergeMoving
	var eqs []float64
	var active []int
	for round := 0; ; round++ {
		active = active[:0]
		for t := range state {
			if state[t] == moving {
				active = append(active, t)
			}
		}
		if len(active) == 0 {
			break
		}
		if over() {
			return nil, ErrExceeded
		}
		last := round == assign.MaxSteps
		parallel.For(len(active), 16, w, func(_, lo, hi int) {
			num := make([]float64, d)
			for _, t := range active[lo:hi] {
				stopped[t] = last || s.step(pos[t*d:t*d+d], num) <= stepTol2
			}
		})
		// Arrivals, in index order: a new equilibrium unless one was
		// already found at the same point.
		for _, t := range active {
			if !stopped[t] {
				continue
			}
			p := pos[t*d : t*d+d]
			e := nearestWithin(eqs, d, p, assign.SameTol*ell)
			if e < 0 {
				e = len(eqs) / d
				eqs = append(eqs, p...)
			}
			state[t], link[t] = arrived, e
		}
		if cfg.Eps > 0 {
			mergeMoving(pos, d, active, state, link, rank, eqs, cfg.Eps)
		}
	}
	// Followers take the equilibrium of their leader, which has a lower
	// index and so is resolved first.
	eqOf := make([]int, nb)
	for t := range state {
		if state[t] == follower {
			eqOf[t] = eqOf[link[t]]
		} else {
			eqOf[t] = link[t]
		}
	}
	if over() {
		return nil, ErrExceeded
	}

	// 3. Label the equilibria.
	ne := len(eqs) / d
	valid := make([]bool, ne)
	for e := range valid {
		valid[e] = s.within(eqs[e*d : e*d+d])
	}
	// f = Σ(βᵢ/ρ)k − 1 ≥ 0 ⇔ R²(y) ≤ Bound(), with ρ the level at Bound().
	rho := (1 + s.BKB - s.Bound()) / 2
	alpha := make([]float64, len(s.Beta))
	for k, b := range s.Beta {
		alpha[k] = b / rho
	}
	field := &kernel.Field{SV: s.SV, Alpha: alpha, Gamma: s.Gamma, D: d}
	// Every pair of equilibria is tested (k = 0), as FSVC labels its
	// minima by a complete graph; the budget is checked as it goes.
	eqCluster, k, ok := assign.LinkUntil(field, eqs, valid, m, 0, w, over)
	if !ok {
		return nil, ErrExceeded
	}

	// 4. Rows take the cluster of their ball.
	res := &Labelling{Labels: make([]int, n), Clusters: k, Balls: nb, Equilibria: ne}
	for i := range res.Labels {
		res.Labels[i] = eqCluster[eqOf[ball[i]]]
	}
	res.Runtime = time.Since(start)
	return res, nil
}

// step moves p one step of the fixed-point map x ← Σβk(x, xᵢ)xᵢ/Σβk(x, xᵢ)
// and returns the squared length of the step; 0 if the map is undefined
// (the kernel expansion underflows to 0 far from every support vector),
// where p stays. num is scratch space of length D.
func (s *SVDD) step(p, num []float64) float64 {
	num, den := kernel.MeanShiftTo(num, p, s.SV, s.Beta, s.Gamma)
	if !(den > 0) || math.IsInf(den, 0) {
		return 0
	}
	var moved float64
	for j, v := range num {
		nv := v / den
		moved += (nv - p[j]) * (nv - p[j])
		p[j] = nv
	}
	return moved
}

// partitionBalls covers the rows of x by balls of radius r: rows are
// visited in a random order drawn from seed, and a row closer than r to no
// existing centre becomes a new centre; every row belongs to the first
// centre (in order of creation) closer than r, or to itself. It returns
// the centres' row numbers and each row's ball, or nil if over reports
// true (it is asked every budgetEvery rows).
func partitionBalls(x []float64, d int, r float64, seed uint64, over func() bool) (centres, ball []int) {
	n := len(x) / d
	ball = make([]int, n)
	rng := rand.New(rand.NewPCG(seed, seed))
	r2 := r * r
	for k, i := range rng.Perm(n) {
		if k%budgetEvery == budgetEvery-1 && over() {
			return nil, nil
		}
		xi := x[i*d : i*d+d]
		ball[i] = -1
		for b, c := range centres {
			if kernel.SqDist(xi, x[c*d:c*d+d]) < r2 {
				ball[i] = b
				break
			}
		}
		if ball[i] < 0 {
			ball[i] = len(centres)
			centres = append(centres, i)
		}
	}
	return centres, ball
}

// nearestWithin returns the index of the point of pts (row-major, d
// columns) nearest to p if it is within distance tol, else −1; ties go to
// the lower index.
func nearestWithin(pts []float64, d int, p []float64, tol float64) int {
	best, bestD := -1, tol*tol
	for e := 0; e < len(pts)/d; e++ {
		if dd := kernel.SqDist(p, pts[e*d:e*d+d]); dd <= bestD && (best < 0 || dd < bestD) {
			best, bestD = e, dd
		}
	}
	return best
}

// mergeMoving applies the intermediate merging of LabelFSVC to the
// trajectories listed in active that are still moving: each one within
// eps of an equilibrium joins the nearest; then, in index order, each
// remaining moving trajectory not yet merged makes every later one within
// eps follow it (without chaining: a follower does not collect others).
// Followers stay where they are: their position is no longer used.
// Neighbours are found by a sweep along the coordinate of largest spread.
// rank is scratch space of one slot per trajectory.
func mergeMoving(pos []float64, d int, active, state, link, rank []int, eqs []float64, eps float64) {
	var tree *assign.Tree
	if len(eqs) > 0 {
		tree = assign.NewTree(eqs, d)
	}
	var mov []int
	for _, t := range active {
		if state[t] != moving {
			continue
		}
		if tree != nil {
			if e, dd := tree.Nearest(pos[t*d : t*d+d]); dd < eps*eps {
				state[t], link[t] = arrived, e
				continue
			}
		}
		mov = append(mov, t)
	}
	if len(mov) < 2 {
		return
	}
	// Sweep coordinate: the one of largest spread among the moving.
	dim, width := 0, -1.0
	for j := 0; j < d; j++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, t := range mov {
			lo, hi = min(lo, pos[t*d+j]), max(hi, pos[t*d+j])
		}
		if hi-lo > width {
			dim, width = j, hi-lo
		}
	}
	sorted := slices.Clone(mov)
	slices.SortFunc(sorted, func(a, b int) int {
		va, vb := pos[a*d+dim], pos[b*d+dim]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return a - b
	})
	for r, t := range sorted {
		rank[t] = r
	}
	eps2 := eps * eps
	for _, t := range mov { // mov is in index order
		if state[t] != moving {
			continue
		}
		p := pos[t*d : t*d+d]
		v := p[dim]
		r := rank[t]
		visit := func(u int) {
			if u > t && state[u] == moving && kernel.SqDist(p, pos[u*d:u*d+d]) < eps2 {
				state[u], link[u] = follower, t
			}
		}
		for q := r + 1; q < len(sorted) && pos[sorted[q]*d+dim]-v < eps; q++ {
			visit(sorted[q])
		}
		for q := r - 1; q >= 0 && v-pos[sorted[q]*d+dim] < eps; q-- {
			visit(sorted[q])
		}
	}
}
