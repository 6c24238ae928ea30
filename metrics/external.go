package metrics

import "math"

// Panic messages.
const (
	badLength = "metrics: label slices of different lengths"
	badData   = "metrics: data length is not len(pred)*d"
)

// outlier is the label of a point that belongs to no cluster.
const outlier = -1

// checkLabels panics if truth and pred differ in length.
func checkLabels(truth, pred []int) {
	if len(truth) != len(pred) {
		panic(badLength)
	}
}

// external returns index of the contingency table of truth and pred, or
// NaN if they are empty. It panics if their lengths differ.
func external(truth, pred []int, index func(*contingency) float64) float64 {
	checkLabels(truth, pred)
	if len(truth) == 0 {
		return math.NaN()
	}
	c := newContingency(truth, pred, auto)
	return index(&c)
}

// fill sets the external indices of s, purity, Rand, ARI and NMI, from c.
// Evaluate and Table.Validity both use it, so they agree bit for bit.
func (c *contingency) fill(s *Validity) {
	s.Purity = purity(c)
	s.Rand = randIndex(c)
	s.ARI = adjustedRand(c)
	s.NMI = nmi(c)
}

// Purity returns the purity of the clustering pred with respect to the
// classes truth,
//
//	Purity = (1/N) Σ_j max_i N_ij,
//
// where N_ij is the number of points of class i in cluster j: each cluster
// is credited with its most frequent class. Purity lies in (0, 1], and
// larger is better. It rewards many small clusters: N singletons have
// purity 1.
//
// The paper indexes clusters by i and classes by j and writes
// p_ij = N_ij/N_j, which would divide by the size of class j. That is a
// typo. Its own words ("the empirical distribution over class labels for
// cluster i") and the standard definition used here divide by the size of
// the cluster, p_ij = N_ij/N_i:
//
//	C. D. Manning, P. Raghavan and H. Schütze, Introduction to Information
//	Retrieval, Cambridge University Press, 2008, section 16.3.
//
// Purity returns NaN if the slices are empty, and panics if their lengths
// differ.
func Purity(truth, pred []int) float64 {
	return external(truth, pred, purity)
}

func purity(c *contingency) float64 {
	best := make([]int, len(c.cols))
	c.each(func(_, j, nij int) { best[j] = max(best[j], nij) })
	sum := 0
	for _, v := range best {
		sum += v
	}
	return float64(sum) / float64(c.n)
}

// Rand returns the Rand index of truth and pred, the fraction of the
// N(N−1)/2 pairs of points on which the two partitions agree:
//
//	Rand = (TP + TN) / (TP + FP + TN + FN),
//
// where TP counts pairs in the same class and the same cluster, TN pairs in
// different classes and different clusters, and FP and FN the two kinds of
// disagreement. The counts come from the contingency table, not from a
// loop over pairs. Rand lies in [0, 1], and larger is better.
//
//	W. M. Rand, Objective criteria for the evaluation of clustering
//	methods, Journal of the American Statistical Association 66 (1971)
//	846–850.
//
// Rand returns NaN if the slices are empty and 1 if they hold one point,
// which has no pairs to disagree on. It panics if their lengths differ.
func Rand(truth, pred []int) float64 {
	return external(truth, pred, randIndex)
}

func randIndex(c *contingency) float64 {
	if c.n < 2 {
		// One point has no pairs to disagree on.
		return 1
	}
	tp, a, b := c.pairs()
	p := comb2(c.n)
	// FP = b − TP and FN = a − TP, so TP + TN = P − FP − FN = P + 2TP − a − b.
	return float64(p+2*tp-a-b) / float64(p)
}

