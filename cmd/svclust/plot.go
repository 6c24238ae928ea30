package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/figure"
	"github.com/svclust/svclust/modelfile"
)

// plotFlags are the flags of plot; -model, -o and -workers are those of
// predict, except that -o is required.
type plotFlags struct {
	modelFlags
	labels        string
	title         string
	legend        bool
	width, height float64
	grid          int
	sv            bool
}

func newPlot() *Command {
	o := &plotFlags{width: 5, height: 5}
	c := &Command{
		UsageLine: "plot -model FILE -o FIG.png|FIG.svg [-labels FILE] [-title TEXT] [-legend] [-sv] [-width IN] [-height IN] [-grid N] [-workers N] [data flags] DATA.csv",
		Short:     "draw the clusters of data of any dimension, and the domain of novelty of 2-D data",
		Long: `
Plot draws the rows of DATA.csv coloured by the cluster a model file
assigns them, as predict labels them (an updated model's stable ids, so a
cluster keeps its colour from update to update), or by -labels, outliers
in grey, and writes the figure as PNG or SVG by the extension of -o.
With 2 features the axes are the
features in the data's own units, the model's support vectors are ringed,
its domain of novelty f ≥ 0 shaded and the boundary f = 0 drawn. With more,
the figure is the plane of the first two principal components of the
scaled data (the axes say so, with the share of the variance each
carries), without the domain, which has no faithful picture in a plane;
-sv adds the support vectors as light rings.`,
		Flag: flag.NewFlagSet("plot", flag.ContinueOnError),
	}
	fs := c.Flag
	fs.StringVar(&o.model, "model", "", "read the model from `file`, as written by fit -model (required)")
	fs.StringVar(&o.out, "o", "", "write the figure to `file`, ending in .png or .svg (required)")
	fs.IntVar(&o.workers, "workers", 0, "number of goroutines; 0 means all cores")
	fs.Int64Var(&o.maxModelMB, "max-model-mb", defaultMaxModelMB, "largest model file read, in `MiB`")
	fs.StringVar(&o.labels, "labels", "", "colour the points by the clusters in `file` (CSV, one column, as written by fit -o) instead of the model's")
	fs.StringVar(&o.title, "title", "", "draw `text` above the plot")
	fs.BoolVar(&o.legend, "legend", false, "add a legend")
	fs.Float64Var(&o.width, "width", o.width, "width of the figure in `inches`")
	fs.Float64Var(&o.height, "height", o.height, "height of the figure in `inches`")
	fs.IntVar(&o.grid, "grid", 0, "evaluate f at `n` grid points along the longer side; 0 means 300")
	fs.BoolVar(&o.sv, "sv", false, "with more than 2 features, draw the support vectors (as light rings)")
	o.data.register(fs)
	c.Run = func(_ context.Context, e *env, args []string) error { return runPlot(e, o, args) }
	return c
}

