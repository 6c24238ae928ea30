// Package figure implements the figures of a 2-D clustering: the points
// coloured by cluster, the support vectors of a model, and the model's
// domain of novelty f ≥ 0 shaded with its boundary f = 0 drawn, as in the
// visual experiments (Figures 1–3) of
//
//	Tung Pham, Trung Le, Hang Dang. Scalable Support Vector Clustering Using
//	Budget.
//
// Clusters draws labelled points without a model (for the C-means and fuzzy
// C-means panels), Domain draws a model over its data, and Save and Panels
// lay out one or more plots side by side in a PNG or SVG file.
//
// # Conventions
//
// Data are the rows of an n×2 mat.Matrix, in the space the model lives in,
// or in the data's own units when [Options.Scaler] maps them to it (as the
// command line draws 2-D data). Data with another number of columns are an
// error for Clusters and Domain, ErrNot2D wrapped with the dimension: the
// domain of novelty of a d-dimensional model has no faithful 2-D picture,
// and a slice through it would be misleading. [Principal] draws data of
// any dimension d ≥ 2 without the domain, on the plane of their first two
// principal components ([NewPCA]).
//
// A label k ≥ 0 is a cluster and a negative label an outlier. Cluster k is
// drawn in colour k mod 6 of Paul Tol's colour-blind-safe "bright" scheme
// (blue, red, green, purple, cyan, yellow) and, from the seventh cluster on,
// with a different glyph (circle, triangle, square, diamond in turn), so
// that up to 24 clusters are told apart; outliers are grey. Support vectors
// are black rings, the domain f ≥ 0 is pale orange, as in the paper, and
// its boundary f = 0 dark orange.
//
// Figures are deterministic: the same input gives the same bytes, for any
// number of workers.
package figure
