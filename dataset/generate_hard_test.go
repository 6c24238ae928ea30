package dataset

import (
	"math"
	"testing"
)

// TestGenerateHard checks what each hard kind's godoc promises: the class
// sizes, the radii of BallShell, the centres of Touching and the noise's
// share and square, and that an unknown kind and n < 1 are errors.
func TestGenerateHard(t *testing.T) {
	const n = 2000
	for _, kind := range HardKinds() {
		ds, err := GenerateHard(kind, n, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, d := ds.X.Dims()
		if r != n || len(ds.Labels) != n {
			t.Fatalf("%s: %d rows, %d labels; want %d", kind, r, len(ds.Labels), n)
		}
		count := make([]int, len(ds.Classes))
		mean := make([][]float64, len(ds.Classes))
		for k := range mean {
			mean[k] = make([]float64, d)
		}
		for i, k := range ds.Labels {
			count[k]++
			var r2 float64
			for j := range d {
				v := ds.X.At(i, j)
				mean[k][j] += v
				r2 += v * v
			}
			switch {
			case kind == BallShell && k == 0 && r2 > 1+1e-9,
				kind == BallShell && k == 1 && (r2 < 2.25-1e-9 || r2 > 4+1e-9):
				t.Fatalf("ballshell: class %d at radius %v", k, math.Sqrt(r2))
			case kind != BallShell && kind != Touching && k == 4 && (math.Abs(ds.X.At(i, 0)) > 8 || math.Abs(ds.X.At(i, 1)) > 8):
				t.Fatalf("%s: noise outside [−8, 8]²", kind)
			}
		}
		for k := range mean {
			for j := range mean[k] {
				mean[k][j] /= float64(count[k])
			}
		}
		switch kind {
		case BallShell, Touching:
			if count[0] != n/2 || count[1] != n/2 {
				t.Errorf("%s: classes %v, want %d each", kind, count, n/2)
			}
			if kind == Touching && (math.Hypot(mean[0][0], mean[0][1]) > 0.1 || math.Hypot(mean[1][0]-3, mean[1][1]) > 0.3) {
				t.Errorf("touching: centres %v, want (0, 0) and (3, 0)", mean)
			}
		default:
			want := map[HardKind]int{Noise5: 100, Noise10: 200, Noise20: 400}[kind]
			if count[4] != want {
				t.Errorf("%s: %d noise points, want %d", kind, count[4], want)
			}
		}
	}
	if _, err := GenerateHard("shell", 10, 1); err == nil {
		t.Error("unknown kind: no error")
	}
	if _, err := GenerateHard(Touching, 0, 1); err == nil {
		t.Error("n = 0: no error")
	}
}
