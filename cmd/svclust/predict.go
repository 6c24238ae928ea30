package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/svclust/svclust/internal/numfmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// modelFlags are the flags of predict and score.
type modelFlags struct {
	model      string
	out        string
	workers    int
	maxModelMB int64
	quiet      bool
	data       dataFlags
}

func (o *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.model, "model", "", "read the model from `file`, as written by fit -model (required)")
	fs.StringVar(&o.out, "o", "-", "write the result to `file` (- for standard output)")
	fs.IntVar(&o.workers, "workers", 0, "number of goroutines; 0 means all cores")
	o.data.register(fs)
	fs.Int64Var(&o.maxModelMB, "max-model-mb", defaultMaxModelMB, "largest model file read, in `MiB`")
	fs.BoolVar(&o.quiet, "quiet", false, "print nothing on standard error but errors: no warnings")
}

// note prints a note on standard error unless -quiet.
func (o *modelFlags) note(e *env, format string, a ...any) {
	if !o.quiet {
		fmt.Fprintf(e.stderr, "svclust: note: "+format+"\n", a...)
	}
}

// runWith returns the Run function of a command that applies a model to
// data: it validates the flags, reads the model and the data (unscaled),
// calls apply with the rows read and the data rows -na drop skipped, and
// writes what apply returns to -o.
func (o *modelFlags) runWith(apply func(e *env, mf *modelfile.File, x *mat.Dense, dropped []int) (func(io.Writer) error, error)) func(context.Context, *env, []string) error {
	return func(_ context.Context, e *env, args []string) error {
		mf, path, err := o.setup(e, args)
		if err != nil {
			return err
		}
		opt, err := o.data.options(path, mf.Label, false, o.workers)
		if err != nil {
			return err
		}
		ds, err := loadFor(e, o.quiet, mf, path, opt)
		if err != nil {
			return err
		}
		write, err := apply(e, mf, ds.X, ds.Dropped)
		if err != nil {
			return modelError(err, mf, path, ds)
		}
		return e.writeOutputs(output{"-o", o.out, write})
	}
}

// setup validates the flags and reads the model and the data; more names
// the inputs besides DATA and -model, if any.
func (o *modelFlags) setup(e *env, args []string, more ...namedPath) (*modelfile.File, string, error) {
	if o.model == "" {
		return nil, "", usagef("-model is required")
	}
	if o.workers < 0 {
		return nil, "", usagef("-workers must be ≥ 0 (0 means all cores)")
	}
	if err := atMost("-workers", o.workers, settings.MaxWorkers); err != nil {
		return nil, "", err
	}
	path, err := oneArg(args)
	if err != nil {
		return nil, "", err
	}
	if _, err := o.data.options(path, "", false, o.workers); err != nil {
		return nil, "", err
	}
	if o.out == "" {
		return nil, "", usagef("-o needs a file name (- for standard output)")
	}
	ins := append([]namedPath{{"DATA", path}, {"-model", o.model}}, more...)
	if err := checkPaths(ins, []namedPath{{"-o", o.out}}); err != nil {
		return nil, "", err
	}
	if o.maxModelMB < 1 || o.maxModelMB > maxModelMB {
		return nil, "", usagef("-max-model-mb %d: must be ≥ 1 and ≤ %s", o.maxModelMB, numfmt.Thousands(maxModelMB))
	}
	mf, err := readModel(o.model, o.maxModelMB<<20)
	if err != nil {
		return nil, "", err
	}
	return mf, path, nil
}

func newPredict() *Command {
	o := &modelFlags{}
	c := &Command{
		UsageLine: "predict -model FILE [-o FILE] [-workers N] [data flags] DATA.csv",
		Short:     "label new data with a fitted model",
		Long: `
Predict applies the scaling and the clustering stored in a model file to
the rows of DATA.csv and writes the cluster and the outlier score of each
row as CSV with the header "cluster,outlier" (see fit -outliers). The
model's label column is ignored if present. On the training data it
reproduces fit -o exactly. A model file written before the outlier scores
(version 5 or older) gives the column "cluster" alone, with a note on
standard error.

Columns are matched to the model's features by name whenever the model
knows their names (fit records the header): their order does not matter,
and a feature of the model that names no column, or a column that names
no feature (drop it with -drop), is an error naming it. -features
MODEL=COLUMN,... maps features to columns of other names (the features it
does not name keep their own), and -features COLUMN,... lists the columns
in the model's order. A model without names takes the columns in order.`,
		Flag: flag.NewFlagSet("predict", flag.ContinueOnError),
	}
	o.register(c.Flag)
	c.Run = o.runWith(func(e *env, mf *modelfile.File, x *mat.Dense, dropped []int) (func(io.Writer) error, error) {
		labels, scores, err := mf.PredictScores(nil, nil, x, o.workers)
		if errors.Is(err, cluster.ErrNoOutlierScores) {
			o.note(e, "%s holds no outlier data (a model file of version 5 or older, or a partition built without them): no outlier column; fit the data again to get it", o.model)
			labels, scores, err = nil, nil, nil
			labels, err = mf.Predict(nil, x, o.workers)
		}
		if errors.Is(err, modelfile.ErrNotClustered) {
			return nil, fmt.Errorf("%s: the model has no partition: it can score points but not label them", o.model)
		}
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error { return writeLabels(w, labels, scores, dropped) }, nil
	})
	return c
}

func newScore() *Command {
	o := &modelFlags{}
	c := &Command{
		UsageLine: "score -model FILE [-o FILE] [-workers N] [data flags] DATA.csv",
		Short:     "print f(x) and the outlier score of new data",
		Long: `
Score applies the scaling stored in a model file to the rows of DATA.csv
and writes f(x) = Σᵢ αᵢ k(svᵢ, x) − 1 of each row and its outlier score as
CSV with the header "score,outlier", in the shortest form that reads back
exactly. f is the raw novelty score, higher inside the data, on a scale
of its own per model; the outlier score is in [0, 1], 0 at a cluster's
peak, ½ at the default threshold of -outliers, towards 1 far from every
cluster. A model without a partition, or written before the outlier
scores (version 5 or older), gives the column "score" alone, with a note
on standard error. Columns are matched to the model's features by name,
as for predict (see svclust help predict).`,
		Flag: flag.NewFlagSet("score", flag.ContinueOnError),
	}
	o.register(c.Flag)
	c.Run = o.runWith(func(e *env, mf *modelfile.File, x *mat.Dense, dropped []int) (func(io.Writer) error, error) {
		scores, outlier, err := mf.ScoreOutliers(nil, nil, x, o.workers)
		if noPart, old := errors.Is(err, modelfile.ErrNotClustered), errors.Is(err, cluster.ErrNoOutlierScores); noPart || old {
			if noPart {
				o.note(e, "%s has no partition, hence no outlier scores: writing the column \"score\" alone", o.model)
			} else {
				o.note(e, "%s holds no outlier data (a model file of version 5 or older, or a partition built without them): no outlier column; fit the data again to get it", o.model)
			}
			outlier = nil
			scores, err = mf.Score(nil, x, o.workers)
		}
		if err != nil {
			return nil, err
		}
		return func(w io.Writer) error {
			return writeScores(w, scores, outlier, dropped)
		}, nil
	})
	return c
}
