package baseline

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/kernel"
	"github.com/svclust/svclust/metrics"
)

func TestLabelFSVCHandMade(t *testing.T) {
	// The two blobs of TestLabelCompleteGraphHandMade (radius 0.1, 10
	// apart, γ = 1): R² has its minima inside the blobs; any segment between
	// two points of one blob stays inside (Σβk is concave on the blob's
	// hull) and any segment between blobs leaves it, so the equilibria fall
	// into two clusters whatever the partition and merging radii, as long
	// as a ball or a merge never spans both blobs (P, Eps < 9.8).
	x := append(blob(0, 0, 0.1, 6), blob(10, 0, 0.1, 6)...)
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 1, Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		p, eps   float64
		balls    int
		clusters int
	}{
		{0, 0, 12, 2},    // every row its own ball
		{0.5, 0, 2, 2},   // a blob's diameter is 0.2 < 0.5: one ball each
		{0.05, 1, 12, 2}, // neighbours on a k-gon of radius 0.1 are ≥ 0.1 apart
		{0.5, 1, 2, 2},
		{100, 0, 1, 1}, // one ball: a single trajectory, a single cluster
	} {
		res, err := s.LabelFSVC(dense(x, s.D), &FSVCConfig{P: tt.p, Eps: tt.eps, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Balls != tt.balls || res.Clusters != tt.clusters {
			t.Errorf("P=%g Eps=%g: %d balls, %d clusters; want %d, %d", tt.p, tt.eps, res.Balls, res.Clusters, tt.balls, tt.clusters)
		}
		if tt.clusters == 2 {
			for i, l := range res.Labels {
				if l != i/6 {
					t.Errorf("P=%g Eps=%g: labels %v, want six 0s then six 1s", tt.p, tt.eps, res.Labels)
					break
				}
			}
		}
	}
}

func TestLabelFSVCMatchesEquilibriumLabelling(t *testing.T) {
	// With P = 0 and Eps = 0 every row follows its own trajectory to a
	// stable equilibrium and equilibria are linked by the segment test:
	// the labelling of Lee and Lee (2005), which package cluster's Components rule
	// computes with All set through its own code path (its Partition, its
	// greedy merge of equilibria) on the same decision function. The two
	// partitions must agree (ARI = 1).
	for _, tt := range []struct {
		kind  dataset.Kind
		gamma float64
	}{{dataset.Gauss3, 4}, {dataset.Moons, 8}} {
		x, _ := generated(t, tt.kind, 300, 1)
		s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: tt.gamma, C: OutlierC(300, 0.05)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.LabelFSVC(dense(x, s.D), nil)
		if err != nil {
			t.Fatal(err)
		}
		model := s.Model()
		cl, err := cluster.Fit(model, mat.NewDense(300, 2, slices.Clone(x)), &cluster.Components{All: true})
		if err != nil {
			t.Fatal(err)
		}
		if ari := metrics.AdjustedRand(cl.Labels, res.Labels); ari != 1 {
			t.Errorf("%s: ARI(FSVC, cluster.Fit) = %v (%d vs %d clusters)", tt.kind, ari, res.Clusters, cl.Clusters)
		}
	}
}

func TestLabelFSVCWorkersAndQuality(t *testing.T) {
	// Gauss3 z-scored: blobs 8σ apart (σ ≈ 0.29 after scaling), and at
	// γ = 2 (ℓ = 0.71) each blob holds one region of the domain; the labels
	// must be the classes (measured: ARI 1 for P = Eps ∈ {0.1, 0.2, 0.5} at
	// C = 2⁻⁵, as for the complete graph; at γ = 4 FSVC splits one blob,
	// ARI 0.95–0.96, while the complete graph does not). Trajectories run
	// in parallel and merges are decided in index order, so labels must
	// not depend on Workers.
	ds, err := dataset.Generate(dataset.Gauss3, 600, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	x := ds.X.RawMatrix().Data
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 2, C: 1.0 / 32})
	if err != nil {
		t.Fatal(err)
	}
	var first []int
	for _, w := range []int{1, 2, 4} {
		res, err := s.LabelFSVC(dense(x, s.D), &FSVCConfig{P: 0.2, Eps: 0.2, Seed: 1, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res.Labels
			if ari := metrics.AdjustedRand(ds.Labels, res.Labels); ari != 1 {
				t.Errorf("ARI %v, want 1 (%d clusters)", ari, res.Clusters)
			}
			continue
		}
		if !slices.Equal(first, res.Labels) {
			t.Fatalf("workers=%d: labels differ from workers=1", w)
		}
	}
}

func TestPartitionBalls(t *testing.T) {
	// The leader clustering: every row is closer than r to its centre, and
	// centres are at least r apart (a row closer than r to an earlier
	// centre never becomes one).
	x, _ := generated(t, dataset.Moons, 500, 3)
	const r = 0.15
	centres, ball := partitionBalls(x, 2, r, 7, func() bool { return false })
	for i, b := range ball {
		c := centres[b]
		if kernel.SqDist(x[i*2:i*2+2], x[c*2:c*2+2]) >= r*r {
			t.Fatalf("row %d is not within %g of its centre", i, r)
		}
	}
	for a := range centres {
		if ball[centres[a]] != a {
			t.Fatalf("centre %d is not in its own ball", a)
		}
		for b := a + 1; b < len(centres); b++ {
			if math.Sqrt(kernel.SqDist(x[centres[a]*2:centres[a]*2+2], x[centres[b]*2:centres[b]*2+2])) < r {
				t.Fatalf("centres %d and %d closer than %g", a, b, r)
			}
		}
	}
	if len(centres) < 2 || len(centres) >= 500 {
		t.Errorf("%d balls for 500 rows", len(centres))
	}
}

func TestLabelFSVCErrors(t *testing.T) {
	x, _ := generated(t, dataset.Moons, 300, 4)
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 8})
	if err != nil {
		t.Fatal(err)
	}
	var ce *svclust.ConfigError
	for _, cfg := range []*FSVCConfig{{P: -1}, {Eps: math.Inf(1)}, {M: 1}, {Workers: -1}, {Timeout: -1}} {
		if _, err := s.LabelFSVC(dense(x, s.D), cfg); !errors.As(err, &ce) {
			t.Errorf("%+v: %v, want a ConfigError", cfg, err)
		}
	}
	// 300 rows pass the first look at the clock (after 256 rows of the
	// partition), by when 1ns has run out.
	if _, err := s.LabelFSVC(dense(x, s.D), &FSVCConfig{Timeout: time.Nanosecond}); !errors.Is(err, ErrExceeded) {
		t.Errorf("budget: %v, want ErrExceeded", err)
	}
	if _, err := s.LabelFSVC(dense(nil, s.D), nil); !errors.Is(err, svclust.ErrNoData) {
		t.Errorf("empty: %v", err)
	}
}

