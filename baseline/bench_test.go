package baseline

import (
	"fmt"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// zscored returns n rows of a synthetic set, z-scored as the reproduction
// scales its data.
func zscored(b *testing.B, kind dataset.Kind, n int) []float64 {
	ds, err := dataset.Generate(kind, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds.X.RawMatrix().Data
}

// BenchmarkTrainSVDD times the SMO solver on z-scored moons at the default
// tolerance, with the paper's lowest grid value C = 2⁻⁵ and the hard
// margin C = 1, reporting SMO steps, kernel rows computed and support
// vectors.
func BenchmarkTrainSVDD(b *testing.B) {
	for _, n := range []int{500, 2000} {
		x := zscored(b, dataset.Moons, n)
		for _, c := range []float64{1.0 / 32, 1} {
			b.Run(fmt.Sprintf("n=%d/C=%g", n, c), func(b *testing.B) {
				cfg := &SVDDConfig{Gamma: 8, C: c, Workers: 1}
				b.ReportAllocs()
				var s *SVDD
				for b.Loop() {
					s, _ = TrainSVDD(dense(x, 2), cfg)
				}
				b.ReportMetric(float64(s.Iterations), "steps")
				b.ReportMetric(float64(s.KernelRows), "rows")
				b.ReportMetric(float64(len(s.Beta)), "SVs")
			})
		}
	}
}

// BenchmarkLabel times the two labellings of one SVDD of z-scored moons
// (n = 500, γ = 8, C = 2⁻⁵) on one goroutine.
func BenchmarkLabel(b *testing.B) {
	x := zscored(b, dataset.Moons, 500)
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 8, C: 1.0 / 32})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("method=graph", func(b *testing.B) {
		var l *Labelling
		for b.Loop() {
			l, _ = s.LabelCompleteGraph(dense(x, s.D), &GraphConfig{Workers: 1})
		}
		b.ReportMetric(float64(l.Tested), "tests")
		b.ReportMetric(float64(l.Clusters), "clusters")
	})
	b.Run("method=fsvc", func(b *testing.B) {
		var l *Labelling
		for b.Loop() {
			l, _ = s.LabelFSVC(dense(x, s.D), &FSVCConfig{P: 0.2, Eps: 0.2, Seed: 1, Workers: 1})
		}
		b.ReportMetric(float64(l.Balls), "balls")
		b.ReportMetric(float64(l.Clusters), "clusters")
	})
}
