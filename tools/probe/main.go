// Command probe prints the research measurements behind the rank-based
// links and the subspace rule of docs/high-dim.md, which used to be tests
// that only logged (issue 37). It fits with the defaults (z-scores,
// training seed 1) and prints tables; it asserts nothing.
//
//	go run ./tools/probe -calib ../shared/calibration links  # d ≥ 4 sets: NMI of each grouping variant
//	go run ./tools/probe kinds                                # dataset.HighKinds: mean ARI of each variant
//	go run ./tools/probe -calib ../shared/calibration hist g2mg_128_50
//	go run ./tools/probe -calib ../shared/calibration space   # ρ_med/ρ, d̂ and q of every set and kind
//	go run ./tools/probe hdbscan FILE.csv ...                 # NMI of exact HDBSCAN-5 and -10 on z-scores
//
// The variants (links, kinds): base (the defaults), Lz-1 (the level tree
// without the ripple join), and for a projected model rowsMR5/10 (exact
// HDBSCAN with minPts 5 or 10 and the defaults' smallest cluster on every
// projected row, noise to the nearest clustered row) and svMR5/10 (HDBSCAN
// on the support vectors, each row the cluster of its nearest one).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// highSets are the calibration sets of at least 4 features.
var highSets = []string{"ecoli", "g2mg_128_50", "g2mg_16_50", "g2mg_16_70", "g2mg_4_50", "h2mg_128_50", "h2mg_16_50", "h2mg_16_70", "h2mg_4_50", "sonar", "yeast"}

func main() {
	calib := flag.String("calib", filepath.Join("..", "shared", "calibration"), "`directory` of the calibration sets")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: probe [-calib DIR] links | kinds | hist SET | space | hdbscan FILE...")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	var err error
	switch {
	case len(args) == 1 && args[0] == "links":
		err = links(*calib)
	case len(args) == 1 && args[0] == "kinds":
		err = kinds()
	case len(args) == 2 && args[0] == "hist":
		err = hist(*calib, args[1])
	case len(args) == 1 && args[0] == "space":
		err = space(*calib)
	case len(args) >= 2 && args[0] == "hdbscan":
		err = hdbscanFiles(args[1:])
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
}

// fit z-scores x in place and fits it with the defaults, training seed 1.
func fit(x *mat.Dense) (*cluster.Result, error) {
	dataset.FitScaler(x, dataset.ScaleZScore).Transform(x)
	m, err := svclust.Train(x, &svclust.Config{Seed: 1})
	if err != nil {
		return nil, err
	}
	return cluster.Fit(m, x, nil)
}

// readFit reads the set dir/name.csv and fits it (see fit).
func readFit(dir, name string) (*dataset.Dataset, *cluster.Result, error) {
	ds, err := dataset.ReadFile(filepath.Join(dir, name+".csv"), dataset.ReadOptions{})
	if err != nil {
		return nil, nil, err
	}
	cl, err := fit(ds.X)
	return ds, cl, err
}

// links prints the variants' NMI on the calibration sets of d ≥ 4.
func links(dir string) error {
	sums := map[string]float64{}
	for _, name := range highSets {
		ds, cl, err := readFit(dir, name)
		if err != nil {
			return err
		}
		ch := cl.Partition.Model().Choice
		fmt.Printf("%s: q %d modes %d ripples %d clusters %d minsize %d\n", name, ch.Q, cl.Equilibria, cl.Ripples, cl.Clusters, cl.MinSize)
		vs, err := variants(ds.X, cl)
		if err != nil {
			return err
		}
		for _, k := range sortedKeys(vs) {
			nmi := metrics.NMI(ds.Labels, vs[k])
			sums[k] += nmi
			fmt.Printf("   %-10s NMI %.3f  (%d clusters)\n", k, nmi, metrics.NumClusters(vs[k]))
		}
	}
	for _, k := range sortedKeys(sums) {
		fmt.Printf("mean %-10s %.3f\n", k, sums[k]/float64(len(highSets)))
	}
	return nil
}

// kinds prints the variants' mean ARI on dataset.HighKinds (n = 1000, data
// seeds 1–5).
func kinds() error {
	tot := map[string]float64{}
	ks := dataset.HighKinds()
	for _, kind := range ks {
		sum := map[string]float64{}
		for seed := uint64(1); seed <= 5; seed++ {
			ds, err := dataset.GenerateHigh(kind, 1000, seed)
			if err != nil {
				return err
			}
			cl, err := fit(ds.X)
			if err != nil {
				return err
			}
			vs, err := variants(ds.X, cl)
			if err != nil {
				return err
			}
			for k, l := range vs {
				sum[k] += metrics.AdjustedRand(ds.Labels, l) / 5
			}
		}
		var sb strings.Builder
		for _, k := range sortedKeys(sum) {
			fmt.Fprintf(&sb, " %s %.3f", k, sum[k])
			tot[k] += sum[k] / float64(len(ks))
		}
		fmt.Printf("%-5s%s\n", kind, sb.String())
	}
	for _, k := range sortedKeys(tot) {
		fmt.Printf("mean %-10s %.3f\n", k, tot[k])
	}
	return nil
}

// variants returns the labels of each grouping variant (see the package
// documentation) for the z-scored x and its default fit cl.
func variants(x *mat.Dense, cl *cluster.Result) (map[string][]int, error) {
	m := cl.Partition.Model()
	out := map[string][]int{"base": cl.Labels}
	if m.Subspace == nil {
		return out, nil
	}
	r, err := cluster.Fit(m, x, &cluster.Levels{RippleZ: -1})
	if err != nil {
		return nil, err
	}
	out["Lz-1"] = r.Labels
	px := mat.DenseCopyOf(m.Project(x, 0))
	n, _ := px.Dims()
	sv := m.SV
	for _, k := range []int{5, 10} {
		h, err := baseline.HDBSCAN(px, &baseline.HDBSCANConfig{MinPts: k, MinClusterSize: cl.MinSize})
		if err != nil {
			return nil, err
		}
		out[fmt.Sprintf("rowsMR%d", k)] = h.NoiseToNearest(px)
		hs, err := baseline.HDBSCAN(sv, &baseline.HDBSCANConfig{MinPts: k, MinClusterSize: 5})
		if err != nil {
			return nil, err
		}
		svl := hs.NoiseToNearest(sv)
		lab := make([]int, n)
		for i := range n {
			lab[i] = svl[nearest(px.RawRowView(i), sv)]
		}
		out[fmt.Sprintf("svMR%d", k)] = lab
	}
	return out, nil
}

// nearest returns the row of m nearest to x.
func nearest(x []float64, m *mat.Dense) int {
	b, _ := m.Dims()
	best, bd := 0, math.Inf(1)
	for j := range b {
		var s float64
		for c, v := range m.RawRowView(j) {
			s += (x[c] - v) * (x[c] - v)
		}
		if s < bd {
			best, bd = j, s
		}
	}
	return best
}

// hist prints, for the calibration set name, the histogram of the first
// projected coordinate by class (c0, c1) and by the defaults' cluster
// (L0–L2), with f along that axis.
func hist(dir, name string) error {
	ds, cl, err := readFit(dir, name)
	if err != nil {
		return err
	}
	m := cl.Partition.Model()
	if m.Subspace == nil {
		return fmt.Errorf("%s: the model has no subspace", name)
	}
	px := mat.DenseCopyOf(m.Project(ds.X, 0))
	n, _ := px.Dims()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		lo, hi = min(lo, px.At(i, 0)), max(hi, px.At(i, 0))
	}
	const nb = 40
	h := make([][3]int, nb)
	lab := make([][3]int, nb)
	for i := range n {
		b := min(nb-1, int((px.At(i, 0)-lo)/(hi-lo)*nb))
		h[b][ds.Labels[i]%3]++
		lab[b][cl.Labels[i]%3]++
	}
	for b := range nb {
		x := lo + (float64(b)+0.5)*(hi-lo)/nb
		y := make([]float64, m.KernelDim())
		y[0] = x
		fmt.Printf("%7.3f  c0 %4d c1 %4d | L0 %4d L1 %4d L2 %4d  f %.4f %s\n", x, h[b][0], h[b][1], lab[b][0], lab[b][1], lab[b][2],
			m.Decision(m.Subspace.Lift(nil, y)), strings.Repeat("#", (h[b][0]+h[b][1])/4))
	}
	fmt.Printf("gamma %.4g rho %.4g silverman %.4g\n", m.Gamma, m.Choice.Rho, m.Choice.Silverman)
	return nil
}

