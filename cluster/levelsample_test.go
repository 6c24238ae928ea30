package cluster

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// TestFitSampled: above the row bound the level tree is built from every
// stride-th row, and the labels and outlier scores of every row must be
// those the partition predicts (before and after a reload, for any number
// of workers): a saved model gives fit's output. The bound is lowered to
// 500 rows of 2,000 so that the test stays small (stride 4, 500 rows).
func TestFitSampled(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	ds := generated(t, dataset.Moons, 2000)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n, d := ds.X.Dims()
	data := slices.Clone(ds.X.RawMatrix().Data)
	const rows, stride = 500, 4
	sample := mat.NewDense(n/stride, d, nil)
	for i := range n / stride {
		sample.SetRow(i, ds.X.RawRowView(i*stride))
	}
	for _, c := range []Levels{{}, {Outliers: true}, {MinSize: 100, Outliers: true, OutlierThreshold: 0.3}} {
		var first *Result
		for _, w := range []int{1, 2} {
			c.Workers = w
			cl := c.fitSampled(m, data, nil, n, d, rows)
			if first == nil {
				first = cl
			} else if !slices.Equal(cl.Labels, first.Labels) || !slices.Equal(cl.OutlierScores, first.OutlierScores) {
				t.Fatalf("%+v: labels or scores differ between 1 and %d workers", c, w)
			}
			wantMin := max(5, int(math.Ceil(DefaultMinShare*float64(n))))
			if c.MinSize != 0 {
				wantMin = c.MinSize
			}
			if cl.MinSize != wantMin {
				t.Errorf("%+v: MinSize %d, want %d (rows of the data, not of the sample)", c, cl.MinSize, wantMin)
			}
			if len(cl.Labels) != n || len(cl.OutlierScores) != n {
				t.Fatalf("%+v: %d labels, %d scores for %d rows", c, len(cl.Labels), len(cl.OutlierScores), n)
			}
			if ari := metrics.AdjustedRand(ds.Labels, cl.Labels); c.MinSize == 0 && !c.Outliers && ari < 0.9 {
				t.Errorf("%+v: ARI %v against the moons, want ≥ 0.9", c, ari)
			}
			for _, q := range []Partition{cl.Partition, reload(t, cl.Partition)} {
				for _, pw := range []int{1, 3} {
					if l := q.Predict(nil, ds.X, pw); !slices.Equal(l, cl.Labels) {
						t.Fatalf("%+v workers=%d: Predict differs from the sampled fit", c, pw)
					}
					l, s, err := q.PredictScores(nil, nil, ds.X, pw)
					if err != nil || !slices.Equal(l, cl.Labels) || !slices.Equal(s, cl.OutlierScores) {
						t.Fatalf("%+v workers=%d: PredictScores differs from the sampled fit: %v", c, pw, err)
					}
				}
			}
			// The tree is the one Fit builds on the sample, the smallest
			// cluster scaled to it.
			sc := c
			sc.MinSize = 0
			if c.MinSize != 0 {
				sc.MinSize = int(math.Ceil(float64(c.MinSize) / stride))
			}
			ref, err := Fit(m, sample, &sc)
			if err != nil {
				t.Fatal(err)
			}
			got, want := cl.Partition.(*LevelTree).Data(), ref.Partition.(*LevelTree).Data()
			if !slices.Equal(got.SVCluster, want.SVCluster) || !slices.Equal(got.Birth, want.Birth) || !slices.Equal(got.Outlier.Peak, want.Outlier.Peak) {
				t.Errorf("%+v: the tree differs from Fit's on the stride sample", c)
			}
		}
	}
}
