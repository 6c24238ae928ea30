package kernel

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteOwner is the full pass over the terms that Terms.Owner replaces, as
// svclust's Model.owner computes it: the sum of αⱼ·exp(−γ‖x − svⱼ‖²) in
// index order, the first index of the largest term, and where every term
// underflows the first index of the largest ln αⱼ − γ‖x − svⱼ‖²; with
// gammas not nil, each term with its own γⱼ.
func bruteOwner(x, sv, alpha []float64, gamma float64, gammas []float64) (float64, int) {
	d := len(x)
	g := func(j int) float64 {
		if gammas != nil {
			return gammas[j]
		}
		return gamma
	}
	var s float64
	best, bi := math.Inf(-1), 0
	for j, a := range alpha {
		t := a * math.Exp(-g(j)*SqDist(x, sv[j*d:j*d+d]))
		s += t
		if t > best {
			best, bi = t, j
		}
	}
	if best <= 0 {
		best = math.Inf(-1)
		for j, a := range alpha {
			if t := math.Log(a) - g(j)*SqDist(x, sv[j*d:j*d+d]); t > best {
				best, bi = t, j
			}
		}
	}
	return s, bi
}

// clusteredSVs returns b support vectors in d dimensions around 5 centres
// (spread 0.1 in a box of side 4), with coefficients in [0.1, 1.1).
func clusteredSVs(r *rand.Rand, b, d int) (sv, alpha []float64) {
	centres := make([]float64, 5*d)
	for i := range centres {
		centres[i] = 4 * r.Float64()
	}
	for i := range b {
		c := i % 5
		for j := range d {
			sv = append(sv, centres[c*d+j]+0.1*r.NormFloat64())
		}
		alpha = append(alpha, 0.1+r.Float64())
	}
	return sv, alpha
}

// TestTermsMatchesBruteForce checks Owner against the full pass at points
// near the support vectors, between them and far from all of them (where
// every term underflows), with duplicated support vectors for the
// tie-break: the owner must be the same index, and the sum equal to within
// the terms left out, below B·e⁻⁴⁰ of the largest term, plus the rounding
// of two sums of B terms in different orders (B·2⁻⁵³ of the sum, Higham,
// Accuracy and Stability of Numerical Algorithms, §4.2): 1e-12 relative.
// The second pass gives each term a width of its own in [γ, 16γ]
// (NewTermsEach), as svclust's adaptive widths do.
func TestTermsMatchesBruteForce(t *testing.T) {
	for _, each := range []bool{false, true} {
		testTermsMatchesBruteForce(t, each)
	}
}

func testTermsMatchesBruteForce(t *testing.T, each bool) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 3} {
		sv, alpha := clusteredSVs(r, 500, d)
		// Duplicates with equal coefficients: ties go to the lowest index.
		copy(sv[10*d:11*d], sv[3*d:4*d])
		alpha[10] = alpha[3]
		const gamma = 200.0 // ℓ ≈ 0.07: a point sees a few of the centres' terms
		var gammas []float64
		if each {
			for range alpha {
				gammas = append(gammas, gamma*(1+15*r.Float64()))
			}
		}
		tr := NewTermsEach(sv, d, alpha, gamma, gammas)
		if tr == nil {
			t.Fatalf("d = %d: no index for clustered support vectors and a narrow kernel", d)
		}
		s := tr.NewScratch()
		x := make([]float64, d)
		queries := 0
		check := func(what string) {
			t.Helper()
			wantSum, wantOwner := bruteOwner(x, sv, alpha, gamma, gammas)
			sum, owner := tr.Owner(x, s)
			if owner != wantOwner {
				t.Fatalf("d = %d, %s %v: owner %d, want %d", d, what, x, owner, wantOwner)
			}
			if math.Abs(sum-wantSum) > 1e-12*wantSum {
				t.Fatalf("d = %d, %s %v: sum %v, want %v", d, what, x, sum, wantSum)
			}
			queries++
		}
		for i := range 500 {
			for j := range d {
				x[j] = sv[i*d+j] + 0.05*r.NormFloat64()
			}
			check("near a support vector")
		}
		copy(x, sv[3*d:4*d])
		check("at a duplicated support vector")
		for range 500 {
			for j := range d {
				x[j] = -1 + 6*r.Float64()
			}
			check("in the box")
		}
		for j := range d {
			x[j] = 100
		}
		if sum, _ := tr.Owner(x, s); sum != 0 {
			t.Fatalf("d = %d: far point sum %v, want an underflow to 0", d, sum)
		}
		check("far from all")
	}
}

