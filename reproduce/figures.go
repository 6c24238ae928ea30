package reproduce

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/figure"
	"github.com/svclust/svclust/metrics"
)

// FigureConfig holds the settings of Figures. The zero value selects the
// defaults.
type FigureConfig struct {
	// N is the number of points of each data set; 0 selects 1,000.
	N int
	// Seed seeds the data, our training, and the k-means++ initialisation
	// of C-means and fuzzy C-means; 0 selects 1.
	Seed uint64
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
}

// figureSpecs are the paper's visual experiments (Section 5.1): Figure 1
// nested rings, Figure 2 two moons, Figure 3 three and four Gaussians.
var figureSpecs = []struct {
	kind  dataset.Kind
	file  string
	title string
}{
	{dataset.Nested, "fig1-nested.png", "Figure 1: nested rings"},
	{dataset.Moons, "fig2-moons.png", "Figure 2: two moons"},
	{dataset.Gauss3, "fig3-gauss3.png", "Figure 3 (left): 3 Gaussians"},
	{dataset.Gauss4, "fig3-gauss4.png", "Figure 3 (right): 4 Gaussians"},
}

// FigureResult describes one figure written by Figures.
type FigureResult struct {
	// Path is the file written.
	Path string
	// Kind is the data set.
	Kind dataset.Kind
	// Classes is the true number of clusters, and Clusters the number
	// our method found.
	Classes, Clusters int
	// ARI holds the adjusted Rand index of ours, C-means and fuzzy
	// C-means, in that order.
	ARI [3]float64
}

// Figures regenerates the paper's three visual experiments into dir,
// which it creates if needed: for each of the generated data sets nested,
// moons, gauss3 and gauss4, a PNG with three panels, our method with the
// defaults of svclust fit (z-scores, budget 50, merging (BSGD-M), γ and C
// chosen from the data) with its domain of novelty, then
// C-means and fuzzy C-means given the true number of clusters, all in the
// z-scored space our model lives in.
func Figures(dir string, cfg *FigureConfig) ([]FigureResult, error) {
	c := FigureConfig{}
	if cfg != nil {
		c = *cfg
	}
	if c.N == 0 {
		c.N = 1000
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	var out []FigureResult
	for _, f := range figureSpecs {
		ds, err := dataset.Generate(f.kind, c.N, c.Seed)
		if err != nil {
			return nil, err
		}
		dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
		k := len(ds.Classes)

		// Ours is svclust's defaults: γ, C and the budget chosen from the
		// data, the LevelTree rule. The maintainer is named, not left to
		// the default, so that the panel's title cannot name another method.
		model, err := svclust.Train(ds.X, &svclust.Config{Maintainer: svclust.Merge{}, Seed: c.Seed, Workers: c.Workers})
		if err != nil {
			return nil, fmt.Errorf("reproduce: %s: %w", f.kind, err)
		}
		cl, err := cluster.Fit(model, ds.X, &cluster.Levels{Workers: c.Workers})
		if err != nil {
			return nil, fmt.Errorf("reproduce: %s: %w", f.kind, err)
		}
		km, err := baseline.KMeans(ds.X, &baseline.KMeansConfig{K: k, Seed: c.Seed, Workers: c.Workers})
		if err != nil {
			return nil, fmt.Errorf("reproduce: %s: %w", f.kind, err)
		}
		fcm, err := baseline.FuzzyCMeans(ds.X, &baseline.FCMConfig{K: k, Seed: c.Seed, Workers: c.Workers})
		if err != nil {
			return nil, fmt.Errorf("reproduce: %s: %w", f.kind, err)
		}
		r := FigureResult{
			Path: filepath.Join(dir, f.file), Kind: f.kind, Classes: k, Clusters: cl.Clusters,
			ARI: [3]float64{
				metrics.AdjustedRand(ds.Labels, cl.Labels),
				metrics.AdjustedRand(ds.Labels, km.Labels),
				metrics.AdjustedRand(ds.Labels, fcm.Labels),
			},
		}
		panels := []figure.Panel{
			{Title: fmt.Sprintf("Ours (defaults, B = %d): %d clusters, ARI %.2f", model.Choice.Budget, cl.Clusters, r.ARI[0]), X: ds.X, Labels: cl.Labels, Model: model},
			{Title: fmt.Sprintf("C-means (k = %d): ARI %.2f", k, r.ARI[1]), X: ds.X, Labels: km.Labels},
			{Title: fmt.Sprintf("Fuzzy C-means (k = %d): ARI %.2f", k, r.ARI[2]), X: ds.X, Labels: fcm.Labels},
		}
		title := fmt.Sprintf("%s, n = %d, seed %d (z-scored)", f.title, c.N, c.Seed)
		if err := figure.Panels(r.Path, title, panels); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
