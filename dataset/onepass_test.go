package dataset

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomRows returns n rows of d values: column j is offset[j] plus
// scale[j] times a standard normal draw.
func randomRows(n int, offset, scale []float64, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n, len(offset), nil)
	for i := range n {
		for j := range offset {
			x.Set(i, j, offset[j]+scale[j]*rnd.NormFloat64())
		}
	}
	return x
}

func relDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// TestMomentsMatchFitScaler checks that Moments built in random pieces,
// merged in any order, give the scaling of FitScaler on the whole
// matrix, for each Scale. FitScaler's z-score takes two passes with a
// compensation term (as gonum's stat.MeanVariance); Welford and Chan's
// updates differ from it by rounding only: their relative error bound is
// about n·ε·κ with ε = 2⁻⁵³ and κ = √(1 + mean²/var) the condition
// number (Chan, Golub & LeVeque 1983, Table 1). With n = 10⁴ and κ ≤ 10⁴
// (column 3: offset 1e4, spread 1) that is ≤ 1e4·1e-16·1e4 = 1e-8; the
// tolerance is 1e-8 on Mul and, on Shift, 1e-12 (the mean is a sum,
// error n·ε).
func TestOnePassMatchesFitScaler(t *testing.T) {
	const n = 10000
	offset := []float64{0, -3, 1e4, 5}
	scale := []float64{1, 1e-3, 1, 0} // column 4 is constant
	x := randomRows(n, offset, scale, 1)
	for _, s := range []Scale{ScaleNone, ScaleZScore, ScaleMinMax} {
		want := FitScaler(x, s)
		for trial := range 5 {
			rnd := rand.New(rand.NewPCG(uint64(trial), 3))
			parts := make([]*ScaleFitter, 1+rnd.IntN(6))
			for i := range parts {
				parts[i] = NewScaleFitter(s, len(offset))
			}
			for i := range n {
				parts[rnd.IntN(len(parts))].Add(x.RawRowView(i))
			}
			m := NewScaleFitter(s, len(offset))
			for _, p := range parts {
				m.Combine(p)
			}
			if m.Rows() != n {
				t.Fatalf("Rows() = %d, want %d", m.Rows(), n)
			}
			got, err := m.OnePassScaler()
			if err != nil {
				t.Fatal(err)
			}
			for j := range offset {
				if d := relDiff(got.Shift[j], want.Shift[j]); d > 1e-12 {
					t.Errorf("%v, %d parts: Shift[%d] = %v, FitScaler %v (rel. diff %.2g)", s, len(parts), j, got.Shift[j], want.Shift[j], d)
				}
				if d := relDiff(got.Mul[j], want.Mul[j]); d > 1e-8 {
					t.Errorf("%v, %d parts: Mul[%d] = %v, FitScaler %v (rel. diff %.2g)", s, len(parts), j, got.Mul[j], want.Mul[j], d)
				}
			}
		}
	}
}

// TestOnePassOffset checks numerical soundness where the textbook formula
// Σx²/n − mean² fails: values 1e9 + U(0, 1), whose variance 1/12 is
// 1e-19 of Σx²/n, below float64's resolution (2⁻⁵³ ≈ 1.1e-16). The
// expected variance is that of FitScaler (two passes); the
// tolerance 1e-6 is n·ε·κ² with κ² = 1 + 1e18·12 for Welford's update, a
// loose bound (Chan, Golub & LeVeque 1983) that the textbook formula misses
// by orders of magnitude.
func TestOnePassOffset(t *testing.T) {
	const n = 1000
	rnd := rand.New(rand.NewPCG(9, 9))
	x := mat.NewDense(n, 1, nil)
	a, b := NewScaleFitter(ScaleZScore, 1), NewScaleFitter(ScaleZScore, 1)
	for i := range n {
		v := 1e9 + rnd.Float64()
		x.Set(i, 0, v)
		if i < n/3 {
			a.Add([]float64{v})
		} else {
			b.Add([]float64{v})
		}
	}
	a.Combine(b)
	got, err := a.OnePassScaler()
	if err != nil {
		t.Fatal(err)
	}
	want := FitScaler(x, ScaleZScore)
	if d := relDiff(got.Mul[0], want.Mul[0]); d > 1e-6 {
		t.Errorf("Mul = %v, FitScaler %v (rel. diff %.2g)", got.Mul[0], want.Mul[0], d)
	}
}

