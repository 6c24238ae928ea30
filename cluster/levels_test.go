package cluster

import (
	"github.com/svclust/svclust"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// handTree is a tree of three modes: 0 and 1 join at level 0.5, and with 2
// at level 0, the root; levels are the rows' levels of f by mode.
func handTree(levels [][]float64) (dn []dnode, root int, prefix [][]float64) {
	dn = []dnode{{-1, -1, math.Inf(1)}, {-1, -1, math.Inf(1)}, {-1, -1, math.Inf(1)}, {0, 1, 0.5}, {3, 2, 0}}
	for _, lv := range levels {
		p := make([]float64, len(lv)+1)
		for k, v := range lv {
			p[k+1] = p[k] + v
		}
		prefix = append(prefix, p)
	}
	return dn, 4, prefix
}

// TestCondenseByHand checks the condensed tree and the excess-of-mass
// selection on handTree, with the stabilities derived by hand in the
// comments (Campello et al. 2013: a cluster's stability is Σ over its rows
// of the level at which the row leaves it less the cluster's birth).
func TestCondenseByHand(t *testing.T) {
	low := -1.0
	for _, tc := range []struct {
		name     string
		levels   [][]float64
		minSize  int
		clusters []int // of modes 0, 1, 2 before spread
		birth    []float64
		stab     []float64
	}{
		{
			// Root dies at 0 (both sides have ≥ 3 rows above 0). Cluster
			// {0,1} is born at 0 and dies at 0.5: 10 rows × 0.5 = 5. Its
			// children, born at 0.5: Σ(f − 0.5) = 0.1 + … + 0.5 = 1.5
			// each, 3 < 5, so {0,1} is kept. Mode 2: 0.1 + 0.2 + 0.3 = 0.6.
			name:     "parent wins",
			levels:   [][]float64{{0.6, 0.7, 0.8, 0.9, 1}, {0.6, 0.7, 0.8, 0.9, 1}, {0.1, 0.2, 0.3}},
			minSize:  3,
			clusters: []int{0, 0, 1},
			birth:    []float64{0, 0},
			stab:     []float64{5, 0.6},
		},
		{
			// The same with modes 0 and 1 a unit higher: their children
			// have Σ(f − 0.5) = 1.1 + … + 1.5 = 6.5 each, 13 > 5.
			name:     "children win",
			levels:   [][]float64{{1.6, 1.7, 1.8, 1.9, 2}, {1.6, 1.7, 1.8, 1.9, 2}, {0.1, 0.2, 0.3}},
			minSize:  3,
			clusters: []int{0, 1, 2},
			birth:    []float64{0.5, 0.5, 0},
			stab:     []float64{6.5, 6.5, 0.6},
		},
		{
			// With minSize 4, mode 2 (3 rows) falls out of the root at 0
			// and the root goes on to split at 0.5 into modes 0 and 1,
			// which are chosen (the root never is when it splits): each
			// Σ(f − 0.5) = 1.5. Mode 2 belongs to no chosen cluster.
			name:     "small branch falls out",
			levels:   [][]float64{{0.6, 0.7, 0.8, 0.9, 1}, {0.6, 0.7, 0.8, 0.9, 1}, {0.1, 0.2, 0.3}},
			minSize:  4,
			clusters: []int{0, 1, -1},
			birth:    []float64{0.5, 0.5},
			stab:     []float64{1.5, 1.5},
		},
		{
			// With minSize 6 no split has two large sides: the root is
			// the only cluster, born at low = −1; its rows leave at 0
			// (mode 2's, split off there) or at 0.5 (where the rest
			// splits into two small parts): 3·1 + 10·1.5 = 18.
			name:     "root only",
			levels:   [][]float64{{0.6, 0.7, 0.8, 0.9, 1}, {0.6, 0.7, 0.8, 0.9, 1}, {0.1, 0.2, 0.3}},
			minSize:  6,
			clusters: []int{0, 0, 0},
			birth:    []float64{-1},
			stab:     []float64{18},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dn, root, prefix := handTree(tc.levels)
			ct := condense(dn, root, tc.levels, prefix, identity, tc.minSize, low)
			mc, birth, stab := ct.selectClusters(dn, 3)
			if !slices.Equal(mc, tc.clusters) || !slices.Equal(birth, tc.birth) {
				t.Errorf("clusters %v born at %v, want %v at %v", mc, birth, tc.clusters, tc.birth)
			}
			if len(stab) != len(tc.stab) {
				t.Fatalf("stabilities %v, want %v", stab, tc.stab)
			}
			for i := range stab {
				// Sums of a few values of one decimal: 1e-12 covers their rounding.
				if math.Abs(stab[i]-tc.stab[i]) > 1e-12 {
					t.Errorf("stabilities %v, want %v", stab, tc.stab)
				}
			}
		})
	}
}

