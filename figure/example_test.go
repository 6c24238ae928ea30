package figure_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/figure"
)

// ExampleDomain draws a model of the two moons over its data and saves it
// as an SVG file.
func ExampleDomain() {
	dir, err := os.MkdirTemp("", "figure")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ds, err := dataset.Generate(dataset.Moons, 500, 1)
	if err != nil {
		log.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	c, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		log.Fatal(err)
	}
	p, err := figure.Domain(m, ds.X, c.Labels, &figure.Options{Title: "moons", Legend: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := figure.Save(filepath.Join(dir, "moons.svg"), 5*vg.Inch, 5*vg.Inch, p); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d clusters drawn to moons.svg\n", c.Clusters)
	// Output:
	// 2 clusters drawn to moons.svg
}

// ExamplePanels draws a model beside the ground truth, as the paper's
// Figures 1–3 draw its method beside C-means and fuzzy C-means.
func ExamplePanels() {
	dir, err := os.MkdirTemp("", "figure")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ds, err := dataset.Generate(dataset.Nested, 700, 1)
	if err != nil {
		log.Fatal(err)
	}
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	c, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		log.Fatal(err)
	}
	err = figure.Panels(filepath.Join(dir, "nested.png"), "nested rings", []figure.Panel{
		{Title: "budgeted SVC", X: ds.X, Labels: c.Labels, Model: m},
		{Title: "ground truth", X: ds.X, Labels: ds.Labels},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d clusters beside %d classes drawn to nested.png\n", c.Clusters, len(ds.Classes))
	// Output:
	// 3 clusters beside 3 classes drawn to nested.png
}

// ExampleNewPCA finds the direction along which points spread most.
func ExampleNewPCA() {
	// Points along the diagonal x = y = z, with a little spread across it.
	x := mat.NewDense(4, 3, []float64{
		0, 0, 0.1,
		1, 1, 0.9,
		2, 2, 2.1,
		3, 3, 2.9,
	})
	p, err := figure.NewPCA(x)
	if err != nil {
		log.Fatal(err)
	}
	a := p.Axes
	fmt.Printf("PC1 = (%.2f, %.2f, %.2f), %.1f%% of the variance\n", a.At(0, 0), a.At(1, 0), a.At(2, 0), 100*p.Share[0])
	// Output:
	// PC1 = (0.58, 0.58, 0.56), 99.9% of the variance
}
