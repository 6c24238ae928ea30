package svclust_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// Learning as the data arrive: Train on the first batch, then Update the
// model with each new one, its rows scaled as the first batch's were;
// each update is clustered on its own batch and the model's support
// vectors (cluster.FitUpdate).
func ExampleUpdate() {
	ds, _ := dataset.Generate(dataset.Gauss3, 1800, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	batch := func(k int) *mat.Dense { return mat.DenseCopyOf(ds.X.Slice(k*600, k*600+600, 0, 2)) }

	model, err := svclust.Train(batch(0), &svclust.Config{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k := 1; k < 3; k++ {
		if model, err = svclust.Update(context.Background(), model, batch(k), nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	cl, err := cluster.FitUpdate(model, batch(2), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	labels := cl.Partition.Predict(nil, ds.X, 0)
	fmt.Println("rows seen:", model.Training.Rows, "updates:", model.Training.Batches)
	fmt.Println("within the budget:", len(model.Alpha) <= model.Choice.Budget)
	fmt.Println("clusters:", cl.Clusters)
	fmt.Printf("ARI on every row: %.2f\n", metrics.AdjustedRand(ds.Labels, labels))
	// Output:
	// rows seen: 1800 updates: 2
	// within the budget: true
	// clusters: 3
	// ARI on every row: 1.00
}
