package cluster_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

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

// OutlierScores ranks points from 0 towards 1 with their distance from
// the mass of the data; a typical training row scores about 0.3, a point
// is an outlier at the threshold ½, where its membership strength
// reaches 0, and -outliers labels it −1.
func ExampleLevelTree_OutlierScores() {
	train, _ := dataset.Generate(dataset.Gauss4, 800, 1)
	sc := dataset.FitScaler(train.X, dataset.ScaleZScore)
	sc.Transform(train.X)
	model, _ := svclust.Train(train.X, &svclust.Config{Budget: 50, Seed: 1})
	cl, err := cluster.Fit(model, train.X, &cluster.Levels{Outliers: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	// A training row and a point far from every cluster.
	x := mat.NewDense(2, 2, []float64{train.X.At(0, 0), train.X.At(0, 1), 40, 40})
	scores, _ := cl.Partition.OutlierScores(nil, x, 0)
	labels := cl.Partition.Predict(nil, x, 0)
	for i, s := range scores {
		fmt.Printf("score %.2f, outlier %v, strength %.2f, label %d\n", s,
			s >= cl.OutlierThreshold, cluster.MembershipStrength(s, cl.OutlierThreshold), labels[i])
	}
	// Output:
	// score 0.34, outlier false, strength 0.49, label 1
	// score 1.00, outlier true, strength 0.00, label -1
}
