package svclust

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/dataset"
)

// highDim returns the z-scored t32 kind of dataset.GenerateHigh (four
// Student-t clusters in 32 dimensions) with n rows.
func highDim(t testing.TB, n int) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.GenerateHigh("t32", n, 1)
	if err != nil {
		t.Fatal(err)
	}
	dataset.FitScaler(ds.X, dataset.ScaleZScore).Transform(ds.X)
	return ds
}

// TestSpaceLowDim: data of at most three features are never projected,
// and the subspace rule is not even measured, so that their models are
// those of the features (the rule's threshold is for d ≥ 4).
func TestSpaceLowDim(t *testing.T) {
	for _, kind := range []dataset.Kind{dataset.Moons, dataset.Gauss4, dataset.Nested} {
		ds, err := dataset.Generate(kind, 400, 1)
		if err != nil {
			t.Fatal(err)
		}
		// Three features: the third a copy of the first, nearly flat.
		_, d := ds.X.Dims()
		x := mat.NewDense(400, d+1, nil)
		for i := range 400 {
			r := x.RawRowView(i)
			copy(r, ds.X.RawRowView(i))
			r[d] = 1e-3 * r[0]
		}
		for _, x := range []*mat.Dense{ds.X, x} {
			m, err := Train(x, &Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if m.Subspace != nil || m.Choice.Projected || m.Choice.ConcentrationMax != 0 || m.Choice.IntrinsicDim != 0 {
				_, d := x.Dims()
				t.Errorf("%s, %d features: subspace rule applied: %+v", kind, d, m.Choice)
			}
		}
	}
}

// TestSpaceProjects: the t32 kind, whose distances concentrate (ρ_med/ρ
// about 1.7, TestSpaceStats), is projected onto a few orthonormal
// directions; a given γ or C, or auto.InputSpace, keeps the features. The
// projected model scores raw rows: Decision and Score agree.
func TestSpaceProjects(t *testing.T) {
	ds := highDim(t, 600)
	m, err := Train(ds.X, &Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ch := m.Choice
	if m.Subspace == nil || !ch.Projected || ch.Q < 1 || ch.Q > 8 || !(ch.Concentration < ch.ConcentrationMax) {
		t.Fatalf("not projected: %+v", ch)
	}
	// 600 rows: the ratio compared is the one scaled to 2,000 rows.
	if want := ch.Concentration * math.Pow(2000.0/600, 1.0/32); math.Abs(ch.ConcentrationScaled-want) > 1e-12*want || !(want < ch.ConcentrationMax) {
		t.Errorf("scaled concentration %v, want %v below %v", ch.ConcentrationScaled, want, ch.ConcentrationMax)
	}
	if d, q := m.Subspace.Dims(); d != 32 || q != ch.Q || m.Dim() != 32 || m.KernelDim() != q {
		t.Fatalf("dims: subspace %d→%d, model %d→%d, q %d", d, q, m.Dim(), m.KernelDim(), ch.Q)
	}
	// Orthonormal directions.
	var g mat.Dense
	g.Mul(m.Subspace.Basis, m.Subspace.Basis.T())
	if !mat.EqualApprox(&g, identity(ch.Q), 1e-12) {
		t.Errorf("basis not orthonormal: %v", mat.Formatted(&g))
	}
	// A support vector lifted to the data's space projects back onto
	// itself.
	svs := m.SupportVectors()
	if r, c := svs.Dims(); r != len(m.Alpha) || c != 32 {
		t.Fatalf("SupportVectors: %d×%d", r, c)
	}
	for i := range len(m.Alpha) {
		back := m.Subspace.Apply(nil, svs.RawRowView(i))
		for k, v := range m.SV.RawRowView(i) {
			if math.Abs(back[k]-v) > 1e-12*(1+math.Abs(v)) {
				t.Fatalf("support vector %d: lifted and projected %v, want %v", i, back, m.SV.RawRowView(i))
			}
		}
	}
	score := m.Score(nil, ds.X, 2)
	for i := range 600 {
		if f := m.Decision(ds.X.RawRowView(i)); math.Abs(f-score[i]) > 1e-12*(1+math.Abs(f)) {
			t.Fatalf("row %d: Decision %v, Score %v", i, f, score[i])
		}
	}
	for _, cfg := range []*Config{{Seed: 1, Gamma: m.Gamma}, {Seed: 1, C: 100}, {Seed: 1, Space: auto.InputSpace}} {
		m, err := Train(ds.X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subspace != nil || m.Choice.Projected || m.KernelDim() != 32 {
			t.Errorf("%+v: projected", cfg)
		}
	}
}

// TestAutoMinIter: with γ and C automatic, training checks the stopping
// rule from 4 steps a row within [DefaultMinIter, MaxAutoMinIter]: sets of
// at most 2,500 rows keep the default, larger ones train longer, up to the
// cap; a given γ keeps DefaultMinIter.
func TestAutoMinIter(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	for _, c := range []struct{ n, want int }{{100, DefaultMinIter}, {2500, DefaultMinIter}, {2800, 11200}, {5000, MaxAutoMinIter}, {1e6, MaxAutoMinIter}} {
		if got := autoMinIter(c.n); got != c.want {
			t.Errorf("autoMinIter(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	ds, err := dataset.Generate(dataset.Moons, 3000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []*Config{{Seed: 1}, {Seed: 1, Gamma: 8}, {Seed: 1, MinIter: 500}} {
		m, err := Train(ds.X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if cfg.Gamma == 0 && cfg.MinIter == 0 {
			want = MaxAutoMinIter
		}
		if m.Choice.MinIter != want || want > 0 && m.Stats.Iterations < want {
			t.Errorf("%+v: auto.Choice.MinIter %d after %d steps, want %d", cfg, m.Choice.MinIter, m.Stats.Iterations, want)
		}
	}
}

// identity returns the n × n identity matrix.
func identity(n int) mat.Matrix {
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	return mat.NewDiagDense(n, ones)
}
