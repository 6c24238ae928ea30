package metrics

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rowsOf returns the row-major x of rows of d values as a mat.Matrix: a
// *mat.Dense, or for no rows an empty matrix of d columns, which mat.Dense
// cannot be.
func rowsOf(x []float64, d int) mat.Matrix {
	if len(x) == 0 {
		return emptyRows(d)
	}
	return mat.NewDense(len(x)/d, d, x)
}

// emptyRows is a matrix of no rows and that many columns.
type emptyRows int

func (e emptyRows) Dims() (int, int)    { return 0, int(e) }
func (e emptyRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (e emptyRows) T() mat.Matrix       { return mat.Transpose{Matrix: e} }

// tol is the tolerance for reference values that are exact fractions or
// short sums of logarithms. Each is computed here in a handful of
// float64 operations, so the error is a few ulps (~1e-15); 1e-12 leaves
// a wide margin and still catches any wrong formula.
const tol = 1e-12

// equal reports whether got and want agree within tol, absolutely or
// relatively, treating NaN as equal to NaN and ±Inf as equal to itself.
func equal(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	d := math.Abs(got - want)
	return d <= tol || d <= tol*math.Abs(want)
}

// irTruth and irPred are the example of Figure 16.4 of
//
//	C. D. Manning, P. Raghavan and H. Schütze, Introduction to Information
//	Retrieval, Cambridge University Press, 2008, section 16.3:
//
// 17 points in three clusters, of classes x (0), o (1) and ◇ (2):
// cluster 1 = 5 x + 1 o, cluster 2 = 1 x + 4 o + 1 ◇, cluster 3 = 2 x + 3 ◇.
var (
	irPred  = []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3}
	irTruth = []int{0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2}
)

// irNMI is the NMI of the IR book example written out term by term.
// Class sizes a = (8, 5, 4), cluster sizes b = (6, 6, 5), N = 17, and
//
//	I = Σ (N_ij/N) log(N N_ij / (a_i b_j)) over the seven non-zero cells,
//	H(Ω) = −Σ (a_i/N) log(a_i/N),  H(C) = −Σ (b_j/N) log(b_j/N).
var irNMI = func() float64 {
	l := math.Log
	mi := (5*l(17.*5/(8*6)) + 1*l(17.*1/(5*6)) + // cluster 1: 5 x, 1 o
		1*l(17.*1/(8*6)) + 4*l(17.*4/(5*6)) + 1*l(17.*1/(4*6)) + // cluster 2: 1 x, 4 o, 1 ◇
		2*l(17.*2/(8*5)) + 3*l(17.*3/(4*5))) / 17 // cluster 3: 2 x, 3 ◇
	h := func(sizes ...float64) (h float64) {
		for _, s := range sizes {
			h -= s / 17 * l(s/17)
		}
		return h
	}
	return mi / ((h(8, 5, 4) + h(6, 6, 5)) / 2)
}()

