package svclust

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/kernel"
)

// mergeValue is α_z of the merge z = h xₘ + (1−h) xₙ of coefficients a and
// b at c = γ‖xₘ − xₙ‖², from its definition α_z = a k(xₘ, z) + b k(xₙ, z).
func mergeValue(a, b, c, h float64) float64 {
	return a*math.Exp(-c*(1-h)*(1-h)) + b*math.Exp(-c*h*h)
}

// TestMergePairGrid compares the golden-section search of a merge with a
// grid search of h over [−10, 11] in steps of 1e-4, which covers every
// bracket of the cases, for coefficients of both orders and both signs.
func TestMergePairGrid(t *testing.T) {
	const step = 1e-4
	for _, tc := range []struct{ a, b, c float64 }{
		{1, 3, 0.5},     // same sign, close: z near the larger
		{3, 1, 0.5},     // the same, larger first
		{1, 1.2, 3},     // same sign, far apart (c > 2): α_z is bimodal on [0, 1]
		{1.05, 1, 6},    // bimodal, nearly symmetric, larger first
		{2, 7, 8},       // far apart, unequal
		{-1, -4, 1},     // both negative
		{1, -3, 0.7},    // opposite signs: z beyond the larger, h < 0
		{-3, 1, 0.2},    // opposite signs, larger first: h > 1
		{0.9, -1, 0.01}, // opposite, nearly cancelling: a long bracket
		{0, 5, 1},       // zero coefficient: z = xₙ
		{2, 5, 1e-3},    // nearly identical points
	} {
		h, az := mergePair(tc.a, tc.b, tc.c)
		// mergePair and mergeValue evaluate the same formula, but may round
		// h and 1 − h differently: a few ulps of |a| + |b| (1e-15 ≈ 4.5 ulps).
		if got := mergeValue(tc.a, tc.b, tc.c, h); math.Abs(got-az) > 1e-15*(math.Abs(tc.a)+math.Abs(tc.b)) {
			t.Errorf("%+v: α_z = %v, but α_z(h = %v) = %v", tc, az, h, got)
		}
		gh, gv := 0.0, 0.0
		for k := 0; k <= 210000; k++ {
			x := -10 + float64(k)*step
			if v := math.Abs(mergeValue(tc.a, tc.b, tc.c, x)); v > gv {
				gh, gv = x, v
			}
		}
		// The golden-section maximiser is within mergeSearchTol of the true
		// one, where α_z falls short by at most
		// c·mergeSearchTol²·(|a| + |b|) (the bound derived at
		// mergeSearchTol); the grid maximum is at most the true one. The
		// 1e-14·(|a| + |b|) covers the rounding of the two evaluations
		// (about 45 ulps, more than the handful of operations can lose).
		scale := math.Abs(tc.a) + math.Abs(tc.b)
		slack := tc.c*mergeSearchTol*mergeSearchTol*scale + 1e-14*scale
		if math.Abs(az) < gv-slack {
			t.Errorf("%+v: |α_z| = %v at h = %v, grid %v at h = %v", tc, math.Abs(az), h, gv, gh)
		}
		// Where α_z is curved enough for h to be determined, the grid's
		// best point is one of the two grid points around the true
		// maximiser, so within step of it. With a = b the maxima at h and
		// 1 − h are equal; none of the cases has that symmetry.
		if tc.c >= 0.1 && math.Abs(h-gh) > mergeSearchTol+step {
			t.Errorf("%+v: h = %v, grid maximiser %v", tc, h, gh)
		}
	}
	// Identical points: the merge is exact, α_z = a + b.
	if _, az := mergePair(2, 3, 0); az != 5 {
		t.Errorf("c = 0: α_z = %v, want 5", az)
	}
	// Identical points, equal and opposite coefficients: they cancel.
	if _, az := mergePair(2, -2, 0); az != 0 {
		t.Errorf("cancelling pair: α_z = %v, want 0", az)
	}
}

// cachedSet returns the support set of the rows of x (dimension d) with
// coefficients a, built as training builds it: through push, with the
// kernel cache, entered at step 0 with their slots as data indices, and
// room for the one vector a strategy may add (as Maintain finds it, one
// over a budget of len(a) − 1). x and a are copied.
func cachedSet(d int, gamma float64, x, a []float64) *SupportSet {
	s := &SupportSet{d: d, gamma: gamma, k: []float64{}, limit: len(a) + 1}
	for i, ai := range a {
		s.push(x[i*d:i*d+d], i, 0, nil, "cachedSet: no room")
		s.a[i] = ai
	}
	return s
}

