package cluster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// fitDefaults scales x by z-scores and fits and clusters it with every
// default of the library, as plain `svclust fit` does; with the
// environment variable SVCLUST_WIDTH=global, with one kernel width
// (Config.Width = GlobalWidth, `fit -width global`), and with
// SVCLUST_SPACE=input on the features only (Config.Space = InputSpace), and
// with SVCLUST_LEVELLINKS=1 the level tree for projected models too
// (Levels.LevelLinks), so that the benchmarks below also give the tables
// of those rules.
func fitDefaults(tb testing.TB, x *mat.Dense, seed uint64) *cluster.Result {
	tb.Helper()
	dataset.FitScaler(x, dataset.ScaleZScore).Transform(x)
	cfg := &svclust.Config{Seed: seed}
	switch w := os.Getenv("SVCLUST_WIDTH"); w {
	case "", "adaptive":
	case "global":
		cfg.Width = auto.GlobalWidth
	default:
		tb.Fatalf("SVCLUST_WIDTH=%q: want adaptive or global", w)
	}
	if s := os.Getenv("SVCLUST_SPACE"); s != "" {
		sp, err := auto.ParseSpace(s)
		if err != nil {
			tb.Fatal(err)
		}
		cfg.Space = sp
	}
	m, err := svclust.Train(x, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	var method cluster.Method // SVCLUST_LEVELLINKS=1: the level tree for projected models too
	if os.Getenv("SVCLUST_LEVELLINKS") != "" {
		method = &cluster.Levels{LevelLinks: true}
	}
	cl, err := cluster.Fit(m, x, method)
	if err != nil {
		tb.Fatal(err)
	}
	return cl
}

// TestDefaultsOnGeneratedKinds checks the acceptance criterion of the
// issue "Clusters without labels" on the generated kinds: with every
// default, over data seeds 1–5 (n = 1000), the mean ARI of each kind must
// be at least 0.95 and its minimum at least 0.85 (the thresholds).
// It also checks stability: on data seed 1, training seeds 1–5 must give
// nearly the same partition, a mean pairwise ARI of at least 0.9 (the
// issue asks for "nearly the same partition"; 0.9 is our reading of
// "nearly"). go test -v prints the table.
func TestDefaultsOnGeneratedKinds(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 40 data sets of 1000 points")
	}
	t.Parallel()
	t.Log("kind      mean ARI  min ARI  clusters (seeds 1–5)  seed-to-seed ARI")
	for _, kind := range dataset.Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			var sum, lo float64 = 0, 1
			var ks []string
			var first []int // data seed 1, training seed 1: seedStability's first partition
			for seed := uint64(1); seed <= 5; seed++ {
				ds, err := dataset.Generate(kind, 1000, seed)
				if err != nil {
					t.Fatal(err)
				}
				cl := fitDefaults(t, ds.X, 1)
				ari := metrics.AdjustedRand(ds.Labels, cl.Labels)
				sum += ari
				lo = min(lo, ari)
				ks = append(ks, fmt.Sprint(cl.Clusters))
				if seed == 1 {
					first = cl.Labels
				}
			}
			mean := sum / 5
			stab := seedStability(t, kind, first)
			t.Logf("%-9s %.3f     %.3f    %-20s  %.3f", kind, mean, lo, strings.Join(ks, " "), stab)
			if mean < 0.95 || lo < 0.85 {
				t.Errorf("%s: mean ARI %.3f (want ≥ 0.95), min %.3f (want ≥ 0.85)", kind, mean, lo)
			}
			if stab < 0.9 {
				t.Errorf("%s: mean seed-to-seed ARI %.3f, want ≥ 0.9", kind, stab)
			}
		})
	}
}

