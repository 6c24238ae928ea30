package baseline

import (
	"math"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/internal/assign"
	"github.com/svclust/svclust/internal/parallel"
)

// GraphConfig holds the settings of [SVDD.LabelCompleteGraph]. The zero
// value selects the defaults.
type GraphConfig struct {
	// M is the number of equally spaced points, ends included, of the
	// segment test; 0 selects cluster.DefaultM (Ben-Hur et al.'s m = 20).
	// It must be ≥ 2.
	M int
	// Timeout is the longest time the labelling may take; 0 means no limit.
	// When it runs out LabelCompleteGraph returns ErrExceeded.
	Timeout time.Duration
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Labels do
	// not depend on it.
	Workers int
}

// Validate reports the first invalid field of c as a *svclust.ConfigError,
// or nil.
func (c *GraphConfig) Validate() error {
	if c.M != 0 && c.M < 2 {
		return &svclust.ConfigError{Field: "M", Value: c.M, Reason: "must be ≥ 2 (0 selects the default)"}
	}
	if c.Timeout < 0 {
		return &svclust.ConfigError{Field: "Timeout", Value: c.Timeout, Reason: "must be ≥ 0 (0 means no limit)"}
	}
	if c.Workers < 0 {
		return &svclust.ConfigError{Field: "Workers", Value: c.Workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	return nil
}

// Labelling is the result of a cluster labelling of the rows of x.
type Labelling struct {
	// Labels holds the cluster 0 … Clusters−1 of each row of x.
	Labels []int
	// Clusters is the number of clusters.
	Clusters int
	// Inside is the number of rows inside the sphere, R²(x) ≤
	// SVDD.Bound(): the vertices of the graph of LabelCompleteGraph.
	// Only LabelCompleteGraph fills it; LabelFSVC leaves it 0, since
	// counting would cost a pass over the rows that FSVC does not need.
	Inside int
	// Tested is the number of segment tests between rows run by
	// LabelCompleteGraph.
	Tested int64
	// Balls is the number of balls of the partition phase of LabelFSVC,
	// and Equilibria the number of distinct stable equilibrium points it
	// found.
	Balls, Equilibria int
	// Runtime is the wall time of the labelling.
	Runtime time.Duration
}

// labelSetup is the common start of the labellings: it checks the rows of
// x and returns their number, the segment points m (0 selects
// cluster.DefaultM) and the number of workers.
func (s *SVDD) labelSetup(x []float64, m, workers int) (int, int, int, error) {
	n, err := checkData(x, s.D)
	if err != nil {
		return 0, 0, 0, err
	}
	if m == 0 {
		m = cluster.DefaultM
	}
	return n, m, parallel.Workers(workers), nil
}

// LabelCompleteGraph assigns the n rows of x (normally the training data)
// to clusters by the complete-graph
// rule of
//
//	A. Ben-Hur, D. Horn, H. T. Siegelmann, V. Vapnik. Support vector
//	clustering. JMLR 2 (2001) 125–137, Section 2.2:
//
// rows i and j inside the sphere are adjacent when all M equally spaced
// points y of the segment from xᵢ to xⱼ, ends included, lie inside it;
// the connected components of this graph are the clusters, numbered in
// order of their lowest row. Inside means R²(y) ≤ SVDD.Bound(), R2 up to
// rounding. Every row outside the sphere (the bounded support vectors, and
// free ones the solver's tolerance leaves just outside) takes the cluster
// of the nearest inside row, Ben-Hur et al.'s suggestion for bounded
// support vectors. If no row is inside, all form cluster 0.
//
// The cost is O(n²·M·#SV·d) in the worst case and O(n) memory: the graph
// is kept as a union–find forest, never as a matrix. A pair whose rows are
// already known to be connected is not tested, since its edge cannot
// change the components; the components, and so the labels, are the same
// for any number of workers, only the number of tests (Labelling.Tested)
// varies. The M points of a segment are tested from its middle outwards,
// which rejects a pair sooner and gives the same answer.
//
// It returns a *svclust.ConfigError for an invalid cfg,
// svclust.ErrNoData for empty x, svclust.ErrNotFinite for NaN or Inf in x
// and ErrExceeded when cfg.Timeout runs out; the budget is never met by
// testing fewer pairs. It returns an error wrapping svclust.ErrDimension
// if x does not have s.D columns, and one wrapping svclust.ErrNotTrained
// for an SVDD that TrainSVDD did not return (such as the zero SVDD).
func (s *SVDD) LabelCompleteGraph(x mat.Matrix, cfg *GraphConfig) (*Labelling, error) {
	data, err := s.labelRows(x)
	if err != nil {
		return nil, err
	}
	return s.labelCompleteGraph(data, cfg)
}

// labelCompleteGraph is LabelCompleteGraph on the row-major rows of x.
func (s *SVDD) labelCompleteGraph(x []float64, cfg *GraphConfig) (*Labelling, error) {
	start := time.Now()
	if cfg == nil {
		cfg = &GraphConfig{}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, m, w, err := s.labelSetup(x, cfg.M, cfg.Workers)
	if err != nil {
		return nil, err
	}
	d := s.D
	res := &Labelling{Labels: make([]int, n)}

	// The vertices: rows inside the sphere.
	inside := make([]bool, n)
	parallel.For(n, 256, w, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			inside[i] = s.within(x[i*d : i*d+d])
		}
	})
	var vert []int
	for i, in := range inside {
		if in {
			vert = append(vert, i)
		}
	}
	res.Inside = len(vert)
	if len(vert) == 0 {
		res.Clusters = 1
		res.Runtime = time.Since(start)
		return res, nil
	}

	uf := newUnionFind(len(vert))
	var tested atomic.Int64
	var exceeded atomic.Bool
	parallel.For(len(vert), 1, w, func(_, a, _ int) {
		if exceeded.Load() {
			return
		}
		if cfg.Timeout > 0 && time.Since(start) > cfg.Timeout {
			exceeded.Store(true)
			return
		}
		buf := make([]float64, d)
		xa := x[vert[a]*d : vert[a]*d+d]
		var count int64
		for b := a + 1; b < len(vert); b++ {
			if cfg.Timeout > 0 && (b-a)%budgetEvery == 0 && time.Since(start) > cfg.Timeout {
				exceeded.Store(true)
				break
			}
			if uf.find(int32(a)) == uf.find(int32(b)) {
				continue
			}
			count++
			if s.segment(xa, x[vert[b]*d:vert[b]*d+d], buf, m) {
				uf.union(int32(a), int32(b))
			}
		}
		tested.Add(count)
	})
	if exceeded.Load() {
		return nil, ErrExceeded
	}
	res.Tested = tested.Load()

	// Number the components by their lowest vertex.
	id := make([]int, len(vert))
	for a := range vert {
		r := int(uf.find(int32(a)))
		if r == a {
			id[a] = res.Clusters
			res.Clusters++
		} else {
			id[a] = id[r] // r < a: roots are the lowest index of their set
		}
		res.Labels[vert[a]] = id[a]
	}
	if len(vert) < n {
		pts := make([]float64, 0, len(vert)*d)
		for _, i := range vert {
			pts = append(pts, x[i*d:i*d+d]...)
		}
		tree := assign.NewTree(pts, d)
		parallel.For(n, 256, w, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				if !inside[i] {
					k, _ := tree.Nearest(x[i*d : i*d+d])
					res.Labels[i] = id[k]
				}
			}
		})
	}
	res.Runtime = time.Since(start)
	return res, nil
}

