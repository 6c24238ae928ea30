// Package cluster is phase 2 of svclust: it assigns points to clusters
// from a trained svclust.Model. [Fit] clusters the training data by a
// [Rule] (the default [LevelTree], or [Components], the paper's
// Algorithm 3) and returns a [Result] whose [Partition] labels any point
// with [Partition.Predict]. A Partition's JSON form is the model file: the
// phase-1 model with the partition.
package cluster
