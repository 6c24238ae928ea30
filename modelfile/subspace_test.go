package modelfile

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// TestReclusterProjected: a model trained in a subspace (the t32 kind of
// dataset.GenerateHigh, four Student-t clusters in 32 dimensions, which
// the defaults project) is saved with its Subspace, and the loaded model
// scores raw rows, predicts and clusters again exactly as fit did. A file
// of version 5 cannot hold a subspace, and one without it does not
// predict as fit did: the test can fail.
func TestReclusterProjected(t *testing.T) {
	ds, err := dataset.GenerateHigh("t32", 600, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw := mat.DenseCopyOf(ds.X)
	scaler := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	scaler.Transform(ds.X)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subspace == nil {
		t.Fatalf("t32 not projected: %+v", m.Choice)
	}
	cl, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: m, Partition: cl.Partition}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	loaded, err := Read(strings.NewReader(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	lm := loaded.Model
	if lm.Subspace == nil || !mat.Equal(lm.Subspace.Basis, m.Subspace.Basis) || !slices.Equal(lm.Subspace.Mean, m.Subspace.Mean) || lm.Choice != m.Choice {
		t.Fatal("subspace or choice not read back")
	}
	again, err := cluster.Fit(lm, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Labels, cl.Labels) {
		t.Errorf("clustered again after loading: %d clusters, fit found %d", again.Clusters, cl.Clusters)
	}
	pred, err := loaded.Predict(nil, raw, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, cl.Labels) {
		t.Error("the loaded file predicts the training rows differently from fit")
	}
	score, err := loaded.Score(nil, raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Score(nil, ds.X, 2)
	if !slices.Equal(score, want) {
		t.Error("the loaded file scores differently from the model")
	}
	// Outlier scores: the scorer works in the subspace too, and gives f
	// as Score does.
	fx, out := make([]float64, 600), make([]float64, 600)
	if err := cluster.ScoreOutliers(loaded.Partition, fx, out, ds.X, 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fx, want) {
		t.Error("ScoreOutliers gives another f than Score")
	}
	fx2, out2 := make([]float64, 600), make([]float64, 600)
	if err := cluster.ScoreOutliers(cl.Partition, fx2, out2, ds.X, 1); err != nil || !slices.Equal(out, out2) {
		t.Errorf("the loaded partition's outlier scores differ from fit's (%v)", err)
	}
	if _, err := Read(strings.NewReader(strings.Replace(text, `"version":7`, `"version":5`, 1)), 0); err == nil || !strings.Contains(err.Error(), "version 5 has no subspace") {
		t.Errorf("version 5 with a subspace: error %v", err)
	}
	// Without its subspace the model is of the wrong dimension for its
	// scaler: the file is refused rather than predicting in the wrong space.
	v5 := *m
	v5.Subspace, v5.Choice = nil, svclust.Choice{GammaAuto: true, CAuto: true, BudgetAuto: true}
	b.Reset()
	if err := (&File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: &v5}).Write(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(&b, 0); err == nil || !strings.Contains(err.Error(), "for a model of dimension") {
		t.Errorf("model without its subspace: error %v", err)
	}
}
