package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
		out[i] = ExpNeg(gamma * s)
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

// TestRowToExact checks RowTo on values worked out by hand: k(x, x) = 1,
// and ‖(1,2,3)−(1,2,5)‖² = 4, so k = exp(−0.5·4) = exp(−2).
func TestRowToExact(t *testing.T) {
	x := []float64{1, 2, 3}
	got := RowTo(nil, x, []float64{1, 2, 3, 1, 2, 5}, 0.5)
	if got[0] != 1 || got[1] != ExpNeg(2) || ulpDiff(got[1], math.Exp(-2)) > 2 {
		t.Errorf("RowTo = %v, want [1 exp(-2)]", got)
	}
}

// TestRowEachToExact checks RowEachTo against the kernel written out by
// hand: distances² 0 and 4 with widths 0.5 and 0.25 give 1 and exp(−1),
// and equal widths give RowTo's values exactly.
func TestRowEachToExact(t *testing.T) {
	x := []float64{1, 2, 3}
	svs := []float64{1, 2, 3, 1, 2, 5}
	got := RowEachTo(nil, x, svs, []float64{0.5, 0.25})
	if got[0] != 1 || got[1] != ExpNeg(1) || ulpDiff(got[1], math.Exp(-1)) > 2 {
		t.Errorf("RowEachTo = %v, want [1 exp(-1)]", got)
	}
	if a, b := RowEachTo(nil, x, svs, []float64{0.5, 0.5}), RowTo(nil, x, svs, 0.5); a[0] != b[0] || a[1] != b[1] {
		t.Errorf("RowEachTo with equal widths = %v, RowTo = %v", a, b)
	}
	// Too few widths: it panics before writing dst.
	dst := []float64{7, 7}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("RowEachTo with one width for two rows: no panic")
			}
		}()
		RowEachTo(dst, x, svs, []float64{0.5})
	}()
	if dst[0] != 7 || dst[1] != 7 {
		t.Errorf("RowEachTo wrote %v before panicking", dst)
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"SqDist":    func() { SqDist([]float64{1}, []float64{1, 2}) },
		"RowTo":     func() { RowTo(nil, []float64{1, 2}, []float64{1, 2, 3}, 1) },
		"RowToDst":  func() { RowTo(make([]float64, 3), []float64{1}, []float64{1, 2}, 1) },
		"RowEachTo": func() { RowEachTo(nil, []float64{1}, []float64{1, 2}, []float64{1}) },
		"Sum":       func() { Sum([]float64{1}, []float64{1, 2}, []float64{1}, 1) },
		"MeanShiftCutToDst": func() {
			z := make([]float64, 1)
			MeanShiftCutTo(make([]float64, 2), z, []float64{1}, []float64{1}, []float64{1}, []float64{0}, 1)
		},
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

// TestMeanShiftCutToNil: a nil dst is allocated with length d, as by every
// other To function, and holds the same sums, bit for bit, as a dst passed
// in (the same code runs on both).
func TestMeanShiftCutToNil(t *testing.T) {
	const n, d = 20, 3
	flat, _ := randomSet(rand.New(rand.NewPCG(5, 5)), n, d)
	a := make([]float64, n)
	lnA := make([]float64, n)
	for i := range a {
		a[i] = 1 + float64(i%3)
		lnA[i] = math.Log(a[i])
	}
	x := []float64{0.1, -0.2, 0.3}
	z := make([]float64, n)
	want, wantDen := MeanShiftCutTo(make([]float64, d), z, x, flat, a, lnA, 0.7)
	got, gotDen := MeanShiftCutTo(nil, z, x, flat, a, lnA, 0.7)
	if len(got) != d || !slices.Equal(got, want) || gotDen != wantDen {
		t.Errorf("nil dst: %v, %v; want %v, %v", got, gotDen, want, wantDen)
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
		MeanShiftCutTo(num, dst, x, flat, a, a, 1)
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

// TestMeanShiftCut: dropping the terms below e⁻⁴⁰ of the largest may change
// the sums by at most n·e⁻⁴⁰ ≈ n·4·10⁻¹⁸ of the largest term; the check
// allows that plus the rounding of two n-term sums, 2n·2⁻⁵³ of the sum of
// magnitudes (Higham, Accuracy and Stability of Numerical Algorithms,
// 2nd ed., §4.2). Points spread widely (standard deviation 3, γ up to 4)
// and coefficients of mixed sign and size make many terms negligible.
func TestMeanShiftCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, d := range []int{1, 2, 9} {
		const n = 100
		flat, _ := randomSet(rng, n, d)
		for i := range flat {
			flat[i] *= 3
		}
		a := make([]float64, n)
		lnA := make([]float64, n)
		for i := range a {
			a[i] = math.Exp(4*rng.NormFloat64()) * float64(1-2*rng.IntN(2))
			if i%10 == 0 {
				a[i] = 0
			}
			lnA[i] = math.Log(math.Abs(a[i]))
		}
		z := make([]float64, n)
		skipped := 0
		for trial := 0; trial < 50; trial++ {
			gamma := 0.1 + 4*rng.Float64()
			x := make([]float64, d)
			for j := range x {
				x[j] = 3 * rng.NormFloat64()
			}
			want, wantDen := MeanShiftTo(nil, x, flat, a, gamma)
			got, gotDen := MeanShiftCutTo(make([]float64, d), z, x, flat, a, lnA, gamma)
			var mag, largest float64
			magNum := make([]float64, d)
			ws := make([]float64, n)
			for i := range a {
				w := math.Abs(a[i]) * math.Exp(-gamma*SqDist(x, flat[i*d:i*d+d]))
				ws[i] = w
				mag += w
				largest = max(largest, w)
				for j := range magNum {
					magNum[j] += w * math.Abs(flat[i*d+j])
				}
			}
			for _, w := range ws {
				if w > 0 && w < math.Exp(-CutOff)*largest {
					skipped++ // a nonzero term the cut drops
				}
			}
			bound := func(m float64) float64 { return n*math.Exp(-CutOff)*m + 2*n*0x1p-53*m }
			if math.Abs(gotDen-wantDen) > bound(mag) {
				t.Fatalf("d=%d: den %v, want %v", d, gotDen, wantDen)
			}
			for j := range want {
				if math.Abs(got[j]-want[j]) > bound(magNum[j]) {
					t.Fatalf("d=%d: num[%d] %v, want %v", d, j, got[j], want[j])
				}
			}
			for i := range z {
				if z[i] != gamma*SqDist(x, flat[i*d:i*d+d]) {
					t.Fatalf("z[%d] = %v", i, z[i])
				}
			}
		}
		if skipped == 0 {
			t.Errorf("d=%d: no nonzero term was below the cut; the test checks nothing", d)
		}
	}
}

func BenchmarkMeanShift(b *testing.B) {
	// Shuttle-like: 100 support vectors in 9 dimensions, spread so that
	// many are far from x, as in a trajectory inside one of several clusters.
	const n, d = 100, 9
	flat, _ := randomSet(rand.New(rand.NewPCG(5, 5)), n, d)
	for i := range flat {
		flat[i] *= 2
	}
	a, lnA := make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = 1
	}
	x, num, z := make([]float64, d), make([]float64, d), make([]float64, n)
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			MeanShiftTo(num, x, flat, a, 2.6)
		}
	})
	b.Run("cut", func(b *testing.B) {
		for b.Loop() {
			MeanShiftCutTo(num, z, x, flat, a, lnA, 2.6)
		}
	})
}

