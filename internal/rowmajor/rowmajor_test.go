package rowmajor

import (
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
