package cluster

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// tcfg is the settings of both rules in one value, as the tests' tables
// list them; method returns the Method of its Rule (All is the
// Components rule's only, and ignored by Levels).
type tcfg struct {
	Rule                  Rule
	MinSize               int
	RippleZ, LevelPower   float64
	Eps                   float64
	All, Outliers         bool
	M, Neighbors, Workers int
	Progress              func(done, total int)
	// anchorMin and maxLandmarks set the Components fields of the same
	// names (0 for the defaults).
	anchorMin, maxLandmarks int
}

func (c *tcfg) method() Method {
	if c == nil {
		return nil
	}
	if c.Rule == RuleComponents {
		return &Components{Eps: c.Eps, All: c.All, Outliers: c.Outliers, M: c.M, Neighbors: c.Neighbors,
			Workers: c.Workers, Progress: c.Progress, anchorMin: c.anchorMin, maxLandmarks: c.maxLandmarks}
	}
	return &Levels{MinSize: c.MinSize, RippleZ: c.RippleZ, LevelPower: c.LevelPower, Outliers: c.Outliers,
		M: c.M, Neighbors: c.Neighbors, Workers: c.Workers, Progress: c.Progress}
}

// fitCfg is Fit with the Method of c (nil: the defaults).
func fitCfg(m *svclust.Model, x mat.Matrix, c *tcfg) (*Result, error) {
	return Fit(m, x, c.method())
}

// reload returns p made again from what it stores, as a model file reads
// it.
func reload(t testing.TB, p Partition) Partition {
	t.Helper()
	var q Partition
	var err error
	switch p := p.(type) {
	case *LevelTree:
		q, err = NewLevelTree(p.Model(), p.Data())
	case *Graph:
		q, err = NewGraph(p.Model(), p.Data())
	}
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// generated returns n rows of kind (data seed 1), scaled by z-scores.
func generated(t testing.TB, kind dataset.Kind, n int) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Generate(kind, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds
}

var strategies = []struct {
	name string
	m    svclust.Maintainer
}{
	{"removal", svclust.Removal{}},
	{"project-knn", svclust.Projection{}},
	{"project-random", svclust.Projection{K: 3, Pick: svclust.Random}},
	{"merge", svclust.Merge{}},
}