var externalTests = []struct {
	name                   string
	truth, pred            []int
	purity, rand, ari, nmi float64
}{
	{
		// Purity = (5 + 4 + 3)/17 (book: 0.71). Pairs: P = C(17,2) = 136,
		// TP = C(5,2)+C(4,2)+C(3,2)+C(2,2) = 20, same cluster b = 15+15+10 = 40,
		// same class a = 28+10+6 = 44, so FP = 20, FN = 24, TN = 72 and
		// RI = 92/136 (book: 0.68). ARI = (20 − 44·40/136)/(42 − 44·40/136)
		// = (120/17)/(494/17) = 60/247. NMI: irNMI (book: 0.36).
		name:  "IR book 16.4",
		truth: irTruth, pred: irPred,
		purity: 12.0 / 17, rand: 92.0 / 136, ari: 60.0 / 247, nmi: irNMI,
	},
	{
		// scikit-learn's docstring examples: rand_score 0.83…, adjusted_rand_score
		// 0.57…, v_measure_score (= NMI, arithmetic) 0.8…. By hand: cells
		// (0,0)=2, (1,1)=1, (2,1)=1; clusters {0,0} and {1,2} so purity 3/4.
		// P = 6, TP = 1, a = 1, b = 2: RI = (6+2−1−2)/6 = 5/6,
		// ARI = (1 − 2/6)/(3/2 − 2/6) = 4/7. H(Ω) = (3/2)ln2, H(C) = ln2,
		// I = (1/2)ln2 + (1/4)ln2 + (1/4)ln2 = ln2, NMI = 1/(5/4) = 0.8.
		name:  "sklearn split class",
		truth: []int{0, 0, 1, 2}, pred: []int{0, 0, 1, 1},
		purity: 3.0 / 4, rand: 5.0 / 6, ari: 4.0 / 7, nmi: 0.8,
	},
	{
		// scikit-learn docstring: adjusted_rand_score = −0.5. Every cell is 1:
		// TP = 0, a = b = 2, P = 6; RI = (6−4)/6 = 1/3;
		// ARI = (0 − 4/6)/(2 − 4/6) = −1/2. The table is the product of its
		// margins, so I = 0 and NMI = 0. Each cluster holds one of each class:
		// purity 1/2.
		name:  "negative ARI",
		truth: []int{0, 0, 1, 1}, pred: []int{0, 1, 0, 1},
		purity: 0.5, rand: 1.0 / 3, ari: -0.5, nmi: 0,
	},
	{
		// Outliers form their own group: clusters {0,0}, {0,1} (the −1s) and
		// {1,1}. Purity = (2+1+2)/6. P = 15, TP = 2, a = 3+3 = 6, b = 1+1+1 = 3:
		// RI = (15+4−6−3)/15 = 2/3, ARI = (2 − 18/15)/(9/2 − 18/15) = 8/33.
		// H(Ω) = ln2, H(C) = ln3, I = 2·(1/3)ln(6·2/(3·2)) + 2·(1/6)ln(6/(3·2))
		// = (2/3)ln2, NMI = (4/3)ln2/ln6.
		name:  "outliers are a group",
		truth: []int{0, 0, 0, 1, 1, 1}, pred: []int{0, 0, -1, 1, 1, -1},
		purity: 5.0 / 6, rand: 2.0 / 3, ari: 8.0 / 33, nmi: 4.0 / 3 * math.Ln2 / math.Log(6),
	},
	{
		name:  "identical up to relabelling",
		truth: []int{0, 0, 1, 1, 2, 2, -1}, pred: []int{5, 5, -1, -1, 3, 3, 7},
		purity: 1, rand: 1, ari: 1, nmi: 1,
	},
	{
		// Zero-entropy limit: scikit-learn returns 1 for ARI and NMI.
		name:  "both one group",
		truth: []int{3, 3, 3}, pred: []int{0, 0, 0},
		purity: 1, rand: 1, ari: 1, nmi: 1,
	},
	{
		// ARI's denominator is 0 (a = b = 0); identical, so 1.
		// NMI: H = I = ln4.
		name:  "both singletons",
		truth: []int{0, 1, 2, 3}, pred: []int{4, 5, 6, 7},
		purity: 1, rand: 1, ari: 1, nmi: 1,
	},
	{
		// scikit-learn docstring: adjusted_rand_score and
		// normalized_mutual_info_score of [0 0 0 0] and [0 1 2 3] are 0.
		// Each singleton is pure: purity 1. TP = 0, a = 6, b = 0: RI = 0,
		// ARI = (0 − 0)/(3 − 0) = 0.
		name:  "one class, singleton clusters",
		truth: []int{0, 0, 0, 0}, pred: []int{0, 1, 2, 3},
		purity: 1, rand: 0, ari: 0, nmi: 0,
	},
	{
		// The mirror image: purity 1/4, the pair indices are symmetric.
		name:  "singleton classes, one cluster",
		truth: []int{0, 1, 2, 3}, pred: []int{0, 0, 0, 0},
		purity: 0.25, rand: 0, ari: 0, nmi: 0,
	},
	{
		name:  "one point",
		truth: []int{7}, pred: []int{-1},
		purity: 1, rand: 1, ari: 1, nmi: 1,
	},
	{
		// Far-apart labels take the map path of newCoder; the span
		// MaxInt − MinInt must not overflow. Same values as "sklearn split class".
		name:  "extreme label values",
		truth: []int{math.MinInt, math.MinInt, 0, math.MaxInt}, pred: []int{math.MaxInt, math.MaxInt, -1, -1},
		purity: 3.0 / 4, rand: 5.0 / 6, ari: 4.0 / 7, nmi: 0.8,
	},
	{
		name:  "empty",
		truth: []int{}, pred: nil,
		purity: math.NaN(), rand: math.NaN(), ari: math.NaN(), nmi: math.NaN(),
	},
}

