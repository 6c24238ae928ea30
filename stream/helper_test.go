package stream

import (
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// fitted returns the model fitted as svclust fit fits it (z-score, a
// budget of 6, 300 steps, the level-tree rule) on n rows of the kind
// gauss3, and the raw rows.
func fitted(t testing.TB, n int) (*modelfile.File, *dataset.Dataset) {
	t.Helper()
	ds, err := dataset.Generate(dataset.Gauss3, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := dataset.Generate(dataset.Gauss3, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	scaler := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	scaler.Transform(ds.X)
	m, err := svclust.Train(ds.X, &svclust.Config{Budget: 6, MaxIter: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &modelfile.File{
		Scale:     dataset.ScaleZScore,
		Scaler:    scaler,
		Features:  raw.Names,
		Label:     "label",
		Run:       &modelfile.Run{Tool: "test", Seed: 1, Strategy: "merge", Budget: 6, Data: "gauss3", Rows: n},
		Model:     m,
		Partition: cl.Partition,
	}, raw
}
