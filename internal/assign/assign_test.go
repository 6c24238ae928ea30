package assign

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/svclust/svclust/internal/kernel"
)

func TestTreeNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 2, 5, 40} {
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

// twoBumps is f for two Gaussians of weight 1.2 at x = ±3 (γ = 1): f is
// 1.2·(1 + e⁻³⁶) − 1 ≈ 0.2 at each centre (k = 1 plus e⁻³⁶ ≈ 2.3·10⁻¹⁶ from
// the other) and 2.4·e⁻⁹ − 1 ≈ −0.9997 midway between them.
func twoBumps() *kernel.Field {
	return &kernel.Field{SV: []float64{-3, 0, 3, 0}, Alpha: []float64{1.2, 1.2}, Gamma: 1, D: 2}
}

// link is LinkUntil without a stop, which must not report giving up.
func link(t *testing.T, f *kernel.Field, reps []float64, valid []bool, m, k, workers int) ([]int, int) {
	t.Helper()
	cl, n, ok := LinkUntil(f, reps, valid, m, k, workers, nil)
	if !ok {
		t.Fatal("LinkUntil with a nil stop returned ok = false")
	}
	return cl, n
}

func TestEquilibriumAndLink(t *testing.T) {
	f := twoBumps()
	// twoBumps' values; 1e-15 allows a few roundings of sums near 1
	// (ulp 2.2·10⁻¹⁶).
	if v := f.Value([]float64{-3, 0}); math.Abs(v-0.2) > 1e-15 {
		t.Errorf("f at a centre = %v, want 0.2", v)
	}
	if v, want := f.Value([]float64{0, 0}), 2.4*math.Exp(-9)-1; math.Abs(v-want) > 1e-15 {
		t.Errorf("f midway = %v, want %v", v, want)
	}
	x := []float64{-2.5, 0.3}
	if a := EquilibriumNear(f, x, NewScratch(f), 1e-9, 1000, nil, 0); a != -1 {
		t.Errorf("no anchors, yet anchor %d", a)
	}
	// The fixed point of a single bump is its centre; the other bump adds
	// e^{-γ·36} ≈ 2e-16 of pull, far below the 1e-6 checked here.
	if kernel.SqDist(x, []float64{-3, 0}) > 1e-12 {
		t.Errorf("equilibrium %v, want (-3, 0)", x)
	}
	reps := []float64{-3, 0, 3, 0, -2.95, 0}
	valid := []bool{true, true, true}
	cl, k := link(t, f, reps, valid, 20, 0, 2)
	if k != 2 || cl[0] != 0 || cl[1] != 1 || cl[2] != 0 {
		t.Errorf("clusters %v (k=%d), want [0 1 0] (k=2)", cl, k)
	}
	// An invalid equilibrium takes the cluster of the nearest valid one.
	cl, k = link(t, f, []float64{-3, 0, 3, 0, 2, 0}, []bool{true, true, false}, 20, 0, 1)
	if k != 2 || cl[2] != 1 {
		t.Errorf("clusters %v (k=%d), want the invalid point in cluster 1", cl, k)
	}
	// Nothing valid: one cluster.
	if cl, k = link(t, f, []float64{0, 0}, []bool{false}, 20, 0, 1); k != 1 || cl[0] != 0 {
		t.Errorf("no valid equilibrium: %v, %d", cl, k)
	}
}

func TestDistinct(t *testing.T) {
	pts := []float64{0, 0, 0.05, 0, 1, 1, 0.02, 0.01, 1.04, 1}
	reps := Distinct(pts, 2, 0.1)
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

// distinctBrute is the definition Distinct implements: a point becomes a
// representative unless one already made lies within tol.
func distinctBrute(pts []float64, d int, tol float64) []float64 {
	var reps []float64
	for i := 0; i < len(pts)/d; i++ {
		p := pts[i*d : i*d+d]
		found := false
		for r := 0; r < len(reps)/d && !found; r++ {
			found = kernel.SqDist(p, reps[r*d:r*d+d]) <= tol*tol
		}
		if !found {
			reps = append(reps, p...)
		}
	}
	return reps
}

// TestDistinctMatchesBruteForce checks Distinct against distinctBrute in both of its
// regimes: the linear scan (at most linearReps representatives) and the grid
// built beyond that, with points before and after the switch.
func TestDistinctMatchesBruteForce(t *testing.T) {
	check := func(pts []float64, d int, tol float64) int {
		t.Helper()
		got, want := Distinct(pts, d, tol), distinctBrute(pts, d, tol)
		if len(got) != len(want) {
			t.Fatalf("d=%d tol=%v: %d representatives, want %d", d, tol, len(got)/d, len(want)/d)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("d=%d tol=%v: representative %d differs", d, tol, i/d)
			}
		}
		return len(want) / d
	}
	rng := rand.New(rand.NewPCG(2, 2))
	var few, many bool // whether a case stayed linear, and one reached the grid
	for _, d := range []int{1, 2, 3, 5} {
		for _, tol := range []float64{0.05, 0.25, 1} {
			n := 2000
			pts := make([]float64, n*d)
			for i := range pts {
				// Points on a grid of step 0.05 put many pairs at
				// exactly tol or at multiples of it: the boundary cases
				// of the cell search.
				pts[i] = 0.05*float64(rng.IntN(40)) - 1
			}
			m := check(pts, d, tol)
			few = few || m <= linearReps
			many = many || m > linearReps
		}
	}
	if !few || !many {
		t.Errorf("cases cover the linear scan: %v, the grid: %v; want both", few, many)
	}
	// At the switch: m points on a line 1 apart with tol 0.5, all
	// representatives, then the m midpoints, each exactly tol from two of
	// them (0.5² = 0.25 exactly), which must join them whether found by the
	// linear scan (m ≤ linearReps) or by the grid built from all m, then
	// one point 0.6 past the last, which must not.
	for _, m := range []int{linearReps, linearReps + 1, linearReps + 2} {
		var pts []float64
		for i := 0; i < m; i++ {
			pts = append(pts, float64(i), 0)
		}
		for i := 0; i < m; i++ {
			pts = append(pts, float64(i)+0.5, 0)
		}
		pts = append(pts, float64(m-1)+0.6, 0)
		if got := check(pts, 2, 0.5); got != m+1 {
			t.Errorf("m=%d: %d representatives, want %d", m, got, m+1)
		}
	}
}

// TestLinkNearest: LinkUntil with k > 0 on a ridge of bumps xᵢ = −1, −0.75,
// …, 1 along y = 0 from A = (−1, 0) to B = (1, 0) and a lone bump at
// C = (0, 1.6), all of weight 1.5 (γ = 4). C is nearer to both A and B
// (distance √3.56 ≈ 1.89) than they are to each other (2), and f < 0
// between C and the ridge: at (−0.5, 0.8) the ridge contributes
// 1.5·e^{−4·0.64}·Σᵢ e^{−4(xᵢ+0.5)²} ≈ 0.116·3.419 ≈ 0.396 and C
// 1.5·e^{−4·0.89} ≈ 0.043, so f ≈ −0.561. The full test links A–B:
// clusters {A, B} and {C}. Testing only each equilibrium's nearest
// neighbour (k = 1) tests A–C and B–C, which fail, and never A–B, so A and
// B fall apart; k = 2 tests every pair again.
func TestLinkNearest(t *testing.T) {
	f := &kernel.Field{Gamma: 4, D: 2}
	for x := -1.0; x <= 1; x += 0.25 {
		f.SV = append(f.SV, x, 0)
		f.Alpha = append(f.Alpha, 1.5)
	}
	f.SV = append(f.SV, 0, 1.6)
	f.Alpha = append(f.Alpha, 1.5)
	// The value worked out above, to its last digit (0.0005).
	if v := f.Value([]float64{-0.5, 0.8}); math.Abs(v-(-0.561)) > 5e-4 {
		t.Fatalf("f(−0.5, 0.8) = %v, want −0.561", v)
	}
	reps := []float64{-1, 0, 1, 0, 0, 1.6}
	valid := []bool{true, true, true}
	for _, tc := range []struct {
		k    int
		want []int
	}{
		{0, []int{0, 0, 1}},
		{1, []int{0, 1, 2}},
		{2, []int{0, 0, 1}},
	} {
		got, n := link(t, f, reps, valid, 20, tc.k, 2)
		if !slices.Equal(got, tc.want) || n != slices.Max(tc.want)+1 {
			t.Errorf("k=%d: clusters %v (%d), want %v", tc.k, got, n, tc.want)
		}
	}
	// One worker gives the answer of two.
	if got, _ := link(t, f, reps, valid, 20, 0, 1); !slices.Equal(got, []int{0, 0, 1}) {
		t.Errorf("k=0, one worker: %v", got)
	}
}

func BenchmarkNearest(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, d := range []int{2, 9} {
		const n = 100_000
		pts := make([]float64, n*d)
		for i := range pts {
			pts[i] = rng.NormFloat64()
		}
		tree := NewTree(pts, d)
		q := make([]float64, d)
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			for b.Loop() {
				for j := range q {
					q[j] = rng.NormFloat64()
				}
				tree.Nearest(q)
			}
		})
	}
}

