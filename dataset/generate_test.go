package dataset

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func mustGenerate(t testing.TB, kind Kind, n int, seed uint64) *Dataset {
	t.Helper()
	ds, err := Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		kind   Kind
		n      int
		counts []int
	}{
		{Moons, 200, []int{100, 100}},
		{Moons, 7, []int{4, 3}},
		{Moons, 1, []int{1, 0}},
		{Nested, 700, []int{100, 200, 400}},
		{Nested, 10, []int{1, 3, 6}}, // 10/7 × (1, 2, 4) = 1.43, 2.86, 5.71
		{Nested, 1, []int{0, 0, 1}},
		{Gauss3, 300, []int{100, 100, 100}},
		{Gauss3, 5, []int{2, 2, 1}},
		{Gauss4, 402, []int{101, 101, 100, 100}},
		{Gauss4, 1, []int{1, 0, 0, 0}},
		{Circles, 1001, []int{501, 500}},
		{Varied, 1000, []int{334, 333, 333}},
		{Aniso, 1000, []int{334, 333, 333}},
		{Spirals3, 1000, []int{334, 333, 333}},
		{Grid25, 1000, slices.Repeat([]int{40}, 25)},
		{Grid25, 27, append([]int{2, 2}, slices.Repeat([]int{1}, 23)...)},
		{HD8, 1000, []int{200, 200, 200, 200, 200}},
		// 9:9:9:9:4 of 1000 is 225 per blob and 100 (10 %) of noise.
		{NoisyBlobs, 1000, []int{225, 225, 225, 225, 100}},
		// 2.25 four times and 1: the one point left goes to the first of the
		// tied remainders 0.25.
		{NoisyBlobs, 10, []int{3, 2, 2, 2, 1}},
		// 10:1 of 1000 is 909.09 and 90.91: the second remainder is larger.
		{Unbal, 1000, []int{909, 91}},
		{Line3, 1000, []int{334, 333, 333}},
		{Cube, 1000, []int{1000}},
		{Touch20, 1000, slices.Repeat([]int{50}, 20)},
		{Birch, 1000, slices.Repeat([]int{10}, 100)},
	} {
		ds := mustGenerate(t, tc.kind, tc.n, 1)
		d := map[Kind]int{HD8: 8, Cube: 3}[tc.kind]
		if d == 0 {
			d = 2
		}
		if r, c := ds.X.Dims(); r != tc.n || c != d || len(ds.Labels) != tc.n {
			t.Errorf("%s n=%d: X is %d×%d with %d labels, want %d×%d", tc.kind, tc.n, r, c, len(ds.Labels), tc.n, d)
			continue
		}
		counts := make([]int, len(ds.Classes))
		for _, k := range ds.Labels {
			counts[k]++
		}
		if !slices.Equal(counts, tc.counts) {
			t.Errorf("%s n=%d: class counts %v, want %v", tc.kind, tc.n, counts, tc.counts)
		}
		if want := []string{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8"}[:d]; !slices.Equal(ds.Names, want) {
			t.Errorf("%s: Names = %q, want %q", tc.kind, ds.Names, want)
		}
		if len(ds.Classes) != len(tc.counts) {
			t.Errorf("%s: Classes = %q", tc.kind, ds.Classes)
		}
		for k, s := range ds.Classes {
			if s != strconv.Itoa(k) {
				t.Errorf("%s: Classes = %q", tc.kind, ds.Classes)
				break
			}
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	for _, kind := range AllKinds() {
		// 2000 rows: 20 a class of Birch's 100, so that a half of the
		// rows misses a class with probability about 100·2⁻²⁰ if the
		// rows are shuffled.
		const n = 2000
		a := mustGenerate(t, kind, n, 1)
		b := mustGenerate(t, kind, n, 1)
		c := mustGenerate(t, kind, n, 2)
		// Same seed, same computation: bitwise equal.
		if !mat.Equal(a.X, b.X) || !slices.Equal(a.Labels, b.Labels) {
			t.Errorf("%s: seed 1 gives different data on two calls", kind)
		}
		if mat.Equal(a.X, c.X) {
			t.Errorf("%s: seeds 1 and 2 give the same points", kind)
		}
		// Shuffled: the first and second halves both hold several classes.
		for _, half := range [][]int{a.Labels[:n/2], a.Labels[n/2:]} {
			if k := len(slices.Compact(slices.Sorted(slices.Values(half)))); k != len(a.Classes) {
				t.Errorf("%s: a half of the rows has %d of %d classes", kind, k, len(a.Classes))
			}
		}
	}
}

// TestGenerateShapes checks that the classes lie where the doc comments say,
// which keeps them separated.
func TestGenerateShapes(t *testing.T) {
	const n = 7000
	for _, tc := range []struct {
		kind Kind
		// ok reports whether the point x of class k is where it should be.
		ok func(k int, x []float64) bool
	}{
		// Noise sd 0.08; 5 sd is 0.4, and no more than a few of 7000
		// points lie beyond 4 sd.
		{Moons, func(k int, x []float64) bool {
			if k == 0 { // upper half of the unit circle about (0, 0)
				return math.Abs(math.Hypot(x[0], x[1])-1) < 0.4 && x[1] > -0.4
			}
			// lower half of the unit circle about (1, 0.5)
			return math.Abs(math.Hypot(x[0]-1, x[1]-0.5)-1) < 0.4 && x[1] < 0.9
		}},
		// Blob sd 0.3: radius < 1.5 (5 sd). Rings sd 0.15: within 0.75.
		{Nested, func(k int, x []float64) bool {
			r := math.Hypot(x[0], x[1])
			if k == 0 {
				return r < 1.5
			}
			return math.Abs(r-2*float64(k)) < 0.75
		}},
		// sd 0.5: within 2.5 (5 sd) of the centre per coordinate.
		{Gauss3, func(k int, x []float64) bool {
			c := [][2]float64{{0, 0}, {4, 0}, {2, 2 * math.Sqrt(3)}}[k]
			return math.Abs(x[0]-c[0]) < 2.5 && math.Abs(x[1]-c[1]) < 2.5
		}},
		{Gauss4, func(k int, x []float64) bool {
			c := [][2]float64{{0, 0}, {4, 0}, {4, 4}, {0, 4}}[k]
			return math.Abs(x[0]-c[0]) < 2.5 && math.Abs(x[1]-c[1]) < 2.5
		}},
		// Radial noise sd 0.05: within 0.25 (5 sd) of the radius.
		{Circles, func(k int, x []float64) bool {
			return math.Abs(math.Hypot(x[0], x[1])-[]float64{1, 0.5}[k]) < 0.25
		}},
		// Within 5 sd of the centre per coordinate, sd 1, 2.5 and 0.5.
		{Varied, func(k int, x []float64) bool {
			c, sd := [][2]float64{{-5, -5}, {0, 5}, {5, -2}}[k], []float64{1, 2.5, 0.5}[k]
			return math.Abs(x[0]-c[0]) < 5*sd && math.Abs(x[1]-c[1]) < 5*sd
		}},
		// Mapped back by the inverse of the map of the doc comment: within
		// 5 (5 sd) of the centre per coordinate.
		{Aniso, func(k int, x []float64) bool {
			c := [][2]float64{{-4, 2}, {0, 0}, {4, -3}}[k]
			det := 0.6*0.85 - 0.64*0.41
			a, b := (0.85*x[0]+0.64*x[1])/det, (0.41*x[0]+0.6*x[1])/det
			return math.Abs(a-c[0]) < 5 && math.Abs(b-c[1]) < 5
		}},
		// Within 0.48 of its own arm: the norm of 2-D Gaussian noise with
		// sd 0.08 exceeds 6 sd with probability exp(−18) ≈ 1.5e-8.
		{Spirals3, func(k int, x []float64) bool {
			return spiralDistance(k, x) < 0.48
		}},
		{Grid25, func(k int, x []float64) bool {
			c := [2]float64{4 * float64(k%5), 4 * float64(k/5)}
			return math.Abs(x[0]-c[0]) < 2.5 && math.Abs(x[1]-c[1]) < 2.5
		}},
		// sd 1 about its own centre 4√2·(k mod 10, ⌊k/10⌋): each
		// coordinate within 5 (5 sd).
		{Birch, func(k int, x []float64) bool {
			s := 4 * math.Sqrt2
			c := [2]float64{s * float64(k%10), s * float64(k/10)}
			return math.Abs(x[0]-c[0]) < 5 && math.Abs(x[1]-c[1]) < 5
		}},
		// Blobs: sd 0.8, within 4 (5 sd). Noise: in [−7, 7]².
		{NoisyBlobs, func(k int, x []float64) bool {
			if k == 4 {
				return math.Abs(x[0]) <= 7 && math.Abs(x[1]) <= 7
			}
			c := [][2]float64{{-3, -3}, {3, 3}, {-3, 3}, {3, -3}}[k]
			return math.Abs(x[0]-c[0]) < 4 && math.Abs(x[1]-c[1]) < 4
		}},
		// 5 sd of 1 about the origin, of 0.5 about (4, 0).
		{Unbal, func(k int, x []float64) bool {
			if k == 0 {
				return math.Abs(x[0]) < 5 && math.Abs(x[1]) < 5
			}
			return math.Abs(x[0]-4) < 2.5 && math.Abs(x[1]) < 2.5
		}},
		// On the line y = 0, within 0.05 (5 sd) of 5k.
		{Line3, func(k int, x []float64) bool {
			return x[1] == 0 && math.Abs(x[0]-5*float64(k)) < 0.05
		}},
		{Cube, func(k int, x []float64) bool {
			for _, v := range x {
				if v < 0 || v >= 1 {
					return false
				}
			}
			return k == 0
		}},
	} {
		ds := mustGenerate(t, tc.kind, n, 1)
		for i, k := range ds.Labels {
			if x := ds.X.RawRowView(i); !tc.ok(k, x) {
				t.Errorf("%s: point %v of class %d is out of place", tc.kind, x, k)
			}
		}
	}
}

// spiralDistance returns the distance from x to arm k of Spirals3, the
// curve t(cos θ, sin θ), θ = 2t + 2πk/3, t ∈ [0.5, 3.5], sampled at steps
// of 0.001 in t (at most 0.004 apart, as the curve's speed √(1+4t²) is at
// most 7.1).
func spiralDistance(k int, x []float64) float64 {
	d := math.Inf(1)
	for i := 0; i <= 3000; i++ {
		t := 0.5 + float64(i)/1000
		theta := 2*t + 2*math.Pi*float64(k)/3
		d = math.Min(d, math.Hypot(x[0]-t*math.Cos(theta), x[1]-t*math.Sin(theta)))
	}
	return d
}

// moments returns the mean and the population covariance matrix of the
// rows of ds of class k (all rows if k < 0).
func moments(ds *Dataset, k int) (mean []float64, cov [][]float64) {
	_, d := ds.X.Dims()
	mean = make([]float64, d)
	var rows [][]float64
	for i, c := range ds.Labels {
		if k < 0 || c == k {
			rows = append(rows, ds.X.RawRowView(i))
		}
	}
	for _, x := range rows {
		for j := range x {
			mean[j] += x[j] / float64(len(rows))
		}
	}
	cov = make([][]float64, d)
	for a := range cov {
		cov[a] = make([]float64, d)
		for _, x := range rows {
			for b := range x {
				cov[a][b] += (x[a] - mean[a]) * (x[b] - mean[b]) / float64(len(rows))
			}
		}
	}
	return mean, cov
}

// TestGenerateMoments checks the spreads that TestGenerateShapes does not,
// on 7000 points of seed 1. Each tolerance is about 5 standard errors of
// its estimate or more, as stated.
func TestGenerateMoments(t *testing.T) {
	const n = 7000

	// Varied: 2333 points a class; the standard error of a standard
	// deviation is σ/√(2·2333) = 1.5 % of σ. Tolerance 10 %.
	ds := mustGenerate(t, Varied, n, 1)
	for k, sd := range []float64{1, 2.5, 0.5} {
		_, cov := moments(ds, k)
		for j := range 2 {
			if got := math.Sqrt(cov[j][j]); math.Abs(got-sd) > 0.1*sd {
				t.Errorf("varied class %d: sd of x%d %.3f, want %v", k, j+1, got, sd)
			}
		}
	}

	// Aniso: the map A = [[0.6, −0.64], [−0.41, 0.85]] of unit Gaussians
	// has covariance AAᵀ and correlation −0.79/√(0.7696·0.8906) = −0.954;
	// the standard error of a correlation ρ from m points is about
	// (1 − ρ²)/√m = 0.002 for m = 2333. Tolerance 0.015.
	ds = mustGenerate(t, Aniso, n, 1)
	want := (0.6*-0.41 + -0.64*0.85) / math.Sqrt((0.6*0.6+0.64*0.64)*(0.41*0.41+0.85*0.85))
	for k := range 3 {
		_, cov := moments(ds, k)
		if r := cov[0][1] / math.Sqrt(cov[0][0]*cov[1][1]); math.Abs(r-want) > 0.015 {
			t.Errorf("aniso class %d: correlation %.4f, want %.4f", k, r, want)
		}
	}

	// HD8: unit sd in each coordinate about the class mean (1400 points a
	// class: standard error 1/√2800 = 0.019; tolerance 0.1). The 40
	// coordinates of the 5 centres are drawn with sd 4; the sd of 40 such
	// draws has a standard error of about 4/√80 = 0.45, so it must lie in
	// [2.5, 5.5] (3.3 standard errors).
	ds = mustGenerate(t, HD8, n, 1)
	var centres []float64
	for k := range 5 {
		mean, cov := moments(ds, k)
		for j := range 8 {
			if got := math.Sqrt(cov[j][j]); math.Abs(got-1) > 0.1 {
				t.Errorf("hd8 class %d: sd of x%d %.3f, want 1", k, j+1, got)
			}
		}
		centres = append(centres, mean...)
	}
	var ss float64
	for _, c := range centres {
		ss += c * c // about 0, the mean of the draws
	}
	if sd := math.Sqrt(ss / float64(len(centres))); sd < 2.5 || sd > 5.5 {
		t.Errorf("hd8: the centres' coordinates have rms %.2f, want about 4", sd)
	}
	other, _ := moments(mustGenerate(t, HD8, n, 2), 0)
	if d := math.Sqrt(floatsDist2(centres[:8], other)); d < 1 {
		t.Errorf("hd8: class 0 centred %.2f apart for seeds 1 and 2; the centres should be drawn from the seed", d)
	}

	// NoisyBlobs: 700 noise points; each quadrant holds a quarter of the
	// square, with standard error √(0.25·0.75/700) = 0.016. Tolerance 0.08.
	ds = mustGenerate(t, NoisyBlobs, n, 1)
	var quadrant [4]float64
	noise := 0
	for i, k := range ds.Labels {
		if k == 4 {
			x := ds.X.RawRowView(i)
			q := 0
			if x[0] > 0 {
				q++
			}
			if x[1] > 0 {
				q += 2
			}
			quadrant[q]++
			noise++
		}
	}
	if noise != n/10 {
		t.Errorf("noisyblobs: %d noise points of %d, want 10 %%", noise, n)
	}
	for q, c := range quadrant {
		if share := c / float64(noise); math.Abs(share-0.25) > 0.08 {
			t.Errorf("noisyblobs: quadrant %d holds %.3f of the noise, want 0.25", q, share)
		}
	}

	// Cube: uniform on [0, 1) has mean 1/2 and variance 1/12; standard
	// errors 0.0035 and 0.0009 (the variance of (x − ½)² is
	// 1/80 − 1/144). Tolerances 0.02 and 0.005.
	mean, cov := moments(mustGenerate(t, Cube, n, 1), -1)
	for j := range 3 {
		if math.Abs(mean[j]-0.5) > 0.02 || math.Abs(cov[j][j]-1.0/12) > 0.005 {
			t.Errorf("cube: x%d has mean %.4f and variance %.4f, want 0.5 and %.4f", j+1, mean[j], cov[j][j], 1.0/12)
		}
	}
}

// floatsDist2 returns the squared distance between a and b.
func floatsDist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate(Moons, 0, 1); err == nil {
		t.Error("n=0: no error")
	}
	if _, err := Generate("spiral", 10, 1); err == nil {
		t.Error("unknown kind: no error")
	}
	for _, k := range Kinds() {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	for _, k := range AllKinds() {
		if got, err := ParseKind(strings.ToUpper(string(k))); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", strings.ToUpper(string(k)), got, err)
		}
		if _, ok := shapes[k]; !ok {
			t.Errorf("%s has no shape", k)
		}
	}
	if len(shapes) != len(AllKinds()) {
		t.Errorf("%d shapes, %d kinds", len(shapes), len(AllKinds()))
	}
	if !slices.Equal(AllKinds()[:4], Kinds()) {
		t.Errorf("AllKinds() = %v does not start with Kinds() = %v", AllKinds(), Kinds())
	}
	_, err := ParseKind("spiral")
	if want := `dataset: unknown kind "spiral" (valid: moons, nested, gauss3, gauss4, circles, varied, aniso, spirals3, grid25, hd8, noisyblobs, unbal, line3, cube, touch20, birch)`; err == nil || err.Error() != want {
		t.Errorf("ParseKind(spiral) error = %v, want %s", err, want)
	}
}
