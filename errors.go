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

// ConfigError reports an invalid setting. Field names the Config field
// (or the field of a package cluster Method), so that a command line can name its flag.
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

// Error returns "svclust: Field = Value: Reason".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("svclust: %s = %v: %s", e.Field, e.Value, e.Reason)
}