// TestLinkUntil: a stop that fires ends the tests with ok = false; one that
// never fires gives the answer of a nil stop.
func TestLinkUntil(t *testing.T) {
	f := twoBumps()
	reps := []float64{-3, 0, 3, 0, -2.95, 0}
	valid := []bool{true, true, true}
	if _, _, ok := LinkUntil(f, reps, valid, 20, 0, 1, func() bool { return true }); ok {
		t.Error("a stop that fires did not stop")
	}
	got, k, ok := LinkUntil(f, reps, valid, 20, 0, 2, func() bool { return false })
	want, wantK := link(t, f, reps, valid, 20, 0, 1)
	if !ok || k != wantK || !slices.Equal(got, want) {
		t.Errorf("LinkUntil = %v (%d, %v), want %v (%d)", got, k, ok, want, wantK)
	}
}

// BenchmarkDistinct groups n = 250 000 points scattered tightly (standard
// deviation 10⁻³ per coordinate) around M centres drawn uniformly in
// [0, 10)^d, with tol = 0.1: the shape of Cluster's equilibria, which
// converge to a few dozen points (M up to about 80 in practice). M = 16 and
// 48 stay within Distinct's linear scan; M = 80 and 1000 switch to its grid
// after linearReps representatives.
func BenchmarkDistinct(b *testing.B) {
	const n = 250_000
	for _, d := range []int{2, 9} {
		for _, m := range []int{16, 48, 80, 1000} {
			rng := rand.New(rand.NewPCG(4, uint64(d*10000+m)))
			centres := make([]float64, m*d)
			for i := range centres {
				centres[i] = 10 * rng.Float64()
			}
			pts := make([]float64, n*d)
			for i := 0; i < n; i++ {
				c := rng.IntN(m)
				for j := 0; j < d; j++ {
					pts[i*d+j] = centres[c*d+j] + 1e-3*rng.NormFloat64()
				}
			}
			b.Run(fmt.Sprintf("d=%d/M=%d", d, m), func(b *testing.B) {
				for b.Loop() {
					Distinct(pts, d, 0.1)
				}
			})
		}
	}
}

