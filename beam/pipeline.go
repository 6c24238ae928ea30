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
	"time"

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
	// names its file), its Label and RequireLabel are those of
	// Settings (-label), and a Workers of 0 is Settings.Workers.
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
	// Staged are the names the pipeline writes the shards to, and
	// StagedModel the name of its model file: hidden files beside the
	// outputs, which Run renames over Shards and Model only when the
	// whole run has succeeded, so that an interrupted or failed run leaves
	// the outputs of the run before intact, and the model and the shards
	// always come from one run: a run that succeeds also removes the
	// shards that an earlier run with another number of files left under
	// the same prefix (local paths; none that is an input). Paths of
	// other file systems (gs://) are written directly: their Staged names
	// are the outputs.
	Staged      []string
	StagedModel string

	output string      // the prefix of the shards
	model  string      // the model file
	inputs []fileState // the local inputs as NewPlan found them
}

// fileState is what tells that a local input file changed during a run.
type fileState struct {
	path  string
	size  int64
	mtime time.Time
}

// ErrInterrupted is wrapped by the error of Run when its context is
// cancelled (as by SIGTERM): the outputs are then those of before.
var ErrInterrupted = errors.New("interrupted")

// ChangedError is the error of Run for an input file that changed while
// the pipeline read it (rows appended, or the file rewritten): the counts
// and labels of such a run are not those of any one state of the data, so
// its outputs are discarded.
type ChangedError struct {
	Path string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed while the pipeline read it (its size or modification time differs); the outputs are unchanged: run again on data that does not change", e.Path)
}

// staged returns the hidden name beside path that a run with the given
// token writes path's content to, or path itself on another file system.
func staged(path, token string) string {
	if strings.Contains(path, "://") {
		return path
	}
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".svclust-beam-"+token)
}

// discard removes the staged outputs of p.
func (p *Plan) discard() {
	for _, f := range append(slices.Clone(p.Staged), p.StagedModel) {
		if f != "" && !slices.Contains(p.Shards, f) && f != p.model {
			os.Remove(f)
		}
	}
}

// changed returns a *ChangedError for the first local input whose size or
// modification time is not what NewPlan found.
func (p *Plan) changed() error {
	for _, in := range p.inputs {
		fi, err := os.Stat(in.path)
		if err != nil || fi.Size() != in.size || !fi.ModTime().Equal(in.mtime) {
			return &ChangedError{Path: in.path}
		}
	}
	return nil
}

// commit renames the staged outputs over the outputs, the shards, then
// the model, and removes the stale shards (see removeStale).
func (p *Plan) commit() error {
	for i, f := range p.Staged {
		if f != p.Shards[i] {
			if err := os.Rename(f, p.Shards[i]); err != nil {
				p.discard()
				return err
			}
		}
	}
	if p.StagedModel != p.model {
		if err := os.Rename(p.StagedModel, p.model); err != nil {
			p.discard()
			return err
		}
	}
	return p.removeStale()
}

// removeStale removes the files beside a local output prefix that are
// named as shards of it, prefix-NNNNN-of-NNNNN.csv, but are not shards of
// this run or inputs of it: the shards of an earlier run over another
// number of files, which were not made with the model just written.
func (p *Plan) removeStale() error {
	if p.output == "" || strings.Contains(p.output, "://") {
		return nil
	}
	dir, base := filepath.Split(p.output)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("the outputs are written, but %s could not be read for the shards of an earlier run: %w", dir, err)
	}
	shard := regexp.MustCompile("^" + regexp.QuoteMeta(base) + `-\d{5}-of-\d{5}\.csv$`)
	for _, e := range entries {
		f := filepath.Join(dir, e.Name())
		if e.IsDir() || !shard.MatchString(e.Name()) || slices.ContainsFunc(p.Shards, func(s string) bool { return samePath(s, f) }) ||
			slices.ContainsFunc(p.Files, func(in string) bool { return samePath(in, f) }) {
			continue
		}
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("the outputs are written, but the shard %s of an earlier run could not be removed: %w", f, err)
		}
	}
	return nil
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
	token := fmt.Sprintf("%d-%d.partial", os.Getpid(), time.Now().UnixNano())
	for i := range files {
		p.Shards = append(p.Shards, fmt.Sprintf("%s-%05d-of-%05d.csv", o.Output, i, len(files)))
		p.Staged = append(p.Staged, staged(p.Shards[i], token))
	}
	p.output, p.model, p.StagedModel = o.Output, o.Model, staged(o.Model, token)
	for _, f := range files {
		if strings.Contains(f, "://") {
			continue
		}
		fi, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		p.inputs = append(p.inputs, fileState{f, fi.Size(), fi.ModTime()})
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
		if p.Staged != nil {
			specs[i].Shard = p.Staged[i]
		}
	}
	modelPath := o.Model
	if p.StagedModel != "" {
		modelPath = p.StagedModel
	}
	files := sdk.Create(s.Scope("files"), toAny(specs)...)
	// Reshuffle lets the runner spread the files over its workers.
	files = sdk.Reshuffle(s.Scope("spread"), files)
	parts := sdk.ParDo(s.Scope("scan"), &scanFn{Read: ro, Scale: scale, Seed: st.Seed, Sample: sample, D: len(p.Names)}, files)
	summary := sdk.Combine(s.Scope("summarise"), &mergeFn{D: len(p.Names), Sample: sample}, parts)
	model := sdk.ParDo(s.Scope("train"), &trainFn{Names: p.Names, Model: modelPath, Settings: st, Tool: o.Tool, Data: o.Input}, summary)
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

// readOptions returns o.Read with the label column of the settings, and
// their goroutines (Settings.Workers) unless o.Read gives its own.
func (o *Options) readOptions() dataset.ReadOptions {
	ro, st := o.Read, o.settings()
	ro.Label, ro.RequireLabel = st.Label, st.LabelGiven
	if ro.Workers == 0 {
		ro.Workers = st.Workers
	}
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
//
// The pipeline writes staged outputs (Plan.Staged), which Run renames over
// the shards and the model file only when the whole run has succeeded. A
// run whose ctx is cancelled (as by SIGTERM) returns an error wrapping
// ErrInterrupted, one whose local input changed during the run (size or
// modification time) a *ChangedError naming it; these and every other
// error leave the outputs of before as they were.
func Run(ctx context.Context, runner string, o *Options) (*Result, error) {
	p, err := NewPlan(ctx, o)
	if err != nil {
		return nil, err
	}
	pipe, s := sdk.NewPipelineWithRoot()
	Build(s, o, p)
	pr, err := sdk.Run(ctx, runner, pipe)
	switch {
	case ctx.Err() != nil:
		// Whatever the runner reports (such as "failed to get metrics …
		// context canceled"), the run was interrupted: its outputs go.
		p.discard()
		return nil, fmt.Errorf("%w (%v): the model and the shards of before are unchanged", ErrInterrupted, context.Cause(ctx))
	case err != nil:
		p.discard()
		return nil, userError(err)
	}
	if err := p.changed(); err != nil {
		p.discard()
		return nil, err
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
	if rows, err := modelRows(ctx, p.StagedModel); err == nil {
		res.Rows = rows
	}
	if err := p.commit(); err != nil {
		return nil, err
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
