package svclust

import (
	"math"
	"testing"

	"github.com/svclust/svclust/auto"
	"gonum.org/v1/gonum/mat"
)

// TestChooseSmallN derives Choose's statistics by hand on five rows,
// (0,0), (1,0), (0,3), (5,5), (2,7). With five rows the 5th neighbour is
// the farthest other row; its squared distances from the five rows are
// 53, 50, 29, 50 and 53, whose median 50 gives ρ = √50 and
// γ = 1/(1.5²·50). Every row lies within √53 < ℓ = 1.5·√50 of (0,0), so one
// ball covers the sample and the budget is 3·1, raised to auto.MinBudget
// and capped by the 5 rows. Scaling the data by 2 scales every distance by
// 2, so γ must scale by exactly 1/4 (multiplying by 2 is exact in binary
// floating point, and so are the square root of 4x and the reciprocal).
func TestChooseSmallN(t *testing.T) {
	x := mat.NewDense(5, 2, []float64{0, 0, 1, 0, 0, 3, 5, 5, 2, 7})
	ch, err := Choose(x, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / (1.5 * 1.5 * 50); math.Abs(ch.Gamma-want) > 4e-16*want || ch.Rho != math.Sqrt(50) {
		t.Errorf("γ = %v, ρ = %v; want %v and √50", ch.Gamma, ch.Rho, want)
	}
	if ch.Cover != 1 || ch.Budget != 5 || !ch.GammaAuto || !ch.BudgetAuto || !ch.CAuto {
		t.Errorf("cover %d, budget %d, auto %v %v %v; want 1, 5 and all automatic", ch.Cover, ch.Budget, ch.GammaAuto, ch.BudgetAuto, ch.CAuto)
	}
	// C = 0.5/κmax, κmax the largest (1/5)Σⱼ exp(−γ‖x − xⱼ‖²), by brute force.
	var kmax float64
	for i := range 5 {
		var s float64
		for j := range 5 {
			s += math.Exp(-ch.Gamma * sqDist(x.RawRowView(i), x.RawRowView(j)))
		}
		kmax = max(kmax, s/5)
	}
	if math.Abs(ch.C-0.5/kmax) > 1e-12*ch.C {
		t.Errorf("C = %v, want 0.5/κmax = %v", ch.C, 0.5/kmax)
	}
	var x2 mat.Dense
	x2.Scale(2, x)
	ch2, err := Choose(&x2, &Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ch2.Gamma != ch.Gamma/4 {
		t.Errorf("γ(2x) = %v, want γ(x)/4 = %v", ch2.Gamma, ch.Gamma/4)
	}
	// Given settings are kept and reported as given.
	ch3, err := Choose(x, &Config{Gamma: 2, C: 3, Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	if ch3 != (auto.Choice{Decision: auto.Decision{Gamma: 2, C: 3, Budget: 4}}) {
		t.Errorf("given settings: %+v", ch3)
	}
	// Identical rows give the documented γ = 1.
	ch4, err := Choose(mat.NewDense(3, 2, []float64{1, 1, 1, 1, 1, 1}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if ch4.Gamma != 1 || ch4.Budget != 3 {
		t.Errorf("identical rows: γ = %v, budget %d; want 1 and 3", ch4.Gamma, ch4.Budget)
	}
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}