func TestExternal(t *testing.T) {
	for _, test := range externalTests {
		for _, fn := range []struct {
			name string
			f    func(truth, pred []int) float64
			want float64
		}{
			{"Purity", Purity, test.purity},
			{"Rand", Rand, test.rand},
			{"AdjustedRand", AdjustedRand, test.ari},
			{"NMI", NMI, test.nmi},
		} {
			if got := fn.f(test.truth, test.pred); !equal(got, fn.want, tol) {
				t.Errorf("%s: %s = %v, want %v", test.name, fn.name, got, fn.want)
			}
		}
		// Rand, ARI and NMI are symmetric.
		for _, fn := range []struct {
			name string
			f    func(truth, pred []int) float64
		}{{"Rand", Rand}, {"AdjustedRand", AdjustedRand}, {"NMI", NMI}} {
			a, b := fn.f(test.truth, test.pred), fn.f(test.pred, test.truth)
			if !equal(a, b, tol) {
				t.Errorf("%s: %s not symmetric: %v and %v", test.name, fn.name, a, b)
			}
		}
	}
}

// TestIRBookPublished checks the rounded values printed in section 16.3 of
// Manning, Raghavan and Schütze (purity 0.71, NMI 0.36, RI 0.68). The book
// gives two decimals, so the tolerance is half a unit in the last place.
func TestIRBookPublished(t *testing.T) {
	const tol = 0.005
	for _, test := range []struct {
		name string
		got  float64
		want float64
	}{
		{"purity", Purity(irTruth, irPred), 0.71},
		{"NMI", NMI(irTruth, irPred), 0.36},
		{"RI", Rand(irTruth, irPred), 0.68},
	} {
		if math.Abs(test.got-test.want) > tol {
			t.Errorf("%s = %v, book gives %v", test.name, test.got, test.want)
		}
	}
}

// randomLabels returns n labels drawn uniformly from lo, …, lo+k−1.
func randomLabels(rnd *rand.Rand, n, k, lo int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = lo + rnd.IntN(k)
	}
	return l
}

// bruteForcePairs counts, over all pairs i < j, TP (same class, same
// cluster), FP, FN and TN by the definition, in O(N²).
func bruteForcePairs(truth, pred []int) (tp, fp, fn, tn int) {
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			sameT, sameP := truth[i] == truth[j], pred[i] == pred[j]
			switch {
			case sameT && sameP:
				tp++
			case sameP:
				fp++
			case sameT:
				fn++
			default:
				tn++
			}
		}
	}
	return tp, fp, fn, tn
}

// TestPairCountsBruteForce compares Rand and AdjustedRand with the pair
// counts of an O(N²) loop on random labellings, with both table layouts.
// ARI is checked against scikit-learn's form in pair counts,
// 2(TP·TN − FN·FP) / ((TP+FN)(FN+TN) + (TP+FP)(FP+TN)), which is
// algebraically equal to Hubert and Arabie's.
func TestPairCountsBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, test := range []struct{ n, k1, k2 int }{
		{2, 2, 2}, {3, 1, 3}, {10, 2, 3}, {50, 5, 4}, {200, 3, 20}, {300, 300, 300}, {500, 7, 1},
	} {
		truth := randomLabels(rnd, test.n, test.k1, -1)
		pred := randomLabels(rnd, test.n, test.k2, -1)
		tp, fp, fn, tn := bruteForcePairs(truth, pred)
		wantRand := float64(tp+tn) / float64(tp+fp+fn+tn)
		wantARI := 1.0
		if fp != 0 || fn != 0 {
			wantARI = 2 * float64(tp*tn-fn*fp) / float64((tp+fn)*(fn+tn)+(tp+fp)*(fp+tn))
		}
		for _, layout := range []int{dense, sparse} {
			c := newContingency(truth, pred, layout)
			if got := randIndex(&c); !equal(got, wantRand, tol) {
				t.Errorf("n=%d k=%d,%d layout %d: Rand = %v, brute force %v", test.n, test.k1, test.k2, layout, got, wantRand)
			}
			if got := adjustedRand(&c); !equal(got, wantARI, tol) {
				t.Errorf("n=%d k=%d,%d layout %d: ARI = %v, brute force %v", test.n, test.k1, test.k2, layout, got, wantARI)
			}
		}
		if got := Rand(truth, pred); !equal(got, wantRand, tol) {
			t.Errorf("n=%d k=%d,%d: Rand = %v, brute force %v", test.n, test.k1, test.k2, got, wantRand)
		}
	}
}

