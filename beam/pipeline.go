package beam

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	// The file systems the pipeline reads and writes: local files and
	// Google Cloud Storage (gs://), for Dataflow.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
	"github.com/svclust/svclust/stream"
)

// DefaultSample is the default of the sample size (Settings.Sample), the
// default of `svclust fit -stream -sample` as well: training draws 10,000
// to 1,000,000 SGD steps from the sample and the automatic settings look at
// 2,000 rows, so 200,000 rows is several times what training can use.
const DefaultSample = stream.DefaultSampleSize

// MaxSample is the largest sample (Settings.Sample): the sample is held by
// one worker, 8·d bytes a row plus its identity.
const MaxSample = settings.MaxSample

// Options configure [Run].
type Options struct {
	// Input is a glob (filepath.Match syntax, or the file system's
	// own for gs://) naming the CSV files; each is plain or gzip and all
	// have the same columns. Required.
	Input string

	// Output is the prefix of the output shards: shard i of n (one per
	// input file, in sorted order of their paths) is
	// Output-0000i-of-0000n.csv. Required.
	Output string

	// Model is the path of the model file to write. Required.
	Model string

	// Read configures the reading of the CSV files (separator, dropped
	// columns) as for dataset.Read; its Name is ignored (every error
	// names its file), and its Label and RequireLabel are those of
	// Settings (-label).
	Read dataset.ReadOptions

	// Settings are the settings of the run, those of `svclust fit
	// -stream`: the scaling of the features, fitted on every row; the
	// size of the uniform sample of the rows trained on (Sample; with at
	// most Sample rows every row is trained on) and the seed of the
	// sample and of training; the library's training and clustering of
	// the sample. Nil means settings.Default(). Stream is set whatever
	// its value: with -rule components every sample row follows its
	// trajectory, so that Predict can label new rows. The workers
	// receive the settings as they are, and build the library's
	// configurations from them.
	Settings *settings.Settings

	// Tool names the program in the model's run record.
	Tool string
}

// Plan is what [Run] learns before the pipeline starts: the input files, in
// sorted order, their common columns and the output shards.
type Plan struct {
	// Files are the input files and Shards the output shard of each.
	Files, Shards []string
	// Names are the feature names.
	Names []string
}

// NewPlan lists the input files of o, reads their headers, checks that
// they name the same columns and that no output is an input, and returns
// the plan. Its errors are for the user: they name the option or the file
// at fault.
func NewPlan(ctx context.Context, o *Options) (*Plan, error) {
	switch {
	case o.Input == "":
		return nil, errors.New("no input: give a glob of CSV files")
	case o.Output == "":
		return nil, errors.New("no output prefix")
	case o.Model == "":
		return nil, errors.New("no model file")
	}
	st := o.settings()
	if err := st.Validate(); err != nil {
		return nil, err
	}
	ro := o.readOptions()
	fs, err := filesystem.New(ctx, o.Input)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	files, err := fs.List(ctx, o.Input)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Input, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s matches no file", o.Input)
	}
	if len(files) > 99999 {
		return nil, fmt.Errorf("%s matches %d files; at most 99,999 (one output shard each)", o.Input, len(files))
	}
	slices.Sort(files)
	p := &Plan{Files: files}
	var first string
	for _, f := range files {
		names, err := header(ctx, fs, f, ro)
		if err != nil {
			return nil, err
		}
		if p.Names == nil {
			p.Names, first = names, f
		} else if !slices.Equal(names, p.Names) {
			return nil, fmt.Errorf("%s and %s have different columns: %q and %q", first, f, p.Names, names)
		}
	}
	for i := range files {
		p.Shards = append(p.Shards, fmt.Sprintf("%s-%05d-of-%05d.csv", o.Output, i, len(files)))
	}
	outs := append(slices.Clone(p.Shards), o.Model)
	for _, out := range outs {
		for _, in := range files {
			if samePath(in, out) {
				return nil, fmt.Errorf("the output %s is the input %s; inputs are never overwritten", out, in)
			}
		}
	}
	for _, out := range []string{o.Output, o.Model} {
		if strings.Contains(out, "://") {
			continue
		}
		if dir := filepath.Dir(out); !isDir(dir) {
			return nil, fmt.Errorf("%s: the directory %s does not exist", out, dir)
		}
	}
	if slices.Contains(p.Shards, o.Model) {
		return nil, fmt.Errorf("the model file %s is an output shard", o.Model)
	}
	return p, nil
}