// TestDotRow: the expansion from a kernel row is Sum's bit for bit (the
// same terms in the same order), and OfSqDist is the kernel RowTo writes.
func TestDotRow(t *testing.T) {
	x := []float64{0.3, -1.2, 2}
	svs := []float64{1, 2, 3, -0.5, 0.25, 1e-3, 7, -3, 0.5, 0, 0, 0}
	a := []float64{0.7, -0.2, 1.3, 2.5}
	const gamma = 0.37
	d2 := SqDistRowTo(make([]float64, 4), x, svs)
	row := RowTo(make([]float64, 4), x, svs, gamma)
	if got, want := Dot(a, row), Sum(x, svs, a, gamma); got != want {
		t.Errorf("Dot %v, Sum %v", got, want)
	}
	for i, v := range d2 {
		if OfSqDist(v, gamma) != row[i] {
			t.Errorf("OfSqDist(%v) = %v, RowTo %v", v, OfSqDist(v, gamma), row[i])
		}
	}
}

// TestMeanShiftEach checks the map of ∇f = 0 for two kernels of different
// widths on the line, svs 0 and 1, a = 1, γ = 1 and 4, at x = 0.5, worked
// by hand: k = e^{−1/4} and e^{−1}, so
// P = 4e⁻¹·1 / (e^{−1/4} + 4e⁻¹) and den = e^{−1/4} + 4e⁻¹, while SumEach
// gives f + 1 = e^{−1/4} + e⁻¹.
func TestMeanShiftEach(t *testing.T) {
	svs, a, g := []float64{0, 1}, []float64{1, 1}, []float64{1, 4}
	lnW := []float64{0, math.Log(4)}
	z := make([]float64, 2)
	num, den := MeanShiftEachCutTo(nil, z, []float64{0.5}, svs, a, g, lnW)
	wantDen := math.Exp(-0.25) + 4*math.Exp(-1)
	if math.Abs(den-wantDen) > 1e-15 || math.Abs(num[0]/den-4*math.Exp(-1)/wantDen) > 1e-15 {
		t.Errorf("P(0.5) = %v, den %v; want %v, %v", num[0]/den, den, 4*math.Exp(-1)/wantDen, wantDen)
	}
	if z[0] != 0.25 || z[1] != 1 {
		t.Errorf("z = %v, want [0.25 1]", z)
	}
	if s, want := SumEach([]float64{0.5}, svs, a, g), math.Exp(-0.25)+math.Exp(-1); math.Abs(s-want) > 1e-15 {
		t.Errorf("SumEach = %v, want %v", s, want)
	}
	// Equal widths give the global map exactly.
	n1, d1 := MeanShiftEachCutTo(nil, z, []float64{0.3}, svs, a, []float64{2, 2}, []float64{math.Log(2), math.Log(2)})
	n2, d2 := MeanShiftTo(nil, []float64{0.3}, svs, a, 2)
	if math.Abs(n1[0]/d1-n2[0]/d2) > 1e-15 {
		t.Errorf("equal widths: %v, global map %v", n1[0]/d1, n2[0]/d2)
	}
}

