package cluster_test

// The measurement harness of the rank-based links (issue 22,
// docs/high-dim.md, "Rank-based links"), skipped unless SVCLUST_LINKS is
// set:
//
//	SVCLUST_LINKS=1 SVCLUST_CALIB=DIR go test -run 'TestLinks(Probe|Kinds)' -v ./cluster
//
// TestLinksProbe prints, for each calibration set with d ≥ 4, the clusters
// of the defaults against the classes and the NMI of each variant of
// linkVariants; TestLinksKinds the mean ARI of each over the kinds of
// dataset.HighKinds. SVCLUST_SETS=a,b keeps those sets, SVCLUST_XT=1
// prints the level-tree variants' cross tables, SVCLUST_MINITER=T trains
// with Config.MinIter T, and SVCLUST_HIST=set prints the histogram of the
// first projected coordinate by class with f along it (TestLinksHist).

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// linkVariants returns, for the z-scored x and its default fit cl, the
// labels of each variant: base (the defaults), Lz-1 (the level tree
// without the ripple join), and for a projected model rowsMR5/10 (exact
// HDBSCAN with minPts 5 or 10 and the defaults' MinSize on every projected
// row, noise to the nearest clustered row) and svMR5/10 (HDBSCAN on the
// support vectors, minimum cluster 5, each row the cluster of its nearest
// support vector).
func linkVariants(t *testing.T, x *mat.Dense, cl *cluster.Result) map[string][]int {
	m := cl.Partition.Model()
	out := map[string][]int{"base": cl.Labels}
	if m.Subspace == nil {
		return out
	}
	for _, lv := range []struct {
		name string
		c    cluster.Levels
	}{{"z-1", cluster.Levels{RippleZ: -1}}} {
		r, err := cluster.Fit(m, x, &lv.c)
		if err != nil {
			t.Fatal(err)
		}
		out["L"+lv.name] = r.Labels
		if os.Getenv("SVCLUST_XT") != "" {
			t.Logf("   %s: eq %d rip %d %s", lv.name, r.Equilibria, r.Ripples, crosstab(truthOf, r.Labels))
		}
	}
	px := mat.DenseCopyOf(m.Project(x, 0))
	n, _ := px.Dims()
	ms := cl.MinSize
	for _, k := range []int{5, 10} {
		for _, mcs := range []int{ms} {
			r, err := baseline.HDBSCAN(px, &baseline.HDBSCANConfig{MinPts: k, MinClusterSize: mcs})
			if err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("rowsMR%d", k)] = r.NoiseToNearest(px)
		}
	}
	// HDBSCAN on the support vectors (kernel space), rows to the nearest SV.
	sv := m.SV
	b, q := sv.Dims()
	for _, k := range []int{5, 10} {
		for _, mcs := range []int{5} {
			r, err := baseline.HDBSCAN(sv, &baseline.HDBSCANConfig{MinPts: k, MinClusterSize: max(2, mcs)})
			if err != nil {
				t.Fatal(err)
			}
			svl := r.NoiseToNearest(sv)
			lab := make([]int, n)
			for i := range n {
				row := px.RawRowView(i)
				best, bd := 0, math.Inf(1)
				for j := range b {
					var s float64
					for c := range q {
						dd := row[c] - sv.At(j, c)
						s += dd * dd
					}
					if s < bd {
						best, bd = j, s
					}
				}
				lab[i] = svl[best]
			}
			out[fmt.Sprintf("svMR%d", k)] = lab
		}
	}
	return out
}

var truthOf []int

// crosstab returns the rows of each cluster of got by class of truth.
func crosstab(truth, got []int) string {
	type key struct{ a, b int }
	c := map[key]int{}
	size := map[int]int{}
	for i := range truth {
		c[key{got[i], truth[i]}]++
		size[got[i]]++
	}
	var ks []int
	for k := range size {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var sb strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&sb, " [%d:%d", k, size[k])
		var tl []int
		for kk := range c {
			if kk.a == k {
				tl = append(tl, kk.b)
			}
		}
		sort.Ints(tl)
		for _, l := range tl {
			fmt.Fprintf(&sb, " %d=%d", l, c[key{k, l}])
		}
		sb.WriteString("]")
	}
	return sb.String()
}

// nclus returns the number of distinct labels.
func nclus(l []int) int {
	s := map[int]bool{}
	for _, v := range l {
		s[v] = true
	}
	return len(s)
}

