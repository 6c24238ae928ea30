package svclust

import (
	"errors"
	"fmt"
)

// Errors returned for unusable data and models. Every function of svclust
// and of its packages that has an error result returns (possibly wrapped)
// one of these, or an error of its own, for such input; none panics on it
// (see docs/guarantees.md).
var (
	// ErrNoData is returned for data without a row or a column: a nil
	// matrix, a nil *mat.Dense (a typed nil) or an empty one.
	ErrNoData = errors.New("svclust: no data: need at least one row and one column")
	// ErrNotFinite is returned, wrapped with the row and column, for data
	// that hold NaN or Inf.
	ErrNotFinite = errors.New("svclust: data contain NaN or Inf")
	// ErrDimension is wrapped by the errors of data whose number of
	// columns is not the model's dimension.
	ErrDimension = errors.New("svclust: dimension mismatch")
	// ErrNotTrained is wrapped by the errors of [Model.Validate]: a nil
	// Model, its zero value, or one whose fields disagree, which no
	// function can use.
	ErrNotTrained = errors.New("svclust: not a trained model")
)

// DimensionError returns an error wrapping ErrDimension for data of got
// columns given to a model of dimension want.
func DimensionError(got, want int) error {
	return fmt.Errorf("%w: the data have %d columns, the model %d", ErrDimension, got, want)
}

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