// header returns the feature names of the file f, and its errors as
// file:line:col.
func header(ctx context.Context, fs filesystem.Interface, f string, ro dataset.ReadOptions) ([]string, error) {
	r, err := fs.OpenRead(ctx, f)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ro.Name = f
	sc, err := dataset.NewScanner(r, ro)
	if err != nil {
		return nil, err
	}
	return slices.Clone(sc.Names()), nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// samePath reports whether the local paths a and b name the same file,
// now or once created.
func samePath(a, b string) bool {
	if strings.Contains(a, "://") || strings.Contains(b, "://") {
		return a == b
	}
	ia, ea := os.Stat(a)
	ib, eb := os.Stat(b)
	if ea == nil && eb == nil {
		return os.SameFile(ia, ib)
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// Build adds the pipeline of o and p to the scope s: scan, combine, train,
// label and write, as the package documentation describes.
func Build(s sdk.Scope, o *Options, p *Plan) {
	st := o.settings()
	sample, ro := st.Sample, o.readOptions()
	// NewPlan validated the settings, so the scale parses.
	scale, _ := st.Scaling()
	specs := make([]fileSpec, len(p.Files))
	for i, f := range p.Files {
		specs[i] = fileSpec{Path: f, Shard: p.Shards[i]}
	}
	files := sdk.Create(s.Scope("files"), toAny(specs)...)
	// Reshuffle lets the runner spread the files over its workers.
	files = sdk.Reshuffle(s.Scope("spread"), files)
	parts := sdk.ParDo(s.Scope("scan"), &scanFn{Read: ro, Scale: scale, Seed: st.Seed, Sample: sample, D: len(p.Names)}, files)
	summary := sdk.Combine(s.Scope("summarise"), &mergeFn{D: len(p.Names), Sample: sample}, parts)
	model := sdk.ParDo(s.Scope("train"), &trainFn{Names: p.Names, Model: o.Model, Settings: st, Tool: o.Tool, Data: o.Input}, summary)
	sdk.ParDo0(s.Scope("label"), &labelFn{Read: ro}, files, sdk.SideInput{Input: model})
}

// settings returns the settings of the run: o.Settings or the defaults,
// with Stream set.
func (o *Options) settings() settings.Settings {
	st := settings.Default()
	if o.Settings != nil {
		*st = *o.Settings
	}
	st.Stream = true
	return *st
}

// readOptions returns o.Read with the label column of the settings.
func (o *Options) readOptions() dataset.ReadOptions {
	ro, st := o.Read, o.settings()
	ro.Label, ro.RequireLabel = st.Label, st.LabelGiven
	return ro
}

func toAny[T any](v []T) []any {
	out := make([]any, len(v))
	for i := range v {
		out[i] = v[i]
	}
	return out
}

// Result describes a finished run.
type Result struct {
	Plan *Plan
	// Rows is the number of rows labelled, as the model file's run record
	// counts them (the runner's counter if the file cannot be read back;
	// −1 if neither tells). Outliers is the number labelled −1 as the
	// runner's counter reports it (−1 if it reports none); on Prism it
	// can miss the last bundles, whose counters may arrive after the job
	// is returned.
	Rows, Outliers int64
}

// Run plans, builds and runs the pipeline of o on the named runner
// ("prism", the local runner, "dataflow", "flink", "spark", "universal":
// those the Beam SDK registers; the runner's own settings are the SDK's
// flags). An error of the data (file:line:col), of the settings or of an
// output is returned as the user's error, without the runner's trace.
func Run(ctx context.Context, runner string, o *Options) (*Result, error) {
	p, err := NewPlan(ctx, o)
	if err != nil {
		return nil, err
	}
	pipe, s := sdk.NewPipelineWithRoot()
	Build(s, o, p)
	pr, err := sdk.Run(ctx, runner, pipe)
	if err != nil {
		return nil, userError(err)
	}
	res := &Result{Plan: p, Rows: -1, Outliers: -1}
	if pr != nil {
		for _, c := range pr.Metrics().AllMetrics().Counters() {
			switch c.Name() {
			case rowsCounter:
				res.Rows = max(res.Rows, 0) + c.Result()
			case outliersCounter:
				res.Outliers = max(res.Outliers, 0) + c.Result()
			}
		}
	}
	// Every input row is labelled once, and the model's run record
	// counts them all (the combined statistics): the rows come from it
	// rather than from the counters, of which Prism can return a job
	// before the last bundles' arrive (TestAcceptance saw 150,000 of
	// 200,000 rows, about one run in four).
	if rows, err := modelRows(ctx, o.Model); err == nil {
		res.Rows = rows
	}
	return res, nil
}

// modelRows returns the number of rows of the training data that the run
// record of the model file at path gives.
func modelRows(ctx context.Context, path string) (int64, error) {
	r, err := openRead(ctx, path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	m, err := modelfile.Read(r, 0)
	if err != nil {
		return 0, err
	}
	if m.Run == nil {
		return 0, errors.New("the model file has no run record")
	}
	return int64(m.Run.Rows), nil
}

// Errors of the DoFns meant for the user are marked so that Run can find
// them in the runner's error, which wraps them in its own context.
const (
	markOpen  = "⟦svclust: "
	markClose = "⟧"
)

// marked returns err marked as the user's error.
func marked(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s%s%s", markOpen, strings.ReplaceAll(err.Error(), "\n", " "), markClose)
}

var markRE = regexp.MustCompile(regexp.QuoteMeta(markOpen) + `(.*?)` + regexp.QuoteMeta(markClose))

// userError returns the first marked error in the runner's error err, or
// err itself when there is none.
func userError(err error) error {
	if m := markRE.FindStringSubmatch(err.Error()); m != nil {
		return errors.New(m[1])
	}
	return err
}