// TestOnePassEdges checks the conventions shared with FitScaler for
// constant columns and overflowing ranges, the error for a spread one pass
// cannot compute, and the error for no rows.
func TestOnePassEdges(t *testing.T) {
	m := NewScaleFitter(ScaleMinMax, 3)
	m.Add([]float64{2.5, -1e308, 1})
	m.Add([]float64{2.5, 1e308, 1 + 1e-200})
	sc, err := m.OnePassScaler()
	if err != nil {
		t.Fatal(err)
	}
	if sc.Shift[0] != 2.5 || sc.Mul[0] != 1 {
		t.Errorf("constant column: Shift %v Mul %v, want 2.5 and 1", sc.Shift[0], sc.Mul[0])
	}
	if !math.IsNaN(sc.Mul[1]) {
		t.Errorf("range beyond MaxFloat64: Mul %v, want NaN", sc.Mul[1])
	}
	if j, _ := sc.Overflow([]float64{2.5, 0, 1}); j != 1 {
		t.Errorf("Overflow reports column %d, want 1", j)
	}
	// Column 3's spread, 5e-201, squares to 0 in float64.
	m3 := NewScaleFitter(ScaleZScore, 1)
	m3.Add([]float64{1})
	m3.Add([]float64{1 + 1e-15})
	m3.Add([]float64{0})
	if _, err := m3.OnePassScaler(); err != nil {
		t.Errorf("ordinary column: %v", err)
	}
	tiny := NewScaleFitter(ScaleZScore, 1)
	tiny.Add([]float64{0})
	tiny.Add([]float64{1e-200})
	var se *SpreadError
	if _, err := tiny.OnePassScaler(); !errors.As(err, &se) || !errors.Is(err, ErrSpread) || se.Column != 0 {
		t.Errorf("spread 5e-201: error %v, want a SpreadError of column 0", err)
	}
	if _, err := NewScaleFitter(ScaleZScore, 2).OnePassScaler(); err == nil {
		t.Error("no rows: no error")
	}
}

// TestOnePassPinned pins both finishes, bit for bit, to what
// pipeline.Moments (split 3 + 4, merged) and FitScaler gave at commit
// 56f66a2, before one type did both: the Beam pipeline's scaling and the
// CLI's must not change. The column 1e9 + small values shows how far the
// finishes differ: Mul in the 7th digit.
func TestOnePassPinned(t *testing.T) {
	x := mat.NewDense(7, 2, []float64{1e9 + 0.1, 3, 1e9 + 0.7, 3, 1e9 + 0.2, 3, 1e9 + 0.9, 3, 1e9 + 0.3, 3, 1e9 + 0.05, 3, 1e9 + 0.6, 3})
	a, b := NewScaleFitter(ScaleZScore, 2), NewScaleFitter(ScaleZScore, 2)
	for i := range 7 {
		if i < 3 {
			a.Add(x.RawRowView(i))
		} else {
			b.Add(x.RawRowView(i))
		}
	}
	a.Combine(b)
	one, err := a.OnePassScaler()
	if err != nil {
		t.Fatal(err)
	}
	exact := FitScaler(x, ScaleZScore)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"one pass Shift", one.Shift[0], math.Float64frombits(0x41cdcd6500341d42)},
		{"one pass Mul", one.Mul[0], math.Float64frombits(0x400a69d02a21bf48)},
		{"exact Shift", exact.Shift[0], math.Float64frombits(0x41cdcd6500341d42)},
		{"exact Mul", exact.Mul[0], math.Float64frombits(0x400a69d00ca7313f)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if one.Shift[1] != 3 || one.Mul[1] != 1 || exact.Shift[1] != 3 || exact.Mul[1] != 1 {
		t.Errorf("constant column: %v %v and %v %v, want 3 1", one.Shift[1], one.Mul[1], exact.Shift[1], exact.Mul[1])
	}
}
