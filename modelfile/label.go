package modelfile

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/rowmajor"
)

// labelRows is the number of rows Predict and Score scale at a time, so that
// they hold a bounded copy of the data (at most 8 MiB of values).
const (
	labelRows  = 16384
	labelBytes = 8 << 20
)

// DimError is the error of data whose number of features is not the
// model's dimension.
type DimError struct {
	Got, Want int
}

func (e *DimError) Error() string {
	return fmt.Sprintf("modelfile: %d features, but the model was trained on %d", e.Got, e.Want)
}

// Unwrap returns svclust.ErrDimension.
func (e *DimError) Unwrap() error { return svclust.ErrDimension }

// Validate returns an error wrapping svclust.ErrNotTrained unless f has
// what its methods need and Write can write: a valid Model
// (svclust.Model.Validate), a Scaler of its dimension whose values are
// finite, whose multipliers are > 0 with a finite inverse, and which is
// the identity for ScaleNone, and, if set, one distinct feature name per
// dimension, none of them the Label. A File that Read returns is valid;
// one built by hand, or the zero File, may not be, and its methods then
// return this error.
func (f *File) Validate() error {
	if f == nil {
		return fmt.Errorf("%w: nil *File", svclust.ErrNotTrained)
	}
	if err := f.Model.Validate(); err != nil {
		return err
	}
	if err := f.checkParts(); err != nil {
		return fmt.Errorf("%w: File.%v", svclust.ErrNotTrained, err)
	}
	if err := f.checkIDs(); err != nil {
		return fmt.Errorf("%w: File.%v", svclust.ErrNotTrained, err)
	}
	return nil
}

// checkParts checks the scaler and the names of f, whose Model is valid,
// as Validate says, naming the field at fault first.
func (f *File) checkParts() error {
	d := f.Model.Dim()
	s := f.Scaler
	if s == nil {
		return errors.New("Scaler is nil")
	}
	if len(s.Shift) != d || len(s.Mul) != d {
		return fmt.Errorf("Scaler has %d shifts and %d multipliers for %d features", len(s.Shift), len(s.Mul), d)
	}
	for j := range d {
		if !finite(s.Shift[j]) || !finite(s.Mul[j]) {
			return fmt.Errorf("Scaler: column %d is not finite", j+1)
		}
		// fit writes 1/spread, or 1 for a constant column: never ≤ 0,
		// which would fold or collapse the column, and never so small
		// that the spread it stands for overflows.
		if !(s.Mul[j] > 0) || !finite(1/s.Mul[j]) {
			return fmt.Errorf("Scaler: the multiplier of column %d is %v: want > 0 with a finite inverse", j+1, s.Mul[j])
		}
		if f.Scale == dataset.ScaleNone && (s.Shift[j] != 0 || s.Mul[j] != 1) {
			return fmt.Errorf("Scaler: scale none, but column %d is shifted by %v and multiplied by %v", j+1, s.Shift[j], s.Mul[j])
		}
	}
	if f.Features != nil {
		if len(f.Features) != d {
			return fmt.Errorf("Features has %d names for %d features", len(f.Features), d)
		}
		seen := make(map[string]int, d)
		for j, name := range f.Features {
			if k, ok := seen[name]; ok {
				return fmt.Errorf("Features names %q twice (features %d and %d): a data file cannot have both columns", name, k+1, j+1)
			}
			seen[name] = j
			if f.Label != "" && name == f.Label {
				return fmt.Errorf("Features: %q is also the Label column", name)
			}
		}
	}
	return nil
}

// OverflowError is the error of a finite value that overflows when scaled:
// it scales beyond ±[dataset.MaxScaled], where the squared distances of
// the kernel overflow, or to a value that is not finite (see
// [dataset.Scaler.Overflow]).
type OverflowError struct {
	Row     int     // 0-based row of the data
	Line    int     // 1-based line of the data file, 0 if unknown
	Col     int     // 0-based feature
	Feature string  // the model's name of the feature, "" if unknown
	Value   float64 // the raw value
	Scaled  float64 // what it scales to
	// Column is set when the scaling of the column itself is not finite:
	// its mean, range or standard deviation overflows float64, so that
	// none of its values can be scaled.
	Column bool
}