func TestMergeMoving(t *testing.T) {
	// Four moving trajectories, ε = 1, swept along x (spread 1.4 against
	// 0.7 in y). By the rule of mergeMoving, 0 at (1.4, 0) takes 2 at
	// (0.5, 0) (distance 0.9) but not 3 at (0.6, 0.7) (distance² 0.64 +
	// 0.49 = 1.13); then 1 at (0, 0) takes 3 (distance² 0.36 + 0.49 =
	// 0.85). Moving follower 2 to its leader would put x = 1.4 between 1
	// and 3 in the sweep order and end 1's sweep before it reached 3.
	pos := []float64{1.4, 0, 0, 0, 0.5, 0, 0.6, 0.7}
	state, link, rank := make([]int, 4), make([]int, 4), make([]int, 4)
	mergeMoving(pos, 2, []int{0, 1, 2, 3}, state, link, rank, nil, 1)
	want := []int{moving, moving, follower, follower}
	wantLink := []int{0, 0, 0, 1}
	if !slices.Equal(state, want) || !slices.Equal(link, wantLink) {
		t.Errorf("states %v, links %v; want %v, %v", state, link, want, wantLink)
	}

	// The sweep finds what testing every pair finds, on random positions
	// with equilibria to join.
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d, eps = 300, 3, 0.8
	pos = make([]float64, n*d)
	for i := range pos {
		pos[i] = 10 * rng.Float64()
	}
	eqs := make([]float64, 5*d)
	for i := range eqs {
		eqs[i] = 10 * rng.Float64()
	}
	active := make([]int, n)
	for i := range active {
		active[i] = i
	}
	state, link, rank = make([]int, n), make([]int, n), make([]int, n)
	mergeMoving(pos, d, active, state, link, rank, eqs, eps)
	// Reference: the same rule by brute force.
	refState, refLink := make([]int, n), make([]int, n)
	for i := range n {
		best, bestD := -1, eps*eps
		for e := range len(eqs) / d {
			if dd := kernel.SqDist(pos[i*d:i*d+d], eqs[e*d:e*d+d]); dd < bestD {
				best, bestD = e, dd
			}
		}
		if best >= 0 {
			refState[i], refLink[i] = arrived, best
		}
	}
	followers := 0
	for i := range n {
		if refState[i] != moving {
			continue
		}
		for j := i + 1; j < n; j++ {
			if refState[j] == moving && kernel.SqDist(pos[i*d:i*d+d], pos[j*d:j*d+d]) < eps*eps {
				refState[j], refLink[j] = follower, i
				followers++
			}
		}
	}
	if followers == 0 {
		t.Fatal("test positions give no followers")
	}
	if !slices.Equal(state, refState) || !slices.Equal(link, refLink) {
		t.Errorf("sweep differs from the brute-force rule:\nstates %v\nwant   %v\nlinks %v\nwant  %v", state, refState, link, refLink)
	}
}
