package svclust

import (
	"fmt"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// BenchmarkTrain times 10,000 SGD steps on z-scored moons (n = 1000) for
// each strategy and budget, reporting allocations, the objective and the
// support vectors.
func BenchmarkTrain(b *testing.B) {
	ds := generated(b, dataset.Moons, 1000)
	for _, budget := range []int{50, 100} {
		for _, st := range strategies {
			b.Run(fmt.Sprintf("budget=%d/strategy=%s", budget, st.name), func(b *testing.B) {
				cfg := &Config{Gamma: 8, C: 300, Budget: budget, Maintainer: st.m, Tol: -1, MaxIter: 10000, Seed: 1, Workers: 1}
				b.ReportAllocs()
				var m *Model
				for b.Loop() {
					m, _ = Train(ds.X, cfg)
				}
				b.ReportMetric(m.Stats.Objective, "J")
				b.ReportMetric(float64(len(m.Alpha)), "SVs")
				b.ReportMetric(float64(m.Stats.Maintenance), "maint")
			})
		}
	}
}

// BenchmarkTrainDefaults times Train with every setting chosen from the
// data on z-scored moons of 100,000 points: the automatic budget is 1,000
// there, as on the million moons of BENCHMARKS.md, so it measures the
// fixed cost of training (10,000 SGD steps, about 9,000 of them merges).
// The SGD steps run on one goroutine, but the objective of the trained
// model and the density pass of the automatic settings (maxDensity) run on
// Workers goroutines, GOMAXPROCS by default, and take about a quarter of a
// CPU profile; so the time depends on -cpu (on a 2-core machine, 7 % less
// with -cpu 2 than with -cpu 1).
func BenchmarkTrainDefaults(b *testing.B) {
	ds := generated(b, dataset.Moons, 100_000)
	b.ReportAllocs()
	var m *Model
	for b.Loop() {
		var err error
		if m, err = Train(ds.X, &Config{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(m.Alpha)), "SVs")
	b.ReportMetric(float64(m.Stats.Maintenance), "maint")
}