// segment reports whether the m points a + λ(b − a), λ = j/(m−1), all lie
// inside the sphere, tested in assign.SegmentIndex order (from the middle
// outwards). buf is scratch space of length D.
func (s *SVDD) segment(a, b, buf []float64, m int) bool {
	for k := range m {
		lam := float64(assign.SegmentIndex(k, m)) / float64(m-1)
		for i := range buf {
			buf[i] = a[i] + lam*(b[i]-a[i])
		}
		if !s.within(buf) {
			return false
		}
	}
	return true
}

// unionFind is a disjoint-set forest safe for concurrent find and union:
// links are set by compare-and-swap, always from a root to a root of lower
// index, so every set is rooted at its lowest element and no cycle can
// form; find halves paths as it goes.
type unionFind struct{ parent []atomic.Int32 }

func newUnionFind(n int) *unionFind {
	if n > math.MaxInt32 {
		panic("baseline: too many points for union–find")
	}
	u := &unionFind{parent: make([]atomic.Int32, n)}
	for i := range u.parent {
		u.parent[i].Store(int32(i))
	}
	return u
}

func (u *unionFind) find(i int32) int32 {
	for {
		p := u.parent[i].Load()
		if p == i {
			return i
		}
		gp := u.parent[p].Load()
		if gp != p {
			u.parent[i].CompareAndSwap(p, gp)
		}
		i = gp
	}
}

func (u *unionFind) union(a, b int32) {
	for {
		a, b = u.find(a), u.find(b)
		if a == b {
			return
		}
		if a < b {
			a, b = b, a
		}
		if u.parent[a].CompareAndSwap(a, b) {
			return
		}
	}
}