// seedStability returns the mean ARI between the partitions of data seed 1
// of kind given by training seeds 1–5, over the 10 pairs; first is the
// partition of training seed 1, already computed.
func seedStability(t *testing.T, kind dataset.Kind, first []int) float64 {
	parts := [][]int{first}
	for seed := uint64(2); seed <= 5; seed++ {
		ds, err := dataset.Generate(kind, 1000, 1)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fitDefaults(t, ds.X, seed).Labels)
	}
	var sum float64
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			sum += metrics.AdjustedRand(parts[i], parts[j])
		}
	}
	return sum / 10
}

// BenchmarkDefaultsShared prints, for each of the paper's data sets found
// in $SVCLUST_DATA (default ../../shared/datasets), the NMI and number of
// clusters of plain fit (every default, z-scores) beside HDBSCAN with
// minPts 5 from ../shared/anchors/unsupervised.tsv (next to the data
// directory), and reports the number of sets within 0.02 of HDBSCAN and
// the mean NMI as metrics. Run it with
//
//	go test -run '^$' -bench DefaultsShared -benchtime 1x ./cluster
//
// and with SVCLUST_WIDTH=global for one kernel width (see fitDefaults).
func BenchmarkDefaultsShared(b *testing.B) {
	sharedTable(b, "sets-within-0.02", "within 0.02 of HDBSCAN-5",
		func(ds *dataset.Dataset) ([]int, int, string) {
			cl := fitDefaults(b, ds.X, 1)
			return cl.Labels, cl.Clusters, ""
		},
		func(nmi float64, _ int, a anchor) string {
			if nmi >= a.nmi-0.02 {
				return " +"
			}
			return ""
		})
}

// BenchmarkHDBSCANShared prints, for each of the paper's data sets found
// in $SVCLUST_DATA (default ../../shared/datasets), the NMI and number of
// clusters of exact HDBSCAN (baseline.HDBSCAN, MinPts 5, z-scores, noise
// given to the nearest clustered row) beside the anchors' HDBSCAN-5 (R
// dbscan, ../shared/anchors/unsupervised.tsv), and reports the mean NMI
// and the number of sets with the anchors' cluster count as metrics. Sets
// above 20,000 rows (Shuttle) are skipped and marked so: exact HDBSCAN
// takes O(n²) time. All 14 sets it runs give the anchors' counts (as
// TestHDBSCANAnchors in package baseline asserts). Run it with
//
//	go test -run '^$' -bench HDBSCANShared -benchtime 1x ./cluster
func BenchmarkHDBSCANShared(b *testing.B) {
	const maxRows = 20000
	sharedTable(b, "sets-same-clusters", "with the anchors' clusters, =",
		func(ds *dataset.Dataset) ([]int, int, string) {
			if n, _ := ds.X.Dims(); n > maxRows {
				return nil, 0, fmt.Sprintf("skipped: %d rows > %d (exact HDBSCAN is O(n²))", n, maxRows)
			}
			r := hdbscan5(b, ds.X)
			return r.NoiseToNearest(ds.X), r.Clusters, ""
		},
		func(_ float64, clusters int, a anchor) string {
			if fmt.Sprint(clusters) == a.clusters {
				return " ="
			}
			return ""
		})
}