// NewOverflowError returns the OverflowError of value j of row, which s
// scales to u (see [dataset.Scaler.Overflow]); its Row and Line are 0.
func NewOverflowError(s *dataset.Scaler, row []float64, j int, u float64) *OverflowError {
	return &OverflowError{Col: j, Value: row[j], Scaled: u, Column: !finite(s.Shift[j]) || !finite(s.Mul[j])}
}

func (e *OverflowError) Error() string {
	name := e.Feature
	if name == "" {
		name = fmt.Sprintf("x%d", e.Col+1)
	}
	where := fmt.Sprintf("row %d", e.Row+1)
	if e.Line > 0 {
		where = fmt.Sprintf("line %d", e.Line)
	}
	return fmt.Sprintf("modelfile: %s, feature %q: the value %v overflows when scaled (to %v)", where, name, e.Value, e.Scaled)
}

// check returns an error unless every row of x has the model's dimension
// and finite values that scale to within ±dataset.MaxScaled: for the first
// row that does not, an error wrapping svclust.ErrNotFinite naming the row
// and column of a NaN or ±Inf, or an *OverflowError.
func (f *File) check(x mat.Matrix) error {
	if err := f.Validate(); err != nil {
		return err
	}
	n, d := rowmajor.Dims(x)
	if d == 0 {
		return svclust.ErrNoData
	}
	if want := f.Model.Dim(); d != want {
		return &DimError{Got: d, Want: want}
	}
	row := make([]float64, d)
	for i := range n {
		mat.Row(row, i, x)
		for j, v := range row {
			if !finite(v) {
				name := fmt.Sprintf("x%d", j+1)
				if f.Features != nil {
					name = f.Features[j]
				}
				return fmt.Errorf("%w: row %d, column %d (feature %q) is %v", svclust.ErrNotFinite, i+1, j+1, name, v)
			}
		}
		if j, u := f.Scaler.Overflow(row); j >= 0 {
			e := NewOverflowError(f.Scaler, row, j, u)
			e.Row = i
			if f.Features != nil {
				e.Feature = f.Features[j]
			}
			return e
		}
	}
	return nil
}

// ScaleRows scales the raw rows of x in place with the model's scaler. It
// returns a [*DimError] if x has the wrong number of columns, and a
// [*OverflowError] for the first value that overflows when scaled, before
// it changes x, or an error wrapping [svclust.ErrNotFinite] naming the row
// and column of the first NaN or ±Inf. A nil x is [svclust.ErrNoData].
func (f *File) ScaleRows(x *mat.Dense) error {
	if x == nil {
		return svclust.ErrNoData
	}
	if err := f.check(x); err != nil {
		return err
	}
	f.Scaler.Transform(x)
	return nil
}

// Predict sets dst[i] to the cluster of the raw (unscaled) row i of x, or −1
// for an outlier, and returns dst; a nil dst is allocated. It scales x
// with the model's scaler, a bounded number of rows at a time, and applies
// the partition's Predict on workers goroutines (0 means GOMAXPROCS); x is
// not modified. On the training data of a model written by svclust fit it
// returns fit's labels. Predict returns a [*DimError], an error wrapping
// [svclust.ErrNotFinite] (naming the row and column) for a NaN or ±Inf,
// or an [*OverflowError] before labelling any row, and [ErrNotClustered] for a model
// without a partition. It returns an error wrapping svclust.ErrNotTrained
// for a File whose Model or Scaler is missing or invalid (such as the
// zero File), svclust.ErrNoData for a nil x, and an error wrapping
// svclust.ErrDimension if dst is not nil and its length is not the
// number of rows of x, and a *svclust.ConfigError for workers < 0.
func (f *File) Predict(dst []int, x mat.Matrix, workers int) ([]int, error) {
	return withRows(f, "Predict", dst, x, workers, f.clustered, func(dst []int, scaled *mat.Dense) error {
		f.StableIDs(f.Partition.Predict(dst, scaled, workers))
		return nil
	})
}

// Score sets dst[i] to f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 of the raw (unscaled)
// row i of x, scaled with the model's scaler, and returns dst; a nil dst
// is allocated: the model's novelty score, higher inside the data
// ([File.OutlierScores] ranks outliers on a common scale). It returns the
// errors of [File.Predict] but ErrNotClustered.
func (f *File) Score(dst []float64, x mat.Matrix, workers int) ([]float64, error) {
	return withRows(f, "Score", dst, x, workers, nil, func(dst []float64, scaled *mat.Dense) error {
		f.Model.Score(dst, scaled, workers)
		return nil
	})
}

