package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/pipeline"
)

// fit -stream: data larger than memory.
//
// Pass 1 reads DATA row by row. It keeps a uniform random sample of at most
// -sample rows (Algorithm R: row i, counted from 0, replaces slot j of the
// full sample when j, drawn uniformly from 0..i, is below -sample) and the
// statistics of the scaling over every row. The z-score needs the mean
// before the variance about it, as dataset.FitScaler computes them, so it
// takes another pass (and one more for a column whose variance under- or
// overflows float64 when computed directly): over the sample when the
// sample holds every row, otherwise over the file. The scaling is therefore bit for bit the one fit
// would fit on the whole file.
//
// The scaled sample is then trained and clustered exactly as fit trains
// and clusters its data; with -rule components as fit -all does, so that
// every sample point follows its trajectory and the equilibria and their
// clusters form the model's partition. Pass 2 reads DATA again in chunks
// of rows, scales them, labels them with Model.Predict, which gives each
// point the cluster of its support vector (-rule levels) or sends it along
// its own trajectory (-rule components), and writes the labels as it goes. The external indices come from a
// contingency table (metrics.Table) filled chunk by chunk; the
// Davies–Bouldin and compactness indices, which need the centroids before
// the distances to them, are not computed.
//
// Memory holds the sample (8·d bytes a row), one chunk, the model and its
// equilibria: nothing grows with the length of the file. When the file has
// at most -sample rows the sample is every row in file order, so the labels
// and the model are those of fit (fit -all with -rule components).

// defaultSample is the default of -sample. Training draws its SGD steps
// from the sample (10,000 to 1,000,000 of them, most runs stop near
// 10,000-50,000), and the automatic settings (svclust.Choose) look at 2,000
// rows, so a sample of 200,000 rows is several times what training can
// use; it costs 1.6 MB per feature, and clustering it scores 200,000 rows
// (-rule levels) or runs 200,000 trajectories (-rule components).
const defaultSample = 200_000

// reservoirStream is the second seed word of the reservoir's random source,
// rand.NewPCG(seed, reservoirStream), so that its numbers differ from
// those of training, which uses rand.NewPCG(seed, seed).
const reservoirStream = 0x7265_7365_7276_6f69 // "reservoi"

// Rows per Model.Predict call in pass 2, and the largest chunk in bytes:
// small enough that the command checks for an interrupt every second or so.
const (
	chunkRows  = 16384
	chunkBytes = 8 << 20
)

// checkRows is how often, in rows, pass 1 checks for an interrupt.
const checkRows = 1 << 16

// streamInfo describes a -stream run.
type streamInfo struct {
	sample int           // rows trained on
	assign time.Duration // the second pass
	// counts[c+1] is the number of rows the second pass labelled c, for
	// c = −1 (outliers), 0, 1, …: the sizes of the clusters of the file,
	// not of the sample.
	counts []int
}