// sharedTable prints, for each of the paper's data sets (sharedData), the
// NMI and number of clusters of the labels cluster gives beside the
// anchors' HDBSCAN-5, with the mark hit returns, and their means; it
// reports the sets marked as the metric hits ("n of m " + what in the
// table) and the mean NMI as mean-NMI. A set for which cluster returns a
// reason to skip it is printed with the reason and left out of the means.
func sharedTable(b *testing.B, hits, what string, method func(ds *dataset.Dataset) (labels []int, clusters int, skip string), hit func(nmi float64, clusters int, a anchor) string) {
	dir, anchors := sharedData()
	for range b.N {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-14s %6s %8s  %6s %8s\n", "set", "NMI", "clusters", "HDB-5", "clusters")
		var sum, sumA float64
		marked, count := 0, 0
		for _, name := range sharedNames {
			ds := readShared(b, dir, name)
			a := anchors[name]
			labels, k, skip := method(ds)
			if skip != "" {
				fmt.Fprintf(&table, "%-14s %6s %8s  %6.3f %8s  %s\n", name, "-", "-", a.nmi, a.clusters, skip)
				continue
			}
			nmi := metrics.NMI(ds.Labels, labels)
			mark := hit(nmi, k, a)
			if mark != "" {
				marked++
			}
			sum += nmi
			sumA += a.nmi
			count++
			fmt.Fprintf(&table, "%-14s %6.3f %8d  %6.3f %8s%s\n", name, nmi, k, a.nmi, a.clusters, mark)
		}
		fmt.Fprintf(&table, "%-14s %6.3f %8s  %6.3f   (%d of %d %s)\n", "mean", sum/float64(count), "", sumA/float64(count), marked, count, what)
		fmt.Print(table.String()) // b.Log would cut the table to its first lines
		b.ReportMetric(float64(marked), hits)
		b.ReportMetric(sum/float64(count), "mean-NMI")
	}
}

// BenchmarkDefaultsShapes prints the table behind the README's "The
// shapes, reproducibly": for every kind of dataset.AllKinds (the four of
// TestDefaultsOnGeneratedKinds and the twelve further calibration shapes),
// data seeds 1–5 with n = 1000, z-scored and fitted with every default
// (fitDefaults, training seed 1), the mean and minimum ARI against the
// generating classes and the number of clusters found per seed. It reports
// the mean over the kinds of their mean ARI as a metric. Run it with
//
//	go test -run '^$' -bench DefaultsShapes -benchtime 1x ./cluster
//
// and with SVCLUST_WIDTH=global for one kernel width (see fitDefaults).
func BenchmarkDefaultsShapes(b *testing.B) {
	shapesTable(b, func(ds *dataset.Dataset) ([]int, int) {
		cl := fitDefaults(b, ds.X, 1)
		return cl.Labels, cl.Clusters
	})
}

// BenchmarkHDBSCANShapes prints the table of BenchmarkDefaultsShapes for
// exact HDBSCAN (baseline.HDBSCAN, MinPts 5, z-scores, noise given to the
// nearest clustered row as the anchors do), what users would run instead.
// Run it with
//
//	go test -run '^$' -bench HDBSCANShapes -benchtime 1x ./cluster
func BenchmarkHDBSCANShapes(b *testing.B) {
	shapesTable(b, func(ds *dataset.Dataset) ([]int, int) {
		r := hdbscan5(b, ds.X)
		return r.NoiseToNearest(ds.X), r.Clusters
	})
}

