package cluster

import "errors"

// ErrEmptyStrip is returned by [Fit] when no point satisfies |f(x)| ≤ ε
// for an explicit ε.
var ErrEmptyStrip = errors.New("svclust: the strip |f(x)| ≤ ε holds no point: increase ε")

// ErrNotClustered is wrapped by [Partition.UnmarshalJSON] for a model file
// whose "partition" is null: such a file holds a phase-1 svclust.Model only, which
// can score points but not label them.
var ErrNotClustered = errors.New("svclust: model has no partition")