// TestPushKernel: the kernel values push caches, computed (krow nil, as
// for cachedSet and Add) or copied from the sample's row (as training
// enters a sample), are OfSqDist(SqDist(i, j), γ), to the bit.
func TestPushKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	const n, d, gamma = 100, 3, 1.5
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	s := cachedSet(d, gamma, x[:(n-2)*d], make([]float64, n-2))
	s.limit = n + 1
	z := x[(n-2)*d : (n-1)*d]
	s.push(z, n-2, 0, kernel.RowTo(make([]float64, s.Len()), z, s.x, gamma), "no room")
	s.Add(x[(n-1)*d:], 1)
	for i := range n {
		for j := range n {
			if got, want := s.Kernel(i, j), kernel.OfSqDist(s.SqDist(i, j), gamma); got != want {
				t.Fatalf("Kernel(%d, %d) = %v, want %v", i, j, got, want)
			}
		}
	}
}

// TestMergeMaintain checks one merge on a hand-made support set against
// its definition: the smallest support vector and the partner with the
// least weight degradation, computed directly in feature space from the
// kernel, are replaced by z with coefficient α_z.
func TestMergeMaintain(t *testing.T) {
	ds := generated(t, dataset.Gauss3, 12)
	const gamma = 0.7
	x := append([]float64(nil), ds.X.RawMatrix().Data...)
	a := []float64{5, 2, 7, 1.5, 3, 4, 6, 2.5, 8, 3.5, 9, 4.5} // smallest: slot 3
	s := cachedSet(2, gamma, x, a)
	const m = 3
	k := func(u, v []float64) float64 { return math.Exp(-gamma * kernel.SqDist(u, v)) }
	xm := x[2*m : 2*m+2]
	// degradation returns ‖aₘφ(xₘ) + aₙφ(xₙ) − α_zφ(z)‖² expanded
	// directly, for z and α_z as Merge computes them.
	degradation := func(n int) (loss float64, z []float64, az float64) {
		xn := x[2*n : 2*n+2]
		h, az := mergePair(a[m], a[n], gamma*kernel.SqDist(xm, xn))
		// The same expression as Merge's, so that z compares with ==.
		z = []float64{xn[0] + h*(xm[0]-xn[0]), xn[1] + h*(xm[1]-xn[1])}
		loss = a[m]*a[m] + a[n]*a[n] + az*az + 2*a[m]*a[n]*k(xm, xn) - 2*a[m]*az*k(xm, z) - 2*a[n]*az*k(xn, z)
		return loss, z, az
	}
	best, bestLoss := -1, math.Inf(1)
	for n := range a {
		if n == m {
			continue
		}
		loss, _, _ := degradation(n)
		// Merging never loses more than removal, which loses aₘ²: already
		// z = xₙ (h = 0) loses aₘ²(1 − k(xₘ, xₙ)²). 1e-12 relative allows
		// for the rounding of the six-term loss.
		if loss > a[m]*a[m]*(1+1e-12) {
			t.Errorf("partner %d: loss %v > removal's %v", n, loss, a[m]*a[m])
		}
		if loss < bestLoss {
			best, bestLoss = n, loss
		}
	}
	Merge{}.Maintain(s)
	if len(s.removed) != 2 || s.removed[0] != m || s.removed[1] != best {
		t.Fatalf("removed %v, want [%d %d]", s.removed, m, best)
	}
	if s.Len() != 13 || s.id[12] != -1 {
		t.Fatalf("Len = %d, id of the new slot %d: want 13 and −1", s.Len(), s.id[12])
	}
	_, z, az := degradation(best)
	if v := s.Vector(12); v[0] != z[0] || v[1] != z[1] || s.Coef(12) != az {
		t.Errorf("added %v with α %v, want %v with %v", v, s.Coef(12), z, az)
	}
	// The coefficients of every other support vector are untouched.
	for i, ai := range a {
		if i != m && i != best && s.Coef(i) != ai {
			t.Errorf("coefficient %d changed from %v to %v", i, ai, s.Coef(i))
		}
	}
	t.Logf("merged %d (α %v) with %d (α %v): α_z = %v, loss %.4g (removal %v)", m, a[m], best, a[best], az, bestLoss, a[m]*a[m])
}

// TestMergeLossBound: the bounds Merge prunes partners with are never
// above the loss of the merge mergePair finds, over random positive pairs
// with a ≤ b (Merge's xₘ has the smallest coefficient), b/a up to 10⁴, and
// distances from coincident (c = 0) to far apart (c = 800, κ below the
// smallest float64), with equal coefficients in one case of ten.
func TestMergeLossBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tighter := 0
	const trials = 200000
	for i := range trials {
		a := rng.Float64() + 1e-3
		b := a * math.Pow(10, 4*rng.Float64()*rng.Float64())
		if i%10 == 0 {
			b = a
		}
		c := 60 * rng.Float64() * rng.Float64()
		if i%100 == 0 {
			c = 800 * rng.Float64()
		}
		_, az := mergePair(a, b, c)
		kappa := math.Exp(-c)
		loss := a*a + b*b + 2*a*b*kappa - az*az
		coarse, fine := mergeLossBound(a, b, kappa), mergeLossBoundFine(a, b, kappa)
		if coarse > loss || fine > loss {
			t.Fatalf("a %v, b %v, c %v: bounds %v and %v, one above the loss %v", a, b, c, coarse, fine, loss)
		}
		if fine > coarse {
			tighter++
		}
	}
	// The fine bound is above the coarse one in 190,641 of the 200,000
	// pairs (95.3 %, measured with these seeds); the threshold, a little
	// below, fails a change that makes the fine bound lose its edge.
	if tighter < trials*9/10 {
		t.Errorf("the fine bound is above the coarse one in %d of %d pairs only", tighter, trials)
	}
}

