package svclust_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// stream returns nb batches of size rows each of kind, z-scored with the
// scaler of the whole (as a caller with the first fit's scaler would),
// and the whole with its labels.
func stream(t *testing.T, kind dataset.Kind, nb, size int, seed uint64) ([]*mat.Dense, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.Generate(kind, nb*size, seed)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	_, d := ds.X.Dims()
	out := make([]*mat.Dense, nb)
	for k := range out {
		out[k] = mat.DenseCopyOf(ds.X.Slice(k*size, (k+1)*size, 0, d))
	}
	return out, ds
}

// sameModel reports whether a and b are the same model, Stats.Runtime
// aside.
func sameModel(a, b *svclust.Model) bool {
	a2, b2 := *a, *b
	a2.Stats.Runtime, b2.Stats.Runtime = 0, 0
	return reflect.DeepEqual(&a2, &b2)
}

func TestUpdateStationary(t *testing.T) {
	batches, all := stream(t, dataset.Gauss3, 6, 1000, 3)
	m, err := svclust.Train(batches[0], &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	steps := m.Training.Steps
	for k, b := range batches[1:] {
		if m, err = svclust.Update(context.Background(), m, b, nil); err != nil {
			t.Fatal(err)
		}
		if len(m.Alpha) > m.Choice.Budget {
			t.Errorf("update %d: %d support vectors for a budget of %d", k+1, len(m.Alpha), m.Choice.Budget)
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	tr := m.Training
	if tr.Rows != 6000 || tr.Batches != 5 || tr.Steps != steps+5*svclust.UpdateSteps(1000) {
		t.Errorf("training state: rows %d, batches %d, steps %d (first fit %d)", tr.Rows, tr.Batches, tr.Steps, steps)
	}
	cl, err := cluster.Fit(m, batches[5], nil)
	if err != nil {
		t.Fatal(err)
	}
	got := cl.Partition.Predict(nil, all.X, 0)
	if ari := metrics.AdjustedRand(all.Labels, got); cl.Clusters != 3 || ari < 0.99 {
		t.Errorf("after 5 updates: %d clusters, ARI %.4f on every row; want 3 and ≥ 0.99", cl.Clusters, ari)
	}
}

func TestUpdateDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of updates")
	}
	batches, _ := stream(t, dataset.Moons, 3, 800, 5)
	run := func(workers int, forget float64) *svclust.Model {
		m, err := svclust.Train(batches[0], &svclust.Config{Seed: 7, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range batches[1:] {
			if m, err = svclust.Update(context.Background(), m, b, &svclust.UpdateConfig{Workers: workers, Forget: forget}); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	for _, forget := range []float64{0, 2e-4} {
		a, b, c := run(1, forget), run(2, forget), run(1, forget)
		if !sameModel(a, b) || !sameModel(a, c) {
			t.Errorf("forget %v: the updated models differ between runs or numbers of workers", forget)
		}
	}
	if sameModel(run(1, 0), run(1, 2e-4)) {
		t.Error("forgetting changed nothing")
	}
}

// A blob that moves: with forgetting, the domain leaves the blob's first
// place; without it, that place keeps its weight.
func TestUpdateForget(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of updates")
	}
	blob := func(cx float64, seed uint64) *mat.Dense {
		ds, err := dataset.Generate(dataset.Gauss3, 1000, seed)
		if err != nil {
			t.Fatal(err)
		}
		// One Gaussian of Gauss3's spread 0.5, at (cx, 0).
		x := mat.NewDense(1000, 2, nil)
		for i := range 1000 {
			k := ds.Labels[i]
			c := [][2]float64{{0, 0}, {4, 0}, {2, 2 * math.Sqrt(3)}}[k]
			x.Set(i, 0, ds.X.At(i, 0)-c[0]+cx)
			x.Set(i, 1, ds.X.At(i, 1)-c[1])
		}
		return x
	}
	first, err := svclust.Train(blob(0, 1), &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	mass := func(forget float64) (old, now float64) {
		m := first
		for k := range 12 {
			if m, err = svclust.Update(context.Background(), m, blob(4, uint64(k+2)), &svclust.UpdateConfig{Forget: forget}); err != nil {
				t.Fatal(err)
			}
		}
		return m.Decision([]float64{0, 0}), m.Decision([]float64{4, 0})
	}
	oldKeep, nowKeep := mass(0)
	oldForget, nowForget := mass(2e-4)
	if !(nowKeep >= 0 && nowForget >= 0) {
		t.Errorf("the blob's new place is outside the domain: f = %.3g (no forgetting), %.3g (forgetting)", nowKeep, nowForget)
	}
	if !(oldKeep >= 0) || !(oldForget < 0) {
		t.Errorf("the blob's first place: f = %.3g without forgetting (want ≥ 0), %.3g with (want < 0)", oldKeep, oldForget)
	}
}

func TestUpdateErrors(t *testing.T) {
	batches, _ := stream(t, dataset.Gauss3, 2, 300, 1)
	m, err := svclust.Train(batches[0], &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	bare := *m
	bare.Training = nil
	broken := *m
	broken.Training = &svclust.Training{Steps: 1, Rows: 1, C: 1, RNG: m.Training.RNG}
	nan := mat.DenseCopyOf(batches[1])
	nan.Set(3, 1, math.NaN())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ce *svclust.ConfigError
	for _, c := range []struct {
		name string
		ctx  context.Context
		m    *svclust.Model
		x    mat.Matrix
		cfg  *svclust.UpdateConfig
		ok   func(error) bool
	}{
		{"nil model", nil, nil, batches[1], nil, func(e error) bool { return errors.Is(e, svclust.ErrNotTrained) }},
		{"no training", nil, &bare, batches[1], nil, func(e error) bool { return errors.Is(e, svclust.ErrNoTraining) }},
		{"bad training", nil, &broken, batches[1], nil, func(e error) bool { return errors.Is(e, svclust.ErrNotTrained) }},
		{"nil rows", nil, m, nil, nil, func(e error) bool { return errors.Is(e, svclust.ErrNoData) }},
		{"NaN", nil, m, nan, nil, func(e error) bool { return errors.Is(e, svclust.ErrNotFinite) }},
		{"columns", nil, m, mat.NewDense(3, 3, nil), nil, func(e error) bool { return errors.Is(e, svclust.ErrDimension) }},
		{"forget 1", nil, m, batches[1], &svclust.UpdateConfig{Forget: 1}, func(e error) bool { return errors.As(e, &ce) && ce.Field == "Forget" }},
		{"forget NaN", nil, m, batches[1], &svclust.UpdateConfig{Forget: math.NaN()}, func(e error) bool { return errors.As(e, &ce) && ce.Field == "Forget" }},
		{"steps", nil, m, batches[1], &svclust.UpdateConfig{Steps: -1}, func(e error) bool { return errors.As(e, &ce) && ce.Field == "Steps" }},
		{"workers", nil, m, batches[1], &svclust.UpdateConfig{Workers: -1}, func(e error) bool { return errors.As(e, &ce) && ce.Field == "Workers" }},
		{"cancelled", ctx, m, batches[1], &svclust.UpdateConfig{Steps: 5000}, func(e error) bool { return errors.Is(e, context.Canceled) }},
	} {
		got, err := svclust.Update(c.ctx, c.m, c.x, c.cfg)
		if got != nil || !c.ok(err) {
			t.Errorf("%s: model %v, error %v", c.name, got != nil, err)
		}
	}
	if _, err := svclust.Update(context.Background(), m, batches[1], nil); err != nil {
		t.Errorf("the model the errors were tried on: %v", err)
	}
}

// BenchmarkFitBatch and BenchmarkUpdateBatch compare a fit of a batch of
// 1,000 rows (Train and cluster.Fit) with an update of a model by as
// many rows (Update and cluster.FitUpdate), the cost issue 38 bounds.
func BenchmarkFitBatch(b *testing.B) {
	batches, _ := streamB(b)
	b.ResetTimer()
	for range b.N {
		m, err := svclust.Train(batches[1], &svclust.Config{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cluster.Fit(m, batches[1], nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdateBatch(b *testing.B) {
	batches, _ := streamB(b)
	m, err := svclust.Train(batches[0], &svclust.Config{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		u, err := svclust.Update(context.Background(), m, batches[1], nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cluster.FitUpdate(u, batches[1], nil); err != nil {
			b.Fatal(err)
		}
	}
}

// streamB is stream for a benchmark: two batches of 1,000 rows of
// Gauss3.
func streamB(b *testing.B) ([]*mat.Dense, *dataset.Dataset) {
	ds, err := dataset.Generate(dataset.Gauss3, 2000, 3)
	if err != nil {
		b.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return []*mat.Dense{mat.DenseCopyOf(ds.X.Slice(0, 1000, 0, 2)), mat.DenseCopyOf(ds.X.Slice(1000, 2000, 0, 2))}, ds
}
