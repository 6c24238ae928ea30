package cluster

import (
	"math"
	"math/rand/v2"
	"testing"
)

// saddleCase builds the rows, mode points and peaks of bimodalPath from
// rows labelled by mode: data holds the rows (2-D), mode[i] the mode of
// row i; each mode's point is the mean of its rows and its peak the
// number of its rows.
func saddleCase(data []float64, mode []int, modes int) (rows [][]int, reps, peak []float64) {
	rows = make([][]int, modes)
	reps = make([]float64, 2*modes)
	peak = make([]float64, modes)
	for i, m := range mode {
		rows[m] = append(rows[m], i)
		reps[2*m] += data[2*i]
		reps[2*m+1] += data[2*i+1]
		peak[m]++
	}
	for m := range modes {
		reps[2*m] /= peak[m]
		reps[2*m+1] /= peak[m]
	}
	return rows, reps, peak
}

// TestBimodalPath checks the saddle test on three layouts: two unit
// Gaussians 5 apart (two modes), one Gaussian cut in halves (one), and a
// thin half circle cut into two arcs of five modes each (one: the path
// follows the arc, where the straight line between the two arcs' means
// crosses the empty inside of the circle).
func TestBimodalPath(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var data []float64
	var mode []int
	for i := range 1000 {
		c := float64(i % 2 * 5)
		data = append(data, c+rnd.NormFloat64(), rnd.NormFloat64())
		mode = append(mode, i%2)
	}
	rows, reps, peak := saddleCase(data, mode, 2)
	if !bimodalPath([]int{0}, []int{1}, rows, data, reps, peak, 2) {
		t.Error("two Gaussians 5 apart: one mode")
	}

	data, mode = nil, nil
	for range 1000 {
		x := rnd.NormFloat64()
		data = append(data, x, rnd.NormFloat64())
		mode = append(mode, map[bool]int{true: 0, false: 1}[x < 0])
	}
	rows, reps, peak = saddleCase(data, mode, 2)
	if bimodalPath([]int{0}, []int{1}, rows, data, reps, peak, 2) {
		t.Error("one Gaussian cut in two: two modes")
	}

	data, mode = nil, nil
	for range 1000 {
		a := math.Pi * rnd.Float64()
		data = append(data, 3*math.Cos(a)+0.1*rnd.NormFloat64(), 3*math.Sin(a)+0.1*rnd.NormFloat64())
		mode = append(mode, min(9, int(a/math.Pi*10)))
	}
	rows, reps, peak = saddleCase(data, mode, 10)
	if bimodalPath([]int{0, 1, 2, 3, 4}, []int{5, 6, 7, 8, 9}, rows, data, reps, peak, 2) {
		t.Error("half circle cut into two arcs: two modes")
	}
}