// TestExpZero: exp(−u) is exactly 0 beyond expZero, as ExpNeg returns it
// and math.Exp agrees, and ExpNeg is not yet 0 a little before (the bound
// is not far too low).
func TestExpZero(t *testing.T) {
	for u := float64(expZero); u < 2e3; u = math.Nextafter(u, 3e3) * (1 + 1e-7) {
		if v := math.Exp(-u); u > expZero && v != 0 {
			t.Fatalf("math.Exp(−%v) = %v, want 0", u, v)
		}
	}
	for _, u := range []float64{1e4, 1e300, math.Inf(1)} {
		if v := ExpNeg(u); v != 0 {
			t.Errorf("ExpNeg(%v) = %v, want 0", u, v)
		}
	}
	if ExpNeg(745) == 0 || math.Exp(-745) == 0 {
		t.Error("exp(−745) = 0: expZero could be lower")
	}
	if v := ExpNeg(math.NaN()); !math.IsNaN(v) {
		t.Errorf("ExpNeg(NaN) = %v", v)
	}
}

// TestBlocksToTheBit: the rows that SqDistRowTo, Sum, SumEach and
// MeanShiftEachCutTo take four at a time give, to the bit, what one row at a
// time through SqDist and ExpNeg gives, for every remainder of the blocks.
func TestBlocksToTheBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, d := range []int{1, 2, 3, 7, 128} {
		for n := 0; n <= 9; n++ {
			flat, rows := randomSet(rng, n, d)
			x := make([]float64, d)
			for j := range x {
				x[j] = rng.NormFloat64()
			}
			a := make([]float64, n)
			gammas := make([]float64, n)
			lnW := make([]float64, n)
			for i := range a {
				a[i] = rng.Float64() - 0.3
				gammas[i] = 0.1 + rng.Float64()
				lnW[i] = math.Log(math.Abs(a[i] * gammas[i]))
			}
			var sum, sumEach float64
			for i, sv := range rows {
				d2 := SqDist(x, sv)
				if got := SqDistRowTo(make([]float64, n), x, flat)[i]; got != d2 {
					t.Fatalf("d=%d n=%d: SqDistRowTo[%d] = %v, want %v", d, n, i, got, d2)
				}
				sum += a[i] * ExpNeg(0.3*d2)
				sumEach += a[i] * ExpNeg(gammas[i]*d2)
			}
			// The kernel row from kept squared distances is RowTo's and
			// RowEachTo's, to the bit (the blocks of four and the tail).
			d2 := SqDistRowTo(make([]float64, n), x, flat)
			if got, want := OfSqDistRowTo(make([]float64, n), d2, 0.3, nil), RowTo(make([]float64, n), x, flat, 0.3); !slices.Equal(got, want) {
				t.Fatalf("d=%d n=%d: OfSqDistRowTo = %v, RowTo %v", d, n, got, want)
			}
			if got, want := OfSqDistRowTo(make([]float64, n), d2, 0, gammas), RowEachTo(make([]float64, n), x, flat, gammas); !slices.Equal(got, want) {
				t.Fatalf("d=%d n=%d: OfSqDistRowTo with widths = %v, RowEachTo %v", d, n, got, want)
			}
			if got := Sum(x, flat, a, 0.3); got != sum {
				t.Fatalf("d=%d n=%d: Sum = %v, want %v", d, n, got, sum)
			}
			if got := SumEach(x, flat, a, gammas); got != sumEach {
				t.Fatalf("d=%d n=%d: SumEach = %v, want %v", d, n, got, sumEach)
			}
			z := make([]float64, n)
			MeanShiftEachCutTo(nil, z, x, flat, a, gammas, lnW)
			for i, sv := range rows {
				if want := gammas[i] * SqDist(x, sv); z[i] != want {
					t.Fatalf("d=%d n=%d: z[%d] = %v, want %v", d, n, i, z[i], want)
				}
			}
		}
	}
}

