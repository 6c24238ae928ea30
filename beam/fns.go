package beam

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"

	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/pipeline"
)

func init() {
	register.DoFn3x1[context.Context, fileSpec, func(filePart), error](&scanFn{})
	register.Emitter1[filePart]()
	register.Combiner3[summary, filePart, summary](&mergeFn{})
	register.DoFn3x1[context.Context, summary, func([]byte), error](&trainFn{})
	register.Emitter1[[]byte]()
	register.DoFn3x1[context.Context, fileSpec, []byte, error](&labelFn{})
}

// Counters of the label step, which Run reads back.
const (
	rowsCounter     = "rows"
	outliersCounter = "outliers"
)

// fileSpec is an input file and its output shard.
type fileSpec struct {
	Path, Shard string
}

// filePart summarises one file: the statistics of the scaling over its
// rows, in file order, and the sample of its rows.
type filePart struct {
	File    string
	Moments *pipeline.Moments
	Sample  *pipeline.BottomK
}

// openRead opens the file path, on the file system its scheme names, for
// reading; closing the reader closes the file, then the file system.
func openRead(ctx context.Context, path string) (io.ReadCloser, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{r, closers{r, fs}}, nil
}

// openScanner opens the file path with the read options ro.
func openScanner(ctx context.Context, path string, ro dataset.ReadOptions) (*dataset.Scanner, io.Closer, error) {
	r, err := openRead(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	ro.Name = path
	sc, err := dataset.NewScanner(r, ro)
	if err != nil {
		r.Close()
		return nil, nil, err
	}
	return sc, r, nil
}

type closers []io.Closer

func (c closers) Close() error {
	var first error
	for _, x := range c {
		if err := x.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// scanFn reads a file and emits its filePart.
type scanFn struct {
	Read   dataset.ReadOptions
	Seed   uint64
	Sample int
	D      int
}

func (f *scanFn) ProcessElement(ctx context.Context, spec fileSpec, emit func(filePart)) error {
	sc, c, err := openScanner(ctx, spec.Path, f.Read)
	if err != nil {
		return marked(err)
	}
	defer c.Close()
	if len(sc.Names()) != f.D {
		return marked(fmt.Errorf("%s: %d features, the first file %d", spec.Path, len(sc.Names()), f.D))
	}
	m := pipeline.NewMoments(f.D)
	s := pipeline.NewBottomK(f.Sample)
	keys := pipeline.NewSampleKeyer(f.Seed, spec.Path)
	for sc.Scan() {
		row := sc.Row()
		m.Add(row)
		line := sc.Line()
		if k := keys.Key(line); k <= s.Bound() {
			s.Add(k, pipeline.RowID{File: spec.Path, Line: line}, row)
		}
		if sc.Rows()%(1<<16) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		return marked(err)
	}
	emit(filePart{File: spec.Path, Moments: m, Sample: s})
	return nil
}

// summary is the accumulator of mergeFn: the statistics of each file, kept
// apart so that they are merged in file order whatever the order of the
// merges, and the merged sample.
type summary struct {
	Files  []filePart // Sample nil
	Sample *pipeline.BottomK
}

// mergeFn combines the fileParts into one summary.
type mergeFn struct {
	D, Sample int
}

func (f *mergeFn) CreateAccumulator() summary {
	return summary{Sample: pipeline.NewBottomK(f.Sample)}
}

func (f *mergeFn) AddInput(a summary, p filePart) summary {
	if a.Sample == nil {
		a.Sample = pipeline.NewBottomK(f.Sample)
	}
	a.Sample.Merge(p.Sample)
	a.Files = append(a.Files, filePart{File: p.File, Moments: p.Moments})
	return a
}

func (f *mergeFn) MergeAccumulators(a, b summary) summary {
	if a.Sample == nil {
		a.Sample = pipeline.NewBottomK(f.Sample)
	}
	if b.Sample != nil {
		a.Sample.Merge(b.Sample)
	}
	a.Files = append(a.Files, b.Files...)
	return a
}

func (f *mergeFn) ExtractOutput(a summary) summary { return a }

// trainFn trains and clusters the sample on one worker, writes the model
// file and emits its bytes, the side input of the labelling.
type trainFn struct {
	Scale    dataset.Scale
	Names    []string
	Label    string
	Model    string
	Settings settings
	Tool     string
	Data     string
}

// settings are the fields of svclust.Config and cluster.Config in a
// form that encodes (DoFns are sent to the workers as JSON): the
// Maintainer by name, no Progress function. Every other field of both is
// here (TestSettingsCarryOptions).
type settings struct {
	Gamma, C         float64
	Budget           int
	Strategy         string // removal, project-knn, project-random, merge
	K                int
	Tol              float64
	MaxIter, MinIter int
	Seed             uint64
	Workers          int
	Width            svclust.WidthRule
	Rule             cluster.Rule
	MinSize          int
	RippleZ          float64
	LevelPower       float64
	Eps              float64
	All, Outliers    bool
	M, Neighbors     int
	ClusterWorkers   int
}

// strategy returns the name of the maintainer m and the K of a
// projection (0 otherwise); nil is the library's default, merge.
func strategy(m svclust.Maintainer) (string, int) {
	if m == nil {
		return "merge", 0
	}
	if p, ok := m.(svclust.Projection); ok {
		return svclust.MaintainerName(m), cmp.Or(p.K, svclust.DefaultK)
	}
	return svclust.MaintainerName(m), 0
}

func (s *settings) config() (svclust.Config, error) {
	m, err := svclust.ParseMaintainer(s.Strategy, s.K)
	if err != nil {
		return svclust.Config{}, err
	}
	return svclust.Config{Gamma: s.Gamma, C: s.C, Budget: s.Budget, Maintainer: m, Tol: s.Tol,
		MaxIter: s.MaxIter, MinIter: s.MinIter, Seed: s.Seed, Workers: s.Workers, Width: s.Width}, nil
}

func (s *settings) cluster() cluster.Config {
	return cluster.Config{Rule: s.Rule, MinSize: s.MinSize, RippleZ: s.RippleZ, LevelPower: s.LevelPower, Eps: s.Eps, All: s.All,
		Outliers: s.Outliers, M: s.M, Neighbors: s.Neighbors, Workers: s.ClusterWorkers}
}

func newTrainFn(o *Options, p *Plan) *trainFn {
	t, c := o.Train, o.Cluster
	st := settings{Gamma: t.Gamma, C: t.C, Budget: t.Budget, Tol: t.Tol, MaxIter: t.MaxIter,
		MinIter: t.MinIter, Seed: o.Seed, Workers: t.Workers, Width: t.Width, Rule: c.Rule, MinSize: c.MinSize,
		RippleZ: c.RippleZ, LevelPower: c.LevelPower, Eps: c.Eps, All: c.All || c.Rule == cluster.Components, Outliers: c.Outliers,
		M: c.M, Neighbors: c.Neighbors, ClusterWorkers: c.Workers}
	st.Strategy, st.K = strategy(t.Maintainer)
	label := o.Read.Label
	if label == "" {
		label = "label"
	}
	return &trainFn{Scale: o.Scale, Names: p.Names, Label: label, Model: o.Model, Settings: st,
		Tool: o.Tool, Data: o.Input}
}

func (f *trainFn) ProcessElement(ctx context.Context, a summary, emit func([]byte)) error {
	b, err := f.train(a)
	if err != nil {
		return marked(err)
	}
	if err := writeFile(ctx, f.Model, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return marked(err)
	}
	emit(b)
	return nil
}

// train returns the model file of the summary a.
func (f *trainFn) train(a summary) ([]byte, error) {
	d := len(f.Names)
	// The statistics of the files, merged in file order.
	files := a.Files
	sortParts(files)
	all := pipeline.NewMoments(d)
	for _, p := range files {
		all.Merge(p.Moments)
	}
	scaler, err := all.Scaler(f.Scale)
	if err != nil {
		return nil, err
	}
	rows := a.Sample.Sorted()
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", f.Data)
	}
	x := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		if j, u := scaler.Overflow(r.Row); j >= 0 {
			return nil, fmt.Errorf("%s:%d: feature %q: the value %v overflows when scaled (to %v)", r.ID.File, r.ID.Line, f.Names[j], r.Row[j], u)
		}
		scaler.TransformRow(x.RawRowView(i), r.Row)
	}
	cfg, err := f.Settings.config()
	if err != nil {
		return nil, err
	}
	model, err := svclust.Train(x, &cfg)
	if err != nil {
		return nil, err
	}
	cl := f.Settings.cluster()
	clustering, err := cluster.Fit(model, x, &cl)
	if err != nil {
		return nil, err
	}
	from := func(auto bool) string {
		if auto {
			return "auto"
		}
		return "given"
	}
	st := &f.Settings
	run := &pipeline.Run{
		Tool:       f.Tool,
		Created:    creationTime().Format(time.RFC3339),
		Seed:       st.Seed,
		Strategy:   st.Strategy,
		Budget:     model.Choice.Budget,
		BudgetFrom: from(st.Budget == 0),
		Rule:       st.Rule.String(),
		Gamma:      model.Gamma,
		GammaFrom:  from(st.Gamma == 0),
		C:          model.C,
		CFrom:      from(st.C == 0),
		Width:      model.Choice.WidthRule().String(),
		Data:       f.Data,
		Rows:       int(all.N),
		Sample:     len(rows),
	}
	if model.Choice.Budget == svclust.NoBudget {
		run.Strategy = "none"
	} else if strings.HasPrefix(st.Strategy, "project") {
		run.K = st.K
	}
	mf := &pipeline.Model{Scale: f.Scale, Scaler: scaler, Features: f.Names, Label: f.Label, Run: run, Model: model, Partition: clustering.Partition}
	var buf bytes.Buffer
	if err := mf.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func sortParts(p []filePart) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j].File < p[j-1].File; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// creationTime is the time recorded in the model file: SOURCE_DATE_EPOCH
// when set (reproducible builds), else now, in UTC.
func creationTime() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Now().UTC()
}