// hdbscan5 z-scores x and clusters it by exact HDBSCAN with MinPts 5.
func hdbscan5(tb testing.TB, x *mat.Dense) *baseline.HDBSCANResult {
	tb.Helper()
	dataset.FitScaler(x, dataset.ScaleZScore).Transform(x)
	r, err := baseline.HDBSCAN(x, &baseline.HDBSCANConfig{MinPts: 5})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// shapesTable prints, for every kind of dataset.AllKinds and data seeds
// 1–5 with n = 1000, the mean and minimum ARI of cluster's labels against
// the generating classes and its number of clusters per seed, and reports
// the mean over the kinds of their mean ARI as the metric mean-ARI.
func shapesTable(b *testing.B, method func(ds *dataset.Dataset) (labels []int, clusters int)) {
	for range b.N {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-11s %5s %8s %8s  %s\n", "kind", "true", "mean ARI", "min ARI", "clusters (data seeds 1–5)")
		var total float64
		kinds := dataset.AllKinds()
		for _, kind := range kinds {
			var sum, lo float64 = 0, 1
			var ks []string
			classes := 0
			for seed := uint64(1); seed <= 5; seed++ {
				ds, err := dataset.Generate(kind, 1000, seed)
				if err != nil {
					b.Fatal(err)
				}
				classes = len(ds.Classes)
				labels, clusters := method(ds)
				ari := metrics.AdjustedRand(ds.Labels, labels)
				sum += ari
				lo = min(lo, ari)
				ks = append(ks, fmt.Sprint(clusters))
			}
			total += sum / 5
			fmt.Fprintf(&table, "%-11s %5d %8.3f %8.3f  %s\n", kind, classes, sum/5, lo, strings.Join(ks, " "))
		}
		fmt.Fprintf(&table, "%-11s %5s %8.3f\n", "mean", "", total/float64(len(kinds)))
		fmt.Print(table.String()) // b.Log would cut the table to its first lines
		b.ReportMetric(total/float64(len(kinds)), "mean-ARI")
	}
}

// BenchmarkDefaultsSizes prints, for every kind of dataset.AllKinds at
// n = 300 and n = 3000 (data seeds 1–3, z-scores, every default, training
// seed 1), the mean ARI against the generating classes and the clusters
// found, and reports the mean over kinds and sizes as a metric: the
// defaults must not hold at n = 1000 only (BenchmarkDefaultsShapes). Run
// it with
//
//	go test -run '^$' -bench DefaultsSizes -benchtime 1x ./cluster
func BenchmarkDefaultsSizes(b *testing.B) {
	for range b.N {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%-6s %-11s %8s  %s\n", "n", "kind", "mean ARI", "clusters (data seeds 1–3)")
		var total float64
		kinds := dataset.AllKinds()
		for _, n := range []int{300, 3000} {
			var sumN float64
			for _, kind := range kinds {
				var sum float64
				var ks []string
				for seed := uint64(1); seed <= 3; seed++ {
					ds, err := dataset.Generate(kind, n, seed)
					if err != nil {
						b.Fatal(err)
					}
					cl := fitDefaults(b, ds.X, 1)
					sum += metrics.AdjustedRand(ds.Labels, cl.Labels)
					ks = append(ks, fmt.Sprint(cl.Clusters))
				}
				sumN += sum / 3
				fmt.Fprintf(&table, "%-6d %-11s %8.3f  %s\n", n, kind, sum/3, strings.Join(ks, " "))
			}
			fmt.Fprintf(&table, "%-6d %-11s %8.3f\n", n, "mean", sumN/float64(len(kinds)))
			total += sumN
		}
		fmt.Print(table.String()) // b.Log would cut the table to its first lines
		b.ReportMetric(total/float64(2*len(kinds)), "mean-ARI")
	}
}

// sharedNames are the paper's data sets, in the order of the README's
// tables.
var sharedNames = []string{"aggregation", "compound", "d31", "flame", "iris", "breast_cancer", "abalone", "musk", "jain", "pathbased", "r15", "spiral", "shuttle", "glass", "car"}

// sharedData returns the directory of the paper's data sets,
// $SVCLUST_DATA or by default ../../shared/datasets, and the anchors of
// ../anchors/unsupervised.tsv beside it (none if it is absent).
func sharedData() (string, map[string]anchor) {
	dir := os.Getenv("SVCLUST_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "datasets")
	}
	return dir, readAnchors(filepath.Join(dir, "..", "anchors", "unsupervised.tsv"))
}

// readShared reads the data set name of dir, or skips b with the reason
// when it cannot.
func readShared(b *testing.B, dir, name string) *dataset.Dataset {
	b.Helper()
	ds, err := dataset.ReadFile(filepath.Join(dir, name+".csv"), dataset.ReadOptions{})
	if err != nil {
		b.Skipf("the paper's data sets are not in %s: %v", dir, err)
	}
	return ds
}

type anchor struct {
	nmi      float64
	clusters string
}

// readAnchors reads the hdbscan5 columns of the anchors table; a missing
// file gives no anchors (NMI 0).
func readAnchors(path string) map[string]anchor {
	out := map[string]anchor{}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) == 0 {
		return out
	}
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		var v float64
		fmt.Sscan(f[col["hdbscan5_nmi"]], &v)
		out[f[col["dataset"]]] = anchor{v, f[col["hdbscan5_clusters"]]}
	}
	return out
}