// TestLayouts checks that the dense and sparse tables give bit-identical
// indices: both visit the cells in row-major order.
func TestLayouts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, test := range []struct{ n, k1, k2 int }{{100, 4, 6}, {1000, 900, 50}, {64, 64, 64}} {
		truth := randomLabels(rnd, test.n, test.k1, 0)
		pred := randomLabels(rnd, test.n, test.k2, -1)
		d := newContingency(truth, pred, dense)
		s := newContingency(truth, pred, sparse)
		for _, fn := range []struct {
			name string
			f    func(*contingency) float64
		}{{"purity", purity}, {"Rand", randIndex}, {"ARI", adjustedRand}, {"NMI", nmi}} {
			if a, b := fn.f(&d), fn.f(&s); a != b {
				t.Errorf("n=%d k=%d,%d: %s dense %v, sparse %v", test.n, test.k1, test.k2, fn.name, a, b)
			}
		}
	}
}

// TestInvariance checks that relabelling the values of either labelling
// changes no score at all (labels are numbered by first appearance, so
// every sum runs in the same order), that relabelling pred as itself gives
// 1, and that shuffling the points changes scores only by rounding.
func TestInvariance(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	funcs := []struct {
		name string
		f    func(truth, pred []int) float64
	}{{"Purity", Purity}, {"Rand", Rand}, {"AdjustedRand", AdjustedRand}, {"NMI", NMI}}
	for _, n := range []int{5, 40, 1000} {
		truth := randomLabels(rnd, n, 4, -1)
		pred := randomLabels(rnd, n, 6, -1)

		// A bijection of label values that mixes small, negative and huge
		// values, so both lookups of a coder are exercised.
		image := []int{math.MaxInt, 17, -1, math.MinInt + 3, 0, 1 << 40, -99}
		relabel := func(l []int) []int {
			perm := rnd.Perm(len(image))
			r := make([]int, len(l))
			for i, v := range l {
				r[i] = image[perm[v+1]]
			}
			return r
		}
		truth2, pred2 := relabel(truth), relabel(pred)

		perm := rnd.Perm(n)
		truth3, pred3 := make([]int, n), make([]int, n)
		for i, p := range perm {
			truth3[i], pred3[i] = truth[p], pred[p]
		}

		for _, fn := range funcs {
			want := fn.f(truth, pred)
			if got := fn.f(truth2, pred2); got != want {
				t.Errorf("n=%d: %s relabelled = %v, want %v", n, fn.name, got, want)
			}
			if got := fn.f(truth3, pred3); !equal(got, want, tol) {
				t.Errorf("n=%d: %s shuffled = %v, want %v", n, fn.name, got, want)
			}
			if got := fn.f(pred, pred2); got != 1 {
				t.Errorf("n=%d: %s of a relabelling = %v, want exactly 1", n, fn.name, got)
			}
		}
	}
}

func TestNumClusters(t *testing.T) {
	for _, test := range []struct {
		pred []int
		want int
	}{
		{nil, 0},
		{[]int{-1, -1}, 0},
		{[]int{4}, 1},
		{[]int{0, 1, -1, 1}, 2},
		{[]int{-2, -1, 5, 5, -2}, 2},
		{[]int{math.MinInt, math.MaxInt, -1}, 2},
	} {
		if got := NumClusters(test.pred); got != test.want {
			t.Errorf("NumClusters(%v) = %d, want %d", test.pred, got, test.want)
		}
	}
}

