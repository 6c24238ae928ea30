package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot/vg"

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
}

func newPlot() *Command {
	o := &plotFlags{width: 5, height: 5}
	c := &Command{
		UsageLine: "plot -model FILE -o FIG.png|FIG.svg [-labels FILE] [-title TEXT] [-legend] [-width IN] [-height IN] [-grid N] [-workers N] [data flags] DATA.csv",
		Short:     "draw the clusters and the domain of novelty of 2-D data",
		Long: `
Plot draws the rows of DATA.csv, in the scaled space of a model file,
coloured by the cluster the model assigns them (or by -labels), with the
model's support vectors ringed, its domain of novelty f ≥ 0 shaded and the
boundary f = 0 drawn, and writes the figure as PNG or SVG by the extension
of -o. The model must be 2-D.`,
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
	// 200 inches is far beyond any page and keeps a PNG below 30,000 pixels
	// a side at 150 dpi.
	for _, f := range []struct {
		name string
		v    float64
	}{{"-width", o.width}, {"-height", o.height}} {
		if !(f.v > 0 && f.v <= 200) {
			return usagef("%s must be > 0 and ≤ 200 (inches)", f.name)
		}
	}
	if o.grid < 0 {
		return usagef("-grid must be ≥ 0 (0 means 300)")
	}
	if err := atMost("-grid", o.grid, maxGrid); err != nil {
		return err
	}
	mf, path, err := o.setup(e, args, namedPath{"-labels", o.labels})
	if err != nil {
		return err
	}
	if d := mf.Model.Dim(); d != 2 {
		return fmt.Errorf("plot needs 2-D data; got d=%d (the model's dimension)", d)
	}
	ropt, err := o.data.options(path, mf.Label, false)
	if err != nil {
		return err
	}
	x, names, err := loadFor(e, mf, path, ropt)
	if err != nil {
		return err
	}
	// The figure is drawn in the model's scaled space.
	if err := mf.ScaleRows(x); err != nil {
		return modelError(err, mf, path, names)
	}
	var labels []int
	if o.labels != "" {
		n, _ := x.Dims()
		if labels, err = readLabels(o.labels, n, path); err != nil {
			return err
		}
	} else if mf.Partition == nil {
		return fmt.Errorf("%s: the model has no partition: it can score points but not label them; give -labels", o.model)
	} else {
		labels = mf.Partition.Predict(nil, x, o.workers)
	}
	opt := &figure.Options{Title: o.title, Legend: o.legend, Grid: o.grid, Workers: o.workers}
	opt.XLabel, opt.YLabel = axisLabel(mf, 0), axisLabel(mf, 1)
	p, err := figure.Domain(mf.Model, x, labels, opt)
	if err != nil {
		return err
	}
	return figure.Save(o.out, vg.Length(o.width)*vg.Inch, vg.Length(o.height)*vg.Inch, p)
}

// axisLabel returns the label of axis j: the feature's name, and the
// scaling when there is one, since the figure is drawn in the model's space.
func axisLabel(mf *modelfile.File, j int) string {
	name := fmt.Sprintf("x%d", j+1)
	if mf.Features != nil {
		name = mf.Features[j]
	}
	if mf.Scale == dataset.ScaleNone {
		return name
	}
	return fmt.Sprintf("%s (%s scaled)", name, mf.Scale)
}

// readLabels reads the clusters of n rows of data from the CSV file path,
// which has one integer column (any header), or a column named "cluster"
// among others, as fit -o and predict write it beside "outlier"; negative
// clusters are outliers.
func readLabels(path string, n int, data string) ([]int, error) {
	ds, err := dataset.ReadFile(path, dataset.ReadOptions{NoLabel: true})
	if err != nil {
		return nil, err
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
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			// The header is line 1, and dataset rejects blank lines.
			return nil, fmt.Errorf("%s:%d: cluster %v is not an integer", path, i+2, v)
		}
		labels[i] = int(v)
	}
	return labels, nil
}