// TestSpreadByHand: a mode of no chosen cluster takes the cluster of the
// mode it is linked to at the highest level, or without links the cluster
// of the nearest mode that has one.
func TestSpreadByHand(t *testing.T) {
	// Modes 0 and 1 are clusters 0 and 1; 2 links to 1 at 0.4 and to 0 at
	// 0.2; 3 links only to 2, at 0.9, so it follows 2 into cluster 1;
	// 4 links to nothing and is nearest to mode 1 (at x = 9 against 0 and
	// 10), so it takes cluster 1.
	mc := []int{0, 1, -1, -1, -1}
	edges := []modeEdge{{0.9, 2, 3}, {0.5, 0, 1}, {0.4, 1, 2}, {0.2, 0, 2}}
	spread(mc, edges, []float64{0, 10, 5, 6, 9}, 1)
	if want := []int{0, 1, 1, 1, 1}; !slices.Equal(mc, want) {
		t.Errorf("spread: %v, want %v", mc, want)
	}
}

// TestMassUnbounded: the rows of a leaf cluster leave it at their own
// level; a top of +Inf must count f − base for each, not NaN (0·Inf).
func TestMassUnbounded(t *testing.T) {
	levels := [][]float64{{1, 2, 3}}
	dn, prefix := []dnode{{-1, -1, math.Inf(1)}}, [][]float64{{0, 1, 3, 6}}
	ct := condense(dn, 0, levels, prefix, identity, 1, 0.5)
	// (1 − 0.5) + (2 − 0.5) + (3 − 0.5) = 4.5.
	if got := ct.clusters[0].stab; got != 4.5 {
		t.Errorf("stability %v, want 4.5", got)
	}
}

// TestMassPower: with g(f) = (f + 1)^p the rows of a leaf count
// g(f) − g(base). Levels 3, 8 and 15 with p = ½ and base 0 give
// (2 − 1) + (3 − 1) + (4 − 1) = 6, worked by hand; at p = 1, or with a
// given C, levelPower leaves the levels of f (identity), which give
// 3 + 8 + 15 = 26.
func TestMassPower(t *testing.T) {
	levels := [][]float64{{3, 8, 15}}
	dn := []dnode{{-1, -1, math.Inf(1)}}
	g, onF := levelPower(&Levels{LevelPower: 0.5}, true)
	if onF {
		t.Fatal("levelPower(0.5, automatic C) measures on f")
	}
	gp := [][]float64{{0, g(3), g(3) + g(8), g(3) + g(8) + g(15)}}
	if got := condense(dn, 0, levels, gp, g, 1, 0).clusters[0].stab; got != 6 {
		t.Errorf("stability with p = 1/2: %v, want 6", got)
	}
	for _, tc := range []struct {
		cfg   tcfg
		cAuto bool
	}{{tcfg{LevelPower: 1}, true}, {tcfg{}, false}, {tcfg{LevelPower: 0.5}, false}} {
		if g, onF := levelPower(tc.cfg.method().(*Levels), tc.cAuto); !onF || g(15) != 15 {
			t.Errorf("levelPower(%v, cAuto %v) does not measure on f", tc.cfg.LevelPower, tc.cAuto)
		}
	}
	if g, onF := levelPower(&Levels{}, true); onF || g(15) != math.Pow(16, DefaultLevelPower) {
		t.Errorf("levelPower(0) is not (f + 1)^DefaultLevelPower")
	}
	f := [][]float64{{0, 3, 11, 26}}
	if got := condense(dn, 0, levels, f, identity, 1, 0).clusters[0].stab; got != 26 {
		t.Errorf("stability on f: %v, want 26", got)
	}

	// A finite top: modes 0 (levels 3, 8) and 1 (level 15) split at 3, the
	// root born at −1. With p = ½, g(−1) = 0, g(3) = 2, g(8) = 3, g(15) = 4:
	// the root's rows count g(3) − g(−1) = 2 each, 6 in all (on f, 4 each:
	// 12); mode 0's (g(3) − g(3)) + (g(8) − g(3)) = 1, mode 1's
	// g(15) − g(3) = 2.
	split := []dnode{{-1, -1, math.Inf(1)}, {-1, -1, math.Inf(1)}, {0, 1, 3}}
	lv2 := [][]float64{{3, 8}, {15}}
	gp2 := [][]float64{{0, g(3), g(3) + g(8)}, {0, g(15)}}
	ct := condense(split, 2, lv2, gp2, g, 1, -1)
	if len(ct.clusters) != 3 || ct.clusters[0].stab != 6 || ct.clusters[1].stab != 1 || ct.clusters[2].stab != 2 {
		var got []float64
		for _, c := range ct.clusters {
			got = append(got, c.stab)
		}
		t.Errorf("stabilities with a split at 3, p = 1/2: %v, want [6 1 2]", got)
	}
}

