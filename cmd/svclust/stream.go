package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/atomicfile"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/stream"
)

// fit -stream: data larger than memory, by stream.SampleScale (pass 1,
// and a pass for the z-score's variance when the sample does not hold
// every row) and stream.LabelStream (pass 2).
//
// The scaled sample is trained and clustered exactly as fit trains and
// clusters its data; with -rule components as fit -all does, so that every
// sample point follows its trajectory and the equilibria and their
// clusters form the model's partition. Pass 2 labels every row with
// Partition.Predict, which gives each point the cluster of its support vector
// (-rule levels) or sends it along its own trajectory (-rule components),
// and writes the labels as it goes. The external indices come from a
// contingency table (metrics.Table) filled chunk by chunk; the
// Davies–Bouldin and compactness indices, which need the centroids before
// the distances to them, are not computed.
//
// When the file has at most -sample rows the sample is every row in file
// order, so the labels and the model are those of fit (fit -all with -rule
// components).

// streamInfo describes a -stream run.
type streamInfo struct {
	sample int           // rows trained on
	assign time.Duration // the second pass
	// counts[c+1] is the number of rows the second pass labelled c, for
	// c = −1 (outliers), 0, 1, …: the sizes of the clusters of the file,
	// not of the sample.
	counts []int
	// dropped is the number of rows -na drop skipped.
	dropped int
	// outliers is the number of rows whose outlier score reaches the
	// threshold, of every row of the file.
	outliers int
}

// runStream fits and clusters the file path by the -stream design above
// and writes the outputs requested by o.
func runStream(ctx context.Context, e *env, o *fitFlags, path string, prog *progress) (*data, *result, error) {
	st := &o.run
	sc, err := st.Scaling()
	if err != nil {
		return nil, nil, configError(err)
	}
	opt, err := o.readOptions(path)
	if err != nil {
		return nil, nil, err
	}
	// The reading passes count bytes, the labelling pass rows; pass 1
	// hashes the file for the model's run record (stream.Sample.SHA256).
	open := func(pass stream.Pass) (io.ReadCloser, error) {
		r, size, err := openData(path)
		if err != nil {
			return nil, err
		}
		switch pass {
		case stream.PassSample:
			prog.begin("read", "bytes", size)
			return readCloser{&countingReader{r: r, p: prog}, r}, nil
		case stream.PassScale:
			prog.begin("scale", "bytes", size)
			return readCloser{&countingReader{r: r, p: prog}, r}, nil
		}
		return r, nil
	}
	streamError := func(err error) error {
		var ce *stream.ChangedError
		if errors.As(err, &ce) {
			return changed(path, ce.Before, ce.Now)
		}
		return dataError(err, opt)
	}

	sm, err := stream.SampleScale(ctx, open, &stream.SampleConfig{
		Read: opt, Scale: sc, Size: st.Sample, Seed: st.Seed,
		Progress: func(p stream.Progress) {
			if p.Done {
				prog.end()
			}
		},
	})
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		where := displayPath(path) + ", a row of the sample"
		if oe.Line > 0 {
			where = fmt.Sprintf("%s:%d", displayPath(path), oe.Line)
		}
		return nil, nil, overflowError(path, where, oe.Feature, oe.Value, oe.Scaled, oe.Column, st.Scale)
	}
	if err != nil {
		return nil, nil, streamError(err)
	}
	warnLabelLike(e, o.quiet, sm.Names)
	n, m := sm.Rows, 0
	if sm.X != nil {
		m, _ = sm.X.Dims()
	}
	dt := &data{
		ds:     &dataset.Dataset{Names: sm.Names, Classes: sm.Classes},
		scaler: sm.Scaler,
		n:      n,
		d:      len(sm.Names),
		path:   path,
		sha256: sm.SHA256,
	}

	// Training and clustering of the sample, as fit does them (validate
	// sets -all with -stream and -rule components).
	model, cl, err := trainCluster(sm.X, st, prog)
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
	unlabelled := 0 // rows without a true class, left out of table
	fitted := &modelfile.File{Scale: sc, Scaler: sm.Scaler, Features: sm.Names, Label: st.Label, Model: model, Partition: cl.Partition}
	_, err = stream.LabelStream(ctx, open, fitted, &stream.LabelConfig{
		Read: opt, Rows: n, Workers: st.Workers,
		Skipped: func(k int) error {
			r.stream.dropped += k
			return labels.writeEmpty(k)
		},
		Outlier: func(s []float64) error {
			labels.scores = s
			for _, v := range s {
				if v >= cl.OutlierThreshold {
					r.stream.outliers++
				}
			}
			return nil
		},
		Progress: func(p stream.Progress) {
			switch {
			case p.Done:
				prog.end()
			case p.Rows == 0:
				prog.begin("assign", "rows", int64(n))
			default:
				prog.set(int64(p.Rows))
			}
		},
	}, func(got, classes []int) error {
		if err := labels.write(got); err != nil {
			return err
		}
		for _, l := range got {
			r.stream.counts[l+1]++
		}
		for i, c := range classes {
			if c == metrics.Unlabelled {
				unlabelled++
				continue
			}
			table.Add(c, got[i])
		}
		return nil
	})
	if errors.As(err, &oe) {
		return nil, nil, overflowError(path, fmt.Sprintf("%s:%d", displayPath(path), oe.Line), oe.Feature, oe.Value, oe.Scaled, oe.Column, st.Scale)
	}
	if err != nil {
		return nil, nil, streamError(err)
	}
	r.stream.assign = time.Since(start)
	r.validity = table.Validity()
	r.validity.Unlabelled = unlabelled
	// The clusters of every row, the unlabelled ones too, as
	// metrics.Assess counts them.
	r.validity.Clusters = 0
	for _, c := range r.stream.counts[1:] {
		if c > 0 {
			r.validity.Clusters++
		}
	}

	prog.begin("write", "", 0)
	if err := labels.commit(e, o, modelFileOf(st, dt, r)); err != nil {
		return nil, nil, err
	}
	prog.end()
	return dt, r, nil
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// changed is the error of a file whose rows differ between passes.
func changed(path string, before, now int) error {
	return fmt.Errorf("%s changed while fit -stream read it: %d rows, then %d", path, before, now)
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
	// scores holds the outlier scores of the labels write writes next,
	// set by LabelStream's Outlier just before.
	scores []float64
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
	lw.buf = append(lw.buf, "cluster,outlier\n"...)
	return lw, nil
}

// write writes labels, one a line, as writeLabels does.
func (lw *labelWriter) write(labels []int) error {
	if lw.w == nil {
		return nil
	}
	lw.buf = appendColumns(lw.buf, labels, lw.scores)
	if len(lw.buf) == 0 {
		return nil
	}
	_, err := lw.w.Write(lw.buf)
	lw.buf = lw.buf[:0]
	return lw.error(err)
}

// writeEmpty writes k lines of empty fields, the labels and outlier
// scores of rows -na drop skipped.
func (lw *labelWriter) writeEmpty(k int) error {
	if lw.w == nil {
		return nil
	}
	for range k {
		lw.buf = append(lw.buf, ",\n"...)
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
func (lw *labelWriter) commit(e *env, o *fitFlags, mf *modelfile.File) error {
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
