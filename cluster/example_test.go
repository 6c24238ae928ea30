package cluster_test

import (
	"fmt"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// Predict labels new points with the partition found by Fit; the
// model's Score gives the novelty score f(x), negative outside the domain.
func ExampleLevelTree_Predict() {
	train, _ := dataset.Generate(dataset.Gauss4, 800, 1)
	sc := dataset.FitScaler(train.X, dataset.ScaleZScore)
	sc.Transform(train.X)
	model, _ := svclust.Train(train.X, &svclust.Config{Budget: 50, Seed: 1})
	cl, err := cluster.Fit(model, train.X, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	test, _ := dataset.Generate(dataset.Gauss4, 200, 2)
	sc.Transform(test.X)
	labels := cl.Partition.Predict(nil, test.X, 0)
	fmt.Printf("ARI on new points: %.2f\n", metrics.AdjustedRand(test.Labels, labels))
	scores := model.Score(nil, test.X, 0)
	inside := 0
	for _, f := range scores {
		if f >= 0 {
			inside++
		}
	}
	fmt.Println("most new points inside the domain:", inside > len(scores)/2)
	// Output:
	// ARI on new points: 1.00
	// most new points inside the domain: true
}
