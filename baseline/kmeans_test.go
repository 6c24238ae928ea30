package baseline

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// generated returns the flat data and labels of a synthetic set.
func generated(t testing.TB, kind dataset.Kind, n int, seed uint64) ([]float64, []int) {
	t.Helper()
	ds, err := dataset.Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return ds.X.RawMatrix().Data, ds.Labels
}

func TestKMeansSeparableBlobs(t *testing.T) {
	// Gauss3 and Gauss4 are Gaussians with σ = 0.5 whose centres are 4
	// apart (8σ): the optimal k-means partition is the classes, and
	// k-means++ seeds one centre per blob with high probability, so the
	// labels must equal the classes up to permutation (ARI = 1).
	for _, tt := range []struct {
		kind dataset.Kind
		k    int
	}{{dataset.Gauss3, 3}, {dataset.Gauss4, 4}} {
		x, truth := generated(t, tt.kind, 400, 1)
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := KMeans(dense(x, 2), &KMeansConfig{K: tt.k, Seed: seed, Runs: 3})
			if err != nil {
				t.Fatal(err)
			}
			if ari := metrics.AdjustedRand(truth, res.Labels); ari != 1 || !res.Converged {
				t.Errorf("%s seed %d: ARI %v, converged %v", tt.kind, seed, ari, res.Converged)
			}
		}
	}
}

func TestKMeansHandMade(t *testing.T) {
	// Two pairs on a line: the only stable 2-partition puts each pair in
	// its own cluster, with centres the pair means 0.05 and 10.05 and
	// inertia 4·0.05² = 0.01.
	x := []float64{0, 10, 0.1, 10.1}
	res, err := KMeans(dense(x, 1), &KMeansConfig{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Labels[0] != res.Labels[2] || res.Labels[1] != res.Labels[3] || res.Labels[0] == res.Labels[1] {
		t.Fatalf("labels %v", res.Labels)
	}
	c := slices.Clone(res.Centres)
	slices.Sort(c)
	// (0 + 0.1)/2 is exactly 0.05 in floating point (halving is exact);
	// (10 + 10.1)/2 and the inertia 4·0.05² round the sum 20.1 and the
	// squares: within a few ulps of 10 (ulp 1.8e-15), so 1e-14.
	if c[0] != 0.05 || math.Abs(c[1]-10.05) > 1e-14 || math.Abs(res.Inertia-0.01) > 1e-14 {
		t.Errorf("centres %v, inertia %v; want [0.05 10.05], 0.01", res.Centres, res.Inertia)
	}
}

func TestKMeansWorkersAndErrors(t *testing.T) {
	x, _ := generated(t, dataset.Moons, 3000, 2)
	a, err := KMeans(dense(x, 2), &KMeansConfig{K: 5, Seed: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := KMeans(dense(x, 2), &KMeansConfig{K: 5, Seed: 4, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Centres, b.Centres) || a.Inertia != b.Inertia {
		t.Error("results depend on Workers")
	}
	var ce *svclust.ConfigError
	for _, cfg := range []*KMeansConfig{nil, {K: 0}, {K: 3001}, {K: 2, MaxIter: -1}, {K: 2, Runs: -1}, {K: 2, Workers: -1}} {
		if _, err := KMeans(dense(x, 2), cfg); !errors.As(err, &ce) {
			t.Errorf("%+v: %v, want a ConfigError", cfg, err)
		}
	}
	if _, err := KMeans(dense(nil, 2), &KMeansConfig{K: 1}); !errors.Is(err, svclust.ErrNoData) {
		t.Errorf("empty: %v", err)
	}
	// Duplicate rows: k = 2 over two distinct values, four copies each.
	dup := []float64{1, 1, 1, 1, 5, 5, 5, 5}
	res, err := KMeans(dense(dup, 1), &KMeansConfig{K: 2, Seed: 9})
	if err != nil || res.Inertia != 0 || res.Labels[0] == res.Labels[4] {
		t.Errorf("duplicates: %v, %+v", err, res)
	}
}

func TestFuzzyCMeansSeparableBlobs(t *testing.T) {
	// As for k-means: blobs 8σ apart, so the argmax memberships are the
	// classes (ARI = 1).
	for _, tt := range []struct {
		kind dataset.Kind
		k    int
	}{{dataset.Gauss3, 3}, {dataset.Gauss4, 4}} {
		x, truth := generated(t, tt.kind, 400, 1)
		res, err := FuzzyCMeans(dense(x, 2), &FCMConfig{K: tt.k, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ari := metrics.AdjustedRand(truth, res.Labels); ari != 1 || !res.Converged {
			t.Errorf("%s: ARI %v, converged %v after %d", tt.kind, ari, res.Converged, res.Iterations)
		}
		// Rows of U sum to 1 (to rounding of k terms) and lie in [0, 1].
		for i := 0; i < 400; i++ {
			var s float64
			for _, v := range res.Membership[i*tt.k : i*tt.k+tt.k] {
				if v < 0 || v > 1 {
					t.Fatalf("membership %v", v)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-12 {
				t.Fatalf("row %d sums to %v", i, s)
			}
		}
	}
}

func TestFuzzyCMeansFixedPoint(t *testing.T) {
	// Four points symmetric about 0, two at −1 ± 0.1 and two at 1 ± 0.1,
	// m = 2. By symmetry the centres are ±v. The membership update gives,
	// for a point at distance a from its centre and b from the other,
	// u = b²/(a² + b²); the centre update then fixes v. Iterating this
	// scalar map (below) gives the reference, independent of the code under
	// test's matrix form.
	x := []float64{-1.1, -0.9, 0.9, 1.1}
	res, err := FuzzyCMeans(dense(x, 1), &FCMConfig{K: 2, Seed: 1, Tol: 1e-14})
	if err != nil {
		t.Fatal(err)
	}
	v := 1.0
	for it := 0; it < 1000; it++ {
		var num, den float64
		for _, p := range []float64{0.9, 1.1} { // the right pair, centre +v
			a2, b2 := (p-v)*(p-v), (p+v)*(p+v)
			u := b2 / (a2 + b2)
			w := 1 - u // membership in the right cluster of the mirrored point −p
			num += u*u*p + w*w*(-p)
			den += u*u + w*w
		}
		v = num / den
	}
	c := slices.Clone(res.Centres)
	slices.Sort(c)
	// Both iterations converge linearly to the same fixed point; 1e-12
	// is far above the rounding of either and far below the 0.1 spread.
	if math.Abs(c[0]+v) > 1e-12 || math.Abs(c[1]-v) > 1e-12 {
		t.Errorf("centres %v, want ±%.15g", c, v)
	}
	if res.Labels[0] != res.Labels[1] || res.Labels[2] != res.Labels[3] || res.Labels[0] == res.Labels[2] {
		t.Errorf("labels %v", res.Labels)
	}
}

func TestFuzzyCMeansErrors(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	var ce *svclust.ConfigError
	for _, cfg := range []*FCMConfig{nil, {K: 5}, {K: 2, M: 1}, {K: 2, M: math.NaN()}, {K: 2, Tol: -1}, {K: 2, MaxIter: -1}} {
		if _, err := FuzzyCMeans(dense(x, 1), cfg); !errors.As(err, &ce) {
			t.Errorf("%+v: %v, want a ConfigError", cfg, err)
		}
	}
	if _, err := FuzzyCMeans(dense([]float64{math.Inf(1)}, 1), &FCMConfig{K: 1}); !errors.Is(err, svclust.ErrNotFinite) {
		t.Errorf("Inf: %v", err)
	}
}
