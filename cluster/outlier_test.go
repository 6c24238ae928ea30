package cluster

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// TestOutlierScores checks the outlier scores of both rules on moons: in
// [0, 1], ranking every row (few ties), few clean rows past the threshold, the
// same from OutlierScores on the training rows as from Fit (any number of
// workers, and after the partition is made again from what it stores),
// −1 labels exactly where the score reaches the threshold, membership
// strength 0 exactly there; and, on rays that leave every support vector
// behind, a score that never falls and that still grows below 1 where
// every kernel term underflows.
func TestOutlierScores(t *testing.T) {
	ds := generated(t, dataset.Moons, 300)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n, d := ds.X.Dims()
	for _, rule := range []Rule{RuleLevels, RuleComponents} {
		for _, thr := range []float64{0, 0.3} {
			var method Method = &Levels{Outliers: true, OutlierThreshold: thr}
			if rule == RuleComponents {
				method = &Components{Outliers: true, OutlierThreshold: thr}
			}
			cl, err := Fit(m, ds.X, method)
			if err != nil {
				t.Fatal(err)
			}
			want := DefaultOutlierThreshold
			if thr != 0 {
				want = thr
			}
			if cl.OutlierThreshold != want || cl.Partition.OutlierThreshold() != want {
				t.Fatalf("%v: threshold %v, %v; want %v", rule, cl.OutlierThreshold, cl.Partition.OutlierThreshold(), want)
			}
			sc := cl.OutlierScores
			if len(sc) != n || !(cl.OutlierFence > 0) {
				t.Fatalf("%v: %d scores, fence %v", rule, len(sc), cl.OutlierFence)
			}
			st := cl.Strengths()
			flagged := 0
			for i, s := range sc {
				if !(s >= 0 && s <= 1) {
					t.Fatalf("%v: row %d: score %v outside [0, 1]", rule, i, s)
				}
				if (cl.Labels[i] == -1) != (s >= want) {
					t.Fatalf("%v: row %d: label %d, score %v, threshold %v", rule, i, cl.Labels[i], s, want)
				}
				if st[i] < 0 || st[i] > 1 || (st[i] == 0) != (s >= want) {
					t.Fatalf("%v: row %d: score %v, strength %v", rule, i, s, st[i])
				}
				if s >= DefaultOutlierThreshold {
					flagged++
				}
			}
			// The score ranks every row, the typical ones too: no
			// block of rows tied at 0 (the depth score of version 6
			// gave 0 to every row above its cluster's peak level).
			if distinct := len(slices.Compact(slices.Sorted(slices.Values(sc)))); distinct < n*9/10 {
				t.Errorf("%v: %d distinct scores of %d rows", rule, distinct, n)
			}
			// Moons without noise: the fence flags 0.3–4.7 % of the rows
			// of inlier-only sets (docs/outliers.md, "The threshold").
			if flagged > n/20 {
				t.Errorf("%v: %d of %d clean rows flagged", rule, flagged, n)
			}
			p := cl.Partition
			for _, q := range []Partition{p, reload(t, p)} {
				for _, w := range []int{1, 3} {
					got, err := q.OutlierScores(nil, ds.X, w)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, sc) {
						t.Fatalf("%v workers=%d: OutlierScores on the training rows differ from Fit's", rule, w)
					}
					if l := q.Predict(nil, ds.X, w); !slices.Equal(l, cl.Labels) {
						t.Fatalf("%v workers=%d: Predict differs from Fit", rule, w)
					}
					fx, os := make([]float64, n), make([]float64, n)
					if err := ScoreOutliers(q, fx, os, ds.X, w); err != nil || !slices.Equal(os, sc) || !slices.Equal(fx, m.Score(nil, ds.X, 1)) {
						t.Fatalf("%v workers=%d: ScoreOutliers differs from Score and Fit: %v", rule, w, err)
					}
					l, s, err := q.PredictScores(nil, nil, ds.X, w)
					if err != nil || !slices.Equal(l, cl.Labels) || !slices.Equal(s, sc) {
						t.Fatalf("%v workers=%d: PredictScores differs from Fit: %v", rule, w, err)
					}
				}
			}
		}
		cl, err := Fit(m, ds.X, WithWorkers(map[Rule]Method{RuleLevels: &Levels{}, RuleComponents: &Components{}}[rule], 2))
		if err != nil {
			t.Fatal(err)
		}
		rays(t, rule, m, cl.Partition, d)
	}
}

