package cluster

import (
	"fmt"
	"testing"
	"time"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// BenchmarkFit times training and cluster assignment (svclust.Train, then
// Cluster with the defaults) on z-scored moons of n points, the pipeline of
// 'svclust fit' without parsing, for each size and strategy, and reports the
// ARI and NMI against the generating labels, the support vectors, the
// equilibria and the strip size. Score, one pass of f over the data (the
// floor of any method that evaluates f on every point), is reported as
// score-ns beside it, so that fit/score can be read off.
func BenchmarkFit(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		ds := generated(b, dataset.Moons, n)
		for _, budget := range []int{50, 100} {
			for _, st := range strategies {
				name := fmt.Sprintf("n=%.0e/budget=%d/strategy=%s", float64(n), budget, st.name)
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					var (
						m  *svclust.Model
						cl *Result
					)
					for b.Loop() {
						var err error
						m, err = svclust.Train(ds.X, &svclust.Config{Budget: budget, Maintainer: st.m, Seed: 1})
						if err != nil {
							b.Fatal(err)
						}
						if cl, err = Fit(m, ds.X, nil); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					start := time.Now()
					m.Score(nil, ds.X, 0)
					b.ReportMetric(float64(time.Since(start).Nanoseconds()), "score-ns")
					b.ReportMetric(metrics.AdjustedRand(ds.Labels, cl.Labels), "ARI")
					b.ReportMetric(metrics.NMI(ds.Labels, cl.Labels), "NMI")
					b.ReportMetric(float64(len(m.Alpha)), "SVs")
					b.ReportMetric(float64(cl.Equilibria), "equilibria")
					b.ReportMetric(float64(cl.StripSize), "strip")
				})
			}
		}
	}
}