var dbTests = []struct {
	name string
	x    []float64
	d    int
	pred []int
	want float64
}{
	{
		// A = {0, 2}: centroid 1, s = 1. B = {10, 14}: centroid 12, s = 2.
		// DB = (1+2)/11 for both clusters.
		name: "1-D two clusters",
		x:    []float64{0, 2, 10, 14},
		d:    1, pred: []int{0, 0, 1, 1},
		want: 3.0 / 11,
	},
	{
		// As above plus C = {20}: centroid 20, s = 0, and outliers at 100
		// and −50 that must be ignored. R_AB = 3/11, R_AC = 1/19,
		// R_BC = 2/8. D_A = 3/11, D_B = max(3/11, 1/4) = 3/11,
		// D_C = max(1/19, 1/4) = 1/4. DB = (6/11 + 1/4)/3 = 35/132.
		name: "1-D three clusters and outliers",
		x:    []float64{100, 0, 2, 10, -50, 14, 20},
		d:    1, pred: []int{-1, 7, 7, 3, -1, 3, 5},
		want: 35.0 / 132,
	},
	{
		// A = {(0,0), (6,8)}: centroid (3,4), s = 5 (a 6-8-10 triangle halved).
		// B = {(15,19), (15,21)}: centroid (15,20), s = 1.
		// M = ‖(12,16)‖ = 20. DB = 6/20.
		name: "2-D",
		x:    []float64{0, 0, 15, 19, 6, 8, 15, 21},
		d:    2, pred: []int{0, 1, 0, 1},
		want: 0.3,
	},
	{
		// A = {−1, 1}: centroid 0, s = 1. B = {0}: centroid 0, s = 0.
		// M = 0 and s_A + s_B = 1: the ratio is +Inf.
		name: "coincident centroids",
		x:    []float64{-1, 1, 0},
		d:    1, pred: []int{0, 0, 1},
		want: math.Inf(1),
	},
	{
		// A = {0, 0} and B = {0}: M = 0 and s_A + s_B = 0: the ratio is 0.
		name: "coincident points",
		x:    []float64{0, 0, 0},
		d:    1, pred: []int{0, 0, 1},
		want: 0,
	},
	{
		name: "one cluster",
		x:    []float64{0, 1, 2},
		d:    1, pred: []int{4, 4, 4},
		want: math.NaN(),
	},
	{
		// −1 is not a cluster, so only one is left.
		name: "one cluster and outliers",
		x:    []float64{0, 1, 2},
		d:    1, pred: []int{4, -1, 4},
		want: math.NaN(),
	},
	{
		name: "all outliers",
		x:    []float64{0, 1},
		d:    1, pred: []int{-1, -1},
		want: math.NaN(),
	},
	{
		name: "empty",
		d:    3,
		want: math.NaN(),
	},
}

func TestDaviesBouldin(t *testing.T) {
	for _, test := range dbTests {
		if got := DaviesBouldin(rowsOf(test.x, test.d), test.pred); !equal(got, test.want, tol) {
			t.Errorf("%s: DaviesBouldin = %v, want %v", test.name, got, test.want)
		}
	}
}

var compactnessTests = []struct {
	name string
	x    []float64
	d    int
	pred []int
	want float64
}{
	{
		// Pairwise distances 3, 4 and 5 (a 3-4-5 triangle): mean 4, N = 3,
		// Compactness = 3·4/3 = 4.
		name: "2-D triangle",
		x:    []float64{0, 0, 3, 0, 0, 4},
		d:    2, pred: []int{1, 1, 1},
		want: 4,
	},
	{
		// A = {0, 2, 6}: pairs 2, 6, 4, mean 4. B = {10}: contributes 0.
		// Outliers {100, 104}: one pair, mean 4. N = 6:
		// Compactness = (3·4 + 1·0 + 2·4)/6 = 10/3.
		name: "1-D with singleton and outliers",
		x:    []float64{0, 100, 2, 10, 104, 6},
		d:    1, pred: []int{0, -1, 0, 5, -1, 0},
		want: 10.0 / 3,
	},
	{
		// Two 1-D clusters of two points: distances 1 and 3, each weighted
		// by 2: (2·1 + 2·3)/4 = 2.
		name: "two pairs",
		x:    []float64{0, 1, 10, 13},
		d:    1, pred: []int{0, 0, 1, 1},
		want: 2,
	},
	{
		name: "singletons",
		x:    []float64{0, 5, 9},
		d:    1, pred: []int{0, 1, 2},
		want: 0,
	},
	{
		name: "empty",
		d:    2,
		want: math.NaN(),
	},
}

