package figure_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

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