// rays checks that the score never falls along 100 rays that start
// beyond every support vector in their direction, and that far out,
// where every kernel term underflows, it still grows below 1.
func rays(t *testing.T, rule Rule, m *svclust.Model, p Partition, d int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	svs := m.SV.RawMatrix().Data
	ell := 1 / math.Sqrt(m.Gamma)
	const steps = 80
	for r := range 100 {
		u := make([]float64, d)
		var nu float64
		for k := range u {
			u[k] = rng.NormFloat64()
			nu += u[k] * u[k]
		}
		for k := range u {
			u[k] /= math.Sqrt(nu)
		}
		t0 := math.Inf(-1)
		for j := range len(m.Alpha) {
			var proj float64
			for k := range u {
				proj += svs[j*d+k] * u[k]
			}
			t0 = max(t0, proj)
		}
		pts := make([]float64, 0, steps*d)
		for s := range steps {
			for k := range u {
				pts = append(pts, (t0+float64(s)*0.5*ell)*u[k])
			}
		}
		x := mat.NewDense(steps, d, pts)
		sc, err := p.OutlierScores(nil, x, 1)
		if err != nil {
			t.Fatal(err)
		}
		for s := 1; s < steps; s++ {
			if sc[s] < sc[s-1] || sc[s] > 1 {
				t.Fatalf("%v ray %d step %d: score %v after %v", rule, r, s, sc[s], sc[s-1])
			}
			if s > 60 && !(sc[s] > sc[s-1] && sc[s] < 1) {
				t.Fatalf("%v ray %d step %d: score %v after %v, want growth below 1", rule, r, s, sc[s], sc[s-1])
			}
		}
	}
}

