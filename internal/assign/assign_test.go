package assign

import (
	"math/rand/v2"
	"testing"

	"github.com/svclust/svclust/internal/kernel"
)

func TestTreeNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 2, 5} {
		n := 500
		pts := make([]float64, n*d)
		for i := range pts {
			// Coarse grid values create exact ties, which must go to the
			// lowest index.
			pts[i] = float64(rng.IntN(8))
		}
		tree := NewTree(pts, d)
		q := make([]float64, d)
		for trial := 0; trial < 300; trial++ {
			for j := range q {
				q[j] = rng.Float64() * 8
				if trial%3 == 0 {
					q[j] = float64(rng.IntN(8)) // on the grid: ties at distance 0
				}
			}
			want, wantD := -1, 0.0
			for i := 0; i < n; i++ {
				if dd := kernel.SqDist(q, pts[i*d:i*d+d]); want < 0 || dd < wantD {
					want, wantD = i, dd
				}
			}
			if got, gotD := tree.Nearest(q); got != want || gotD != wantD {
				t.Fatalf("d=%d q=%v: Nearest = %d (%v), want %d (%v)", d, q, got, gotD, want, wantD)
			}
		}
	}
	if i, _ := NewTree(nil, 2).Nearest([]float64{0, 0}); i != -1 {
		t.Errorf("empty tree: %d", i)
	}
}

// twoBumps is f for two unit-weight Gaussians at x = ±3 (γ = 1): f is about
// 0 at each centre (k = 1 plus e⁻³⁶ from the other) and −1 between them.
func twoBumps() *Field {
	return &Field{SV: []float64{-3, 0, 3, 0}, Alpha: []float64{1.2, 1.2}, Gamma: 1, D: 2}
}

func TestEquilibriumAndLink(t *testing.T) {
	f := twoBumps()
	num := make([]float64, 2)
	x := []float64{-2.5, 0.3}
	f.Equilibrium(x, num, 1e-9, 1000)
	// The fixed point of a single bump is its centre; the other bump adds
	// e^{-γ·36} ≈ 2e-16 of pull, far below the 1e-6 checked here.
	if kernel.SqDist(x, []float64{-3, 0}) > 1e-12 {
		t.Errorf("equilibrium %v, want (-3, 0)", x)
	}
	reps := []float64{-3, 0, 3, 0, -2.95, 0}
	valid := []bool{true, true, true}
	cl, k := Link(f, reps, valid, 20, 2)
	if k != 2 || cl[0] != 0 || cl[1] != 1 || cl[2] != 0 {
		t.Errorf("clusters %v (k=%d), want [0 1 0] (k=2)", cl, k)
	}
	// An invalid equilibrium takes the cluster of the nearest valid one.
	cl, k = Link(f, []float64{-3, 0, 3, 0, 2, 0}, []bool{true, true, false}, 20, 1)
	if k != 2 || cl[2] != 1 {
		t.Errorf("clusters %v (k=%d), want the invalid point in cluster 1", cl, k)
	}
	// Nothing valid: one cluster.
	if cl, k = Link(f, []float64{0, 0}, []bool{false}, 20, 1); k != 1 || cl[0] != 0 {
		t.Errorf("no valid equilibrium: %v, %d", cl, k)
	}
}

func TestMerge(t *testing.T) {
	pts := []float64{0, 0, 0.05, 0, 1, 1, 0.02, 0.01, 1.04, 1}
	reps := Merge(pts, 2, 0.1)
	want := []float64{0, 0, 1, 1}
	if len(reps) != len(want) {
		t.Fatalf("reps %v, want %v", reps, want)
	}
	for i := range want {
		if reps[i] != want[i] {
			t.Fatalf("reps %v, want %v", reps, want)
		}
	}
}
