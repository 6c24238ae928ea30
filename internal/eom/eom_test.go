package eom

import (
	"slices"
	"testing"
)

// TestSelect checks the selection on small trees worked by hand.
func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		name      string
		parent    []int
		stability []float64
		want      []bool
	}{
		// Root 0 with children 1 and 2; 1 has children 3 and 4.
		// 3 + 4 = 7 > 5: the children of 1 are kept, and 2.
		{"children win", []int{-1, 0, 0, 1, 1}, []float64{9, 5, 1, 3, 4}, []bool{false, false, true, true, true}},
		// 1's stability 7 ties its children's 3 + 4: the parent is kept.
		{"tie keeps the parent", []int{-1, 0, 0, 1, 1}, []float64{9, 7, 1, 3, 4}, []bool{false, true, true, false, false}},
		// A leaf is kept whatever its stability, here −0 and a negative
		// rounding residue.
		{"leaves always", []int{-1, 0, 0}, []float64{1, -1e-17, 0}, []bool{false, true, true}},
		// Deeper: 1 ⊃ {3, 4}, 3 ⊃ {5, 6}; 5 + 6 = 10 > 3, and
		// 10 + 4 = 14 > 12: the leaves 5, 6 and 4 and then 2.
		{"deeper", []int{-1, 0, 0, 1, 1, 3, 3}, []float64{0, 12, 2, 3, 4, 6, 4}, []bool{false, false, true, false, true, true, true}},
		{"root alone", []int{-1}, []float64{3}, []bool{false}},
	} {
		if got := Select(tc.parent, tc.stability); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
