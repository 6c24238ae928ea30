package tune_test

import (
	"context"
	"fmt"
	"log"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/tune"
)

// Search the default grid, γ at multiples of the automatic one, on data
// without labels: the best point has the largest DBCV, ties going to the
// automatic point (plain svclust.Train).
func ExampleSearch() {
	ds, err := dataset.Generate(dataset.Moons, 500, 1)
	if err != nil {
		log.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)

	s := &tune.Search{Train: svclust.Config{Seed: 1}}
	res, err := s.Run(context.Background(), ds.X)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range res.Points {
		fmt.Printf("γ %-5v %d clusters\n", p.GammaValue, p.Clusters)
	}
	best := res.Points[res.Best]
	fmt.Printf("best by %s: γ %v\n", res.Criterion, best.GammaValue)
	// Output:
	// γ 0.25x 2 clusters
	// γ 0.5x  2 clusters
	// γ auto  2 clusters
	// γ 2x    2 clusters
	// γ 4x    2 clusters
	// best by dbcv: γ auto
}
