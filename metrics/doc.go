// Package metrics implements clustering validity indices: the external
// indices purity, Rand, adjusted Rand and normalised mutual information,
// which compare a clustering with ground-truth classes, and the internal
// indices Davies–Bouldin and compactness, which judge a clustering from
// the data alone. These are the indices used to evaluate the method in
//
//	Scalable Support Vector Clustering Using Budget,
//	section "Clustering validity index".
//
// # Conventions
//
// Labels are []int and may take any int values, negative ones included.
// The label -1 marks an outlier, a point that support vector clustering
// leaves outside every cluster. The external indices treat each distinct
// label value, -1 included, as its own group, as scikit-learn does, so the
// outliers count as one more cluster. [NumClusters] does not count -1.
// [DaviesBouldin] leaves outliers out and [Compactness] keeps them as one
// group; their docs say why.
//
// Data for the internal indices is a flat row-major []float64 of n rows
// and d columns: row i is x[i*d:(i+1)*d] and belongs to cluster pred[i].
//
// Mismatched lengths are programming errors and cause a panic. An index
// that is undefined for its input, such as any index of an empty
// labelling or Davies–Bouldin with fewer than two clusters, is NaN.
//
// The external indices build one contingency table of classes × clusters
// in O(N + k₁k₂) time. When that table would be large and sparse, they
// sort the N occupied cells instead, which takes O(N log N). They never
// loop over the O(N²) pairs of points.
package metrics