// TestLinksProbe prints the variants on the calibration sets with d ≥ 4.
func TestLinksProbe(t *testing.T) {
	if os.Getenv("SVCLUST_LINKS") == "" {
		t.Skip("set SVCLUST_LINKS=1")
	}
	dir := os.Getenv("SVCLUST_CALIB")
	only := os.Getenv("SVCLUST_SETS")
	sums := map[string]float64{}
	nsets := 0
	for _, name := range strings.Split("ecoli,g2mg_128_50,g2mg_16_50,g2mg_16_70,g2mg_4_50,h2mg_128_50,h2mg_16_50,h2mg_16_70,h2mg_4_50,sonar,yeast", ",") {
		if only != "" && !strings.Contains(","+only+",", ","+name+",") {
			continue
		}
		ds, err := dataset.ReadFile(filepath.Join(dir, name+".csv"), dataset.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cl := fitDefaults(t, ds.X, 1)
		if mi, _ := strconv.Atoi(os.Getenv("SVCLUST_MINITER")); mi != 0 {
			m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1, MinIter: mi})
			if err != nil {
				t.Fatal(err)
			}
			cl, err = cluster.Fit(m, ds.X, nil)
			if err != nil {
				t.Fatal(err)
			}
		}
		ch := cl.Partition.Model().Choice
		t.Logf("%s: q %d modes %d ripples %d clusters %d minsize %d  %s", name, ch.Q, cl.Equilibria, cl.Ripples, cl.Clusters, cl.MinSize, crosstab(ds.Labels, cl.Labels))
		truthOf = ds.Labels
		vs := linkVariants(t, ds.X, cl)
		nsets++
		var keys []string
		for k := range vs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			nmi := metrics.NMI(ds.Labels, vs[k])
			sums[k] += nmi
			t.Logf("   %-10s NMI %.3f  (%d)", k, nmi, nclus(vs[k]))
		}
	}
	for k, v := range sums {
		t.Logf("mean %-10s %.3f", k, v/float64(nsets))
	}
}

// TestLinksHist prints, for the calibration set $SVCLUST_HIST, the
// histogram of the first projected coordinate by class (c0, c1) and by
// the defaults' cluster (L0–L2), with f along that axis.
func TestLinksHist(t *testing.T) {
	name := os.Getenv("SVCLUST_HIST")
	if name == "" {
		t.Skip()
	}
	ds, err := dataset.ReadFile(filepath.Join(os.Getenv("SVCLUST_CALIB"), name+".csv"), dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cl := fitDefaults(t, ds.X, 1)
	m := cl.Partition.Model()
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
	// f along the axis
	for b := range nb {
		x := lo + (float64(b)+0.5)*(hi-lo)/nb
		y := make([]float64, m.KernelDim())
		y[0] = x
		t.Logf("%7.3f  c0 %4d c1 %4d | L0 %4d L1 %4d L2 %4d  f %.4f %s", x, h[b][0], h[b][1], lab[b][0], lab[b][1], lab[b][2], m.Decision(m.Subspace.Lift(nil, y)), strings.Repeat("#", (h[b][0]+h[b][1])/4))
	}
	t.Logf("gamma %.4g rho %.4g silverman %.4g", m.Gamma, m.Choice.Rho, m.Choice.Silverman)
}

// TestLinksKinds prints the mean ARI of each variant on the kinds of
// dataset.HighKinds (n = 1000, data seeds 1–5); a kind that is not
// projected has base only.
func TestLinksKinds(t *testing.T) {
	if os.Getenv("SVCLUST_LINKS") == "" {
		t.Skip("set SVCLUST_LINKS=1")
	}
	tot := map[string]float64{}
	kinds := highKinds()
	for _, kind := range kinds {
		sum := map[string]float64{}
		for seed := uint64(1); seed <= 5; seed++ {
			ds, err := dataset.GenerateHigh(kind, 1000, seed)
			if err != nil {
				t.Fatal(err)
			}
			cl := fitDefaults(t, ds.X, 1)
			for k, l := range linkVariants(t, ds.X, cl) {
				sum[k] += metrics.AdjustedRand(ds.Labels, l) / 5
			}
		}
		var keys []string
		for k := range sum {
			keys = append(keys, k)
			tot[k] += sum[k] / float64(len(kinds))
		}
		sort.Strings(keys)
		var sb strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&sb, " %s %.3f", k, sum[k])
		}
		t.Logf("%-5s%s", kind, sb.String())
	}
	t.Logf("mean %v", tot)
}
