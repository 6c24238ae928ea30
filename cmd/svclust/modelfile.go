package main

import (
	"errors"
	"fmt"
	"math"

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

// loadFor reads the data of path with the options opt for the model mf:
// the model's label column is dropped, the feature count checked, and a
// warning printed, unless quiet, for a feature named otherwise than the
// model's and for the rows -na drop skipped. It returns the data set,
// unscaled, without its labels.
func loadFor(e *env, quiet bool, mf *modelfile.File, path string, opt dataset.ReadOptions) (*dataset.Dataset, error) {
	ds, err := dataset.ReadFile(path, opt)
	if err != nil {
		return nil, dataError(err)
	}
	ds.Labels = nil // not needed, and as large as a column of data
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

// modelError returns err, an error of modelfile.File's Predict, Score or
// ScaleRows on the rows of the data set ds read from the file path, with
// the line and the name of a value that overflows when scaled: data row i
// is line i+2, since the reader rejects blank lines and newlines in
// quotes, and the rows -na drop skipped are counted back in.
func modelError(err error, mf *modelfile.File, path string, ds *dataset.Dataset) error {
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		return overflowError(path, fmt.Sprintf("%s:%d", displayPath(path), dataRow(oe.Row, ds.Dropped)+2), ds.Names[oe.Col], oe.Value, oe.Scaled, oe.Column, mf.Scale.String())
	}
	return err
}