// space prints the statistics of the subspace rule (svclust.Choose) for
// every kind of dataset.HighKinds (data seeds 1–5) and every calibration
// set of at least 4 features.
func space(dir string) error {
	show := func(name string, ds *dataset.Dataset) error {
		dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
		_, d := ds.X.Dims()
		ch, err := svclust.Choose(ds.X, &svclust.Config{Seed: 1})
		if err != nil {
			return err
		}
		fmt.Printf("%-16s d=%4d  projected %-5v conc %.2f (max %.2f, at 2,000 rows %.2f) id %.1f q %d eig %.2f/%.2f edge %.2f silverman %.3f\n",
			name, d, ch.Projected, ch.Concentration, ch.ConcentrationMax, ch.ConcentrationScaled, ch.IntrinsicDim, ch.Q, ch.EigenKept, ch.EigenNext, ch.Edge, ch.Silverman)
		return nil
	}
	for _, k := range dataset.HighKinds() {
		for seed := uint64(1); seed <= 5; seed++ {
			ds, err := dataset.GenerateHigh(k, 1000, seed)
			if err != nil {
				return err
			}
			if err := show(fmt.Sprintf("%s/%d", k, seed), ds); err != nil {
				return err
			}
		}
	}
	for _, name := range highSets {
		ds, err := dataset.ReadFile(filepath.Join(dir, name+".csv"), dataset.ReadOptions{})
		if err != nil {
			return err
		}
		if err := show(name, ds); err != nil {
			return err
		}
	}
	return nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hdbscanFiles prints the NMI and the number of clusters of exact HDBSCAN
// with minPts 5 and 10 (the minimum cluster size minPts, noise its own
// class) on the z-scores of each labelled CSV file: the reference of the
// generated sets of tools/quality/subspace.py.
func hdbscanFiles(files []string) error {
	for _, f := range files {
		ds, err := dataset.ReadFile(f, dataset.ReadOptions{})
		if err != nil {
			return err
		}
		dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
		for _, k := range []int{5, 10} {
			r, err := baseline.HDBSCAN(ds.X, &baseline.HDBSCANConfig{MinPts: k})
			if err != nil {
				return err
			}
			fmt.Printf("%s\tHDBSCAN-%d\t%.4f\t%d\n", filepath.Base(f), k, metrics.Evaluate(ds.X, ds.Labels, r.Labels).NMI, r.Clusters)
		}
	}
	return nil
}