// TestLinkageJoinsApart: components the edges leave apart join at low,
// below every edge, so that levels fall from the leaves to the root.
func TestLinkageJoinsApart(t *testing.T) {
	dn, root := linkage([]modeEdge{{0.7, 0, 1}}, 3, -2)
	if dn[root].h != -2 || len(dn) != 5 {
		t.Fatalf("root at %v with %d nodes, want -2 and 5", dn[root].h, len(dn))
	}
	for v, nd := range dn {
		for _, c := range []int{nd.l, nd.r} {
			if c >= 0 && dn[c].h < nd.h {
				t.Errorf("node %d at %v has child %d at %v, lower", v, nd.h, c, dn[c].h)
			}
		}
	}
}

// TestLevelTreeBlobs: three well separated Gaussian blobs (centres 20
// standard deviations apart) are found with every default, and Predict
// gives the training rows the labels of Cluster, also with Outliers.
func TestLevelTreeBlobs(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	centres := [][2]float64{{0, 0}, {20, 0}, {10, 17}}
	n := 900
	data := make([]float64, 0, 2*n)
	truth := make([]int, n)
	for i := range n {
		c := i % 3
		truth[i] = c
		data = append(data, centres[c][0]+rng.NormFloat64(), centres[c][1]+rng.NormFloat64())
	}
	x := mat.NewDense(n, 2, data)
	model, err := svclust.Train(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, outliers := range []bool{false, true} {
		cl, err := fitCfg(model, x, &tcfg{Outliers: outliers})
		if err != nil {
			t.Fatal(err)
		}
		if cl.Clusters != 3 || len(cl.Stability) != 3 || cl.MinSize != 7 {
			t.Fatalf("%d clusters, stabilities %v, min size %d; want 3, 3 and max(5, ⌈0.0075·900⌉) = 7", cl.Clusters, cl.Stability, cl.MinSize)
		}
		kept, keptTruth := []int{}, []int{}
		for i, l := range cl.Labels {
			if l >= 0 {
				kept, keptTruth = append(kept, l), append(keptTruth, truth[i])
			}
		}
		if ari := metrics.AdjustedRand(keptTruth, kept); ari != 1 {
			t.Errorf("outliers %v: ARI %v on the %d rows labelled, want 1", outliers, ari, len(kept))
		}
		if got := cl.Partition.Predict(nil, x, 1); !slices.Equal(got, cl.Labels) {
			t.Errorf("outliers %v: Predict differs from Cluster on the training rows", outliers)
		}
	}
}

// TestOwnerFar: far from every support vector each term of f underflows to
// 0, and the owner must still be the support vector nearest in
// log αⱼ − γ‖x − svⱼ‖², not the first one: a point beyond blob B, on the
// line through both blobs, takes blob B's cluster (reported by the review
// of the LevelTree rule: (20, 0) took blob A's).
func TestOwnerFar(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	data := make([]float64, 0, 2*400)
	for i := range 400 {
		data = append(data, float64(10*(i%2))+0.5*rng.NormFloat64(), 0.5*rng.NormFloat64())
	}
	x := mat.NewDense(400, 2, data)
	m, err := svclust.Train(x, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := Fit(m, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := cl.Partition.Predict(nil, mat.NewDense(4, 2, []float64{0, 0, 10, 0, -40, 0, 60, 0}), 1)
	if got[0] == got[1] || got[2] != got[0] || got[3] != got[1] {
		t.Errorf("clusters of (0,0), (10,0), (-40,0), (60,0): %v; want the far points with their near blob", got)
	}
}

// TestRippleZByHand checks rippleZ on two modes whose rows' levels are
// given: at h = 0.5 the rows above are 0.6, 1.0 and 0.8, so
// Σ(f − h) = 0.9, Σ(f + 1) = 5.4 and z = 0.9/5.4·√3 = √3/6; with sgd = 2
// (T = N/2) the count's variance triples and z = 1/6.
func TestRippleZByHand(t *testing.T) {
	levels := [][]float64{{0.2, 0.6, 1.0}, {0.4, 0.8}}
	_, _, prefix := handTree(levels)
	for _, tc := range []struct {
		h, sgd, want float64
	}{
		{0.5, 0, math.Sqrt(3) / 6},
		{0.5, 2, 1.0 / 6},
		{1.5, 0, 0}, // no row above h
	} {
		if got := rippleZ([]int{0, 1}, levels, prefix, tc.h, tc.sgd); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rippleZ(h = %g, sgd = %g) = %g, want %g", tc.h, tc.sgd, got, tc.want)
		}
	}
}

// TestJoinRipplesByHand checks joinRipples on three modes, each a cluster
// of the selection: modes 0 and 1 (peaks 1 and 0.9) meet at level 0.8, a
// shallow ripple, and mode 2 (peak 1) meets them at −0.9, a deep valley.
// Each mode has 20 rows, at 0.95, 0.85 and 0.9. At the ripple, the lower
// branch is mode 1: z = 20·0.05/(20·1.85)·√20 ≈ 0.12, below 1.5, so
// clusters 0 and 1 join. At the valley, mode 2 (equal peak, the later
// root) rises by z = 20·1.8/(20·1.9)·√20 ≈ 4.2, so it stays apart. With a
// threshold of 0.1 the ripple stays apart too.
func TestJoinRipplesByHand(t *testing.T) {
	levels := [][]float64{make([]float64, 20), make([]float64, 20), make([]float64, 20)}
	for i := range 20 {
		levels[0][i], levels[1][i], levels[2][i] = 0.95, 0.85, 0.9
	}
	_, _, prefix := handTree(levels)
	peak := []float64{1, 0.9, 1}
	edges := []modeEdge{{0.8, 0, 1}, {-0.9, 1, 2}}
	birth := []float64{0.8, 0.8, -0.9}
	stab := []float64{3, 1, 36}

	mc, b, s := joinRipples([]int{0, 1, 2}, edges, peak, levels, prefix, birth, stab, 1.5, 0)
	if !slices.Equal(mc, []int{0, 0, 1}) || !slices.Equal(b, []float64{0.8, -0.9}) || !slices.Equal(s, []float64{4, 36}) {
		t.Errorf("z = 1.5: clusters %v, birth %v, stability %v; want [0 0 1], [0.8 -0.9], [4 36]", mc, b, s)
	}
	mc, b, _ = joinRipples([]int{0, 1, 2}, edges, peak, levels, prefix, birth, stab, 0.1, 0)
	if !slices.Equal(mc, []int{0, 1, 2}) || len(b) != 3 {
		t.Errorf("z = 0.1: clusters %v, %d births; want [0 1 2], 3", mc, len(b))
	}
}

// TestRipplesOnLine3: on dataset.Line3 (three tight blobs on a line, which
// the excess-of-mass selection alone cuts into some 30 pure pieces; README,
// "Where it fails") the default RippleZ joins some of those pieces: the
// clusters found plus those joined are the selection's, every joined
// cluster lies within one blob (the pieces are pure, and a ripple never
// joins two blobs: their valley is empty), and Predict reproduces the
// labels. A model trained with an explicit C joins nothing. Both
// clusterings measure the excess of mass on f itself (LevelPower 1): with
// DefaultLevelPower the selection on data seed 1 leaves no ripple to join.
func TestRipplesOnLine3(t *testing.T) {
	t.Parallel()
	ds := generated(t, dataset.Line3, 1000)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	off, err := fitCfg(m, ds.X, &tcfg{RippleZ: -1, LevelPower: 1})
	if err != nil {
		t.Fatal(err)
	}
	on, err := fitCfg(m, ds.X, &tcfg{LevelPower: 1, RippleZ: DefaultRippleZ}) // explicit: no cut by bisect
	if err != nil {
		t.Fatal(err)
	}
	if off.Ripples != 0 || on.Ripples == 0 || on.Clusters+on.Ripples != off.Clusters {
		t.Errorf("without joining %d clusters (%d joined), with it %d (%d joined)", off.Clusters, off.Ripples, on.Clusters, on.Ripples)
	}
	if p := metrics.Purity(ds.Labels, on.Labels); p != 1 {
		t.Errorf("purity %v, want 1: a ripple joined two blobs", p)
	}
	if got := on.Partition.Predict(nil, ds.X, 1); !slices.Equal(got, on.Labels) {
		t.Error("Predict differs from Cluster on the training rows")
	}
	// The default level power weighs the dense tops of the blobs less,
	// where the ripples are: fewer clusters than on f.
	def, err := Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	if def.Clusters >= on.Clusters {
		t.Errorf("DefaultLevelPower: %d clusters, on f %d; want fewer", def.Clusters, on.Clusters)
	}
	fixed, err := svclust.Train(ds.X, &svclust.Config{Seed: 1, Gamma: m.Gamma, C: m.C})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := Fit(fixed, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cl.Ripples != 0 {
		t.Errorf("explicit C: %d clusters joined as ripples, want 0", cl.Ripples)
	}
}

// TestRippleZOnF: the ripples' significance is measured on f whatever
// the level power (DefaultLevelPower; the selection alone is measured on
// (f + 1)^p), so on two touching blobs that both powers split the same
// way, the threshold at which their join turns into a ripple, found by
// bisection on RippleZ, is the same at p = 1 and p = ½. Computed on the
// sums of g instead, it would differ.
func TestRippleZOnF(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	const n = 400
	data := make([]float64, 0, 2*n)
	for i := range n {
		c := float64(i%2) * 4 // unit Gaussians 4 apart: 2 clusters at both powers
		data = append(data, c+rng.NormFloat64(), rng.NormFloat64())
	}
	x := mat.NewDense(n, 2, data)
	m, err := svclust.Train(x, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	clusters := func(p, z float64) int {
		cl, err := fitCfg(m, x, &tcfg{LevelPower: p, RippleZ: z})
		if err != nil {
			t.Fatal(err)
		}
		return cl.Clusters
	}
	threshold := func(p float64) float64 {
		lo, hi := 1e-6, 1e3 // 2 clusters at lo, 1 at hi
		if clusters(p, lo) != 2 || clusters(p, hi) != 1 {
			t.Fatalf("p = %v: %d clusters at z = %v and %d at %v, want 2 and 1", p, clusters(p, lo), lo, clusters(p, hi), hi)
		}
		for range 40 {
			mid := math.Sqrt(lo * hi)
			if clusters(p, mid) == 2 {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	z1, zh := threshold(1), threshold(0.5)
	// 40 halvings of the log range ln(1e9) ≈ 20.7 leave a relative
	// bracket of e^(20.7/2⁴⁰) − 1 ≈ 2e-11, below the 1e-9 allowed. With the
	// ripple step reading the sums of g, the thresholds were 5.32 and 2.07.
	if math.Abs(z1-zh) > 1e-9*z1 {
		t.Errorf("join threshold %v at p = 1, %v at p = 1/2: the ripples' z depends on the level power", z1, zh)
	}
}

// TestAnchoredTrajectoriesKeepPartition: the trajectories that stop at
// the paths of every anchorStride-th one (Levels.anchored, which
// FitUpdate sets) give the partition of the exact trajectories on the
// generated kinds, at the defaults.
func TestAnchoredTrajectoriesKeepPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("two clusterings of each generated kind")
	}
	t.Parallel()
	for _, kind := range dataset.Kinds() {
		ds := generated(t, kind, 1000)
		m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var labels [2][]int
		for i, a := range []bool{false, true} {
			cl, err := Fit(m, ds.X, &Levels{anchored: a})
			if err != nil {
				t.Fatal(err)
			}
			labels[i] = cl.Labels
		}
		if ari := metrics.AdjustedRand(labels[0], labels[1]); ari != 1 {
			t.Errorf("%s: anchored partition differs from the exact one: ARI %v", kind, ari)
		}
	}
}
