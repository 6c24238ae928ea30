package cluster_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// BenchmarkHardKinds prints, for the kinds of issue 36 where density
// methods are known to fail (dataset.HardKinds: a ball inside a shell,
// touching Gaussians of different density, four blobs in 5, 10 and 20 %
// uniform noise) and for many small clusters (dataset.Birch: 100
// Gaussians, 20 rows each), n = 2000 and data seeds 1–3, the ARI of plain
// svclust fit, of exact HDBSCAN with MinPts 5 and 10 (baseline.HDBSCAN,
// z-scores, noise given to the nearest clustered row) and of k-means told
// the true k (10 runs; for the noise kinds k = 4, the blobs), with the
// number of clusters of each density method. On the noise kinds the ARI
// is measured on the blobs' rows only: every method labels the noise
// rows, which belong to no cluster. It reports svclust's mean ARI over
// all sets as the metric mean-ARI. Run it with
//
//	go test -run '^$' -bench HardKinds -benchtime 1x ./cluster
func BenchmarkHardKinds(b *testing.B) {
	const n = 2000
	type kind struct {
		name  string
		gen   func(seed uint64) (*dataset.Dataset, error)
		k     int
		noise int // the label of the noise rows, or −1
	}
	var kinds []kind
	for _, hk := range dataset.HardKinds() {
		k, noise := 2, -1
		if hk != dataset.BallShell && hk != dataset.Touching {
			k, noise = 4, 4
		}
		kinds = append(kinds, kind{string(hk), func(seed uint64) (*dataset.Dataset, error) { return dataset.GenerateHard(hk, n, seed) }, k, noise})
	}
	kinds = append(kinds, kind{"birch", func(seed uint64) (*dataset.Dataset, error) { return dataset.Generate(dataset.Birch, n, seed) }, 100, -1})
	for range b.N {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-10s %4s  %-15s %-15s %-15s %s\n", "kind", "seed", "svclust", "HDBSCAN-5", "HDBSCAN-10", "KMeans true k")
		var sum [4]float64
		var count int
		for _, kd := range kinds {
			var ksum [4]float64
			for seed := uint64(1); seed <= 3; seed++ {
				gen := func() *dataset.Dataset {
					ds, err := kd.gen(seed)
					if err != nil {
						b.Fatal(err)
					}
					return ds
				}
				ds := gen()
				keep := func(labels []int) ([]int, []int) {
					var t, p []int
					for i, l := range ds.Labels {
						if l != kd.noise {
							t, p = append(t, l), append(p, labels[i])
						}
					}
					return t, p
				}
				ari := func(labels []int) float64 { return metrics.AdjustedRand(keep(labels)) }
				cl := fitDefaults(b, ds.X, 1)
				res := [4]float64{ari(cl.Labels)}
				found := [3]int{cl.Clusters}
				labels, clusters := peers(b, gen, kd.k)
				for i, l := range labels {
					res[1+i] = ari(l)
				}
				found[1], found[2] = clusters[0], clusters[1]
				for i := range sum {
					sum[i] += res[i]
					ksum[i] += res[i]
				}
				count++
				fmt.Fprintf(&table, "%-10s %4d  %.3f (%3d cl)   %.3f (%3d cl)   %.3f (%3d cl)   %.3f\n",
					kd.name, seed, res[0], found[0], res[1], found[1], res[2], found[2], res[3])
			}
			fmt.Fprintf(&table, "%-10s mean  %.3f           %.3f           %.3f           %.3f\n", kd.name, ksum[0]/3, ksum[1]/3, ksum[2]/3, ksum[3]/3)
		}
		c := float64(count)
		fmt.Fprintf(&table, "all        mean  %.3f           %.3f           %.3f           %.3f\n", sum[0]/c, sum[1]/c, sum[2]/c, sum[3]/c)
		fmt.Print(table.String()) // b.Log would cut the table to its first lines
		b.ReportMetric(sum[0]/c, "mean-ARI")
	}
}