// BenchmarkOverlap prints, for dataset.GenerateOverlap (k = 2…10 isotropic
// Gaussian blobs in 2-D whose neighbours are 2.5 to 5 standard deviations
// apart) with n = 2000 and data seeds 1–3, the ARI of plain svclust fit,
// of exact HDBSCAN with MinPts 5 and 10 (baseline.HDBSCAN, z-scores, noise
// given to the nearest clustered row) and of k-means told the true k (10
// runs), with the number of clusters of each density method; it reports
// the mean ARI of svclust as the metric mean-ARI. Run it with
//
//	go test -run '^$' -bench Overlap -benchtime 1x ./cluster
func BenchmarkOverlap(b *testing.B) {
	const n = 2000
	for range b.N {
		var table strings.Builder
		fmt.Fprintf(&table, "\n%2s %4s  %-14s %-14s %-14s %s\n", "k", "seed", "svclust", "HDBSCAN-5", "HDBSCAN-10", "KMeans true k")
		var sum [4]float64
		var count, one int
		for k := 2; k <= dataset.OverlapMaxCentres; k++ {
			for seed := uint64(1); seed <= 3; seed++ {
				gen := func() *dataset.Dataset {
					ds, err := dataset.GenerateOverlap(n, k, seed)
					if err != nil {
						b.Fatal(err)
					}
					return ds
				}
				ds := gen()
				cl := fitDefaults(b, ds.X, 1)
				ari := [4]float64{metrics.AdjustedRand(ds.Labels, cl.Labels)}
				found := [3]int{cl.Clusters}
				labels, clusters := peers(b, gen, k)
				for i, l := range labels {
					ari[1+i] = metrics.AdjustedRand(ds.Labels, l)
				}
				found[1], found[2] = clusters[0], clusters[1]
				if cl.Clusters == 1 && ari[3] >= 0.5 {
					one++
				}
				for i := range sum {
					sum[i] += ari[i]
				}
				count++
				fmt.Fprintf(&table, "%2d %4d  %.3f (%2d cl)   %.3f (%2d cl)   %.3f (%2d cl)   %.3f\n",
					k, seed, ari[0], found[0], ari[1], found[1], ari[2], found[2], ari[3])
			}
		}
		c := float64(count)
		fmt.Fprintf(&table, "mean     %.3f          %.3f          %.3f          %.3f\n", sum[0]/c, sum[1]/c, sum[2]/c, sum[3]/c)
		fmt.Fprintf(&table, "svclust one cluster where k-means reaches ARI 0.5: %d\n", one)
		fmt.Print(table.String()) // b.Log would cut the table to its first lines
		b.ReportMetric(sum[0]/c, "mean-ARI")
	}
}

// peers returns the labels of the reference methods, each on its own
// z-scored copy of gen's data: exact HDBSCAN with MinPts 5 and 10 (noise
// given to the nearest clustered row, as the anchors do) and KMeans told
// the true k (10 runs, seed 1); and the clusters each HDBSCAN found.
func peers(tb testing.TB, gen func() *dataset.Dataset, k int) (labels [3][]int, clusters [2]int) {
	tb.Helper()
	for i, minPts := range []int{5, 10} {
		x := gen().X
		dataset.FitScaler(x, dataset.ScaleZScore).Transform(x)
		r, err := baseline.HDBSCAN(x, &baseline.HDBSCANConfig{MinPts: minPts})
		if err != nil {
			tb.Fatal(err)
		}
		labels[i], clusters[i] = r.NoiseToNearest(x), r.Clusters
	}
	x := gen().X
	dataset.FitScaler(x, dataset.ScaleZScore).Transform(x)
	km, err := baseline.KMeans(x, &baseline.KMeansConfig{K: k, Runs: 10, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	labels[2] = km.Labels
	return labels, clusters
}