// TestTermsEvaluatesFew checks that the index saves what it is for: at the
// support vectors of 5 tight groups with a narrow kernel, a query evaluates
// far fewer than the B terms (every term of the other groups is more than
// e⁻⁴⁰ below the largest: the groups' centres lie about 2 apart, and
// γ·2² − ln(11) > 40 + … for γ = 200). The bound, a quarter of B, is loose: a
// query's own group holds a fifth of the terms.
func TestTermsEvaluatesFew(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sv, alpha := clusteredSVs(r, 1000, 2)
	tr := NewTerms(sv, 2, alpha, 200)
	if tr == nil {
		t.Fatal("no index")
	}
	s := tr.NewScratch()
	total := 0
	for i := range 1000 {
		tr.Owner(sv[2*i:2*i+2], s)
		total += s.evaluated
	}
	if mean := float64(total) / 1000; mean > 250 {
		t.Errorf("a query evaluates %.0f of 1000 terms on average, want at most 250", mean)
	}
}

// TestTermsDeclines checks that NewTerms returns nil where the index does
// not apply or would not pay: a coefficient that is not positive (as after
// projection), a wide kernel under which every term matters, and high
// dimension.
func TestTermsDeclines(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sv, alpha := clusteredSVs(r, 200, 2)
	neg := append([]float64(nil), alpha...)
	neg[7] = -0.5
	if NewTerms(sv, 2, neg, 200) != nil {
		t.Error("an index with a negative coefficient")
	}
	// A width below the bound's γ would make the cell bound wrong.
	narrow := make([]float64, len(alpha))
	for i := range narrow {
		narrow[i] = 400
	}
	if NewTermsEach(sv, 2, alpha, 200, narrow) == nil {
		t.Error("no index for widths all above γ")
	}
	narrow[3] = 100
	if NewTermsEach(sv, 2, alpha, 200, narrow) != nil {
		t.Error("an index with a width below γ")
	}
	if NewTerms(sv, 2, alpha, 0.01) != nil {
		t.Error("an index for a kernel under which every term matters (γ = 0.01 on a box of side 4)")
	}
	// In 100 dimensions with coordinates uniform on [0, 1) two points
	// are about √(100/6) ≈ 4 apart, and at γ = 1 every term lies within
	// e⁻⁴⁰ of the largest for most pairs: no cell can be skipped.
	hd := make([]float64, 200*100)
	for i := range hd {
		hd[i] = r.Float64()
	}
	if NewTerms(hd, 100, alpha, 1) != nil {
		t.Error("an index in 100 dimensions")
	}
}

// TestTermsNaN checks that a point with a NaN coordinate gets what a full
// pass gives it: f NaN and the first support vector as owner (every term is
// NaN, and NaN compares larger than nothing), not a missing owner.
func TestTermsNaN(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	sv, alpha := clusteredSVs(r, 300, 2)
	tr := NewTerms(sv, 2, alpha, 200)
	if tr == nil {
		t.Fatal("no index")
	}
	x := []float64{math.NaN(), 1}
	sum, owner := tr.Owner(x, tr.NewScratch())
	wantSum, wantOwner := bruteOwner(x, sv, alpha, 200, nil)
	if !math.IsNaN(sum) || !math.IsNaN(wantSum) || owner != wantOwner {
		t.Errorf("Owner(%v) = %v, %d; a full pass gives %v, %d", x, sum, owner, wantSum, wantOwner)
	}
}

// TestMassRadius: the index's weighted nearest-neighbour distance is the
// one a sort of every squared distance gives, for shares of the mass from
// one term to all of them, at points among and far from the support
// vectors, with adaptive widths and without.
func TestMassRadius(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const d, b = 2, 600
	sv, alpha := clusteredSVs(r, b, d)
	var total float64
	for _, a := range alpha {
		total += a
	}
	gammas := make([]float64, b)
	for j := range gammas {
		gammas[j] = 200 * (1 + r.Float64())
	}
	for _, g := range [][]float64{nil, gammas} {
		terms := NewTermsEach(sv, d, alpha, 200, g)
		if terms == nil {
			t.Fatal("no index for clustered support vectors")
		}
		s := terms.NewScratch()
		d2 := make([]float64, b)
		order := make([]int, b)
		for q := range 300 {
			x := []float64{4 * r.Float64(), 4 * r.Float64()}
			if q%50 == 0 {
				x[0] = 1e3
			}
			need := total * []float64{0.0001, 0.08, 0.5, 0.999}[q%4]
			for j := range b {
				d2[j] = SqDist(x, sv[j*d:j*d+d])
				order[j] = j
			}
			slices.SortFunc(order, func(i, j int) int { return cmp.Compare(d2[i], d2[j]) })
			var want, sum float64
			for _, j := range order {
				want = d2[j]
				if sum += alpha[j]; sum >= need {
					break
				}
			}
			if got := terms.MassRadius(x, s, need); got != want {
				t.Fatalf("x %v, need %v of %v: MassRadius %v, sorted %v", x, need, total, got, want)
			}
			if q%4 == 1 && x[0] < 10 && s.evaluated > b/2 {
				t.Errorf("x %v: %d of %d terms evaluated for 8 %% of the mass", x, s.evaluated, b)
			}
		}
	}
}
