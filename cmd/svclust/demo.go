package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/settings"
)

// demoRow is one line of the demo table.
type demoRow struct {
	Kind           string  `json:"kind"`
	Clusters       int     `json:"clusters"`
	TrueClusters   int     `json:"true_clusters"`
	ARI            float64 `json:"ari"`
	NMI            float64 `json:"nmi"`
	SupportVectors int     `json:"support_vectors"`
	TrainMS        float64 `json:"train_ms"`
	AssignMS       float64 `json:"assign_ms"`
}

func newDemo() *Command {
	var (
		n       = 1000
		seed    = uint64(1)
		jsonOut bool
	)
	c := &Command{
		UsageLine: "demo [-n N] [-seed S] [-json]",
		Short:     "cluster the synthetic data sets with the defaults",
		Long: `
Demo generates n points of each synthetic data set (moons, nested, gauss3
and gauss4), fits and clusters each with the default settings of fit, and
prints a table of the clusters found against the true ones, the adjusted
Rand index and normalised mutual information, the number of support
vectors and the training and assignment times.`,
		Flag: flag.NewFlagSet("demo", flag.ContinueOnError),
	}
	c.Flag.IntVar(&n, "n", n, "number of points of each data set")
	c.Flag.Uint64Var(&seed, "seed", seed, "random seed of the data and of training")
	c.Flag.BoolVar(&jsonOut, "json", false, "print the table as JSON")
	c.Run = func(ctx context.Context, e *env, args []string) error {
		if n < 2 {
			return usagef("-n must be ≥ 2")
		}
		if err := atMost("-n", n, maxDemoN); err != nil {
			return err
		}
		if len(args) > 0 {
			return usagef("unexpected arguments")
		}
		st := settings.Default()
		st.Seed = seed
		var rows []demoRow
		for _, k := range dataset.Kinds() {
			if err := ctx.Err(); err != nil {
				return err
			}
			ds, err := dataset.Generate(k, n, seed)
			if err != nil {
				return err
			}
			r, err := fitCluster(newData(ds), st, metrics.Indices{}, nil) // the table shows ARI and NMI only
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			rows = append(rows, demoRow{
				Kind:           string(k),
				Clusters:       r.cl.Clusters,
				TrueClusters:   len(ds.Classes),
				ARI:            r.validity.ARI,
				NMI:            r.validity.NMI,
				SupportVectors: len(r.model.Alpha),
				TrainMS:        r.model.Stats.Runtime.Seconds() * 1000,
				AssignMS:       r.cl.Runtime.Seconds() * 1000,
			})
		}
		if jsonOut {
			return writeJSON(e.stdout, rows)
		}
		fmt.Fprintf(e.stdout, "%d points each, seed %d, budget %s, %s, scale %s\n\n", n, seed, st.Budget.String(), st.Maintain, st.Scale)
		tw := tabwriter.NewWriter(e.stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "kind\tclusters\ttrue\tARI\tNMI\tSVs\ttrain ms\tassign ms\t\n")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\t%.4f\t%d\t%.1f\t%.1f\t\n",
				r.Kind, r.Clusters, r.TrueClusters, r.ARI, r.NMI, r.SupportVectors, r.TrainMS, r.AssignMS)
		}
		return tw.Flush()
	}
	return c
}