// OutlierScores sets dst[i] to the outlier score in [0, 1] of the raw
// (unscaled) row i of x (see [cluster.Partition]), scaled with the
// model's scaler, and returns dst; a nil dst is allocated. On the training
// data of a model written by svclust fit it returns fit's scores. It
// returns [ErrNotClustered] for a model without a partition and
// [cluster.ErrNoOutlierScores] for a file of version 5 or older, whose
// partition has no outlier fence: fitting again gives one. Otherwise it
// returns errors and panics as [File.Predict] does.
func (f *File) OutlierScores(dst []float64, x mat.Matrix, workers int) ([]float64, error) {
	return withRows(f, "OutlierScores", dst, x, workers, f.scored, func(dst []float64, scaled *mat.Dense) error {
		_, err := f.Partition.OutlierScores(dst, scaled, workers)
		return err
	})
}

// clustered returns ErrNotClustered for a model without a partition.
func (f *File) clustered() error {
	if f.Partition == nil {
		return ErrNotClustered
	}
	return nil
}

// scored returns the error of a model without outlier scores: no
// partition, or a partition without an outlier fence.
func (f *File) scored() error {
	if f.Partition == nil {
		return ErrNotClustered
	}
	if f.Partition.OutlierThreshold() == 0 {
		return cluster.ErrNoOutlierScores
	}
	return nil
}

// checkWorkers returns the error of a negative number of workers given to
// the method name, as svclust.Config refuses one.
func checkWorkers(name string, workers int) error {
	if workers < 0 {
		return &svclust.ConfigError{Field: "workers", Value: workers, Reason: fmt.Sprintf("%s: must be ≥ 0 (0 means GOMAXPROCS)", name)}
	}
	return nil
}

