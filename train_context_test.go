package svclust

import (
	"context"
	"errors"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
)

// TestTrainProgress: Progress sees every 4,096th step up to MaxIter, and
// the model is the one trained without it, bit for bit.
func TestTrainProgress(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Tol −1: no stopping rule, so all 20,000 steps run.
	cfg := Config{Gamma: 1, C: 10, Budget: 20, MaxIter: 20000, Tol: -1, Seed: 3}
	plain, err := Train(ds.X, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	cfg.Progress = func(done, total int) {
		if total != 20000 {
			t.Errorf("total %d, want MaxIter 20000", total)
		}
		seen = append(seen, done)
	}
	reported, err := TrainContext(context.Background(), ds.X, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{4096, 8192, 12288, 16384}; !slices.Equal(seen, want) {
		t.Errorf("progress at %v, want %v", seen, want)
	}
	if !mat.Equal(plain.SV, reported.SV) || !slices.Equal(plain.Alpha, reported.Alpha) {
		t.Error("the model with Progress differs from the one without")
	}
}

// TestTrainCancel: a cancelled context stops training at its next check
// and returns the context's error and no model.
func TestTrainCancel(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	steps := 0
	cfg := Config{Gamma: 1, C: 10, Budget: 20, MaxIter: 100000, Tol: -1, Seed: 3,
		Progress: func(done, _ int) {
			steps = done
			cancel() // at the first report: training stops at the second check
		}}
	m, err := TrainContext(ctx, ds.X, &cfg)
	if !errors.Is(err, context.Canceled) || m != nil {
		t.Errorf("cancelled: model %v, error %v", m != nil, err)
	}
	if steps != checkSteps {
		t.Errorf("last progress at step %d, want %d", steps, checkSteps)
	}
}
