package tune

import (
	"math"
	"testing"
)

// TestBest checks the selection rule documented on Best: largest score among
// the ok indices, NaN skipped, ties to a preferred index, else the earliest.
func TestBest(t *testing.T) {
	nan := math.NaN()
	okAll := func(int) bool { return true }
	not := func(bad int) func(int) bool { return func(i int) bool { return i != bad } }
	is := func(want int) func(int) bool { return func(i int) bool { return i == want } }
	for _, tc := range []struct {
		name     string
		scores   []float64
		ok, pref func(int) bool
		want     int
	}{
		{"largest", []float64{0.1, 0.7, 0.3}, nil, nil, 1},
		{"empty", nil, nil, nil, -1},
		{"all NaN", []float64{nan, nan}, okAll, nil, -1},
		{"NaN skipped", []float64{nan, 0.2}, nil, nil, 1},
		{"failed skipped", []float64{0.9, 0.2}, not(0), nil, 1},
		{"all failed", []float64{0.9, 0.2}, func(int) bool { return false }, nil, -1},
		{"tie to earliest", []float64{0.5, 0.5, 0.5}, nil, nil, 0},
		{"tie to later preferred", []float64{0.5, 0.2, 0.5}, nil, is(2), 2},
		{"tie to earlier preferred", []float64{0.5, 0.5}, nil, is(0), 0},
		{"preferred not tied", []float64{0.5, 0.4}, nil, is(1), 0},
		{"preferred failed", []float64{0.5, 0.5}, not(1), is(1), 0},
		{"-Inf is a score", []float64{math.Inf(-1), nan}, nil, nil, 0},
	} {
		if got := Best(tc.scores, tc.ok, tc.pref); got != tc.want {
			t.Errorf("%s: Best(%v) = %d, want %d", tc.name, tc.scores, got, tc.want)
		}
	}
}
