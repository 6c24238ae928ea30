package svclust_test

import (
	"context"
	"fmt"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// Train, then cluster.Fit, with every default: γ, C and the budget are
// chosen from the data (Choose), and the clusters are read off the levels
// of f (cluster.Levels).
func ExampleTrain() {
	ds, _ := dataset.Generate(dataset.Gauss3, 600, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

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
	ch := model.Choice
	fmt.Println("budget chosen:", ch.BudgetAuto, ch.Budget >= auto.MinBudget && ch.Budget <= auto.MaxBudget)
	fmt.Println("clusters:", cl.Clusters)
	fmt.Printf("ARI: %.4g\n", metrics.AdjustedRand(ds.Labels, cl.Labels))
	// Output:
	// budget chosen: true true
	// clusters: 3
	// ARI: 1
}

// The paper's method as published: a budget of 50 support vectors kept by
// k-NN projection, γ and C given, and the clusters of Algorithm 3, the
// components of the domain f ≥ 0 (cluster.Components).
func ExampleTrain_paper() {
	ds, _ := dataset.Generate(dataset.Gauss3, 600, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	model, err := svclust.Train(ds.X, &svclust.Config{Gamma: 2, C: 32, Budget: 50, Maintainer: svclust.Projection{}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	cl, err := cluster.Fit(model, ds.X, &cluster.Components{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("support vectors ≤ 50:", len(model.Alpha) <= 50)
	fmt.Println("clusters:", cl.Clusters)
	fmt.Printf("ARI: %.4g\n", metrics.AdjustedRand(ds.Labels, cl.Labels))
	// Output:
	// support vectors ≤ 50: true
	// clusters: 3
	// ARI: 1
}

// The whole pipeline with the defaults, as the README shows it: scale,
// train, cluster, label and score new points, evaluate.
func Example() {
	train, err := dataset.Generate(dataset.Moons, 1000, 1) // or dataset.ReadFile("data.csv", dataset.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	scaler := dataset.FitScaler(train.X, dataset.ScaleZScore)
	scaler.Transform(train.X)

	// Gamma, C and Budget 0: chosen from the data (model.Choice says how).
	model, err := svclust.Train(train.X, &svclust.Config{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	// nil: the level tree (cluster.Levels); &cluster.Components{} is the paper's.
	cl, err := cluster.Fit(model, train.X, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := metrics.Evaluate(train.X, train.Labels, cl.Labels)
	fmt.Printf("%d clusters, ARI %.2f\n", cl.Clusters, s.ARI)

	newX, _ := dataset.Generate(dataset.Moons, 200, 2)
	scaler.Transform(newX.X)
	labels := cl.Partition.Predict(nil, newX.X, 0) // one scoring pass
	scores := model.Score(nil, newX.X, 0)          // f(x): negative outside the domain
	fmt.Printf("new points: ARI %.2f, first score > 0: %v\n", metrics.AdjustedRand(newX.Labels, labels), scores[0] > 0)
	// Output:
	// 2 clusters, ARI 1.00
	// new points: ARI 1.00, first score > 0: true
}

// A model trained on data whose distances concentrate works in a subspace
// (Config.Space): it takes rows of every feature and projects them itself.
func ExampleSubspace() {
	ds, _ := dataset.GenerateHigh("t32", 600, 1) // four Student-t clusters in 32 dimensions
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	model, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	ch := model.Choice
	fmt.Printf("projected %v: %d features, kernel in %d dimensions\n", ch.Projected, model.Dim(), model.KernelDim())
	fmt.Printf("concentration %.2f < %g\n", ch.Concentration, ch.ConcentrationMax)
	cl, _ := cluster.Fit(model, ds.X, nil)
	fmt.Printf("%d clusters, ARI %.2f\n", cl.Clusters, metrics.AdjustedRand(ds.Labels, cl.Labels))
	// Output:
	// projected true: 32 features, kernel in 3 dimensions
	// concentration 1.65 < 6
	// 4 clusters, ARI 0.66
}

// A grid point at twice the automatic γ of projected data trains in the
// automatic choice's subspace, where that γ was measured (as svclust tune
// does); Train with the same γ given works in all the features.
func ExamplePrepared_Within() {
	ds, _ := dataset.GenerateHigh("t32", 600, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	auto, err := svclust.Prepare(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	cfg := svclust.Config{Seed: 1, Gamma: 2 * auto.Choice().Gamma}
	within, err := auto.Within(ds.X, &cfg)
	if err != nil {
		panic(err)
	}
	model, err := within.Train(context.Background(), ds.X, &cfg)
	if err != nil {
		panic(err)
	}
	full, err := svclust.Train(ds.X, &cfg)
	if err != nil {
		panic(err)
	}
	fmt.Printf("within: kernel in %d dimensions, γ/γauto = %g\n", model.KernelDim(), model.Gamma/auto.Choice().Gamma)
	fmt.Printf("Train: kernel in %d dimensions\n", full.KernelDim())
	// Output:
	// within: kernel in 3 dimensions, γ/γauto = 2
	// Train: kernel in 32 dimensions
}
