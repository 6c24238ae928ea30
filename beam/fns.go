package beam

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/sample"
	"github.com/svclust/svclust/settings"
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
	Moments *dataset.ScaleFitter // first pass only
	Sample  *sample.BottomK
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
	Scale  dataset.Scale
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
	m := dataset.NewScaleFitter(f.Scale, f.D)
	s := sample.NewBottomK(f.Sample)
	keys := sample.NewKeyer(f.Seed, spec.Path)
	for sc.Scan() {
		row := sc.Row()
		m.Add(row)
		line := sc.Line()
		if k := keys.Key(line); k <= s.Bound() {
			s.Add(k, sample.RowID{File: spec.Path, Line: line}, row)
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
	Sample *sample.BottomK
}

// mergeFn combines the fileParts into one summary.
type mergeFn struct {
	D, Sample int
}

func (f *mergeFn) CreateAccumulator() summary {
	return summary{Sample: sample.NewBottomK(f.Sample)}
}

func (f *mergeFn) AddInput(a summary, p filePart) summary {
	if a.Sample == nil {
		a.Sample = sample.NewBottomK(f.Sample)
	}
	a.Sample.Union(p.Sample)
	a.Files = append(a.Files, filePart{File: p.File, Moments: p.Moments})
	return a
}

func (f *mergeFn) MergeAccumulators(a, b summary) summary {
	if a.Sample == nil {
		a.Sample = sample.NewBottomK(f.Sample)
	}
	if b.Sample != nil {
		a.Sample.Union(b.Sample)
	}
	a.Files = append(a.Files, b.Files...)
	return a
}

func (f *mergeFn) ExtractOutput(a summary) summary { return a }

// trainFn trains and clusters the sample on one worker, writes the model
// file and emits its bytes, the side input of the labelling. The settings
// travel to the worker as they are (DoFns are sent to the workers as JSON),
// and the worker builds the library's configurations from them.
type trainFn struct {
	Names    []string
	Model    string
	Settings settings.Settings
	Tool     string
	Data     string
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
	st := &f.Settings
	sc, err := st.Scaling()
	if err != nil {
		return nil, err
	}
	all := dataset.NewScaleFitter(sc, d)
	for _, p := range files {
		all.Combine(p.Moments)
	}
	scaler, err := all.OnePassScaler()
	if err != nil {
		return nil, err
	}
	rows := a.Sample.Sorted()
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", f.Data)
	}
	x := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		copy(x.RawRowView(i), r.Row)
	}
	fit, err := st.FitRows(context.Background(), x, scaler, true, nil)
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		r := rows[oe.Row]
		return nil, fmt.Errorf("%s:%d: feature %q: the value %v overflows when scaled (to %v)", r.ID.File, r.ID.Line, f.Names[oe.Col], oe.Value, oe.Scaled)
	}
	if err != nil {
		return nil, err
	}
	model, clustering := fit.Model, fit.Result
	run := st.Record(f.Tool, model, settings.Source{Data: f.Data, Rows: all.Rows(), Sample: len(rows)})
	mf := st.ModelFile(scaler, f.Names, run, model, clustering)
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

// labelFn labels the rows of a file with the model of its side input and
// writes them, with their cluster, to the file's shard.
type labelFn struct {
	Read dataset.ReadOptions

	model *modelfile.File // decoded side input, cached across bundles
	key   []byte          // the bytes model was decoded from
}

// chunkRows is the number of rows labelled at a time.
const chunkRows = 16384

func (f *labelFn) ProcessElement(ctx context.Context, spec fileSpec, modelJSON []byte) error {
	if f.model == nil || !bytes.Equal(f.key, modelJSON) {
		m, err := modelfile.Read(bytes.NewReader(modelJSON), 0)
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
	// The outlier score of each row beside its cluster, unless the model
	// predates the scores (a model file of version 5 or older).
	withScores := f.model.Partition != nil && f.model.Partition.OutlierThreshold() > 0
	head := string(sc.Text()) + sep + "cluster"
	if withScores {
		head += sep + "outlier"
	}
	head += "\n"
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
		var scores []float64
		if withScores {
			scores = make([]float64, chunkRows)
		}
		first := 0 // line of the chunk's first row
		flush := func() error {
			n := len(ends)
			if n == 0 {
				return nil
			}
			xs := mat.NewDense(n, d, x)
			var got []int
			var err error
			if withScores {
				got, _, err = f.model.PredictScores(labels[:n], scores[:n], xs, 0)
			} else {
				got, err = f.model.Predict(labels[:n], xs, 0)
			}
			if err != nil {
				if oe, ok := err.(*modelfile.OverflowError); ok {
					return fmt.Errorf("%s:%d: feature %q: the value %v overflows when scaled (to %v)", spec.Path, first+oe.Row, oe.Feature, oe.Value, oe.Scaled)
				}
				return err
			}
			var num []byte
			start := 0
			var out int64
			for i, l := range got {
				bw.Write(texts[start:ends[i]])
				bw.WriteString(sep)
				bw.WriteString(strconv.Itoa(l))
				if withScores {
					bw.WriteString(sep)
					num = strconv.AppendFloat(num[:0], scores[i], 'g', -1, 64)
					bw.Write(num)
				}
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
