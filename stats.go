package svclust

import "time"

// Stats describes a training run.
type Stats struct {
	// Iterations is the number of SGD steps T taken.
	Iterations int
	// Updates counts the steps whose sample violated the margin
	// (wₜᵀφ(x) < 1), i.e. that changed the support set.
	Updates int
	// Maintenance counts the calls of the budget maintenance.
	Maintenance int
	// Objective is J(w) of the returned model on the training data: exact
	// for at most 10,000 rows; beyond, its mean hinge loss is estimated
	// from a seeded sample of 10,000 rows (ObjectiveRows says how many
	// rows it was computed on), which saves a pass of N·B kernel terms,
	// half of a default fit of a million rows. J is only reported: nothing
	// in training or clustering reads it. The estimate is unbiased; its
	// standard error is C·σ/√10,000 for σ the standard deviation of the
	// rows' hinge losses (measured: 0.02 % of J on Shuttle, 0.07 % on a
	// million moons points, BENCHMARKS.md). With adaptive widths
	// (Model.Gammas) J is computed with the global γ, the kernel of
	// training: the widths are set after it.
	Objective     float64
	ObjectiveRows int
	// Runtime is the wall time of Train, including Choose and
	// the objective pass, N·B kernel terms, which is most of it for large N.
	Runtime time.Duration
}