func TestCompactness(t *testing.T) {
	for _, test := range compactnessTests {
		if got := Compactness(rowsOf(test.x, test.d), test.pred); !equal(got, test.want, tol) {
			t.Errorf("%s: Compactness = %v, want %v", test.name, got, test.want)
		}
	}
}

// TestCompactnessBruteForce checks Compactness against the paper's formula
// evaluated with a full distance matrix on random data.
func TestCompactnessBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	const n, d = 60, 3
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	pred := randomLabels(rnd, n, 5, -1)
	var total float64
	for _, k := range []int{-1, 0, 1, 2, 3} {
		var sum float64
		var nk int
		for i := range n {
			if pred[i] != k {
				continue
			}
			nk++
			for j := i + 1; j < n; j++ {
				if pred[j] == k {
					sum += dist(x[i*d:(i+1)*d], x[j*d:(j+1)*d])
				}
			}
		}
		if nk > 1 {
			total += float64(nk) * sum / float64(nk*(nk-1)/2)
		}
	}
	want := total / n
	if got := Compactness(mat.NewDense(n, d, x), pred); !equal(got, want, tol) {
		t.Errorf("Compactness = %v, brute force %v", got, want)
	}
}

func TestEvaluate(t *testing.T) {
	x := []float64{100, 0, 2, 10, -50, 14, 20}
	truth := []int{0, 0, 0, 1, 1, 1, 2}
	pred := []int{-1, 7, 7, 3, -1, 3, 5}
	got := Evaluate(mat.NewDense(len(x), 1, x), truth, pred)
	// Evaluate shares one table, but the sums run as in the separate
	// functions, so the results are identical.
	want := Validity{
		Purity:      Purity(truth, pred),
		Rand:        Rand(truth, pred),
		ARI:         AdjustedRand(truth, pred),
		NMI:         NMI(truth, pred),
		DB:          DaviesBouldin(mat.NewDense(len(x), 1, x), pred),
		Compactness: Compactness(mat.NewDense(len(x), 1, x), pred),
		Clusters:    3,
	}
	if got != want {
		t.Errorf("Evaluate = %+v, want %+v", got, want)
	}

	// A view of a wider matrix, whose rows are copied, gives the same.
	wide := mat.NewDense(len(x), 2, nil)
	wide.SetCol(1, x)
	if got := Evaluate(wide.Slice(0, len(x), 1, 2), truth, pred); got != want {
		t.Errorf("Evaluate of a view = %+v, want %+v", got, want)
	}

	got = Evaluate(nil, nil, pred)
	for name, v := range map[string]float64{
		"Purity": got.Purity, "Rand": got.Rand, "ARI": got.ARI, "NMI": got.NMI,
		"DB": got.DB, "Compactness": got.Compactness,
	} {
		if !math.IsNaN(v) {
			t.Errorf("Evaluate without truth and data: %s = %v, want NaN", name, v)
		}
	}
	if got.Clusters != 3 {
		t.Errorf("Evaluate without truth and data: Clusters = %d, want 3", got.Clusters)
	}
}

