package modelfile_test

import (
	"bytes"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// Fit a model as svclust fit does, write its model file to a buffer, read
// it back and label raw rows with it: the read model scales them with the
// stored scaler before it applies the clustering.
func Example() {
	ds, err := dataset.Generate(dataset.Gauss3, 600, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	raw := mat.DenseCopyOf(ds.X)

	// Scale, train and cluster.
	scaler := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	scaler.Transform(ds.X)
	model, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	cl, err := cluster.Fit(model, ds.X, nil)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Write the model file and read it back.
	fitted := &modelfile.File{
		Scale: dataset.ScaleZScore, Scaler: scaler,
		Features: ds.Names, Label: "label",
		Run:   &modelfile.Run{Tool: "example", Seed: 1, Data: "gauss3", Rows: 600},
		Model: model, Partition: cl.Partition,
	}
	var file bytes.Buffer
	if err := fitted.Write(&file); err != nil {
		fmt.Println(err)
		return
	}
	read, err := modelfile.Read(&file, 0)
	if err != nil {
		fmt.Println(err)
		return
	}

	// Match the feature columns of a file onto the model's, by name, and
	// label raw rows.
	order, err := read.Order([]string{"x2", "x1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	labels, err := read.Predict(nil, raw, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	same := true
	for i, l := range labels {
		same = same && l == cl.Labels[i]
	}
	fmt.Println("the model's features are columns", order)
	fmt.Println("clusters:", cl.Clusters)
	fmt.Println("labels of the raw rows are those of Fit:", same)
	_, err = read.Predict(nil, mat.NewDense(1, 3, nil), 0)
	fmt.Println(err)
	// Output:
	// the model's features are columns [1 0]
	// clusters: 3
	// labels of the raw rows are those of Fit: true
	// modelfile: 3 features, but the model was trained on 2
}