// labelFn labels the rows of a file with the model of its side input and
// writes them, with their cluster, to the file's shard.
type labelFn struct {
	Read dataset.ReadOptions

	model *pipeline.Model // decoded side input, cached across bundles
	key   []byte          // the bytes model was decoded from
}

// chunkRows is the number of rows labelled at a time.
const chunkRows = 16384

func (f *labelFn) ProcessElement(ctx context.Context, spec fileSpec, modelJSON []byte) error {
	if f.model == nil || !bytes.Equal(f.key, modelJSON) {
		m, err := pipeline.Read(bytes.NewReader(modelJSON), 0)
		if err != nil {
			return marked(err)
		}
		f.model, f.key = m, modelJSON
	}
	sc, c, err := openScanner(ctx, spec.Path, f.Read)
	if err != nil {
		return marked(err)
	}
	defer c.Close()
	rows, outliers := sdk.NewCounter("svclust", rowsCounter), sdk.NewCounter("svclust", outliersCounter)
	sep := string(sc.Sep())
	head := string(sc.Text()) + sep + "cluster\n"
	err = writeFile(ctx, spec.Shard, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if _, err := bw.WriteString(head); err != nil {
			return err
		}
		d := len(sc.Names())
		x := make([]float64, 0, chunkRows*d)
		var texts []byte
		ends := make([]int, 0, chunkRows)
		labels := make([]int, chunkRows)
		first := 0 // line of the chunk's first row
		flush := func() error {
			n := len(ends)
			if n == 0 {
				return nil
			}
			got, err := f.model.Predict(labels[:n], mat.NewDense(n, d, x), 0)
			if err != nil {
				if oe, ok := err.(*pipeline.OverflowError); ok {
					return fmt.Errorf("%s:%d: feature %q: the value %v overflows when scaled (to %v)", spec.Path, first+oe.Row, oe.Feature, oe.Value, oe.Scaled)
				}
				return err
			}
			start := 0
			var out int64
			for i, l := range got {
				bw.Write(texts[start:ends[i]])
				bw.WriteString(sep)
				bw.WriteString(strconv.Itoa(l))
				bw.WriteByte('\n')
				start = ends[i]
				if l < 0 {
					out++
				}
			}
			rows.Inc(ctx, int64(n))
			outliers.Inc(ctx, out)
			x, texts, ends = x[:0], texts[:0], ends[:0]
			return nil
		}
		for sc.Scan() {
			if len(ends) == 0 {
				first = sc.Line()
			}
			x = append(x, sc.Row()...)
			texts = append(texts, sc.Text()...)
			ends = append(ends, len(texts))
			if len(ends) == chunkRows {
				if err := flush(); err != nil {
					return err
				}
				if ctx.Err() != nil {
					return ctx.Err()
				}
			}
		}
		if err := sc.Err(); err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
		return bw.Flush()
	})
	return marked(err)
}

// writeFile writes the file path with write: a local file through a
// temporary file renamed when complete (internal/atomicfile), another
// file system's (gs://) through the Beam file system, whose objects
// appear when closed.
func writeFile(ctx context.Context, path string, write func(io.Writer) error) error {
	if !strings.Contains(path, "://") {
		af, err := atomicfile.Create(path)
		if err != nil {
			return err
		}
		if err := write(af); err != nil {
			af.Abort()
			return err
		}
		return af.Commit()
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if err := write(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