// TestOutlierScoresOld: a partition without outlier data (a model file of
// version 5 or older) gives ErrNoOutlierScores, threshold 0, and keeps
// the -outliers rule of those files (f below the cluster's birth level).
func TestOutlierScoresOld(t *testing.T) {
	ds := generated(t, dataset.Moons, 300)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := Fit(m, ds.X, &Levels{Outliers: true})
	if err != nil {
		t.Fatal(err)
	}
	data := cl.Partition.(*LevelTree).Data()
	data.Outlier = nil
	old, err := NewLevelTree(m, data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.OutlierScores(nil, ds.X, 1); !errors.Is(err, ErrNoOutlierScores) {
		t.Errorf("OutlierScores: got %v, want ErrNoOutlierScores", err)
	}
	if old.OutlierThreshold() != 0 {
		t.Errorf("threshold %v, want 0", old.OutlierThreshold())
	}
	got := old.Predict(nil, ds.X, 1)
	field(m).EachOwner(ds.X, nil, 1, nil, func(i int, f float64, o int32) {
		want := data.SVCluster[o]
		if f < data.Birth[want] {
			want = -1
		}
		if got[i] != want {
			t.Errorf("row %d: label %d, want %d (f = %v)", i, got[i], want, f)
		}
	})
	// Bad outlier data is refused.
	k := len(data.Birth)
	good := cl.Partition.(*LevelTree).Data().Outlier
	for _, o := range []OutlierData{
		{Peak: make([]float64, k+1), Fence: 1, Threshold: 0.5},
		{Peak: slices.Repeat([]float64{-1}, k), Fence: 1, Threshold: 0.5},
		{Peak: slices.Repeat([]float64{math.NaN()}, k), Fence: 1, Threshold: 0.5},
		{Peak: good.Peak, Fence: 0, Threshold: 0.5},
		{Peak: good.Peak, Fence: math.Inf(1), Threshold: 0.5},
		{Peak: good.Peak, Fence: 1, Threshold: 1},
		{Peak: good.Peak, Fence: 1, Threshold: 0},
	} {
		bad := data
		bad.Outlier = &o
		if _, err := NewLevelTree(m, bad); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestOutlierThresholdSetting: the threshold must be in (0, 1).
func TestOutlierThresholdSetting(t *testing.T) {
	ds := generated(t, dataset.Moons, 100)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{-0.1, 1, 1.5, math.NaN(), math.Inf(1)} {
		for _, method := range []Method{&Levels{OutlierThreshold: v}, &Components{OutlierThreshold: v}} {
			var ce *svclust.ConfigError
			if _, err := Fit(m, ds.X, method); !errors.As(err, &ce) || ce.Field != "OutlierThreshold" {
				t.Errorf("%v threshold %v: got %v, want a ConfigError for OutlierThreshold", method.Rule(), v, err)
			}
		}
	}
}

// TestOutlierFenceSample: beyond fenceRows rows the fence comes from a
// stride sample of them, the same with or without Outliers, and Fit still
// gives every row's score, under either rule: those Partition.OutlierScores
// gives.
func TestOutlierFenceSample(t *testing.T) {
	if testing.Short() {
		t.Skip("120,000 rows")
	}
	ds := generated(t, dataset.Moons, fenceRows+20_001)
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 40, MaxIter: 3000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]Method{{&Levels{}, &Levels{Outliers: true}}, {&Components{}, &Components{Outliers: true}}} {
		plain, err := Fit(m, ds.X, pair[0])
		if err != nil {
			t.Fatal(err)
		}
		out, err := Fit(m, ds.X, pair[1])
		if err != nil {
			t.Fatal(err)
		}
		n, _ := ds.X.Dims()
		if len(plain.OutlierScores) != n || !slices.Equal(plain.OutlierScores, out.OutlierScores) {
			t.Fatalf("%v: %d and %d scores, or different", pair[0].Rule(), len(plain.OutlierScores), len(out.OutlierScores))
		}
		if plain.OutlierFence != out.OutlierFence || !(plain.OutlierFence > 0) {
			t.Fatalf("%v: fences %v and %v", pair[0].Rule(), plain.OutlierFence, out.OutlierFence)
		}
		got, err := plain.Partition.OutlierScores(nil, ds.X, 2)
		if err != nil || !slices.Equal(got, out.OutlierScores) {
			t.Fatalf("%v: Partition.OutlierScores differs from Fit's: %v", pair[0].Rule(), err)
		}
		for i, s := range got {
			if (out.Labels[i] == -1) != (s >= DefaultOutlierThreshold) {
				t.Fatalf("%v: row %d: label %d, score %v", pair[0].Rule(), i, out.Labels[i], s)
			}
		}
	}
}

// TestMassRadius: the selection gives what sorting the distances and
// adding the positive coefficients in order gives, with ties, coefficients
// ≤ 0 and a need beyond the total.
func TestMassRadius(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 2000 {
		b := 1 + rng.IntN(40)
		d2, alpha := make([]float64, b), make([]float64, b)
		var total float64
		for j := range b {
			d2[j] = float64(rng.IntN(12)) // ties
			alpha[j] = rng.Float64() - 0.2
			if alpha[j] > 0 {
				total += alpha[j]
			}
		}
		need := total * rng.Float64() * 1.1
		order := make([]int, b)
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(d2[i], d2[j]) })
		want := math.Inf(1)
		var sum float64
		for _, j := range order {
			if alpha[j] > 0 {
				want = d2[j]
				if sum += alpha[j]; sum >= need {
					break
				}
			}
		}
		if got := massRadius(d2, alpha, need, make([]float64, b), make([]float64, b)); got != want {
			t.Fatalf("trial %d: massRadius %v, want %v (need %v of %v)", trial, got, want, need, total)
		}
	}
}