// AdjustedRand returns the adjusted Rand index of truth and pred, the Rand
// index corrected for chance under the hypergeometric model,
//
//	ARI = (Index − Expected) / (Max − Expected),
//	Index = Σ_ij C(N_ij, 2),  Expected = Σ_i C(a_i, 2) Σ_j C(b_j, 2) / C(N, 2),
//	Max = (Σ_i C(a_i, 2) + Σ_j C(b_j, 2)) / 2,
//
// where a_i and b_j are the class and cluster sizes. ARI is 1 for
// partitions that are identical up to relabelling, has expected value 0
// for independent random partitions, and can be negative. Larger is
// better.
//
//	L. Hubert and P. Arabie, Comparing partitions, Journal of
//	Classification 2 (1985) 193–218.
//
// Partitions that agree on every pair (no FP and no FN) score 1. This
// covers every case where the denominator is 0, which happens only when both
// partitions put all points in one group or both make every point a
// singleton. Any other zero denominator would score 0. These are the
// conventions of scikit-learn's adjusted_rand_score. AdjustedRand returns
// NaN if the slices are empty and 1 if they hold one point, and panics if
// their lengths differ.
func AdjustedRand(truth, pred []int) float64 {
	return external(truth, pred, adjustedRand)
}

func adjustedRand(c *contingency) float64 {
	index, a, b := c.pairs()
	if index == a && index == b {
		// FN = a − index = 0 and FP = b − index = 0: identical up to
		// relabelling. Tested on integers, so it is exact for any N,
		// unlike the floating-point denominator below.
		return 1
	}
	expected := float64(a) * float64(b) / float64(comb2(c.n))
	den := float64(a+b)/2 - expected
	if den == 0 {
		return 0
	}
	return (float64(index) - expected) / den
}

// NMI returns the normalised mutual information of truth (the classes Ω)
// and pred (the clusters C),
//
//	NMI = I(Ω; C) / ((H(Ω) + H(C)) / 2),
//
// with entropies and mutual information in nats. This is the paper's
// definition, and it is the arithmetic-mean normalisation that
// scikit-learn's normalized_mutual_info_score uses by default. NMI lies in
// [0, 1], and larger is better.
//
//	C. D. Manning, P. Raghavan and H. Schütze, Introduction to Information
//	Retrieval, Cambridge University Press, 2008, section 16.3.
//
// If both partitions are a single group, both entropies are 0 and NMI
// returns 1, because they are identical. If only one of them is, I(Ω; C) =
// 0 and NMI returns 0. Both are scikit-learn's conventions. NMI returns
// NaN if the slices are empty and panics if their lengths differ.
func NMI(truth, pred []int) float64 {
	return external(truth, pred, nmi)
}

func nmi(c *contingency) float64 {
	if len(c.rows) == 1 && len(c.cols) == 1 {
		return 1
	}
	logN := math.Log(float64(c.n))
	var mi float64
	c.each(func(i, j, nij int) {
		// p_ij log(p_ij / (p_i p_j)) = (N_ij/N) ((log N_ij − log a_i) + (log N − log b_j)).
		// When pred equals truth up to relabelling, N_ij = a_i = b_j on the
		// diagonal, and each term is bit-for-bit the matching term of
		// entropy, so NMI comes out exactly 1.
		nf := float64(nij)
		mi += nf / float64(c.n) * ((math.Log(nf) - math.Log(float64(c.rows[i]))) + (logN - math.Log(float64(c.cols[j]))))
	})
	if mi <= 0 {
		// I ≤ min(H(Ω), H(C)), so this holds when one partition is a
		// single group. Rounding can also push an independent pair a
		// little below 0.
		return 0
	}
	return mi / ((entropy(c.rows, c.n, logN) + entropy(c.cols, c.n, logN)) / 2)
}

// entropy returns −Σ (s/n) log(s/n) over the group sizes s, in nats.
func entropy(sizes []int, n int, logN float64) float64 {
	var h float64
	for _, s := range sizes {
		sf := float64(s)
		h += sf / float64(n) * (logN - math.Log(sf))
	}
	return h
}

// NumClusters returns the number of distinct labels in pred other than
// the outlier label −1.
func NumClusters(pred []int) int {
	c := newCoder(pred)
	if c.code(outlier) >= 0 {
		return c.k - 1
	}
	return c.k
}