// TestMergeBoundRoots: mergeBoundRoots square roots take κ to
// κ^{1/(4·mergeBoundPieces²)}, as mergeLossBoundFine needs.
func TestMergeBoundRoots(t *testing.T) {
	if 1<<mergeBoundRoots != 4*mergeBoundPieces*mergeBoundPieces {
		t.Errorf("2^mergeBoundRoots = %d, 4·mergeBoundPieces² = %d", 1<<mergeBoundRoots, 4*mergeBoundPieces*mergeBoundPieces)
	}
}

// TestMergePartnerOrder: Maintain tries the nearest partner first and then
// skips by mergeLossBound, mergeLossBoundFine and mergeLossExceeds; it must still choose the partner of least loss,
// the lowest index among equal losses, as a plain scan of every partner
// does. Random support sets with repeated points (equal losses) and
// repeated coefficients (ties for the smallest).
func TestMergePartnerOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const b, d, gamma = 300, 3, 2.0
	for trial := range 50 {
		x := make([]float64, b*d)
		a := make([]float64, b)
		for i := range b {
			for j := range d {
				x[i*d+j] = rng.NormFloat64()
			}
			a[i] = float64(1 + rng.IntN(20))
			if i > 0 && rng.IntN(4) == 0 { // a copy of an earlier point
				c := rng.IntN(i)
				copy(x[i*d:i*d+d], x[c*d:c*d+d])
				a[i] = a[c]
			}
		}
		s := cachedSet(d, gamma, x, a)
		m := s.Smallest()
		best, bestLoss := -1, math.Inf(1)
		for n := range b {
			if n == m {
				continue
			}
			d2 := kernel.SqDist(x[m*d:m*d+d], x[n*d:n*d+d])
			_, az := mergePair(a[m], a[n], gamma*d2)
			loss := a[m]*a[m] + a[n]*a[n] + 2*a[m]*a[n]*kernel.OfSqDist(d2, gamma) - az*az
			if loss < bestLoss {
				best, bestLoss = n, loss
			}
		}
		Merge{}.Maintain(s)
		if len(s.removed) != 2 || s.removed[0] != m || s.removed[1] != best {
			t.Fatalf("trial %d: removed %v, want [%d %d]", trial, s.removed, m, best)
		}
	}
}

// TestMergeLossExceeds: mergeLossExceeds never reports that a merge loses
// more than best when the loss Merge computes (mergePair's α_z) is at most
// best, and reports it for most pairs whose loss exceeds best by 1 % of a²
// (the gaps between partners' losses that the other bounds cannot
// resolve: measured on h2mg_128_50, a median gap of 5 % of a²).
func TestMergeLossExceeds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const trials = 100000
	caught, apart := 0, 0
	for i := range trials {
		a := rng.Float64() + 1e-3
		b := a * math.Pow(10, 2*rng.Float64()*rng.Float64())
		if i%10 == 0 {
			b = a
		}
		c := 8 * rng.Float64() * rng.Float64()
		if i%100 == 0 {
			c = 800 * rng.Float64()
		}
		kappa := math.Exp(-c)
		_, az := mergePair(a, b, c)
		loss := a*a + b*b + 2*a*b*kappa - az*az
		p := mergeBoundPowers(kappa)
		if mergeLossExceeds(a, b, kappa, loss, &p) {
			t.Fatalf("a %v, b %v, c %v: the loss %v exceeds itself", a, b, c, loss)
		}
		if mergeLossExceeds(a, b, kappa, math.Nextafter(loss, math.Inf(1)), &p) {
			t.Fatalf("a %v, b %v, c %v: the loss %v exceeds one above it", a, b, c, loss)
		}
		if best := loss - 0.01*a*a; best > 0 {
			apart++
			if mergeLossExceeds(a, b, kappa, best, &p) {
				caught++
			}
		}
	}
	if caught < apart*9/10 {
		t.Errorf("a loss 1 %% of a² above best is reported in %d of %d pairs only", caught, apart)
	}
	t.Logf("%d of %d", caught, apart)
}
