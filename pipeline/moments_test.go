package pipeline

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
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
// merged in any order, give the scaling of dataset.FitScaler on the whole
// matrix, for each Scale. FitScaler's z-score takes two passes with a
// compensation term (as gonum's stat.MeanVariance); Welford and Chan's
// updates differ from it by rounding only: their relative error bound is
// about n·ε·κ with ε = 2⁻⁵³ and κ = √(1 + mean²/var) the condition
// number (Chan, Golub & LeVeque 1983, Table 1). With n = 10⁴ and κ ≤ 10⁴
// (column 3: offset 1e4, spread 1) that is ≤ 1e4·1e-16·1e4 = 1e-8; the
// tolerance is 1e-8 on Mul and, on Shift, 1e-12 (the mean is a sum,
// error n·ε).
func TestMomentsMatchFitScaler(t *testing.T) {
	const n = 10000
	offset := []float64{0, -3, 1e4, 5}
	scale := []float64{1, 1e-3, 1, 0} // column 4 is constant
	x := randomRows(n, offset, scale, 1)
	for _, s := range []dataset.Scale{dataset.ScaleNone, dataset.ScaleZScore, dataset.ScaleMinMax} {
		want := dataset.FitScaler(x, s)
		for trial := range 5 {
			rnd := rand.New(rand.NewPCG(uint64(trial), 3))
			parts := make([]*Moments, 1+rnd.IntN(6))
			for i := range parts {
				parts[i] = NewMoments(len(offset))
			}
			for i := range n {
				parts[rnd.IntN(len(parts))].Add(x.RawRowView(i))
			}
			m := NewMoments(len(offset))
			for _, p := range parts {
				m.Merge(p)
			}
			if m.N != n {
				t.Fatalf("N = %d, want %d", m.N, n)
			}
			got, err := m.Scaler(s)
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

// TestMomentsOffset checks numerical soundness where the textbook formula
// Σx²/n − mean² fails: values 1e9 + U(0, 1), whose variance 1/12 is
// 1e-19 of Σx²/n, below float64's resolution (2⁻⁵³ ≈ 1.1e-16). The
// expected variance is that of dataset.FitScaler (two passes); the
// tolerance 1e-6 is n·ε·κ² with κ² = 1 + 1e18·12 for Welford's update, a
// loose bound (Chan, Golub & LeVeque 1983) that the textbook formula misses
// by orders of magnitude.
func TestMomentsOffset(t *testing.T) {
	const n = 1000
	rnd := rand.New(rand.NewPCG(9, 9))
	x := mat.NewDense(n, 1, nil)
	a, b := NewMoments(1), NewMoments(1)
	for i := range n {
		v := 1e9 + rnd.Float64()
		x.Set(i, 0, v)
		if i < n/3 {
			a.Add([]float64{v})
		} else {
			b.Add([]float64{v})
		}
	}
	a.Merge(b)
	got, err := a.Scaler(dataset.ScaleZScore)
	if err != nil {
		t.Fatal(err)
	}
	want := dataset.FitScaler(x, dataset.ScaleZScore)
	if d := relDiff(got.Mul[0], want.Mul[0]); d > 1e-6 {
		t.Errorf("Mul = %v, FitScaler %v (rel. diff %.2g)", got.Mul[0], want.Mul[0], d)
	}
}

// TestMomentsEdges checks the conventions shared with dataset.FitScaler
// for constant columns and overflowing ranges, the error for a spread
// Moments cannot compute, and the errors for no rows and unknown scales.
func TestMomentsEdges(t *testing.T) {
	m := NewMoments(3)
	m.Add([]float64{2.5, -1e308, 1})
	m.Add([]float64{2.5, 1e308, 1 + 1e-200})
	sc, err := m.Scaler(dataset.ScaleMinMax)
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
	m3 := NewMoments(1)
	m3.Add([]float64{1})
	m3.Add([]float64{1 + 1e-15})
	m3.Add([]float64{0})
	if _, err := m3.Scaler(dataset.ScaleZScore); err != nil {
		t.Errorf("ordinary column: %v", err)
	}
	tiny := NewMoments(1)
	tiny.Add([]float64{0})
	tiny.Add([]float64{1e-200})
	var se *SpreadError
	if _, err := tiny.Scaler(dataset.ScaleZScore); !errors.As(err, &se) || !errors.Is(err, ErrSpread) || se.Column != 0 {
		t.Errorf("spread 5e-201: error %v, want a SpreadError of column 0", err)
	}
	if _, err := NewMoments(2).Scaler(dataset.ScaleZScore); err == nil {
		t.Error("no rows: no error")
	}
	if _, err := m.Scaler(dataset.Scale(99)); err == nil {
		t.Error("unknown scale: no error")
	}
}
