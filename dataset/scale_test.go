package dataset

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

func TestParseScale(t *testing.T) {
	for _, s := range []Scale{ScaleNone, ScaleZScore, ScaleMinMax} {
		got, err := ParseScale(s.String())
		if err != nil || got != s {
			t.Errorf("ParseScale(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
	}
	if got, err := ParseScale("ZScore"); err != nil || got != ScaleZScore {
		t.Errorf("ParseScale(ZScore) = %v, %v", got, err)
	}
	_, err := ParseScale("std")
	if err == nil || err.Error() != `dataset: unknown scale "std" (valid: none, zscore, minmax)` {
		t.Errorf("ParseScale(std) error = %v", err)
	}
	if s := Scale(7).String(); s != "Scale(7)" {
		t.Errorf("Scale(7).String() = %q", s)
	}
}

// scaleData returns a 200×3 matrix whose columns have different locations
// and spreads, and whose last column is constant.
func scaleData() *mat.Dense {
	rnd := rand.New(rand.NewPCG(1, 1))
	const rows = 200
	x := mat.NewDense(rows, 3, nil)
	for i := range rows {
		// 0.1 is not exact in binary, so the computed mean of the
		// constant column differs from 0.1.
		x.SetRow(i, []float64{1e6 + 3*rnd.NormFloat64(), -5 + 0.01*rnd.ExpFloat64(), 0.1})
	}
	return x
}

func TestFitScaler(t *testing.T) {
	// Tolerance for sums of 200 rounded terms of order 1.
	const tol = 1e-9
	for _, tc := range []struct {
		scale Scale
		check func(t *testing.T, j int, col []float64)
	}{
		{ScaleNone, func(t *testing.T, j int, col []float64) {
			x := scaleData()
			if !mat.Equal(mat.NewVecDense(len(col), col), x.ColView(j)) {
				t.Errorf("column %d changed", j)
			}
		}},
		{ScaleZScore, func(t *testing.T, j int, col []float64) {
			var mean, ss float64
			for _, v := range col {
				mean += v
			}
			mean /= float64(len(col))
			for _, v := range col {
				ss += (v - mean) * (v - mean)
			}
			std := math.Sqrt(ss / float64(len(col)))
			wantStd := 1.0
			if j == 2 {
				wantStd = 0
			}
			if !scalar.EqualWithinAbs(mean, 0, tol) || !scalar.EqualWithinAbs(std, wantStd, tol) {
				t.Errorf("column %d: mean %g std %g, want 0 and %g", j, mean, std, wantStd)
			}
		}},
		{ScaleMinMax, func(t *testing.T, j int, col []float64) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range col {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			wantHi := 1.0
			if j == 2 {
				wantHi = 0
			}
			// The minimum maps to exactly 0; the maximum to 1 up to rounding.
			if lo != 0 || !scalar.EqualWithinAbs(hi, wantHi, tol) || hi > 1 {
				t.Errorf("column %d: range [%g, %g], want [0, %g]", j, lo, hi, wantHi)
			}
		}},
	} {
		t.Run(tc.scale.String(), func(t *testing.T) {
			x := scaleData()
			s := FitScaler(x, tc.scale)
			s.Transform(x)
			r, c := x.Dims()
			for j := range c {
				col := mat.Col(nil, j, x)
				for i, v := range col {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("x[%d,%d] = %v", i, j, v)
					}
				}
				tc.check(t, j, col)
			}
			if tc.scale != ScaleNone {
				for i := range r {
					if v := x.At(i, 2); v != 0 {
						t.Fatalf("constant column: x[%d,2] = %v, want 0", i, v)
					}
				}
			}
		})
	}
}

func TestScalerTransformRow(t *testing.T) {
	x := scaleData()
	s := FitScaler(x, ScaleZScore)
	row := mat.Row(nil, 5, x)
	got := s.TransformRow(nil, row)
	s.Transform(x)
	// Same computation on the same inputs, so equal exactly.
	if !mat.Equal(mat.NewVecDense(3, got), x.RowView(5)) {
		t.Errorf("TransformRow = %v, Transform gives %v", got, x.RawRowView(5))
	}
	// In place.
	if s.TransformRow(row, row); !mat.Equal(mat.NewVecDense(3, row), x.RowView(5)) {
		t.Errorf("in place TransformRow = %v, want %v", row, x.RawRowView(5))
	}
	if n := testing.AllocsPerRun(10, func() { s.TransformRow(row, row) }); n != 0 {
		t.Errorf("TransformRow with dst allocates %v times", n)
	}

	for name, f := range map[string]func(){
		"short row":  func() { s.TransformRow(nil, []float64{1, 2}) },
		"short dst":  func() { s.TransformRow(make([]float64, 2), row) },
		"wrong cols": func() { s.Transform(mat.NewDense(2, 2, nil)) },
		"bad scale":  func() { FitScaler(x, Scale(9)) },
	} {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}

func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

// TestScalerOverflow checks that finite data whose scaled values overflow,
// or grow beyond MaxScaled, are found, with the column at fault.
func TestScalerOverflow(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Scale
		rows [][]float64
		row  int // first row that overflows, or -1
		col  int
	}{
		// max − min = 3.4e308 overflows: Mul is 1/Inf = 0 or 1, and
		// (x − min)·Mul is Inf or NaN.
		{"minmax of ±1.7e308", ScaleMinMax, [][]float64{{1, 1.7e308}, {2, -1.7e308}, {3, 0}}, 0, 1},
		// The mean of 1e308, 1e308, 1e308, 1e307 overflows in its sum.
		{"zscore of 1e308", ScaleZScore, [][]float64{{1e308, 1}, {1e308, 2}, {1e308, 3}, {1e307, 4}}, 0, 0},
		// Unscaled values of 1e200 square to infinity.
		{"none of 1e200", ScaleNone, [][]float64{{1, 2}, {3, -1e200}}, 1, 1},
		// The variance of ±1e160 overflows when computed directly
		// (Mul was 0, which made the column 0 without a word); a third
		// pass computes it in units of 1e160.
		{"zscore of ±1e160", ScaleZScore, [][]float64{{1, 1e160}, {2, -1e160}, {3, 1}}, -1, 0},
		{"none of 1e150", ScaleNone, [][]float64{{1, 1e150}, {3, -1e150}}, -1, 0},
		{"zscore of 1e300", ScaleZScore, [][]float64{{1e300, 1}, {-1e300, 2}, {5e299, 3}}, -1, 0},
		// The mean of 1.7e308 and 1.7e308 overflows in its sum.
		{"zscore of 1.7e308", ScaleZScore, [][]float64{{1.7e308, 1}, {1.7e308, 2}, {1, 3}}, 0, 0},
		{"minmax of 1e300", ScaleMinMax, [][]float64{{1e300, 1}, {-1e300, 2}, {5e299, 3}}, -1, 0},
	} {
		var data []float64
		for _, r := range tc.rows {
			data = append(data, r...)
		}
		x := mat.NewDense(len(tc.rows), 2, data)
		sc := FitScaler(x, tc.s)
		row, col := -1, 0
		for i, r := range tc.rows {
			if j, _ := sc.Overflow(r); j >= 0 {
				row, col = i, j
				break
			}
		}
		if row != tc.row || col != tc.col {
			t.Errorf("%s: first overflow at row %d column %d, want %d and %d", tc.name, row, col, tc.row, tc.col)
		}
	}
}

// TestFitScalerExtremeSpreads checks that z-scores reach mean 0 and
// standard deviation 1, their definition, for columns whose variance
// underflows (spread 1e-200) or overflows (spread 1e160 and 1e300) float64
// when computed directly, and that ordinary columns take no third pass.
func TestFitScalerExtremeSpreads(t *testing.T) {
	for _, tc := range []struct {
		name   string
		col    []float64
		passes int
	}{
		{"ordinary", []float64{1, -2, 3.5, 0}, 2},
		{"1e-200", []float64{1e-200, -2e-200, 3.5e-200, 0}, 3},
		{"1e160", []float64{1e160, -2e160, 3.5e160, 0}, 3},
		{"1e300", []float64{1e300, -2e300, 3.5e300, 1}, 3},
	} {
		f := NewScaleFitter(ScaleZScore, 1)
		passes := 1
		for {
			for _, v := range tc.col {
				f.Add([]float64{v})
			}
			if !f.NextPass() {
				break
			}
			passes++
		}
		sc := f.Scaler()
		var sum, ss float64
		for _, v := range tc.col {
			u := sc.TransformRow(nil, []float64{v})[0]
			sum += u
			ss += u * u
		}
		n := float64(len(tc.col))
		mean, sd := sum/n, math.Sqrt(ss/n-(sum/n)*(sum/n))
		if passes != tc.passes || math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("%s: %d passes, scaled mean %v and sd %v; want %d passes, 0 and 1", tc.name, passes, mean, sd, tc.passes)
		}
	}
}
