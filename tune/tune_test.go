package tune

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

func TestParseGrid(t *testing.T) {
	got, err := ParseGrid("0.25x, auto,2,1x", true)
	want := []Value{{0.25, true}, {1, true}, {2, false}, {1, true}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseGrid = %v, %v; want %v", got, err, want)
	}
	for _, v := range want {
		back, err := ParseGrid(v.String(), true)
		if err != nil || len(back) != 1 || back[0] != v {
			t.Errorf("ParseGrid(%q) = %v, %v; want %v back", v.String(), back, err, v)
		}
	}
	for _, bad := range []string{"", "0", "-1", "x", "0x", "1e400", "nan", "inf", "2,,3", "abc"} {
		if _, err := ParseGrid(bad, true); err == nil {
			t.Errorf("ParseGrid(%q) accepted", bad)
		}
	}
	if _, err := ParseGrid("2x", false); err == nil {
		t.Error(`ParseGrid("2x", false) accepted a multiple`)
	}
}

// TestPick checks the tie rules of Search.Run on hand-made points.
func TestPick(t *testing.T) {
	auto := Value{1, true}
	pt := func(g Value, dbcv, score float64, err error) Point {
		return Point{GammaValue: g, CValue: auto, DBCV: dbcv, Index: score, Err: err}
	}
	fail := context.Canceled
	for _, tc := range []struct {
		name     string
		points   []Point
		labelled bool
		want     int
	}{
		{"largest DBCV", []Point{pt(Value{2, true}, 0.1, 0, nil), pt(auto, 0.3, 0, nil), pt(Value{4, true}, 0.5, 0, nil)}, false, 2},
		{"tie goes to the automatic point", []Point{pt(Value{2, true}, 0.5, 0, nil), pt(auto, 0.5, 0, nil)}, false, 1},
		{"tie without it goes to the earliest", []Point{pt(Value{2, true}, 0.5, 0, nil), pt(Value{4, true}, 0.5, 0, nil)}, false, 0},
		{"failed points are skipped", []Point{pt(Value{2, true}, 0.9, 0, fail), pt(auto, -1, 0, nil)}, false, 1},
		{"labels use the score", []Point{pt(Value{2, true}, 0.9, 0.2, nil), pt(auto, 0.1, 0.8, nil)}, true, 1},
		{"NaN score loses", []Point{pt(Value{2, true}, 0, math.NaN(), nil), pt(auto, 0, 0.1, nil)}, true, 1},
		{"all failed", []Point{pt(auto, 0, 0, fail)}, false, -1},
	} {
		if got := pick(tc.points, tc.labelled); got != tc.want {
			t.Errorf("%s: pick = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestPicked: the best point kept while the grid runs, by pairwise
// comparisons in the order the points finish, is pick's, for random
// criteria with ties, NaN, failed points and repeated automatic points,
// in random orders.
func TestPicked(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	vals := []Value{{1, true}, {2, true}, {0.5, true}, {3, false}}
	for range 2000 {
		labelled := rng.IntN(2) == 0
		points := make([]Point, 1+rng.IntN(7))
		for i := range points {
			p := Point{GammaValue: vals[rng.IntN(len(vals))], CValue: Value{1, true}, DBCV: float64(rng.IntN(3)), Index: float64(rng.IntN(3))}
			switch rng.IntN(6) {
			case 0:
				p.Err = context.Canceled
			case 1:
				p.DBCV, p.Index = math.NaN(), math.NaN()
			}
			points[i] = p
		}
		kept := -1
		for _, i := range rng.Perm(len(points)) {
			if points[i].Err == nil && (kept < 0 || picked(points, i, kept, labelled)) {
				kept = i
			}
		}
		if want := pick(points, labelled); kept != want {
			t.Fatalf("%+v (labelled %v): kept %d, pick %d", points, labelled, kept, want)
		}
	}
}

// TestSearchKeep: with Keep, the Result holds the model and the labels
// of the best point, those a plain fit at its setting gives (its stored
// objective included), and the points are those of a search without it.
func TestSearchKeep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	x, truth := zscored(t, dataset.Moons, 300, 2)
	for _, labelled := range []bool{false, true} {
		s := &Search{Train: svclust.Config{Seed: 4}, Gammas: []Value{{0.5, true}, {1, true}, {40, false}}, Workers: 2}
		if labelled {
			s.Truth = truth
		}
		plain, err := s.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		s.Keep = true
		kept, err := s.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%+v", kept.Points) != fmt.Sprintf("%+v", plain.Points) || kept.Best != plain.Best {
			t.Errorf("labelled %v: Keep changed the points: %+v, without %+v", labelled, kept.Points, plain.Points)
		}
		best := kept.Points[kept.Best]
		m, cl := refit(t, x, best, 4)
		if kept.Model == nil || kept.Fit == nil || !mat.Equal(kept.Model.SV, m.SV) || !slices.Equal(kept.Model.Alpha, m.Alpha) ||
			kept.Model.Gamma != best.Gamma || !slices.Equal(kept.Fit.Labels, cl.Labels) {
			t.Errorf("labelled %v: the kept fit is not that of the best point %d", labelled, kept.Best)
		}
		// The objective is computed for the kept model alone, after the
		// grid (Prepared.TrainDeferred), and is Train's.
		if kept.Model != nil && (kept.Model.Stats.Objective != m.Stats.Objective || kept.Model.Stats.ObjectiveRows != m.Stats.ObjectiveRows) {
			t.Errorf("labelled %v: the kept model's objective %v over %d rows, want Train's %v over %d", labelled,
				kept.Model.Stats.Objective, kept.Model.Stats.ObjectiveRows, m.Stats.Objective, m.Stats.ObjectiveRows)
		}
		if plain.Model != nil || plain.Fit != nil {
			t.Errorf("labelled %v: a fit was kept without Keep", labelled)
		}
	}
}

// TestSearchBatches: a grid of more points than chosenBatch is fitted in
// batches, with the same result for any number of workers, and the fit
// kept is that of the best point wherever its batch.
func TestSearchBatches(t *testing.T) {
	t.Parallel()
	x, _ := zscored(t, dataset.Moons, 150, 5)
	var gammas []Value
	for i := range chosenBatch + 3 {
		gammas = append(gammas, Value{0.3 + 0.15*float64(i), true})
	}
	var first *Result
	for _, w := range []int{1, 3} {
		s := &Search{Train: svclust.Config{Seed: 1, MaxIter: 1000}, Gammas: gammas, Workers: w, Keep: true}
		r, err := s.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if r.Model == nil || r.Model.Gamma != r.Points[r.Best].Gamma || r.Fit.Clusters != r.Points[r.Best].Clusters {
			t.Errorf("workers %d: the fit kept is not that of the best point %d", w, r.Best)
		}
		if first == nil {
			first = r
			continue
		}
		if fmt.Sprintf("%+v", r.Points) != fmt.Sprintf("%+v", first.Points) || r.Best != first.Best {
			t.Errorf("workers %d: %+v, with 1 worker %+v", w, r.Points, first.Points)
		}
	}
}

// zscored returns the generated data set, z-scored as the command line
// does by default.
func zscored(t *testing.T, kind dataset.Kind, n int, seed uint64) (*mat.Dense, []int) {
	t.Helper()
	ds, err := dataset.Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds.X, ds.Labels
}

// TestSearchGeneratedKinds is the tune criterion of the project's core
// issue, kept by issue 12 for tune's defaults: on each generated kind
// (n = 1000, data seed 1) the best point finds the true number of
// clusters with ARI ≥ 0.95, without labels (by DBCV) and with them (by
// NMI, the default Metric).
func TestSearchGeneratedKinds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("fits 5 grid points on each of 4 data sets")
	}
	for _, kind := range dataset.Kinds() {
		x, truth := zscored(t, kind, 1000, 1)
		k := metrics.NumClusters(truth)
		// One search with the truth scores every point both ways: the
		// fits do not depend on it, only the pick.
		r, err := (&Search{Train: svclust.Config{Seed: 1}, Truth: truth}).Run(context.Background(), x)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		for _, labelled := range []bool{false, true} {
			best := r.Points[pick(r.Points, labelled)]
			ari := refitARI(t, x, truth, best)
			if best.Clusters != k || ari < 0.95 {
				t.Errorf("%s (labels %v): best γ = %v (%v) finds %d clusters, ARI %.3f; want %d clusters and ARI ≥ 0.95",
					kind, labelled, best.Gamma, best.GammaValue, best.Clusters, ari, k)
			}
		}
	}
}