func runPlot(e *env, o *plotFlags, args []string) error {
	if o.out == "" {
		return usagef("-o is required (a .png or .svg file)")
	}
	if _, err := figure.Format(o.out); err != nil {
		return usagef("-o %s: the file name must end in .png or .svg", o.out)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"-width", o.width}, {"-height", o.height}} {
		if !(f.v >= figure.MinInches && f.v <= figure.MaxInches) {
			return usagef("%s must be ≥ %d and ≤ %d (inches)", f.name, figure.MinInches, figure.MaxInches)
		}
	}
	if o.grid < 0 {
		return usagef("-grid must be ≥ 0 (0 means %d)", figure.DefaultGrid)
	}
	if err := atMost("-grid", o.grid, figure.MaxGrid); err != nil {
		return err
	}
	mf, path, err := o.setup(e, args, namedPath{"-labels", o.labels})
	if err != nil {
		return err
	}
	d := mf.Model.Dim()
	if d < 2 {
		return fmt.Errorf("plot needs at least 2 features; the model has %d", d)
	}
	ropt, err := o.data.options(path, mf.Label, false, o.workers)
	if err != nil {
		return err
	}
	ds, err := loadFor(e, false, mf, path, ropt)
	if err != nil {
		return err
	}
	// The clusters are those of the scaled rows; a 2-D figure is drawn in
	// the data's own units, a projection in the scaled space.
	x := mat.DenseCopyOf(ds.X)
	if err := mf.ScaleRows(x); err != nil {
		return modelError(err, mf, path, ds)
	}
	var labels []int
	if o.labels != "" {
		n, _ := x.Dims()
		if labels, err = readLabels(o.labels, n, path, ds.Dropped); err != nil {
			return err
		}
	} else if mf.Partition == nil {
		return fmt.Errorf("%s: the model has no partition: it can score points but not label them; give -labels", o.model)
	} else {
		// The stable ids of an updated model, as predict prints them, so
		// that a cluster keeps its colour from update to update.
		labels = mf.Partition.Predict(nil, x, o.workers)
		mf.StableIDs(labels)
	}
	opt := &figure.Options{Title: o.title, Legend: o.legend, Grid: o.grid, Workers: o.workers, SupportVectors: o.sv}
	w, h := figure.Inches(o.width), figure.Inches(o.height)
	if d == 2 {
		opt.XLabel, opt.YLabel = axisLabel(mf, 0), axisLabel(mf, 1)
		opt.Scaler = mf.Scaler
		p, err := figure.Domain(mf.Model, ds.X, labels, opt)
		if err != nil {
			return err
		}
		return figure.Save(o.out, w, h, p)
	}
	opt.Of = "the " + mf.Scale.String() + "-scaled data"
	if mf.Scale == dataset.ScaleNone {
		opt.Of = "the data"
	}
	p, _, err := figure.Principal(mf.Model, x, labels, opt)
	if err != nil {
		return err
	}
	return figure.Save(o.out, w, h, p)
}

// axisLabel returns the label of axis j of a 2-D figure, drawn in the
// data's own units: the feature's name.
func axisLabel(mf *modelfile.File, j int) string {
	if mf.Features != nil {
		return mf.Features[j]
	}
	return fmt.Sprintf("x%d", j+1)
}

// readLabels reads the clusters of n rows of data from the CSV file path,
// which has one integer column (any header), or a column named "cluster"
// among others, as fit -o and predict write it beside "outlier"; negative
// clusters are outliers. The data rows dropped were skipped by -na drop:
// the file must have empty fields there, as fit -o writes them.
func readLabels(path string, n int, data string, dropped []int) ([]int, error) {
	opt := dataset.ReadOptions{NoLabel: true}
	if dropped != nil {
		opt.NA = dataset.NADrop
	}
	ds, err := dataset.ReadFile(path, opt)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(ds.Dropped, dropped) {
		return nil, fmt.Errorf("%s has empty labels at other rows than the rows of %s with missing values", path, data)
	}
	rows, d := ds.X.Dims()
	col := 0
	if d != 1 {
		col = slices.Index(ds.Names, "cluster")
		if col < 0 {
			return nil, fmt.Errorf("%s has %d columns and none named \"cluster\"; a labels file has one column, or a column \"cluster\" as fit -o writes it", path, d)
		}
	}
	if rows != n {
		return nil, fmt.Errorf("%s has %d labels for the %d rows of %s", path, rows, n, data)
	}
	labels := make([]int, n)
	for i := range n {
		v := ds.X.At(i, col)
		switch {
		case v != math.Trunc(v):
			return nil, fmt.Errorf("%s:%d: cluster %v is not an integer", path, ds.Line(i), v)
		case math.Abs(v) > math.MaxInt32:
			return nil, fmt.Errorf("%s:%d: cluster %v is out of range: a cluster is an integer from -1 to %d", path, ds.Line(i), v, math.MaxInt32)
		}
		labels[i] = int(v)
	}
	return labels, nil
}