// BenchmarkRowTo: rows at γ = 0.5/d, where every kernel value is a
// normal number, and at γ = 142 on 2-D points, the width the automatic
// choice gives 1,000 to 1,000,000 z-scored moons, where about 30 % of
// the values (squared distance beyond 5) are below e⁻⁷⁰⁸.
func BenchmarkRowTo(b *testing.B) {
	for _, c := range []struct {
		n, d  int
		gamma float64
	}{{600, 2, 0.25}, {200, 7, 0.5 / 7}, {1000, 128, 0.5 / 128}, {1000, 2, 142}} {
		b.Run(fmt.Sprintf("n=%d/d=%d/γ=%.3g", c.n, c.d, c.gamma), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			flat, _ := randomSet(rng, c.n, c.d)
			x, _ := randomSet(rng, 1, c.d)
			dst := make([]float64, c.n)
			for b.Loop() {
				RowTo(dst, x, flat, c.gamma)
			}
		})
	}
}

// TestExpNeg4Lanes: expNeg4 gives ExpNeg's bits lane by lane whatever mix
// of near arguments (the side-by-side path), subnormal results (beyond
// expNormal), zeros (beyond expZero), NaN, ±Inf and negative arguments the
// four lanes hold.
func TestExpNeg4Lanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	special := []float64{0, expNormal, math.Nextafter(expNormal, 1000), 720, expZero, 746.5, 1e6, math.Inf(1), math.NaN(), -1, math.Inf(-1)}
	for i := range 200_000 {
		var u [4]float64
		for l := range u {
			switch rng.IntN(4) {
			case 0:
				u[l] = special[rng.IntN(len(special))]
			case 1:
				u[l] = 700 + 60*rng.Float64()
			default:
				u[l] = 40 * rng.Float64()
			}
		}
		e0, e1, e2, e3 := expNeg4(u[0], u[1], u[2], u[3])
		for l, e := range [4]float64{e0, e1, e2, e3} {
			if want := ExpNeg(u[l]); math.Float64bits(e) != math.Float64bits(want) && !(math.IsNaN(e) && math.IsNaN(want)) {
				t.Fatalf("case %d lane %d: expNeg4(%v) = %v, want ExpNeg's %v", i, l, u[l], e, want)
			}
		}
	}
}