// TestSegmentIndex: for every m, k ↦ SegmentIndex(k, m) visits every index
// once, the middle first, the two ends last, and alternates sides.
func TestSegmentIndex(t *testing.T) {
	for m := 2; m <= 21; m++ {
		o := make([]int, m)
		for k := range m {
			o[k] = SegmentIndex(k, m)
		}
		s := slices.Sorted(slices.Values(o))
		for i := range s {
			if s[i] != i {
				t.Fatalf("m=%d: %v is not a permutation", m, o)
			}
		}
		mid := (m - 1) / 2
		if o[0] != mid {
			t.Errorf("m=%d: starts at %d", m, o[0])
		}
		if last := o[m-2:]; !(slices.Contains(last, 0) && slices.Contains(last, m-1)) {
			t.Errorf("m=%d: %v does not end with the ends", m, o)
		}
		for k := 1; k < m; k++ {
			if (o[k] > mid) != (k%2 == 1) {
				t.Errorf("m=%d: %v does not alternate right and left", m, o)
				break
			}
		}
	}
}

// TestSegmentMin: f(x) = 2e^(−‖x‖²) − 1 on the segment from (−1, 0) to
// (3, 0) with m = 5 points, at x₁ = −1, 0, 1, 2, 3: the smallest is at 3,
// 2e⁻⁹ − 1; with m = 2 only the ends are tested, the same. The exponentials
// are the kernel's (kernel.ExpNeg), which f sums.
func TestSegmentMin(t *testing.T) {
	f := &kernel.Field{SV: []float64{0, 0}, Alpha: []float64{2}, Gamma: 1, D: 2}
	buf := make([]float64, 2)
	for _, m := range []int{2, 5} {
		if got, want := SegmentMin(f.Value, []float64{-1, 0}, []float64{3, 0}, buf, m), 2*kernel.ExpNeg(9)-1; got != want {
			t.Errorf("m = %d: %v, want %v", m, got, want)
		}
	}
	// From (−1, 0) to (1, 0) the ends are the lowest points, 2e⁻¹ − 1.
	if got, want := SegmentMin(f.Value, []float64{-1, 0}, []float64{1, 0}, buf, 3), 2*kernel.ExpNeg(1)-1; got != want {
		t.Errorf("symmetric segment: %v, want %v", got, want)
	}
}

