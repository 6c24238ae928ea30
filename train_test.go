package svclust

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/kernel"
)

// generated returns a z-scored generated data set.
func generated(t testing.TB, kind dataset.Kind, n int) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.Generate(kind, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds
}

var strategies = []struct {
	name string
	m    Maintainer
}{
	{"removal", Removal{}},
	{"project-knn", Projection{}},
	{"project-random", Projection{K: 3, Pick: Random}},
	{"merge", Merge{}},
}

// snapshot is w = Σ αᵢ φ(svᵢ) held independently of the trainer.
type snapshot struct {
	sv    []float64
	alpha []float64
}

func (tr *trainer) snapshot() snapshot {
	s := snapshot{sv: append([]float64(nil), tr.s.x...), alpha: make([]float64, len(tr.s.a))}
	for i, a := range tr.s.a {
		s.alpha[i] = a / float64(tr.t)
	}
	return s
}

// inner returns ⟨w₁, w₂⟩ in feature space by direct kernel sums.
func inner(a, b snapshot, d int, gamma float64) float64 {
	var s float64
	for i, ai := range a.alpha {
		s += ai * kernel.Sum(a.sv[i*d:i*d+d], b.sv, b.alpha, gamma)
	}
	return s
}

// TestStepInvariants checks after every SGD step, for each strategy, that
// the support set is within the budget and that the incrementally computed
// ‖w_{t+1} − wₜ‖ of the stopping rule equals a direct computation in
// feature space.
func TestStepInvariants(t *testing.T) {
	ds := generated(t, dataset.Moons, 200)
	const budget = 10
	for _, st := range strategies {
		t.Run(st.name, func(t *testing.T) {
			var prev snapshot
			steps, checked, created := 0, 0, 0
			hook := func(tr *trainer) {
				steps++
				if slices.Contains(tr.s.id, -1) {
					created++ // a strategy added a vector (SupportSet.Add)
				}
				if tr.s.Len() > budget {
					t.Fatalf("step %d: %d support vectors, budget %d", tr.t, tr.s.Len(), budget)
				}
				cur := tr.snapshot()
				if tr.t > 1 {
					d, g := tr.d, tr.cfg.Gamma
					want := inner(cur, cur, d, g) + inner(prev, prev, d, g) - 2*inner(cur, prev, d, g)
					// The direct form cancels terms of size ‖w‖² ≈ C²·O(1):
					// allow 1e-9 of that, far below θ² = 1e-4.
					if math.Abs(tr.diff2-want) > 1e-9*(1+inner(cur, cur, d, g)) {
						t.Fatalf("step %d: ‖Δw‖² = %v, direct %v", tr.t, tr.diff2, want)
					}
					checked++
				}
				prev = cur
			}
			ctx := withTestHooks(context.Background(), testHooks{step: hook})
			m, err := TrainContext(ctx, ds.X, &Config{Gamma: 2, C: 8, Budget: budget, Maintainer: st.m, Tol: -1, MaxIter: 3000, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if steps != 3000 || checked != 2999 || m.Status != IterationLimit {
				t.Errorf("steps = %d, checked = %d, status %v", steps, checked, m.Status)
			}
			if m.Stats.Maintenance == 0 {
				t.Errorf("budget maintenance never ran")
			}
			if _, ok := st.m.(Merge); ok && created == 0 {
				t.Errorf("no merged support vector was ever checked")
			}
			if len(m.Alpha) > budget {
				t.Errorf("%d support vectors > budget %d", len(m.Alpha), budget)
			}
		})
	}
}

// dualOptimum maximises the dual of the paper's problem (Section 2),
// max Σβᵢ − ½βᵀKβ subject to 0 ≤ βᵢ ≤ C/N, by exact coordinate ascent, and
// returns the optimal value, which equals min J by strong duality, with the
// primal value J(Σβᵢφ(xᵢ)) at the final β as a certificate.
func dualOptimum(x []float64, n, d int, gamma, c float64) (dual, primal float64) {
	k := make([]float64, n*n)
	for i := 0; i < n; i++ {
		kernel.RowTo(k[i*n:i*n+n], x[i*d:i*d+d], x, gamma)
	}
	beta := make([]float64, n)
	g := make([]float64, n) // Kβ
	ub := c / float64(n)
	for sweep := 0; sweep < 20000; sweep++ {
		moved := 0.0
		for i := 0; i < n; i++ {
			// ∂/∂βᵢ = 1 − (Kβ)ᵢ and Kᵢᵢ = 1.
			nb := math.Min(ub, math.Max(0, beta[i]+1-g[i]))
			if delta := nb - beta[i]; delta != 0 {
				for j := 0; j < n; j++ {
					g[j] += delta * k[i*n+j]
				}
				beta[i] = nb
				moved = math.Max(moved, math.Abs(delta))
			}
		}
		if moved < 1e-15 {
			break
		}
	}
	var sb, ww, hinge float64
	for i := range beta {
		sb += beta[i]
		ww += beta[i] * g[i]
		hinge += math.Max(0, 1-g[i])
	}
	return sb - ww/2, ww/2 + c/float64(n)*hinge
}

// TestUnbudgetedReachesDualOptimum is the check of the solver: SGD
// without a budget, run long with the stopping rule off, must come within
// 2 % of the exact optimum J* of the same problem.
func TestUnbudgetedReachesDualOptimum(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 60)
	data := ds.X.RawMatrix().Data
	const gamma, c = 1.0, 8.0
	dual, primal := dualOptimum(data, 60, 2, gamma, c)
	// Duality gap of the certificate: coordinate ascent to 1e-15 moves must
	// close it to rounding (1e-9 relative is generous for n = 60).
	if primal-dual > 1e-9*math.Abs(dual) {
		t.Fatalf("reference not optimal: primal %v, dual %v", primal, dual)
	}
	m, err := Train(ds.X, &Config{Gamma: gamma, C: c, Tol: -1, MaxIter: 400000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	j := m.Stats.Objective
	t.Logf("J(SGD) = %.6f, J* = %.6f, ratio %.5f", j, dual, j/dual)
	if j < dual*(1-1e-9) {
		t.Errorf("J(SGD) = %v below the optimum %v: the objective is wrong", j, dual)
	}
	// The criterion is 2 % above J*; this seeded run reaches
	// 1.00002 (the README's "0.002 %"), which a bound of 1e-4 guards (it
	// implies the 2 %).
	if j > (1+1e-4)*dual {
		t.Errorf("J(SGD)/J* = %v, above the 1 + 1e-4 this run reached", j/dual)
	}
}

func TestTrainDeterministic(t *testing.T) {
	ds := generated(t, dataset.Moons, 300)
	for _, st := range strategies {
		cfg := Config{Budget: 20, Maintainer: st.m, Seed: 7, MaxIter: 2000, Tol: -1}
		a, err := Train(ds.X, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Workers = 1
		b, _ := Train(ds.X, &cfg)
		if !mat.Equal(a.SV, b.SV) || !slices.Equal(a.Alpha, b.Alpha) || a.Stats.Objective != b.Stats.Objective {
			t.Errorf("%s: models differ between runs with the same seed", st.name)
		}
		cfg.Seed = 8
		c, _ := Train(ds.X, &cfg)
		if mat.Equal(a.SV, c.SV) && slices.Equal(a.Alpha, c.Alpha) {
			t.Errorf("%s: seeds 7 and 8 gave the same model", st.name)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		field string
	}{
		{Config{Gamma: -1}, "Gamma"},
		{Config{Gamma: math.NaN()}, "Gamma"},
		{Config{Gamma: math.Inf(1)}, "Gamma"},
		{Config{C: -2}, "C"},
		{Config{Budget: -2}, "Budget"},
		{Config{Tol: math.NaN()}, "Tol"},
		{Config{MaxIter: -5}, "MaxIter"},
		{Config{Workers: -1}, "Workers"},
		{Config{Maintainer: Projection{K: -1}}, "Maintainer.K"},
		{Config{Budget: 4, Maintainer: Projection{K: 5}}, "Maintainer.K"},
		{Config{Budget: 4, Maintainer: &Projection{K: 5}}, "Maintainer.K"}, // a pointer is checked too
	} {
		err := tc.cfg.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%+v: got %v, want a ConfigError for %s", tc.cfg, err, tc.field)
		}
		if _, err := Train(mat.NewDense(1, 1, []float64{0}), &tc.cfg); !errors.As(err, &ce) {
			t.Errorf("Train(%+v) = %v, want the same ConfigError", tc.cfg, err)
		}
	}
	for _, ok := range []Config{{}, {Budget: 4, Maintainer: Projection{}}, {Budget: 5, Maintainer: Projection{K: 5}}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

func TestTrainBadData(t *testing.T) {
	if _, err := Train(mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 2}), nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN: got %v", err)
	}
	if _, err := Train(mat.NewDense(1, 2, []float64{math.Inf(1), 2}), nil); !errors.Is(err, ErrNotFinite) {
		t.Errorf("Inf: got %v", err)
	}
	if _, err := Train(nil, nil); !errors.Is(err, ErrNoData) {
		t.Errorf("nil: got %v", err)
	}
}

// TestSolveSPD checks the projection's linear solve against a system with
// a known solution, and that the projection residual is orthogonal to the
// span it projects on (the defining property in the paper's Section 3.3.2).
func TestSolveSPD(t *testing.T) {
	// G = [[4,2],[2,3]], x = [1,−1] ⇒ b = Gx = [2,−1].
	g := []float64{4, 0, 2, 3} // lower triangle is read
	b := []float64{2, -1}
	if !solveSPD(g, b, make([]float64, 4), 2) {
		t.Fatal("factorisation failed")
	}
	// The jitter 1e-10 perturbs the solution by about 1e-10·‖G⁻¹‖ ≈ 1e-10.
	if math.Abs(b[0]-1) > 1e-9 || math.Abs(b[1]+1) > 1e-9 {
		t.Errorf("x = %v, want [1 -1]", b)
	}

	ds := generated(t, dataset.Gauss3, 40)
	s := cachedSet(2, 0.5, ds.X.RawMatrix().Data[:20], []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	Projection{K: 4}.Maintain(s)
	if len(s.removed) != 1 || s.removed[0] != 0 {
		t.Fatalf("removed %v, want [0] (smallest coefficient)", s.removed)
	}
	// Residual r = φ₀ − Σ dⱼφⱼ with dⱼ = (new aⱼ − old aⱼ)/a₀ must satisfy
	// ⟨r, φⱼ⟩ = 0 for the chosen j.
	old := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	var chosen []int
	for k, i := range s.touched {
		if i != 0 && s.a[i] != s.before[k] {
			chosen = append(chosen, i)
		}
	}
	if len(chosen) != 4 {
		t.Fatalf("projected onto %v, want 4 support vectors", chosen)
	}
	for _, j := range chosen {
		r := s.Kernel(0, j)
		for _, i := range chosen {
			r -= (s.a[i] - old[i]) / old[0] * s.Kernel(i, j)
		}
		// Orthogonality up to the jitter's effect (≈1e-10) on a unit Gram.
		if math.Abs(r) > 1e-8 {
			t.Errorf("⟨r, φ_%d⟩ = %v, want 0", j, r)
		}
	}
}

// TestNearest compares the k-nearest selection of Projection with the
// definition it implements: a stable sort of the other slots by distance.
// Coordinates on a coarse grid make equal distances common.
func TestNearest(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(30)
		x := make([]float64, 2*n)
		for i := range x {
			x[i] = float64(rng.IntN(4))
		}
		s := cachedSet(2, 1, x, make([]float64, n))
		q := rng.IntN(n)
		k := 1 + rng.IntN(n-1)
		var want []int
		for i := 0; i < n; i++ {
			if i != q {
				want = append(want, i)
			}
		}
		sort.SliceStable(want, func(a, b int) bool { return s.SqDist(q, want[a]) < s.SqDist(q, want[b]) })
		if got := nearest(s, q, k); !slices.Equal(got, want[:k]) {
			t.Fatalf("n=%d q=%d k=%d: nearest = %v, want %v", n, q, k, got, want[:k])
		}
	}
}

// TestHugeBudget: a budget of n or more is never reached, so it trains
// the model of the budget n; issue 13 found a budget of 10⁹ failing with
// "makeslice: len out of range" and one of 10⁵ exhausting memory, since
// the distance cache of (B+2)² values was allocated up front.
func TestHugeBudget(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss3, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := ds.X.Dims()
	train := func(b int) *Model {
		m, err := Train(ds.X, &Config{Budget: b, Seed: 4, Maintainer: Removal{}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := train(n)
	for _, b := range []int{n + 1, 1 << 20, 1_000_000_000} {
		got := train(b)
		if !mat.Equal(got.SV, want.SV) || !slices.Equal(got.Alpha, want.Alpha) {
			t.Errorf("budget %d: model differs from that of budget n = %d", b, n)
		}
	}
}

// TestAutoBudgetChecksK: Validate cannot check Projection.K against a budget
// chosen from the data, so Train does once it is chosen: on 60 rows the
// automatic budget is at most 60, so K = 61 must fail with a ConfigError for
// Maintainer.K, and K = 5 must train.
func TestAutoBudgetChecksK(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 60)
	_, err := Train(ds.X, &Config{Maintainer: Projection{K: 61}})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != "Maintainer.K" {
		t.Errorf("K = 61 with an automatic budget over 60 rows: got %v, want a ConfigError for Maintainer.K", err)
	}
	if _, err := Train(ds.X, &Config{Maintainer: Projection{K: 5}}); err != nil {
		t.Errorf("K = 5: %v", err)
	}
}

// TestObjectiveSampled: above objectiveRows the hinge loss of J is the mean
// over a seeded sample, an unbiased estimate; on 3,000 rows sampled by 500
// it must lie within 4 standard errors of the exact J, the standard error
// being C·σ/√500·√(1 − 500/3000) for the population standard deviation σ
// of the hinge losses (sampling without replacement).
func TestObjectiveSampled(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 3000)
	m, err := TrainContext(withTestHooks(context.Background(), testHooks{objectiveRows: 500}), ds.X, &Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Stats.ObjectiveRows != 500 {
		t.Fatalf("objective on %d rows, want 500", m.Stats.ObjectiveRows)
	}
	data := ds.X.RawMatrix().Data
	exact := m.objective(data, 2, 1)
	var sum, sum2 float64
	for i := range 3000 {
		h := max(0, -m.Decision(data[2*i:2*i+2]))
		sum += h
		sum2 += h * h
	}
	mean := sum / 3000
	sd := math.Sqrt(sum2/3000 - mean*mean)
	se := m.C * sd / math.Sqrt(500) * math.Sqrt(1-500.0/3000)
	if d := math.Abs(m.Stats.Objective - exact); !(d <= 4*se) || se == 0 {
		t.Errorf("sampled J %v, exact %v: off by %v, more than 4 standard errors (%v)", m.Stats.Objective, exact, d, se)
	}
}

// TestObjectiveTerms: J computed through the index of the support vectors
// (kernel.Terms, the terms within kernel.CutOff of the largest) is J of the
// full sums within the bound of the dropped terms and of the rounding of
// sums in another order: each expansion v moves by at most
// B·(e⁻⁴⁰ + 2⁻⁵²)·v, so J by at most that factor times
// ½Σᵢ αᵢvᵢ + (C/N)Σᵢ vᵢ.
func TestObjectiveTerms(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 1000)
	m, err := Train(ds.X, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	data, sv := ds.X.RawMatrix().Data, m.svData()
	if kernel.NewTerms(sv, 2, m.Alpha, m.Gamma) == nil {
		t.Fatal("no index of the support vectors: the test would not exercise it")
	}
	b := float64(len(m.Alpha))
	var hinge, ww, scale float64
	for i := range 1000 {
		v := kernel.Sum(data[2*i:2*i+2], sv, m.Alpha, m.Gamma)
		hinge += max(0, 1-v)
		scale += m.C / 1000 * v
	}
	for i, a := range m.Alpha {
		v := kernel.Sum(sv[2*i:2*i+2], sv, m.Alpha, m.Gamma)
		ww += a * v
		scale += 0.5 * a * v
	}
	full := 0.5*ww + m.C/1000*hinge
	bound := b * (math.Exp(-kernel.CutOff) + 0x1p-52) * scale
	if got := m.objective(data, 2, 2); math.Abs(got-full) > bound {
		t.Errorf("J = %v through the index, %v by full sums: off by %v, more than %v", got, full, math.Abs(got-full), bound)
	}
}