// TestMeanShiftCutTermByTerm: meanShiftCut, which takes the kept terms'
// exponentials four at a time, gives to the bit what adding the kept terms
// one at a time in index order gives (the definition of MeanShiftCutTo and
// MeanShiftEachCutTo), for every remainder of the blocks of kept terms.
func TestMeanShiftCutTermByTerm(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	for _, d := range []int{1, 2, 3} {
		for n := 0; n <= 40; n++ {
			flat, _ := randomSet(rng, n, d)
			for i := range flat {
				flat[i] *= 4
			}
			a, gammas, lnA, lnW := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
			for i := range a {
				a[i] = math.Exp(3 * rng.NormFloat64())
				gammas[i] = 0.5 + 3*rng.Float64()
				lnA[i] = math.Log(a[i])
				lnW[i] = math.Log(a[i] * gammas[i])
			}
			x := make([]float64, d)
			for j := range x {
				x[j] = 2 * rng.NormFloat64()
			}
			for _, each := range []bool{false, true} {
				const gamma = 2.5
				z := make([]float64, n)
				var got []float64
				var gotDen float64
				lw := lnA
				if each {
					got, gotDen = MeanShiftEachCutTo(nil, z, x, flat, a, gammas, lnW)
					lw = lnW
				} else {
					got, gotDen = MeanShiftCutTo(nil, z, x, flat, a, lnA, gamma)
				}
				umin := math.Inf(1)
				for i := range a {
					umin = min(umin, z[i]-lw[i])
				}
				want, wantDen := make([]float64, d), 0.0
				for i := range a {
					if !(z[i]-lw[i] <= umin+CutOff) {
						continue
					}
					w := a[i] * ExpNeg(z[i])
					if each {
						w = a[i] * gammas[i] * ExpNeg(z[i])
					}
					wantDen += w
					for j := range want {
						want[j] += w * flat[i*d+j]
					}
				}
				if gotDen != wantDen || !slices.Equal(got, want) {
					t.Fatalf("d=%d n=%d each=%v: (%v, %v), want (%v, %v)", d, n, each, got, gotDen, want, wantDen)
				}
			}
		}
	}
}

// TestMeanShiftCutNear: within rho of the point x0 at which CutCandidates
// listed the terms, MeanShiftCutNear over the list gives meanShiftCut's
// numerator and denominator to the bit, with one width and with a width
// per support vector, zero coefficients included; and the lists leave
// terms out (else the test would check nothing).
func TestMeanShiftCutNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	shorter := 0
	for _, d := range []int{1, 2, 3} {
		const n = 300
		flat, _ := randomSet(rng, n, d)
		for i := range flat {
			flat[i] *= 5
		}
		a, gammas, lnA, lnW := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = math.Exp(2 * rng.NormFloat64())
			if i%17 == 0 {
				a[i] = 0
			}
			gammas[i] = 1 + 4*rng.Float64()
			lnA[i] = math.Log(a[i])
			lnW[i] = math.Log(a[i] * gammas[i])
		}
		for trial := range 200 {
			each := trial%2 == 1
			g, lw := []float64(nil), lnA
			if each {
				g, lw = gammas, lnW
			}
			const gamma = 3.0
			rho := 0.05 + rng.Float64()
			x0 := make([]float64, d)
			for j := range x0 {
				x0[j] = 4 * rng.NormFloat64()
			}
			z := make([]float64, n)
			meanShiftCut(make([]float64, d), z, x0, flat, a, lw, gamma, g)
			list, ok := CutCandidates(nil, z, lw, gamma, g, rho)
			if !ok {
				t.Fatalf("d=%d trial %d: no list", d, trial)
			}
			if len(list) < n-n/17-1 {
				shorter++
			}
			for range 20 {
				// A point within rho of x0, often near its edge.
				x := make([]float64, d)
				dir := make([]float64, d)
				for j := range dir {
					dir[j] = rng.NormFloat64()
				}
				r := rho * math.Sqrt(rng.Float64()) * 0.999999 / math.Sqrt(SqDist(dir, make([]float64, d)))
				for j := range x {
					x[j] = x0[j] + r*dir[j]
				}
				want, wantDen := meanShiftCut(make([]float64, d), make([]float64, n), x, flat, a, lw, gamma, g)
				got, gotDen := MeanShiftCutNear(make([]float64, d), make([]float64, n), x, flat, a, lw, gamma, g, list)
				if gotDen != wantDen || !slices.Equal(got, want) {
					t.Fatalf("d=%d trial %d: (%v, %v), want (%v, %v)", d, trial, got, gotDen, want, wantDen)
				}
			}
		}
	}
	if shorter == 0 {
		t.Error("no list left a term out")
	}
	// Values where the bounds say nothing give no list.
	if _, ok := CutCandidates(nil, []float64{math.NaN(), 1}, []float64{0, 0}, 1, nil, 0.5); ok {
		t.Error("a NaN distance gave a list")
	}
	if _, ok := CutCandidates(nil, []float64{1, 2}, []float64{math.Inf(-1), math.Inf(-1)}, 1, nil, 0.5); ok {
		t.Error("all coefficients zero gave a list")
	}
}
