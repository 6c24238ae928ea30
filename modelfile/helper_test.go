package modelfile

import (
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// fitted returns the model fitted as svclust fit fits it (z-score, a
// budget of 6, 300 steps, the level-tree rule) on n rows of the kind
// gauss3, and the raw rows.
func fitted(t testing.TB, n int) (*File, *dataset.Dataset) {
	t.Helper()
	return fittedWith(t, n, nil)
}

// fittedWith is fitted with the clustering method (nil: the defaults).
func fittedWith(t testing.TB, n int, method cluster.Method) (*File, *dataset.Dataset) {
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
	cl, err := cluster.Fit(m, ds.X, method)
	if err != nil {
		t.Fatal(err)
	}
	return &File{
		Scale:     dataset.ScaleZScore,
		Scaler:    scaler,
		Features:  raw.Names,
		Label:     "label",
		Run:       &Run{Tool: "test", Seed: 1, Strategy: "merge", Budget: 6, Data: "gauss3", Rows: n},
		Model:     m,
		Partition: cl.Partition,
	}, raw
}
