package main

import (
	"context"
	"flag"
	"io"
	"strings"

	"github.com/svclust/svclust/dataset"
)

func kindNames() string {
	var names []string
	for _, k := range dataset.AllKinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

func newGen() *Command {
	var (
		kind = "moons"
		n    = 1000
		seed = uint64(1)
		out  = "-"
	)
	c := &Command{
		UsageLine: "gen [-kind KIND] [-n N] [-seed S] [-o FILE]",
		Short:     "generate a synthetic data set",
		Long: `
Gen writes n points of a synthetic data set as CSV with the columns x1,
x2 and label: moons (two interleaved half circles), nested (a blob in two
rings), gauss3 or gauss4 (three or four Gaussians), the sets of the
paper's figures; or one of the further shapes on which fit's defaults were
calibrated: circles (two concentric circles), varied (three Gaussians of
different spread), aniso (three stretched Gaussians), spirals3 (three
spiral arms), grid25 (a 5 × 5 grid of Gaussians), hd8 (five Gaussians in 8
dimensions: columns x1..x8), noisyblobs (four Gaussians and 10 % uniform
noise as a fifth class), unbal (two Gaussians, 10 : 1), line3 (three tight
blobs on a line), cube (uniform in a 3-D cube, one class: columns
x1..x3), touch20 (twenty Gaussians whose neighbours touch) or birch (a
10 × 10 grid of Gaussians of 1 % of the points each, the layout of BIRCH's
DS1). The same seed gives the same data.`,
		Flag: flag.NewFlagSet("gen", flag.ContinueOnError),
	}
	c.Flag.StringVar(&kind, "kind", kind, "data set: "+kindNames())
	c.Flag.IntVar(&n, "n", n, "number of points")
	c.Flag.Uint64Var(&seed, "seed", seed, "random seed")
	c.Flag.StringVar(&out, "o", out, "write the data to `file` (- for standard output)")
	c.Run = func(ctx context.Context, e *env, args []string) error {
		k, err := dataset.ParseKind(kind)
		if err != nil {
			return usagef("-kind must be one of %s, not %q", kindNames(), kind)
		}
		if n < 1 {
			return usagef("-n must be ≥ 1")
		}
		if err := atMost("-n", n, maxGenN); err != nil {
			return err
		}
		if len(args) > 0 {
			return usagef("unexpected arguments: %s", strings.Join(args, " "))
		}
		if out == "" {
			return usagef("-o needs a file name (- for standard output)")
		}
		// GenerateCSV writes what Generate and WriteCSV would, without
		// holding the points in memory.
		return e.writeOutputs(output{"-o", out, func(w io.Writer) error { return dataset.GenerateCSV(w, k, n, seed) }})
	}
	return c
}