// refit trains and clusters x at the point p with the given seed, as a
// user reproducing it would (svclust fit with -gamma given unless the
// point is automatic).
func refit(t *testing.T, x *mat.Dense, p Point, seed uint64) (*svclust.Model, *cluster.Result) {
	t.Helper()
	cfg := svclust.Config{Seed: seed}
	if !p.GammaValue.IsAuto() {
		cfg.Gamma = p.Gamma
	}
	m, err := svclust.Train(x, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.Fit(m, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, cl
}

// refitARI refits x at the point p (seed 1) and returns the ARI of the
// labels.
func refitARI(t *testing.T, x *mat.Dense, truth []int, p Point) float64 {
	t.Helper()
	_, cl := refit(t, x, p, 1)
	if cl.Clusters != p.Clusters {
		t.Errorf("refit at γ = %v: %d clusters, the search reported %d", p.Gamma, cl.Clusters, p.Clusters)
	}
	return metrics.AdjustedRand(truth, cl.Labels)
}

// TestSearchWorkers checks that the result does not depend on the number
// of workers, and that DBCV is evaluated on a sample when the data are
// larger than Sample.
func TestSearchWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	x, _ := zscored(t, dataset.Moons, 600, 3)
	var first *Result
	for _, w := range []int{1, 2, 5} {
		s := &Search{Train: svclust.Config{Seed: 2}, Gammas: []Value{{0.5, true}, {1, true}, {3, false}}, Sample: 300, Workers: w}
		r, err := s.Run(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		// %v prints NaN scores alike, which reflect.DeepEqual would not
		// take for equal.
		if fmt.Sprintf("%+v", r) != fmt.Sprintf("%+v", first) {
			t.Errorf("workers %d: %+v, with 1 worker %+v", w, r, first)
		}
	}
	if g := first.Points[2].Gamma; g != 3 {
		t.Errorf("a given γ resolved to %v, want 3", g)
	}
	if g, a := first.Points[0].Gamma, first.AutoGamma; g != 0.5*a {
		t.Errorf("0.5x resolved to %v, want half the automatic %v", g, a)
	}
}

func TestSearchErrors(t *testing.T) {
	x, truth := zscored(t, dataset.Moons, 100, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Search{}).Run(ctx, x); err == nil {
		t.Error("a cancelled context gave no error")
	}
	if _, err := (&Search{Truth: truth[:50]}).Run(context.Background(), x); err == nil {
		t.Error("50 classes for 100 rows gave no error")
	}
	if _, err := (&Search{Cs: []Value{{2, true}}}).Run(context.Background(), x); err == nil {
		t.Error("a multiple of the automatic C gave no error")
	}
}

// TestSearchSubspace: on the t32 kind, whose automatic choice is
// projected, every multiple of the automatic γ, with the automatic C or a
// given one, trains in the automatic point's subspace at F times its γ,
// as do the other seeds of -runs; a γ given as a number trains in the
// features. The model kept for the best point is in that subspace.
func TestSearchSubspace(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	ds, err := dataset.GenerateHigh("t32", 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	x := ds.X
	auto, err := svclust.Train(x, &svclust.Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if auto.Subspace == nil {
		t.Fatal("t32: the automatic model is not projected; the test no longer covers the subspace")
	}
	s := &Search{Train: svclust.Config{Seed: 2}, Gammas: []Value{{0.5, true}, {1, true}, {2, true}, {3, false}},
		Cs: []Value{{1, true}, {7, false}}, Truth: ds.Labels, Runs: 2, Workers: 2}
	res, err := s.Run(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if res.AutoGamma != auto.Gamma {
		t.Errorf("AutoGamma %v, want the automatic model's %v", res.AutoGamma, auto.Gamma)
	}
	for _, p := range res.Points {
		if p.Err != nil {
			t.Fatalf("%v, %v: %v", p.GammaValue, p.CValue, p.Err)
		}
		want := p.GammaValue.Auto
		if p.Projected != want || want && p.Gamma != p.GammaValue.V*auto.Gamma {
			t.Errorf("%v, %v: projected %v, γ %v; want projected %v at %v·%v", p.GammaValue, p.CValue, p.Projected, p.Gamma, want, p.GammaValue.V, auto.Gamma)
		}
		if math.IsNaN(p.Stability) {
			t.Errorf("%v, %v: no stability from the second seed", p.GammaValue, p.CValue)
		}
	}
	s.Gammas, s.Cs, s.Runs, s.Keep = []Value{{0.5, true}, {2, true}}, nil, 1, true
	res, err = s.Run(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	if m == nil || m.Subspace == nil || !slices.Equal(m.Subspace.Mean, auto.Subspace.Mean) || !mat.Equal(m.Subspace.Basis, auto.Subspace.Basis) ||
		m.Gamma != res.Points[res.Best].GammaValue.V*auto.Gamma {
		t.Errorf("the best point's model is not in the automatic model's subspace at its multiple of γ")
	}
}
