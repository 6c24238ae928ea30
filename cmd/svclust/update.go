package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/internal/numfmt"
	"github.com/svclust/svclust/settings"
)

// updateFlags are the flags of update.
type updateFlags struct {
	modelFlags // -o, -workers, -max-model-mb, -quiet and the data flags; -model is the output here
	from       string
	forget     string
	steps      int
	minSize    settings.Int
	eps        settings.Float
	json       bool
}

func newUpdate() *Command {
	o := &updateFlags{minSize: settings.Int{Auto: true}, eps: settings.Float{Auto: true}}
	c := &Command{
		UsageLine: "update -from OLD.json -model NEW.json [-forget RATE|auto|off] [-steps N] [-min-size N|auto] [-eps E|auto] [-o FILE] [-json] [data flags] BATCH.csv",
		Short:     "update a fitted model with new rows",
		Long: `
Update continues the training of the model in OLD.json (written by fit
-model or update -model, version 8) with the rows of BATCH.csv, clusters
them with the updated model, and writes the updated model to NEW.json: the
same scaling (the first fit's, never refitted), γ, C, budget and budget
maintenance, the training continued from its stored state (steps, rows
seen, seeded generator), the clusters matched to the old ones so that a
cluster that persists keeps its id. It prints a summary (with -json, one
JSON object) with the rows seen and the clusters born, died, merged and
split; -o writes the stable cluster id and the outlier score of each row
of the batch. NEW.json must not be OLD.json: an update never overwrites
its input.

-forget sets the forgetting rate per SGD step, so that the model follows
a drift: a rate in (0, 1), auto (the rate 1/(5·steps): an update's weight
falls to 1/e after 5 more updates), or off (the default: every row seen
weighs alike). -steps sets the SGD steps of the update (0: min(6,000,
2 per row)). -min-size and -eps are those of the re-clustering, as for
fit; the model file does not keep the first fit's, so give them again
(auto by default). Columns are matched to the model's features as for
predict.`,
		Flag: flag.NewFlagSet("update", flag.ContinueOnError),
	}
	fs := c.Flag
	fs.StringVar(&o.from, "from", "", "read the model to update from `file`, as written by fit -model or update -model (required)")
	fs.StringVar(&o.model, "model", "", "write the updated model to `file` (required; - for standard output)")
	fs.StringVar(&o.out, "o", "", "write the cluster id and outlier score of each row to `file` as CSV (- for standard output)")
	fs.StringVar(&o.forget, "forget", "off", "forgetting rate per SGD step: a `rate` in (0, 1), auto or off")
	fs.IntVar(&o.steps, "steps", 0, "SGD steps of the update; 0 means min(6,000, 2 per row)")
	fs.Var(&o.minSize, "min-size", "smallest cluster of the re-clustering (-rule levels), in `rows` of the batch and the support vectors' rows (about the budget), or auto (0.75 % of them, at least 5); the model file does not keep fit's")
	fs.Var(&o.eps, "eps", "half-width ε of the strip of the re-clustering (-rule components): a `number` > 0, or auto; the model file does not keep fit's")
	fs.IntVar(&o.workers, "workers", 0, "number of goroutines; 0 means all cores")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON")
	fs.Int64Var(&o.maxModelMB, "max-model-mb", defaultMaxModelMB, "largest model file read, in `MiB`")
	fs.BoolVar(&o.quiet, "quiet", false, "print nothing on standard error but errors: no warnings")
	o.data.register(fs)
	c.Run = func(ctx context.Context, e *env, args []string) error { return runUpdate(ctx, e, o, args) }
	return c
}

// updateJSON is the report of update -json: fit's report of the updated
// model and the batch's clustering, and the update's own.
type updateJSON struct {
	*settings.Report
	Update settings.UpdateInfo `json:"update"`
}

