package cluster

import (
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// generated returns n rows of kind from data seed 1, z-scored.
func generated(t testing.TB, kind dataset.Kind, n int) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Generate(kind, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds
}

// strategies are the budget maintainers the tests cluster with.
var strategies = []struct {
	name string
	m    svclust.Maintainer
}{
	{"removal", svclust.Removal{}},
	{"project-knn", svclust.Projection{}},
	{"project-random", svclust.Projection{K: 3, Pick: svclust.Random}},
	{"merge", svclust.Merge{}},
}
