package metrics

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/internal/rowmajor"
)

// rows returns the rows of x as one row-major slice (x's own data for a
// compact *mat.Dense, no copy) and their length d. It panics unless x has
// len(pred) rows.
func rows(x mat.Matrix, pred []int) (data []float64, d int) {
	data, n, d := rowmajor.Of(x)
	if n != len(pred) {
		panic(badData)
	}
	return data, d
}

// dist returns the Euclidean distance between u and v. Its loop is that of
// internal/kernel's SqDist, with the same results bit for bit, but package
// metrics imports only the standard library, so it keeps its own copy.
func dist(u, v []float64) float64 {
	var s float64
	for i, ui := range u {
		t := ui - v[i]
		s += t * t
	}
	return math.Sqrt(s)
}

// DaviesBouldin returns the Davies–Bouldin index of the clustering pred of
// the rows of x,
//
//	DB = (1/k) Σ_i max_{j≠i} (s_i + s_j) / M_ij,
//
// where k is the number of clusters, s_i is the mean Euclidean distance of
// the points of cluster i to its centroid, and M_ij is the Euclidean
// distance between the centroids of clusters i and j. DB is at least 0,
// and smaller is better: compact clusters far apart score low.
//
//	D. L. Davies and D. W. Bouldin, A cluster separation measure, IEEE
//	Transactions on Pattern Analysis and Machine Intelligence 1 (1979)
//	224–227.
//
// The paper's text says a small DB is preferred, but its introduction to the
// indices and the caption of its DB table say larger is better. That
// contradicts the definition. Lower is better.
//
// Outliers (label −1) are left out: they are not a cluster and have no
// meaningful centroid. If fewer than two clusters remain, DB is undefined
// and DaviesBouldin returns NaN. If two centroids coincide (M_ij = 0), their
// ratio is +Inf, the limit of the definition, unless s_i + s_j = 0 too, in
// which case the ratio is 0. (scikit-learn's davies_bouldin_score instead
// scores every coincident pair 0 and returns 0 if all s_i or all M_ij are
// close to 0.)
//
// DaviesBouldin panics unless x has len(pred) rows.
func DaviesBouldin(x mat.Matrix, pred []int) float64 {
	raw, d := rows(x, pred)
	coder := newCoder(pred)
	k := coder.k
	out := coder.code(outlier) // −1 if there are no outliers
	m := k
	if out >= 0 {
		m--
	}
	if m < 2 {
		return math.NaN()
	}

	size := make([]int, k)
	cent := make([]float64, k*d) // row c is the centroid of code c
	for i, l := range pred {
		c := coder.code(l)
		if c == out {
			continue
		}
		size[c]++
		row := cent[c*d : (c+1)*d]
		for t, v := range raw[i*d : (i+1)*d] {
			row[t] += v
		}
	}
	for c, sz := range size {
		if c == out {
			continue
		}
		row := cent[c*d : (c+1)*d]
		for t := range row {
			row[t] /= float64(sz)
		}
	}
	spread := make([]float64, k) // s_c
	for i, l := range pred {
		if c := coder.code(l); c != out {
			spread[c] += dist(raw[i*d:(i+1)*d], cent[c*d:(c+1)*d])
		}
	}
	for c, sz := range size {
		if c != out {
			spread[c] /= float64(sz)
		}
	}

	var db float64
	for i := range k {
		if i == out {
			continue
		}
		worst := 0.0 // every ratio is ≥ 0, and there is at least one j
		for j := range k {
			if j == i || j == out {
				continue
			}
			num := spread[i] + spread[j]
			mij := dist(cent[i*d:(i+1)*d], cent[j*d:(j+1)*d])
			var r float64
			switch {
			case mij != 0:
				r = num / mij
			case num == 0:
				r = 0
			default:
				r = math.Inf(1)
			}
			// math.Max so that NaN in x propagates to the result.
			worst = math.Max(worst, r)
		}
		db += worst
	}
	return db / float64(m)
}

// Compactness returns the compactness of the clustering pred of the rows
// of x, the size-weighted mean distance between points of the same
// cluster:
//
//	Compactness = (1/N) Σ_k N_k · (Σ_{x,x′ ∈ C_k} ‖x − x′‖) / (N_k(N_k − 1)/2),
//
// where the inner sum runs over the N_k(N_k−1)/2 unordered pairs of
// cluster C_k and N = len(pred). This is the definition as the paper
// writes it, where it is credited to
//
//	M. Halkidi, Y. Batistakis and M. Vazirgiannis, Cluster validity
//	methods, parts I and II, ACM SIGMOD Record 31 (2002).
//
// A cluster of one point has no pairs and contributes 0. Compactness is at
// least 0, and smaller is better. It rewards many small clusters: N
// singletons score 0.
//
// The outliers (label −1) form one group like any other label. They stay
// in N and in the sum, so a clusterer cannot improve its score by calling
// far-away points outliers for free.
//
// Compactness returns NaN if pred is empty and panics unless x has
// len(pred) rows. It takes O(Σ_k N_k² d) time and, beyond the
// per-cluster index lists, O(1) memory; it never forms a distance matrix.
func Compactness(x mat.Matrix, pred []int) float64 {
	raw, d := rows(x, pred)
	n := len(pred)
	if n == 0 {
		return math.NaN()
	}
	coder := newCoder(pred)
	k := coder.k

	// Counting sort of the point indices by cluster: the members of code c
	// are order[start[c]:start[c+1]].
	start := make([]int, k+1)
	for _, l := range pred {
		start[coder.code(l)+1]++
	}
	for c := range k {
		start[c+1] += start[c]
	}
	order := make([]int, n)
	fill := make([]int, k)
	copy(fill, start[:k])
	for i, l := range pred {
		c := coder.code(l)
		order[fill[c]] = i
		fill[c]++
	}

	var total float64
	for c := range k {
		members := order[start[c]:start[c+1]]
		nk := len(members)
		if nk < 2 {
			continue
		}
		var sum float64
		for a, p := range members {
			xp := raw[p*d : (p+1)*d]
			for _, q := range members[a+1:] {
				sum += dist(xp, raw[q*d:(q+1)*d])
			}
		}
		total += float64(nk) * sum / float64(comb2(nk))
	}
	return total / float64(n)
}
