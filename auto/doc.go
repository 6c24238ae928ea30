// Package auto chooses, from the data, the settings a plain fit leaves
// unset: the kernel width γ (from the distances to the 5th nearest
// neighbour, neighbours.go), the budget (from a covering of the data at
// the kernel's width, cover.go), C (from the largest kernel density,
// density.go, then rescaled after training so that the domain holds 95 %
// of the data), a width of its own for each support vector (width.go) and
// a subspace of the features for wide data whose distances concentrate
// (subspace.go). The entry point is [Choose]; its [Choice] holds the
// Decision a model is trained and kept with and the Report of how it was
// reached.
//
// Every statistic is measured on one seeded sample of at most 2,000 rows,
// so the cost does not grow with the number of rows, and no result
// depends on the number of workers. docs/defaults.md says how each
// constant was chosen.
package auto