// withRows checks x, workers and dst as Predict, Score and OutlierScores (name) do,
// allocates a nil dst, returns the error of ready (when not nil) and calls
// pass on each chunk of scaled rows with the part of dst for them.
func withRows[T int | float64](m *File, name string, dst []T, x mat.Matrix, workers int, ready func() error, pass func([]T, *mat.Dense) error) ([]T, error) {
	if err := checkWorkers(name, workers); err != nil {
		return nil, err
	}
	if err := m.check(x); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if dst == nil {
		dst = make([]T, n)
	}
	if len(dst) != n {
		return nil, fmt.Errorf("%w: %s: len(dst) = %d for %d rows", svclust.ErrDimension, name, len(dst), n)
	}
	if ready != nil {
		if err := ready(); err != nil {
			return nil, err
		}
	}
	err := m.chunks(x, func(lo, hi int, scaled *mat.Dense) error {
		return pass(dst[lo:hi], scaled)
	}, 0)
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// PredictScores is [File.Predict] and [File.OutlierScores] at once, in one
// pass over the rows where the partition's rule allows it (see
// cluster.Partition.PredictScores); nil slices are allocated. It returns
// the errors of both.
func (f *File) PredictScores(dst []int, scores []float64, x mat.Matrix, workers int) ([]int, []float64, error) {
	return withScores(f, "PredictScores", dst, scores, x, workers, func(dst []int, scores []float64, scaled *mat.Dense) error {
		_, _, err := f.Partition.PredictScores(dst, scores, scaled, workers)
		f.StableIDs(dst)
		return err
	})
}

// ScoreOutliers is [File.Score] and [File.OutlierScores] at once, in one
// pass over the rows where the partition allows it (see
// cluster.ScoreOutliers); nil slices are allocated. It returns the errors
// of both.
func (f *File) ScoreOutliers(fx, scores []float64, x mat.Matrix, workers int) ([]float64, []float64, error) {
	return withScores(f, "ScoreOutliers", fx, scores, x, workers, func(fx, scores []float64, scaled *mat.Dense) error {
		return cluster.ScoreOutliers(f.Partition, fx, scores, scaled, workers)
	})
}

// withScores checks x, dst and scores as PredictScores and ScoreOutliers
// (name) do, allocates the nil ones and calls pass on each chunk of scaled
// rows with the parts of dst and scores for them.
func withScores[T int | float64](m *File, name string, dst []T, scores []float64, x mat.Matrix, workers int, pass func([]T, []float64, *mat.Dense) error) ([]T, []float64, error) {
	if err := checkWorkers(name, workers); err != nil {
		return nil, nil, err
	}
	if err := m.check(x); err != nil {
		return nil, nil, err
	}
	n, _ := x.Dims()
	if dst == nil {
		dst = make([]T, n)
	}
	if scores == nil {
		scores = make([]float64, n)
	}
	if len(dst) != n || len(scores) != n {
		return nil, nil, fmt.Errorf("%w: %s: len(dst) = %d and len(scores) = %d for %d rows", svclust.ErrDimension, name, len(dst), len(scores), n)
	}
	if err := m.scored(); err != nil {
		return nil, nil, err
	}
	err := m.chunks(x, func(lo, hi int, scaled *mat.Dense) error {
		return pass(dst[lo:hi], scores[lo:hi], scaled)
	}, 0)
	if err != nil {
		return nil, nil, err
	}
	return dst, scores, nil
}

// chunks calls do with the scaled rows lo to hi of x, for consecutive
// chunks of at most rows rows (0 means as many as labelRows and
// labelBytes allow), and returns the first error of do.
func (f *File) chunks(x mat.Matrix, do func(lo, hi int, scaled *mat.Dense) error, rows int) error {
	n, d := x.Dims()
	if n == 0 {
		return nil
	}
	if rows <= 0 {
		rows = max(1, min(labelRows, labelBytes/(8*d)))
	}
	rows = min(rows, n)
	buf := make([]float64, rows*d)
	for lo := 0; lo < n; lo += rows {
		hi := min(lo+rows, n)
		for i := lo; i < hi; i++ {
			row := buf[(i-lo)*d : (i-lo+1)*d]
			mat.Row(row, i, x)
			f.Scaler.TransformRow(row, row)
		}
		if err := do(lo, hi, mat.NewDense(hi-lo, d, buf[:(hi-lo)*d])); err != nil {
			return err
		}
	}
	return nil
}

// Renamed checks the feature names of a data file, in the order of its
// feature columns, against the model's: it returns a [*DimError] if their
// number is not the model's dimension, and otherwise the first feature
// whose name differs from the model's, or −1 if every name matches or the
// model has no names.
func (f *File) Renamed(names []string) (int, error) {
	if err := f.Validate(); err != nil {
		return -1, err
	}
	if want := f.Model.Dim(); len(names) != want {
		return -1, &DimError{Got: len(names), Want: want}
	}
	if f.Features != nil {
		for j, name := range names {
			if name != f.Features[j] {
				return j, nil
			}
		}
	}
	return -1, nil
}

// ColumnError is the error of [File.Order] for data whose feature columns
// are not the model's features: Missing names a feature of the model that
// no column has, Extra a column that is no feature of the model.
type ColumnError struct {
	Missing, Extra string
}

func (e *ColumnError) Error() string {
	if e.Missing != "" {
		return fmt.Sprintf("modelfile: the data have no column %q, a feature of the model", e.Missing)
	}
	return fmt.Sprintf("modelfile: the data's column %q is no feature of the model", e.Extra)
}

// Order matches the feature columns of a data file, named names in the
// order of the file, to the model's features BY NAME: order[j] is the
// position in names of the model's feature j, so that row x of the file
// gives the model's row (x[order[0]], x[order[1]], …). A model without
// feature names (Features nil) matches by position: order is the identity
// when the numbers agree. It returns a [*DimError] when the numbers differ
// and the model has no names, a [*ColumnError] for a feature of the model
// that names no column or a column that names no feature, and an error
// wrapping dataset.ErrColumnName for a name that occurs twice.
func (f *File) Order(names []string) ([]int, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	d := f.Model.Dim()
	order := make([]int, d)
	if f.Features == nil {
		if len(names) != d {
			return nil, &DimError{Got: len(names), Want: d}
		}
		for j := range order {
			order[j] = j
		}
		return order, nil
	}
	pos := make(map[string]int, len(names))
	for k, name := range names {
		if p, ok := pos[name]; ok {
			return nil, fmt.Errorf("modelfile: %w: %q names columns %d and %d", dataset.ErrColumnName, name, p+1, k+1)
		}
		pos[name] = k
	}
	used := make([]bool, len(names))
	for j, name := range f.Features {
		k, ok := pos[name]
		if !ok {
			return nil, &ColumnError{Missing: name}
		}
		order[j], used[k] = k, true
	}
	for k, u := range used {
		if !u {
			return nil, &ColumnError{Extra: names[k]}
		}
	}
	return order, nil
}
