package dataset

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitScalerEdgeCases checks FitScaler, which runs a ScaleFitter, on
// cases whose values follow from the definitions at FitScaler: a single
// row, a column whose spread is 0 (Shift its value, Mul 1) and one whose
// spread is so small that its reciprocal overflows (Mul 1); and that
// z-scores take two passes over the rows, the other scalings one.
func TestFitScalerEdgeCases(t *testing.T) {
	negZero := math.Copysign(0, -1)
	// Column 0 is 0, −0, 0: lo = −0 == hi = 0, so it is constant with
	// Shift lo. Column 1 spans 2e-320, whose reciprocal overflows, so Mul
	// is 1 and Shift the mean (z-score) or the minimum (min–max).
	tiny := mat.NewDense(3, 2, []float64{0, 1e-320, negZero, 2e-320, 0, 3e-320})
	for _, tc := range []struct {
		name  string
		x     *mat.Dense
		s     Scale
		shift []float64
	}{
		{"one row, z-score", mat.NewDense(1, 3, []float64{1, -2, 3}), ScaleZScore, []float64{1, -2, 3}},
		{"one row, min-max", mat.NewDense(1, 3, []float64{1, -2, 3}), ScaleMinMax, []float64{1, -2, 3}},
		{"tiny, z-score", tiny, ScaleZScore, []float64{negZero, 2e-320}},
		{"tiny, min-max", tiny, ScaleMinMax, []float64{negZero, 1e-320}},
		{"tiny, none", tiny, ScaleNone, []float64{0, 0}},
	} {
		sc := FitScaler(tc.x, tc.s)
		for j, want := range tc.shift {
			if math.Float64bits(sc.Shift[j]) != math.Float64bits(want) || sc.Mul[j] != 1 {
				t.Errorf("%s, column %d: shift %v mul %v, want %v and 1", tc.name, j, sc.Shift[j], sc.Mul[j], want)
			}
		}
	}
	// The number of passes a ScaleFitter asks for.
	for s, want := range map[Scale]int{ScaleNone: 1, ScaleZScore: 2, ScaleMinMax: 1} {
		f := NewScaleFitter(s, 1)
		passes := 1
		for {
			f.Add([]float64{1})
			f.Add([]float64{2})
			if !f.NextPass() {
				break
			}
			passes++
		}
		if passes != want {
			t.Errorf("%s: %d passes, want %d", s, passes, want)
		}
	}
}

func TestScaleFitterNoRows(t *testing.T) {
	f := NewScaleFitter(ScaleZScore, 2)
	if f.NextPass() {
		t.Error("NextPass with no rows asked for a second pass")
	}
	sc := f.Scaler()
	if sc.Shift[0] != 0 || sc.Mul[1] != 1 {
		t.Errorf("Scaler of no rows = %+v, want the identity", sc)
	}
}

func TestScaleFitterPanics(t *testing.T) {
	f := NewScaleFitter(ScaleZScore, 2)
	f.Add([]float64{1, 2})
	if !panics(func() { f.Scaler() }) {
		t.Error("Scaler before the second pass did not panic")
	}
	if !panics(func() { f.Add([]float64{1}) }) {
		t.Error("Add of a short row did not panic")
	}
	f.NextPass()
	if !panics(func() { f.Scaler() }) {
		t.Error("Scaler after an incomplete second pass did not panic")
	}
	if !panics(func() { NewScaleFitter(Scale(7), 1) }) {
		t.Error("NewScaleFitter(Scale(7)) did not panic")
	}
	if !panics(func() { f.Combine(NewScaleFitter(ScaleZScore, 2)) }) {
		t.Error("Combine in the second pass did not panic")
	}
	for _, o := range []*ScaleFitter{NewScaleFitter(ScaleMinMax, 2), NewScaleFitter(ScaleZScore, 3)} {
		if !panics(func() { NewScaleFitter(ScaleZScore, 2).Combine(o) }) {
			t.Errorf("Combine of %v, %d columns into zscore, 2 did not panic", o.scale, len(o.lo))
		}
	}
}

// TestCombineExact checks that the exact finish of fitters combined after
// their first pass is FitScaler's, to rounding of the sum: the combined
// fitter then reads every row for its further passes.
func TestCombineExact(t *testing.T) {
	x := mat.NewDense(6, 1, []float64{1, 4, 2, 8, 5, 7})
	a, b := NewScaleFitter(ScaleZScore, 1), NewScaleFitter(ScaleZScore, 1)
	for i := range 6 {
		[]*ScaleFitter{a, b}[i%2].Add(x.RawRowView(i))
	}
	a.Combine(b)
	for a.NextPass() {
		for i := range 6 {
			a.Add(x.RawRowView(i))
		}
	}
	// Small integers: every sum is exact, so the two agree bit for bit.
	if got, want := a.Scaler(), FitScaler(x, ScaleZScore); got.Shift[0] != want.Shift[0] || got.Mul[0] != want.Mul[0] {
		t.Errorf("combined %v, FitScaler %v", got, want)
	}
}