func runUpdate(ctx context.Context, e *env, o *updateFlags, args []string) error {
	if o.from == "" {
		return usagef("-from is required: the model file to update")
	}
	if o.model == "" {
		return usagef("-model is required: the file of the updated model")
	}
	forget, err := settings.ParseForget(o.forget)
	if err != nil {
		return configError(err)
	}
	if o.steps < 0 {
		return usagef("-steps must be ≥ 0 (0 means min(6,000, 2 per row))")
	}
	if err := atMost("-steps", o.steps, settings.MaxIter); err != nil {
		return err
	}
	if o.workers < 0 {
		return usagef("-workers must be ≥ 0 (0 means all cores)")
	}
	if err := atMost("-workers", o.workers, settings.MaxWorkers); err != nil {
		return err
	}
	path, err := oneArg(args)
	if err != nil {
		return err
	}
	if _, err := o.data.options(path, "", false, o.workers); err != nil {
		return err
	}
	if err := checkPaths([]namedPath{{"DATA", path}, {"-from", o.from}}, []namedPath{{"-model", o.model}, {"-o", o.out}}); err != nil {
		return err
	}
	if o.maxModelMB < 1 || o.maxModelMB > maxModelMB {
		return usagef("-max-model-mb %d: must be ≥ 1 and ≤ %s", o.maxModelMB, numfmt.Thousands(maxModelMB))
	}
	mf, err := readModel(o.from, o.maxModelMB<<20)
	if err != nil {
		return err
	}
	if mf.Model.Training == nil {
		return fmt.Errorf("%s: %w", o.from, svclust.ErrNoTraining)
	}
	opt, err := o.data.options(path, mf.Label, false, o.workers)
	if err != nil {
		return err
	}
	ds, err := loadFor(e, o.quiet, mf, path, opt)
	if err != nil {
		return err
	}
	src := settings.Source{Data: path}
	if path != "-" {
		src.SHA256, err = fileSHA256(path)
		if err != nil {
			return err
		}
	}
	n, d := ds.X.Dims()
	up, err := settings.UpdateRows(ctx, mf, ds.X, true, settings.UpdateOptions{Forget: forget, Steps: o.steps, Workers: o.workers, MinSize: &o.minSize, Eps: &o.eps}, readBuildInfo().String(), src, nil)
	if err != nil {
		if errors.Is(err, svclust.ErrNoTraining) {
			return fmt.Errorf("%s: %w", o.from, err)
		}
		return configError(modelError(err, mf, path, ds))
	}
	outs := []output{{"-model", o.model, up.File.Write}}
	if o.out != "" {
		outs = append(outs, output{"-o", o.out, func(w io.Writer) error {
			return writeLabels(w, up.Labels, up.Result.OutlierScores, ds.Dropped)
		}})
	}
	if err := e.writeOutputs(outs...); err != nil {
		return err
	}
	summary := e.stdout
	if e.toStdout(o.out) || e.toStdout(o.model) {
		if o.quiet {
			return nil
		}
		summary = e.stderr
	}
	m := up.File.Model
	info := up.Info(forget)
	st := settings.FromFile(mf)
	if o.json {
		return writeJSON(summary, &updateJSON{Report: st.Report(m, up.Result, n, d), Update: info})
	}
	tw := tabwriter.NewWriter(summary, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "data\t%s: n = %d, d = %d, scaled with %s's %s scaler\n", path, n, d, o.from, mf.Scale)
	fmt.Fprintf(tw, "update\t%s SGD steps (%d updates, %d maintenance calls), forget %s; %s seen, in the first fit and %s since, %d support vectors\n",
		numfmt.Thousands(int64(m.Stats.Iterations)), m.Stats.Updates, m.Stats.Maintenance, o.forget,
		plural(m.Training.Rows, "row"), plural(m.Training.Batches, "update"), len(m.Alpha))
	fmt.Fprintf(tw, "clusters\t%s, ids %v; %s\n", plural(up.Result.Clusters, "cluster"), info.IDs, events(up.Lineage))
	tw.Flush()
	return nil
}

// events describes the lineage's events in words.
func events(l *cluster.Lineage) string {
	if l == nil {
		return "the model had no partition to match"
	}
	var p []string
	if len(l.Born) > 0 {
		p = append(p, fmt.Sprintf("born %v", l.Born))
	}
	if len(l.Died) > 0 {
		p = append(p, fmt.Sprintf("died %v", l.Died))
	}
	for _, m := range l.Merged {
		p = append(p, fmt.Sprintf("%v merged into %d", m.From, m.Into))
	}
	for _, s := range l.Split {
		p = append(p, fmt.Sprintf("%d split into %v", s.From, s.Into))
	}
	if len(p) == 0 {
		return "every cluster continues"
	}
	return strings.Join(p, ", ")
}

// fileSHA256 returns the SHA-256 of the bytes of the file path in
// hexadecimal.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
