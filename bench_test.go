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
