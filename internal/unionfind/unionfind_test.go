package unionfind

import "testing"

// TestFind: joins by hand, {0, 1, 2} with 2 under 1 under 0 and {3}, 4
// alone; Find returns each set's root and halves the path from 2.
func TestFind(t *testing.T) {
	u := New(5)
	u[1] = 0
	u[2] = 1
	for i, want := range []int{0, 0, 0, 3, 4} {
		if got := u.Find(i); got != want {
			t.Errorf("Find(%d) = %d, want %d", i, got, want)
		}
	}
	// Path halving set 2's parent to its grandparent, 0.
	if u[2] != 0 {
		t.Errorf("after Find(2), parent of 2 is %d, want 0", u[2])
	}
}