// TestEquilibriumEach: with a width per support vector, a trajectory ends
// where ∇f = 0. For svs 0 and 1 on the line, a = 1, γ = 1 and 4,
// f'(x) = −2x e^{−x²} − 8(x − 1)e^{−4(x−1)²}; from 0.9 the trajectory must
// end at a zero of f' (residual below 1e-6 of the terms' scale) in (0.5, 1):
// the narrow kernel's mode, drawn towards the wide one.
func TestEquilibriumEach(t *testing.T) {
	f := &kernel.Field{SV: []float64{0, 1}, Alpha: []float64{1, 1}, Gamma: 1, Gammas: []float64{1, 4}, D: 1}
	x := []float64{0.9}
	EquilibriumNear(f, x, NewScratch(f), 1e-10, 10000, nil, 0)
	d := -2*x[0]*math.Exp(-x[0]*x[0]) - 8*(x[0]-1)*math.Exp(-4*(x[0]-1)*(x[0]-1))
	if math.Abs(d) > 1e-6 || !(x[0] > 0.5 && x[0] < 1) {
		t.Errorf("equilibrium %v, f' = %v", x[0], d)
	}
	if v, want := f.Value([]float64{0.5}), math.Exp(-0.25)+math.Exp(-1)-1; math.Abs(v-want) > 1e-15 {
		t.Errorf("f(0.5) = %v, want %v", v, want)
	}
}

// TestEquilibriumNearFullPasses: trajectories that sum over the candidate
// lists between full passes (kernel.MeanShiftCutNear) end where the
// trajectories of full passes at every step end, to the bit, with one
// width and with a width per support vector, on a field of many bumps.
func TestEquilibriumNearFullPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 8))
	const n, d = 400, 2
	sv := make([]float64, n*d)
	for i := range sv {
		sv[i] = 6 * rng.Float64()
	}
	alpha, gammas := make([]float64, n), make([]float64, n)
	for i := range alpha {
		alpha[i] = 0.05 + rng.Float64()
		gammas[i] = 20 + 60*rng.Float64()
	}
	for _, each := range []bool{false, true} {
		f := &kernel.Field{SV: sv, Alpha: alpha, Gamma: 40, D: d}
		lnW := make([]float64, n)
		for i := range lnW {
			lnW[i] = math.Log(alpha[i])
		}
		if each {
			f.Gammas = gammas
			for i := range lnW {
				lnW[i] += math.Log(gammas[i])
			}
		}
		tol := StepTol * f.Scale()
		s := NewScratch(f)
		for k := range 60 {
			x := slices.Clone(sv[k*d : k*d+d])
			want := slices.Clone(x)
			EquilibriumNear(f, x, s, tol, MaxSteps, nil, 0)
			num, z := make([]float64, d), make([]float64, n)
			for range MaxSteps {
				var den float64
				if each {
					num, den = kernel.MeanShiftEachCutTo(num, z, want, sv, alpha, gammas, lnW)
				} else {
					num, den = kernel.MeanShiftCutTo(num, z, want, sv, alpha, lnW, f.Gamma)
				}
				var step float64
				for j, v := range num {
					nx := v / den
					step += (nx - want[j]) * (nx - want[j])
					want[j] = nx
				}
				if step <= tol*tol {
					break
				}
			}
			if !slices.Equal(x, want) {
				t.Fatalf("each=%v, trajectory %d: ends at %v, full passes at %v", each, k, x, want)
			}
		}
	}
}
