package baseline_test

import (
	"fmt"

	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// Classic support vector clustering: an exact SVDD, then the complete
// graph of Ben-Hur et al.
func ExampleTrainSVDD() {
	ds, _ := dataset.Generate(dataset.Gauss3, 300, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	s, err := baseline.TrainSVDD(ds.X, &baseline.SVDDConfig{Gamma: 2, C: 1.0 / 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("status:", s.Status)
	fmt.Println("bounded SVs ≤ 1/C:", s.Bounded <= 32)
	l, err := s.LabelCompleteGraph(ds.X, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("clusters:", l.Clusters)
	fmt.Printf("ARI: %.4g\n", metrics.AdjustedRand(ds.Labels, l.Labels))
	// Output:
	// status: converged
	// bounded SVs ≤ 1/C: true
	// clusters: 3
	// ARI: 1
}

// FSVC labels the same kind of SVDD by the equilibria reached from a few
// balls' centres.
func ExampleSVDD_LabelFSVC() {
	ds, _ := dataset.Generate(dataset.Gauss3, 300, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	s, err := baseline.TrainSVDD(ds.X, &baseline.SVDDConfig{Gamma: 2, C: 1.0 / 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	l, err := s.LabelFSVC(ds.X, &baseline.FSVCConfig{P: 0.2, Eps: 0.2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fewer balls than rows:", l.Balls < 300)
	fmt.Println("clusters:", l.Clusters)
	fmt.Printf("ARI: %.4g\n", metrics.AdjustedRand(ds.Labels, l.Labels))
	// Output:
	// fewer balls than rows: true
	// clusters: 3
	// ARI: 1
}

func ExampleKMeans() {
	ds, _ := dataset.Generate(dataset.Gauss4, 400, 1)
	res, err := baseline.KMeans(ds.X, &baseline.KMeansConfig{K: 4, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", res.Converged)
	fmt.Printf("ARI: %.4g\n", metrics.AdjustedRand(ds.Labels, res.Labels))
	// Output:
	// converged: true
	// ARI: 1
}

// Fuzzy C-means cannot follow the two moons: its clusters are convex.
func ExampleFuzzyCMeans() {
	ds, _ := dataset.Generate(dataset.Moons, 400, 1)
	res, err := baseline.FuzzyCMeans(ds.X, &baseline.FCMConfig{K: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", res.Converged)
	fmt.Println("ARI below 0.6:", metrics.AdjustedRand(ds.Labels, res.Labels) < 0.6)
	// Output:
	// converged: true
	// ARI below 0.6: true
}

// HDBSCAN with its defaults (MinPts 5) on z-scored data, noise given to
// the nearest clustered row as the project's anchors do.
func ExampleHDBSCAN() {
	ds, _ := dataset.Generate(dataset.Gauss3, 300, 1)
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	r, err := baseline.HDBSCAN(ds.X, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("clusters:", r.Clusters)
	fmt.Printf("ARI: %.3f\n", metrics.AdjustedRand(ds.Labels, r.NoiseToNearest(ds.X)))
	// Output:
	// clusters: 3
	// ARI: 1.000
}