// runStream fits and clusters the file path by the -stream design above
// and writes the outputs requested by o.
func runStream(ctx context.Context, e *env, o *fitFlags, s *setup, path string, prog *progress) (*data, *result, error) {
	limit := o.sample.v

	// Pass 1: the reservoir sample and the scaling statistics.
	h := sha256.New()
	sc, closer, err := openScanner(path, o, prog, "read", h)
	if err != nil {
		return nil, nil, err
	}
	d := len(sc.Names())
	fitter := dataset.NewScaleFitter(s.scale, d)
	rnd := rand.New(rand.NewPCG(o.seed, reservoirStream))
	var sample []float64 // row-major, at most limit rows
	n := 0
	for sc.Scan() {
		row := sc.Row()
		fitter.Add(row)
		if n < limit {
			sample = append(sample, row...)
		} else if j := rnd.IntN(n + 1); j < limit {
			copy(sample[j*d:(j+1)*d], row)
		}
		n++
		if n%checkRows == 0 && ctx.Err() != nil {
			closer.Close()
			return nil, nil, ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		closer.Close()
		return nil, nil, dataError(err)
	}
	io.Copy(h, closer) // anything after the last row
	closer.Close()
	prog.end()
	m := len(sample) / d // = min(n, limit)
	for fitter.NextPass() {
		if n <= limit {
			// The sample is every row, in file order.
			for i := range m {
				fitter.Add(sample[i*d : (i+1)*d])
			}
		} else if err := scalePass(ctx, path, o, fitter, n, prog); err != nil {
			return nil, nil, err
		}
	}
	scaler := fitter.Scaler()
	for i := range m {
		row := sample[i*d : (i+1)*d]
		if j, u := scaler.Overflow(row); j >= 0 {
			// The sample is in file order when it holds every row.
			where := displayPath(path) + ", a row of the sample"
			if n <= limit {
				where = fmt.Sprintf("%s:%d", displayPath(path), i+2)
			}
			return nil, nil, overflowError(path, where, sc.Names()[j], j, row[j], u, scaler, o.scale)
		}
		scaler.TransformRow(row, row)
	}
	x := mat.NewDense(m, d, sample)
	dt := &data{
		ds:     &dataset.Dataset{Names: sc.Names(), Classes: sc.Classes()},
		scaler: scaler,
		n:      n,
		d:      d,
		sha256: hex.EncodeToString(h.Sum(nil)),
	}

	// Training and clustering of the sample, as fit does them (validate
	// sets -all with -stream and -rule components).
	model, cl, err := trainCluster(x, s, prog)
	if err != nil {
		return nil, nil, err
	}
	r := &result{model: model, cl: cl, stream: &streamInfo{sample: m, counts: make([]int, cl.Clusters+1)}}

	// Pass 2: label every row and write the labels as they come.
	start := time.Now()
	labels, err := newLabelWriter(e, o.out)
	if err != nil {
		return nil, nil, err
	}
	defer labels.abort()
	var table metrics.Table
	if err := assignPass(ctx, path, o, scaler, model, labels, &table, r.stream.counts, n, prog); err != nil {
		return nil, nil, err
	}
	r.stream.assign = time.Since(start)
	r.scores = table.Scores()

	prog.begin("write", "", 0)
	if err := labels.commit(e, o, modelFileOf(o, dt, r)); err != nil {
		return nil, nil, err
	}
	prog.end()
	return dt, r, nil
}

// openScanner opens the data file path for a pass named phase and starts
// the phase, which counts bytes.
func openScanner(path string, o *fitFlags, prog *progress, phase string, h hash.Hash) (*dataset.Scanner, io.ReadCloser, error) {
	opt, err := o.readOptions(path)
	if err != nil {
		return nil, nil, err
	}
	r, size, err := openData(path)
	if err != nil {
		return nil, nil, err
	}
	prog.begin(phase, "bytes", size)
	sc, err := dataset.NewScanner(&countingReader{r: r, p: prog, h: h}, opt)
	if err != nil {
		r.Close()
		return nil, nil, dataError(err)
	}
	return sc, r, nil
}

// changed is the error of a file whose rows differ between passes.
func changed(path string, before, now int) error {
	return fmt.Errorf("%s changed while fit -stream read it: %d rows, then %d", path, before, now)
}

// scalePass feeds every row of the file to fitter once more.
func scalePass(ctx context.Context, path string, o *fitFlags, fitter *dataset.ScaleFitter, n int, prog *progress) error {
	sc, closer, err := openScanner(path, o, prog, "scale", nil)
	if err != nil {
		return err
	}
	defer closer.Close()
	for sc.Scan() {
		fitter.Add(sc.Row())
		if sc.Rows()%checkRows == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		return dataError(err)
	}
	if sc.Rows() != n {
		return changed(path, n, sc.Rows())
	}
	prog.end()
	return nil
}

// assignPass labels the n rows of the file with model in chunks, writes
// the labels to w, counts them against the true classes in table and
// adds 1 to counts[l+1] for each label l.
func assignPass(ctx context.Context, path string, o *fitFlags, scaler *dataset.Scaler, model *svclust.Model,
	w *labelWriter, table *metrics.Table, counts []int, n int, prog *progress) error {
	sc, closer, err := openScanner(path, o, nil, "", nil)
	if err != nil {
		return err
	}
	defer closer.Close()
	prog.begin("assign", "rows", int64(n))
	d := len(sc.Names())
	rows := max(1, min(chunkRows, chunkBytes/(8*d)))
	chunk := make([]float64, rows*d)
	truth := make([]int, 0, rows)
	pred := make([]int, rows)
	k, done := 0, 0
	flush := func() error {
		if k == 0 {
			return nil
		}
		got, err := model.Predict(pred[:k], mat.NewDense(k, d, chunk[:k*d]), o.workers)
		if err != nil {
			return err
		}
		if err := w.write(got); err != nil {
			return err
		}
		for _, l := range got {
			counts[l+1]++
		}
		if sc.Labelled() {
			for i, l := range got {
				table.Add(truth[i], l)
			}
		}
		done += k
		k, truth = 0, truth[:0]
		prog.set(int64(done))
		return ctx.Err()
	}
	for sc.Scan() {
		if j, u := scaler.Overflow(sc.Row()); j >= 0 {
			return overflowError(path, fmt.Sprintf("%s:%d", displayPath(path), sc.Line()), sc.Names()[j], j, sc.Row()[j], u, scaler, o.scale)
		}
		scaler.TransformRow(chunk[k*d:(k+1)*d], sc.Row())
		truth = append(truth, sc.Label())
		k++
		if k == rows {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return dataError(err)
	}
	if err := flush(); err != nil {
		return err
	}
	if done != n {
		return changed(path, n, done)
	}
	prog.end()
	return nil
}

// labelWriter writes the labels of -o as they are found: to a temporary
// file beside the named one, renamed over it by commit, or to standard
// output for "-". It discards them when -o is not given.
type labelWriter struct {
	w    io.Writer        // nil without -o
	file *atomicfile.File // nil unless -o names a file, and then w; it buffers
	path string
	// buf holds the lines of one write: the header waits in it for the
	// first labels, so that a run failing before them writes nothing.
	buf []byte
}

func newLabelWriter(e *env, path string) (*labelWriter, error) {
	lw := &labelWriter{path: path}
	switch path {
	case "":
		return lw, nil
	case "-":
		lw.w = e.stdout
	default:
		f, err := atomicfile.Create(path)
		if err != nil {
			return nil, outputError("-o", path, err)
		}
		lw.file, lw.w = f, f
	}
	lw.buf = append(lw.buf, "cluster\n"...)
	return lw, nil
}

// write writes labels, one a line, as writeLabels does.
func (lw *labelWriter) write(labels []int) error {
	if lw.w == nil {
		return nil
	}
	lw.buf = appendInts(lw.buf, labels)
	if len(lw.buf) == 0 {
		return nil
	}
	_, err := lw.w.Write(lw.buf)
	lw.buf = lw.buf[:0]
	return lw.error(err)
}

// error names -o in an error of writing the labels.
func (lw *labelWriter) error(err error) error {
	if err == nil || lw.file == nil {
		return err
	}
	return outputError("-o", lw.path, err)
}

// commit completes the labels and writes the model file mf if -model asks
// for it, so that the files named by -o and -model both change or neither
// does, as writeOutputs does for fit without -stream.
func (lw *labelWriter) commit(e *env, o *fitFlags, mf *pipeline.Model) error {
	// The header of a file without rows is still waiting.
	if err := lw.write(nil); err != nil {
		return err
	}
	var outs []output
	if o.model != "" {
		outs = append(outs, output{"-model", o.model, mf.Write})
	}
	if lw.file == nil {
		return e.writeOutputs(outs...)
	}
	s, err := lw.file.Stage()
	if err != nil {
		return lw.error(err)
	}
	return e.writeOutputsAfter([]stagedOutput{{"-o", lw.path, s}}, outs...)
}

// abort discards the labels written to a file; after commit it does
// nothing.
func (lw *labelWriter) abort() {
	if lw.file != nil {
		lw.file.Abort()
	}
}
