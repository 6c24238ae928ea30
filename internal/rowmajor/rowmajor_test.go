package rowmajor

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOf: a compact *mat.Dense gives its own backing slice; a view of a
// wider matrix and a transpose give a copy with the same values row after
// row.
func TestOf(t *testing.T) {
	m := mat.NewDense(3, 4, []float64{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
	})
	data, r, c := Of(m)
	if r != 3 || c != 4 || &data[0] != &m.RawMatrix().Data[0] || len(data) != 12 {
		t.Errorf("compact: %d×%d, shared %v", r, c, &data[0] == &m.RawMatrix().Data[0])
	}
	view := m.Slice(1, 3, 1, 3)
	data, r, c = Of(view)
	if want := []float64{6, 7, 10, 11}; r != 2 || c != 2 || !equal(data, want) {
		t.Errorf("view: %d×%d %v, want 2×2 %v", r, c, data, want)
	}
	data, r, c = Of(m.Slice(0, 2, 0, 2).T())
	if want := []float64{1, 5, 2, 6}; r != 2 || c != 2 || !equal(data, want) {
		t.Errorf("transpose: %d×%d %v, want 2×2 %v", r, c, data, want)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestChecked: no values are errNone; the first NaN or Inf is errNaN with
// its row and column from 1; finite rows come back as Of gives them.
func TestChecked(t *testing.T) {
	none, nan := errors.New("none"), errors.New("nan")
	if _, _, _, err := Checked(nil, none, nan); err != none {
		t.Errorf("nil: %v", err)
	}
	if _, _, _, err := Checked(mat.NewDense(2, 2, []float64{1, 2, math.Inf(-1), 3}), none, nan); !errors.Is(err, nan) || err.Error() != "nan: row 2, column 1" {
		t.Errorf("Inf: %v", err)
	}
	data, r, c, err := Checked(mat.NewDense(1, 2, []float64{1, 2}), none, nan)
	if err != nil || r != 1 || c != 2 || data[1] != 2 {
		t.Errorf("finite: %v %d×%d %v", data, r, c, err)
	}
}
