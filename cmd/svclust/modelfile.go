package main

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// The model file of fit -model is the JSON form of modelfile.File: the
// scaling of the training data, the feature names, the run record and the
// model (see package modelfile).

// defaultMaxModelMB is the default of -max-model-mb, the largest model file
// predict, score and plot read, in MiB. A model file holds the support
// vectors, the equilibria and at most cluster.MaxLandmarks strip points,
// whatever the number of training rows (81 KB for 1,000,000 moons points
// with the defaults, 440 KB with -rule components -budget 50), at about
// 20 bytes a value: the bound guards against reading a file that is not a
// model.
const defaultMaxModelMB = modelfile.DefaultMaxBytes >> 20

// maxModelMB bounds -max-model-mb (1 TiB).
const maxModelMB = 1 << 20

// readModel reads and validates the model file path, of at most limit
// bytes (see modelfile.ReadFile).
func readModel(path string, limit int64) (*modelfile.File, error) {
	mf, err := modelfile.ReadFile(path, limit)
	if errors.Is(err, modelfile.ErrTooLarge) {
		return nil, fmt.Errorf("%s: larger than %d MiB; raise -max-model-mb if it is a model file", path, limit>>20)
	}
	return mf, err
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// loadFor reads the data of path with the options opt for the model mf
// and returns it, unscaled, without its labels, with the columns of X in
// the order of the model's features and Names theirs. The model's label
// column is dropped, and a warning printed, unless quiet, for the rows -na
// drop skipped. The columns are matched to the model's features:
//
//   - by name, whenever the model knows its feature names and -features is
//     not given: the order of the columns does not matter, a feature of the
//     model that names no column, or a column that names no feature, is an
//     error naming it;
//   - by the map of -features MODEL=COLUMN,… (see featureMap), the features
//     it does not name matching their own names;
//   - by the list of -features COLUMN,…, in the model's order, with a
//     warning (unless quiet) for a name that differs from the model's;
//   - by position for a model without feature names.
func loadFor(e *env, quiet bool, mf *modelfile.File, path string, opt dataset.ReadOptions) (*dataset.Dataset, error) {
	if slices.Contains(mf.Features, cmp.Or(opt.Label, "label")) {
		// A feature of the model has the label column's name (a model
		// fitted from Python on a DataFrame with a column "label"): the
		// column is that feature.
		opt.NoLabel = true
	}
	mapped, err := featureMap(mf, opt.Features)
	if err != nil {
		return nil, err
	}
	listed := opt.Features != nil && mapped == nil
	if mapped != nil {
		opt.Features = mapped
	}
	ds, err := dataset.ReadFile(path, opt)
	if err != nil {
		return nil, dataError(err, opt)
	}
	ds.Labels = nil // not needed, and as large as a column of data
	if mf.Features != nil && !listed {
		if mapped == nil {
			order, err := mf.Order(ds.Names)
			if err != nil {
				err = columnError(err, path, ds.Names)
				if d := len(mf.Features); len(ds.Names) != d {
					err = fmt.Errorf("%s has %d features, but the model was trained on %d: %w", path, len(ds.Names), d, err)
				}
				return nil, err
			}
			permute(ds.X, order)
			ds.Names = slices.Clone(mf.Features)
		}
		noteDropped(e, quiet, path, ds.Dropped)
		return ds, nil
	}
	j, err := mf.Renamed(ds.Names)
	var de *modelfile.DimError
	if errors.As(err, &de) {
		return nil, fmt.Errorf("%s has %d features, but the model was trained on %d", path, de.Got, de.Want)
	}
	if err != nil {
		return nil, err
	}
	if j >= 0 && !quiet {
		fmt.Fprintf(e.stderr, "svclust: warning: feature %d of %s is %q, the model's is %q\n", j+1, path, ds.Names[j], mf.Features[j])
	}
	noteDropped(e, quiet, path, ds.Dropped)
	return ds, nil
}

// noteDropped says on standard error, unless quiet, how many rows of the
// data file path -na drop skipped.
func noteDropped(e *env, quiet bool, path string, dropped []int) {
	if len(dropped) > 0 && !quiet {
		fmt.Fprintf(e.stderr, "svclust: %s: %s with missing values skipped (-na drop); their results are empty lines\n", displayPath(path), plural(len(dropped), "row"))
	}
}

// featureMap returns the columns of the model's features, in its order,
// that -features MODEL=COLUMN,… (given as list) maps them to, a feature it
// does not name keeping its own name; nil when list is not such a map (no
// entry holds '='). It returns a usage error for a map of a model without
// feature names, an entry without '=', a MODEL that is no feature of the
// model, and a feature mapped twice.
func featureMap(mf *modelfile.File, list []string) ([]string, error) {
	if !slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, "=") }) {
		return nil, nil
	}
	if mf.Features == nil {
		return nil, usagef("-features: the model has no feature names to map; list the columns of its features in its order instead (-features a,b,…)")
	}
	cols := slices.Clone(mf.Features)
	given := make(map[string]bool, len(list))
	for _, entry := range list {
		feature, column, ok := strings.Cut(entry, "=")
		if !ok {
			return nil, usagef("-features %q: every entry of a map is MODEL=COLUMN", entry)
		}
		j := slices.Index(mf.Features, feature)
		switch {
		case j < 0:
			return nil, usagef("-features %q: %q is no feature of the model (its features: %s)", entry, feature, strings.Join(mf.Features, ","))
		case given[feature]:
			return nil, usagef("-features: feature %q is mapped twice", feature)
		}
		given[feature] = true
		cols[j] = column
	}
	return cols, nil
}

// columnError returns err, an error of modelfile.File.Order on the feature
// columns names of the data file path, with what to do about it.
func columnError(err error, path string, names []string) error {
	var ce *modelfile.ColumnError
	var de *modelfile.DimError
	switch {
	case errors.As(err, &ce) && ce.Missing != "":
		return fmt.Errorf("%s: no column %q, a feature of the model (its feature columns: %s); map the model's features to columns with -features %s=COLUMN,…", displayPath(path), ce.Missing, strings.Join(names, ","), ce.Missing)
	case errors.As(err, &ce):
		return fmt.Errorf("%s: column %q is no feature of the model; drop it with -drop %s, or choose the columns with -features", displayPath(path), ce.Extra, ce.Extra)
	case errors.As(err, &de):
		return fmt.Errorf("%s has %d features, but the model was trained on %d", path, de.Got, de.Want)
	}
	return fmt.Errorf("%s: %w", displayPath(path), err)
}

// permute puts the columns of each row of x in the given order: column j
// becomes the old column order[j]. It does nothing for the identity.
func permute(x *mat.Dense, order []int) {
	identity := true
	for j, k := range order {
		identity = identity && j == k
	}
	if identity {
		return
	}
	n, d := x.Dims()
	buf := make([]float64, d)
	for i := range n {
		row := x.RawRowView(i)
		for j, k := range order {
			buf[j] = row[k]
		}
		copy(row, buf)
	}
}

// modelError returns err, an error of modelfile.File's Predict, Score or
// ScaleRows on the rows of the data set ds read from the file path, with
// the line and the name of a value that overflows when scaled
// (dataset.Dataset.Line counts the header and the rows -na drop skipped).
func modelError(err error, mf *modelfile.File, path string, ds *dataset.Dataset) error {
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		return overflowError(path, fmt.Sprintf("%s:%d", displayPath(path), ds.Line(oe.Row)), ds.Names[oe.Col], oe.Value, oe.Scaled, oe.Column, mf.Scale.String())
	}
	return err
}
