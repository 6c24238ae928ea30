package svclust

import (
	"errors"
	"fmt"

	"github.com/svclust/svclust/internal/modelfile"
)

// Errors returned for unusable training data.
var (
	ErrNoData    = errors.New("svclust: no data: need at least one row and one column")
	ErrNotFinite = errors.New("svclust: data contain NaN or Inf")
)

// ErrModelFormat is wrapped by every error of [Model.UnmarshalJSON] and
// of package cluster's Partition.UnmarshalJSON that concerns the content of the model file.
var ErrModelFormat = modelfile.ErrFormat

// ConfigError reports an invalid setting. Field names the Config (or
// cluster.Config) field, so that a command line can name its flag.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

// Error returns "svclust: Field = Value: Reason".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("svclust: %s = %v: %s", e.Field, e.Value, e.Reason)
}
