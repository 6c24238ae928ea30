package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naiveRow is the textbook definition, written independently of RowTo.
func naiveRow(x []float64, svs [][]float64, gamma float64) []float64 {
	out := make([]float64, len(svs))
	for i, sv := range svs {
		var s float64
		for j := range x {
			s += (x[j] - sv[j]) * (x[j] - sv[j])
		}
		out[i] = math.Exp(-gamma * s)
	}
	return out
}

func randomSet(rng *rand.Rand, n, d int) ([]float64, [][]float64) {
	flat := make([]float64, n*d)
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = flat[i*d : i*d+d]
		for j := range rows[i] {
			rows[i][j] = rng.NormFloat64()
		}
	}
	return flat, rows
}

func TestRowSumMeanShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 2, 9} {
		flat, rows := randomSet(rng, 17, d)
		x := make([]float64, d)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		a := make([]float64, 17)
		for i := range a {
			a[i] = rng.Float64() - 0.3 // some negative, as projection can produce
		}
		const gamma = 0.7
		want := naiveRow(x, rows, gamma)
		got := RowTo(nil, x, flat, gamma)
		var wantSum float64
		wantNum := make([]float64, d)
		for i := range want {
			// Same operations in the same order as RowTo: results must be identical.
			if got[i] != want[i] {
				t.Fatalf("d=%d: RowTo[%d] = %v, want %v", d, i, got[i], want[i])
			}
			wantSum += a[i] * want[i]
			for j := range wantNum {
				wantNum[j] += a[i] * want[i] * rows[i][j]
			}
		}
		if s := Sum(x, flat, a, gamma); s != wantSum {
			t.Errorf("d=%d: Sum = %v, want %v", d, s, wantSum)
		}
		num, den := MeanShiftTo(nil, x, flat, a, gamma)
		// Relative 1e-12: the sums are the same terms grouped differently.
		if math.Abs(den-wantSum) > 1e-12*math.Abs(wantSum)+1e-300 {
			t.Errorf("d=%d: den = %v, want %v", d, den, wantSum)
		}
		for j := range num {
			if math.Abs(num[j]-wantNum[j]) > 1e-12*(1+math.Abs(wantNum[j])) {
				t.Errorf("d=%d: num[%d] = %v, want %v", d, j, num[j], wantNum[j])
			}
		}
	}
}

func TestEvalIdentity(t *testing.T) {
	x := []float64{1, 2, 3}
	if k := Eval(x, x, 5); k != 1 {
		t.Errorf("k(x,x) = %v, want 1", k)
	}
	// ‖(1,2,3)−(1,2,5)‖² = 4, so k = exp(−0.5·4) = exp(−2).
	if k := Eval(x, []float64{1, 2, 5}, 0.5); k != math.Exp(-2) {
		t.Errorf("k = %v, want exp(-2)", k)
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"SqDist":   func() { SqDist([]float64{1}, []float64{1, 2}) },
		"RowTo":    func() { RowTo(nil, []float64{1, 2}, []float64{1, 2, 3}, 1) },
		"RowToDst": func() { RowTo(make([]float64, 3), []float64{1}, []float64{1, 2}, 1) },
		"Sum":      func() { Sum([]float64{1}, []float64{1, 2}, []float64{1}, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestNoAllocs(t *testing.T) {
	flat, _ := randomSet(rand.New(rand.NewPCG(2, 2)), 50, 4)
	x := flat[:4]
	a := make([]float64, 50)
	dst := make([]float64, 50)
	num := make([]float64, 4)
	allocs := testing.AllocsPerRun(100, func() {
		RowTo(dst, x, flat, 1)
		Sum(x, flat, a, 1)
		MeanShiftTo(num, x, flat, a, 1)
	})
	if allocs != 0 {
		t.Errorf("allocs = %v, want 0", allocs)
	}
}

func benchSum(b *testing.B, n, d int) {
	flat, _ := randomSet(rand.New(rand.NewPCG(3, 3)), n, d)
	a := make([]float64, n)
	for i := range a {
		a[i] = 1
	}
	x := make([]float64, d)
	b.ReportAllocs()
	for b.Loop() {
		Sum(x, flat, a, 0.5)
	}
}

func BenchmarkSum(b *testing.B) {
	for _, c := range []struct{ n, d int }{{50, 2}, {100, 9}, {50, 166}} {
		b.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(b *testing.B) { benchSum(b, c.n, c.d) })
	}
}
