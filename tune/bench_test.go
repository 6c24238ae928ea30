package tune

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// BenchmarkTuneUnlabelled prints what tune without labels (the best point
// by DBCV over the default grid) gives beside plain fit (the automatic
// point of the same grid): ARI on the generated kinds (dataset.AllKinds:
// the four of the figures and the calibration shapes), data seeds 1–5,
// n = 1000, and NMI on the paper's 15 data sets ($SVCLUST_DATA, default
// ../shared/datasets; skipped when absent). One search per data set
// scores every point against the truth, which does not change the fits,
// so both picks come from the same fits. Run it with
//
//	go test -run '^$' -bench TuneUnlabelled -benchtime 1x ./tune
func BenchmarkTuneUnlabelled(b *testing.B) {
	for range b.N {
		var out strings.Builder
		fmt.Fprintf(&out, "\n%-16s %8s %8s  %s\n", "data", "fit", "tune", "grid (γ multiple: clusters, DBCV, index)")
		for _, kind := range dataset.AllKinds() {
			var sumF, sumT, minT float64 = 0, 0, 1
			for seed := uint64(1); seed <= 5; seed++ {
				ds, err := dataset.Generate(kind, 1000, seed)
				if err != nil {
					b.Fatal(err)
				}
				dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
				f, t, line := compare(b, ds, metrics.AdjustedRand)
				sumF += f
				sumT += t
				minT = min(minT, t)
				fmt.Fprintf(&out, "%-16s %8.3f %8.3f  %s\n", fmt.Sprintf("%s/%d", kind, seed), f, t, line)
			}
			fmt.Fprintf(&out, "%-16s %8.3f %8.3f  (mean ARI; tune's minimum %.3f)\n", kind, sumF/5, sumT/5, minT)
		}
		dir := os.Getenv("SVCLUST_DATA")
		if dir == "" {
			dir = filepath.Join("..", "..", "shared", "datasets")
		}
		var sumF, sumT float64
		count := 0
		for _, name := range []string{"aggregation", "compound", "d31", "flame", "iris", "breast_cancer", "abalone", "musk", "jain", "pathbased", "r15", "spiral", "shuttle", "glass", "car"} {
			ds, err := dataset.ReadFile(filepath.Join(dir, name+".csv"), dataset.ReadOptions{})
			if err != nil {
				fmt.Fprintf(&out, "the paper's data sets are not in %s: %v\n", dir, err)
				break
			}
			dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
			f, t, line := compare(b, ds, metrics.NMI)
			sumF += f
			sumT += t
			count++
			fmt.Fprintf(&out, "%-16s %8.3f %8.3f  %s\n", name, f, t, line)
		}
		if count > 0 {
			fmt.Fprintf(&out, "%-16s %8.3f %8.3f  (mean NMI over %d sets)\n", "shared", sumF/float64(count), sumT/float64(count), count)
		}
		fmt.Print(out.String()) // b.Log would cut the table to its first lines
	}
}

// benchRuns is the number of training seeds per grid point, so that the
// table shows the stability of each point.
const benchRuns = 3

// compare searches the default grid on ds and returns the index of the
// automatic point (plain fit), that of the point DBCV picks, and a line
// describing the grid.
func compare(b *testing.B, ds *dataset.Dataset, metric func(truth, pred []int) float64) (fit, tuned float64, line string) {
	s := &Search{Train: svclust.Config{Seed: 1}, Truth: ds.Labels, Metric: metric, Runs: benchRuns}
	r, err := s.Run(context.Background(), ds.X)
	if err != nil {
		b.Fatal(err)
	}
	var parts []string
	for _, p := range r.Points {
		if p.GammaValue.IsAuto() {
			fit = p.Index
		}
		parts = append(parts, fmt.Sprintf("%s: %d, %.2f, %.2f, %.2f", p.GammaValue, p.Clusters, p.DBCV, p.Index, p.Stability))
	}
	best := r.Points[pick(r.Points, false)]
	return fit, best.Index, strings.Join(parts, " | ")
}
