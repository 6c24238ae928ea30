package svclust

import (
	"errors"
	"fmt"
)

// Errors returned for unusable training data.
var (
	ErrNoData    = errors.New("svclust: no data: need at least one row and one column")
	ErrNotFinite = errors.New("svclust: data contain NaN or Inf")
)

// ErrEmptyStrip is returned by Cluster when no point satisfies |f(x)| ≤ ε
// for an explicit ε.
var ErrEmptyStrip = errors.New("svclust: the strip |f(x)| ≤ ε holds no point: increase ε")

// ErrNotClustered is wrapped by [Partition.UnmarshalJSON] for a model file
// whose "partition" is null: such a file holds a phase-1 [Model] only, which
// can score points but not label them.
var ErrNotClustered = errors.New("svclust: model has no partition")

// ErrModelFormat is wrapped by every error of [Model.UnmarshalJSON] and
// [Partition.UnmarshalJSON] that concerns the content of the model file.
var ErrModelFormat = errors.New("svclust: invalid model file")

// ConfigError reports an invalid setting. Field names the Config (or
// ClusterConfig) field, so that a command line can name its flag.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

// Error returns "svclust: Field = Value: Reason".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("svclust: %s = %v: %s", e.Field, e.Value, e.Reason)
}