func TestPanics(t *testing.T) {
	for _, test := range []struct {
		name string
		f    func()
		want string
	}{
		{"Purity", func() { Purity([]int{0}, []int{0, 1}) }, badLength},
		{"Rand", func() { Rand([]int{0, 1}, nil) }, badLength},
		{"AdjustedRand", func() { AdjustedRand(nil, []int{0}) }, badLength},
		{"NMI", func() { NMI([]int{0, 0, 0}, []int{1, 1}) }, badLength},
		{"Evaluate labels", func() { Evaluate(nil, []int{0}, []int{0, 0}) }, badLength},
		{"DaviesBouldin rows", func() { DaviesBouldin(mat.NewDense(1, 3, nil), []int{0, 1}) }, badData},
		{"Compactness rows", func() { Compactness(mat.NewDense(1, 1, nil), []int{0, 1}) }, badData},
		{"Evaluate rows", func() { Evaluate(mat.NewDense(2, 1, nil), nil, []int{0}) }, badData},
	} {
		func() {
			defer func() {
				r := recover()
				if r != test.want {
					t.Errorf("%s: panic %v, want %q", test.name, r, test.want)
				}
			}()
			test.f()
		}()
	}
}

func TestValidityJSON(t *testing.T) {
	in := Validity{
		Purity: 0.5, Rand: math.NaN(), ARI: -0.25, NMI: 1,
		DB: math.Inf(1), Compactness: 0.1, Clusters: 3,
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	const wantJSON = `{"purity":0.5,"rand":null,"ari":-0.25,"nmi":1,"db":null,"compactness":0.1,"clusters":3}`
	if string(b) != wantJSON {
		t.Errorf("Marshal = %s, want %s", b, wantJSON)
	}
	// A pointer must encode the same way.
	if bp, err := json.Marshal(&in); err != nil || string(bp) != wantJSON {
		t.Errorf("Marshal(&s) = %s, %v, want %s", bp, err, wantJSON)
	}

	var out Validity
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	// Inf went out as null, so it comes back as NaN. encoding/json writes
	// the shortest representation that parses back to the same float64,
	// so the finite fields round-trip exactly.
	want := in
	want.DB = math.NaN()
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"purity", out.Purity, want.Purity}, {"rand", out.Rand, want.Rand},
		{"ari", out.ARI, want.ARI}, {"nmi", out.NMI, want.NMI},
		{"db", out.DB, want.DB}, {"compactness", out.Compactness, want.Compactness},
	} {
		if f.got != f.want && !(math.IsNaN(f.got) && math.IsNaN(f.want)) {
			t.Errorf("round trip: %s = %v, want %v", f.name, f.got, f.want)
		}
	}
	if out.Clusters != want.Clusters {
		t.Errorf("round trip: clusters = %d, want %d", out.Clusters, want.Clusters)
	}

	// Inside another value, and a missing field keeps its value.
	var wrapped struct{ S []Validity }
	if err := json.Unmarshal([]byte(`{"S":[{"purity":null,"clusters":2}]}`), &wrapped); err != nil {
		t.Fatalf("Unmarshal wrapped: %v", err)
	}
	if s := wrapped.S[0]; !math.IsNaN(s.Purity) || s.Rand != 0 || s.Clusters != 2 {
		t.Errorf("Unmarshal wrapped = %+v, want purity NaN, rand 0, clusters 2", s)
	}

	if err := json.Unmarshal([]byte(`{"purity":"high"}`), &out); err == nil ||
		!strings.Contains(err.Error(), "purity") {
		t.Errorf("Unmarshal of a string: err = %v, want a type error naming purity", err)
	}
}

func benchmarkAdjustedRand(b *testing.B, n, k int) {
	rnd := rand.New(rand.NewPCG(1, 1))
	truth := randomLabels(rnd, n, k, -1)
	pred := randomLabels(rnd, n, k, -1)
	b.ReportAllocs()
	for b.Loop() {
		AdjustedRand(truth, pred)
	}
}

func BenchmarkAdjustedRand(b *testing.B) {
	for _, bm := range []struct {
		name string
		n, k int
	}{
		{"n=1e4/k=10", 1e4, 10},
		{"n=1e5/k=10", 1e5, 10},
		{"n=1e4/k=1e4", 1e4, 1e4}, // sparse layout
	} {
		b.Run(bm.name, func(b *testing.B) { benchmarkAdjustedRand(b, bm.n, bm.k) })
	}
}

func BenchmarkCompactness(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	const n, d, k = 2000, 8, 5
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	pred := randomLabels(rnd, n, k, 0)
	m := mat.NewDense(n, d, x)
	b.ReportAllocs()
	for b.Loop() {
		Compactness(m, pred)
	}
}
