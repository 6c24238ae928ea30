package dataset

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fitStreaming runs a ScaleFitter over the rows of x, as many passes as it
// asks for, and returns its Scaler and the number of passes.
func fitStreaming(x *mat.Dense, s Scale) (*Scaler, int) {
	r, c := x.Dims()
	f := NewScaleFitter(s, c)
	passes := 1
	for {
		for i := range r {
			f.Add(x.RawRowView(i))
		}
		if !f.NextPass() {
			break
		}
		passes++
	}
	return f.Scaler(), passes
}

// TestScaleFitterMatchesFitScaler checks that the streaming fit is bit for
// bit FitScaler's: the same sums in the same order, so no tolerance.
func TestScaleFitterMatchesFitScaler(t *testing.T) {
	tiny := mat.NewDense(3, 2, []float64{0, 1e-320, math.Copysign(0, -1), 2e-320, 0, 3e-320})
	for _, tc := range []struct {
		name string
		x    *mat.Dense
	}{
		{"offsets and a constant column", scaleData()},
		{"one row", mat.NewDense(1, 3, []float64{1, -2, 3})},
		{"signed zeros and a subnormal spread", tiny},
	} {
		for _, s := range []Scale{ScaleNone, ScaleZScore, ScaleMinMax} {
			want := FitScaler(tc.x, s)
			got, passes := fitStreaming(tc.x, s)
			if wantPasses := map[Scale]int{ScaleNone: 1, ScaleZScore: 2, ScaleMinMax: 1}[s]; passes != wantPasses {
				t.Errorf("%s, %s: %d passes, want %d", tc.name, s, passes, wantPasses)
			}
			for j := range want.Shift {
				if math.Float64bits(got.Shift[j]) != math.Float64bits(want.Shift[j]) ||
					math.Float64bits(got.Mul[j]) != math.Float64bits(want.Mul[j]) {
					t.Errorf("%s, %s, column %d: shift %v mul %v, FitScaler %v %v",
						tc.name, s, j, got.Shift[j], got.Mul[j], want.Shift[j], want.Mul[j])
				}
			}
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
}
