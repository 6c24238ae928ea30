package baseline

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// blob returns k points around centre c (2-D) at distance at most r: a
// regular k-gon of radius r plus the centre itself.
func blob(cx, cy, r float64, k int) []float64 {
	x := []float64{cx, cy}
	for i := 0; i < k-1; i++ {
		a := 2 * math.Pi * float64(i) / float64(k-1)
		x = append(x, cx+r*math.Cos(a), cy+r*math.Sin(a))
	}
	return x
}

func TestLabelCompleteGraphHandMade(t *testing.T) {
	// γ = 1 and blobs of radius 0.1: within a blob every kernel term
	// exp(−γ‖x − xᵢ‖²) is concave in x where 2γ‖x − xᵢ‖² < 1, which holds
	// on the whole convex hull of the blob (distances ≤ 0.2), so Σβk is
	// concave there, the domain Σβk ≥ ρ is convex on the hull and every
	// segment between two inside points stays inside: a blob is one
	// cluster. Between blobs 10 apart, the middle of a segment is ≥ 4.8
	// from every point, where Σβk ≤ e^{−23} while ρ, the value of Σβk on
	// the sphere, is about the mass of one blob (≥ 0.3): no edge crosses.
	a := blob(0, 0, 0.1, 6)
	b := blob(10, 0, 0.1, 6)
	tests := []struct {
		name     string
		x        []float64
		c        float64
		clusters int
		check    func(t *testing.T, s *SVDD, res *Labelling)
	}{
		{"one blob", a, 1, 1, nil},
		{"two blobs", append(slices.Clone(a), b...), 1, 2, func(t *testing.T, _ *SVDD, res *Labelling) {
			l := res.Labels
			for i := range l {
				if want := i / 6; l[i] != want {
					t.Errorf("labels %v, want six 0s then six 1s", l)
					return
				}
			}
		}},
		// A lone point at (3, 0) with C = 0.1: without the cap it would
		// get β = 1/3 like each blob (three far-apart groups of mass 1/3
		// minimise βᵀKβ ≈ Σ mass²), so it sits at the cap, β = C, with
		// R²(x) ≈ 1 − 2·0.1 + βᵀKβ, above R² ≈ 1 − 2·0.45 + βᵀKβ of the
		// blobs: a bounded support vector, outside. Its nearest inside
		// point is the blob at the origin (3 away, against 7).
		{"bounded SV takes nearest cluster", append(append(slices.Clone(a), b...), 3, 0), 0.1, 2, func(t *testing.T, s *SVDD, res *Labelling) {
			if l := res.Labels; l[12] != l[0] || l[0] == l[6] {
				t.Errorf("labels %v: the outlier (last) must join the first blob", l)
			}
			if out := s.Inside([]float64{3, 0}); s.Bounded != 1 || out || res.Inside != 12 {
				t.Errorf("%d bounded SVs, outlier inside %v, %d inside; want 1, false, 12", s.Bounded, out, res.Inside)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := TrainSVDD(dense(tt.x, 2), &SVDDConfig{Gamma: 1, C: tt.c, Tol: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.LabelCompleteGraph(dense(tt.x, s.D), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Clusters != tt.clusters {
				t.Errorf("%d clusters, want %d (labels %v)", res.Clusters, tt.clusters, res.Labels)
			}
			if tt.check != nil {
				tt.check(t, s, res)
			}
		})
	}
}

func TestLabelCompleteGraphWorkers(t *testing.T) {
	// Union–find skips pairs already connected, and which pairs are skipped
	// depends on timing; the components, and so the labels, must not.
	ds, err := dataset.Generate(dataset.Moons, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := ds.X.RawMatrix().Data
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 8, C: OutlierC(300, 0.02)})
	if err != nil {
		t.Fatal(err)
	}
	var first []int
	for _, w := range []int{1, 2, 4} {
		res, err := s.LabelCompleteGraph(dense(x, s.D), &GraphConfig{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res.Labels
			// γ = 8 resolves the two moons (gap ≈ 0.4, noise 0.08): the
			// labels must be the classes, bar the few bounded SVs (at most
			// 2% = 6 points) that take the nearest cluster.
			if ari := metrics.AdjustedRand(ds.Labels, res.Labels); ari < 0.9 {
				t.Errorf("ARI %.3f on moons, want ≥ 0.9 (%d clusters)", ari, res.Clusters)
			}
			continue
		}
		if !slices.Equal(first, res.Labels) {
			t.Fatalf("workers=%d: labels differ from workers=1", w)
		}
	}
}

func TestLabelCompleteGraphErrors(t *testing.T) {
	x := uniform(rand.New(rand.NewPCG(7, 7)), 400, 2, 3)
	s, err := TrainSVDD(dense(x, 2), &SVDDConfig{Gamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The clock is read before the first row of pairs, after the n
	// inside tests: a budget of 1ns has run out by then.
	if _, err := s.LabelCompleteGraph(dense(x, s.D), &GraphConfig{Timeout: time.Nanosecond}); !errors.Is(err, ErrExceeded) {
		t.Errorf("budget: %v, want ErrExceeded", err)
	}
	var ce *svclust.ConfigError
	for _, cfg := range []*GraphConfig{{M: 1}, {Timeout: -1}, {Workers: -1}} {
		if _, err := s.LabelCompleteGraph(dense(x, s.D), cfg); !errors.As(err, &ce) {
			t.Errorf("%+v: %v, want a ConfigError", cfg, err)
		}
	}
	if _, err := s.LabelCompleteGraph(dense(nil, s.D), nil); !errors.Is(err, svclust.ErrNoData) {
		t.Errorf("empty: %v", err)
	}
}
