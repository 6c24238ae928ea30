package stream

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/sample"
)

// DefaultSampleSize is the sample size of [SampleScale] when
// [SampleConfig.Size] is 0. Training draws its SGD steps from the sample
// (10,000 to 1,000,000 of them, most runs stop near 10,000-50,000), and the
// automatic settings (svclust.Choose) look at 2,000 rows, so a sample of
// 200,000 rows is several times what training can use; it costs 1.6 MB per
// feature.
const DefaultSampleSize = 200_000

// reservoirStream is the second seed word of the reservoir's random source,
// rand.NewPCG(seed, reservoirStream), so that its numbers differ from
// those of training, which uses rand.NewPCG(seed, seed).
const reservoirStream = 0x7265_7365_7276_6f69 // "reservoi"

// Rows per Predict call of LabelStream, and the largest chunk in bytes:
// small enough that cancellation is noticed every second or so.
const (
	chunkRows  = 16384
	chunkBytes = 8 << 20
)

// checkRows is how often, in rows, the reading passes report progress and
// check for cancellation.
const checkRows = 1 << 16

// Pass names a pass over the data of an out-of-core run.
type Pass int

const (
	// PassSample is the first pass of SampleScale: the sample and the
	// first statistics of the scaling.
	PassSample Pass = iota
	// PassScale is a further pass of SampleScale over the data, for the
	// variance of the z-score about the mean (and, for a column whose
	// variance under- or overflows, about its magnitude).
	PassScale
	// PassLabel is the pass of LabelStream.
	PassLabel
)

// Opener opens the data for one pass: it returns a reader of CSV text from
// its start (plain or gzip, as dataset.NewScanner reads it) each time it
// is called. SampleScale calls it once or more, LabelStream once; each
// reader is closed before the next is opened. The data must not change
// between passes.
type Opener func(pass Pass) (io.ReadCloser, error)

// Progress reports the progress of a pass to a callback.
type Progress struct {
	Pass Pass
	// Rows is the number of rows done in the pass, and Total the number of
	// rows of the data, 0 while unknown (during the first pass).
	Rows, Total int
	// Done is set in the last report of a pass that ends without error.
	Done bool
}

// ChangedError is the error of data whose number of rows differs between
// passes.
type ChangedError struct {
	Before, Now int
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("stream: the data changed between passes: %d rows, then %d", e.Before, e.Now)
}

// SampleConfig configures [SampleScale]. The zero value reads a CSV file
// with a "label" column if there is one, z-scores it and samples
// DefaultSampleSize rows with seed 0.
type SampleConfig struct {
	// Read says how to read the data. Its Name names the data in the
	// errors of dataset.
	Read dataset.ReadOptions
	// Scale is the scaling fitted on every row.
	Scale dataset.Scale
	// Size is the largest number of rows sampled; 0 means
	// DefaultSampleSize. It must not be negative.
	Size int
	// Seed seeds the reservoir's random numbers.
	Seed uint64
	// Progress, if not nil, is called at the start of each pass, every
	// 65,536 rows, and at its end.
	Progress func(Progress)
}

// Sample is the result of [SampleScale].
type Sample struct {
	// X holds the sampled rows, scaled by Scaler. When the data have at
	// most SampleConfig.Size rows, they are every row, in order.
	X *mat.Dense
	// Scaler is the scaling fitted on every row of the data.
	Scaler *dataset.Scaler
	// Names are the feature names and Classes the classes of the label
	// column (nil without one), as dataset.Scanner reads them.
	Names, Classes []string
	// Rows is the number of rows of the data.
	Rows int
	// SHA256 is the SHA-256 of the bytes of the first pass, in
	// hexadecimal: the hash of the file the run record names.
	SHA256 string
}

// ctxErr returns ctx.Err(), or an error for a nil ctx, which the passes
// could not check.
func ctxErr(ctx context.Context) error {
	if ctx == nil {
		return errors.New("stream: nil Context")
	}
	return ctx.Err()
}

// pass opens the data for pass p, with an error rather than a panic for
// a nil Opener or a nil reader.
func (open Opener) pass(p Pass) (io.ReadCloser, error) {
	if open == nil {
		return nil, errors.New("stream: nil Opener")
	}
	r, err := open(p)
	if err == nil && r == nil {
		err = errors.New("stream: the Opener returned a nil reader")
	}
	return r, err
}

// SampleScale reads the data that open opens, in one pass or more, and
// returns a uniform sample of its rows, seeded, and the scaling fitted on
// every row, as the package documentation describes. It returns
// ctx.Err() when ctx is cancelled: before the call (without opening the
// data), or during it (checked every 65,536 rows, at the end of the
// first pass and before each further one), and an error for a nil ctx; a *ChangedError when the passes see
// different numbers of rows, the errors of dataset.Scanner as they are,
// and a *modelfile.OverflowError for a sample value that overflows when scaled (its
// Line is the line of the data when the sample holds every row, 0
// otherwise, and its Row the row of the sample).
func SampleScale(ctx context.Context, open Opener, cfg *SampleConfig) (*Sample, error) {
	if cfg == nil {
		cfg = &SampleConfig{}
	}
	limit := cfg.Size
	switch {
	case limit == 0:
		limit = DefaultSampleSize
	case limit < 0:
		return nil, fmt.Errorf("stream: sample size %d is negative", limit)
	}
	if err := ctxErr(ctx); err != nil {
		return nil, err
	}
	report := func(p Progress) {
		if cfg.Progress != nil {
			cfg.Progress(p)
		}
	}

	r, err := open.pass(PassSample)
	if err != nil {
		return nil, err
	}
	report(Progress{Pass: PassSample})
	h := sha256.New()
	sc, err := dataset.NewScanner(io.TeeReader(r, h), cfg.Read)
	if err != nil {
		r.Close()
		return nil, err
	}
	d := len(sc.Names())
	fitter := dataset.NewScaleFitter(cfg.Scale, d)
	res := sample.NewReservoir(limit, d, rand.New(rand.NewPCG(cfg.Seed, reservoirStream)))
	for sc.Scan() {
		row := sc.Row()
		fitter.Add(row)
		res.Add(row)
		if n := res.Seen(); n%checkRows == 0 {
			if err := ctx.Err(); err != nil {
				r.Close()
				return nil, err
			}
			report(Progress{Pass: PassSample, Rows: n})
		}
	}
	if err := sc.Err(); err != nil {
		r.Close()
		return nil, err
	}
	// Read to the end, so that the hash is the file's.
	io.Copy(h, r)
	r.Close()
	n := res.Seen()
	report(Progress{Pass: PassSample, Rows: n, Total: n, Done: true})
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	rows := res.Rows()
	m := len(rows) / d // = min(n, limit)
	for fitter.NextPass() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if res.All() {
			for i := range m {
				fitter.Add(rows[i*d : (i+1)*d])
			}
		} else if err := scalePass(ctx, open, cfg, fitter, n, report); err != nil {
			return nil, err
		}
	}
	scaler := fitter.Scaler()
	for i := range m {
		row := rows[i*d : (i+1)*d]
		if j, u := scaler.Overflow(row); j >= 0 {
			e := modelfile.NewOverflowError(scaler, row, j, u)
			e.Row, e.Feature = i, sc.Names()[j]
			if res.All() {
				// The sample is in order when it holds every row kept.
				e.Line = sc.RowLine(i)
			}
			return nil, e
		}
		scaler.TransformRow(row, row)
	}
	s := &Sample{Scaler: scaler, Names: sc.Names(), Classes: sc.Classes(), Rows: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	if m > 0 {
		s.X = mat.NewDense(m, d, rows)
	}
	return s, nil
}

// scalePass feeds every row of the data to fitter once more.
func scalePass(ctx context.Context, open Opener, cfg *SampleConfig, fitter *dataset.ScaleFitter, n int, report func(Progress)) error {
	r, err := open.pass(PassScale)
	if err != nil {
		return err
	}
	defer r.Close()
	report(Progress{Pass: PassScale, Total: n})
	sc, err := dataset.NewScanner(r, cfg.Read)
	if err != nil {
		return err
	}
	for sc.Scan() {
		fitter.Add(sc.Row())
		if sc.Rows()%checkRows == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			report(Progress{Pass: PassScale, Rows: sc.Rows(), Total: n})
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if sc.Rows() != n {
		return &ChangedError{Before: n, Now: sc.Rows()}
	}
	report(Progress{Pass: PassScale, Rows: n, Total: n, Done: true})
	return nil
}

// LabelConfig configures [LabelStream].
type LabelConfig struct {
	// Read says how to read the data, as for SampleScale.
	Read dataset.ReadOptions
	// Rows, if positive, is the number of rows the data must have (as
	// SampleScale counted them); another number is a *ChangedError.
	Rows int
	// Workers is the number of goroutines of Predict; 0 means GOMAXPROCS.
	// It must not be negative.
	// With more than one, the next chunk is read while one is labelled;
	// with 1, each chunk is labelled in the caller's goroutine.
	Workers int
	// Outlier, if not nil, is called with the outlier scores of each
	// chunk's rows (Partition.OutlierScores) just before emit is called
	// with their labels; it must not keep the slice. Its error stops the
	// pass as emit's does; a partition without outlier scores returns
	// cluster.ErrNoOutlierScores.
	Outlier func(scores []float64) error
	// Progress, if not nil, is called at the start of the pass, after
	// each chunk of rows and at its end.
	Progress func(Progress)
	// Skipped, if not nil, is called with the number of rows of each run
	// of rows that Read.NA = dataset.NADrop skipped, in order with the
	// calls of emit: the labels emitted before it are those of the rows
	// before the run. An error it returns stops LabelStream.
	Skipped func(rows int) error
}

// LabelStream reads the data that open opens in chunks of rows, scales
// each chunk with m's scaler, labels it with m's Partition.Predict and
// calls emit with the labels of the chunk and, if the data have a label
// column, the class of each row (−1 where its label is missing; else
// nil); emit must not keep the slices.
// It returns the number of rows labelled. Memory holds two chunks (each at
// most 16,384 rows or 8 MiB of values): one is read while the other is
// labelled (see LabelConfig.Workers), and all of the callbacks are called
// from the caller's goroutine, in the order of the rows. It stops at the
// first error of emit, returns ctx.Err() when ctx is cancelled (before
// the call, without opening the data, and then checked after each chunk's
// labels are emitted; an error for a nil ctx), a
// *ChangedError for a wrong number of rows (see LabelConfig.Rows), a
// *modelfile.OverflowError (with the Line of the value) for a value that
// overflows when scaled, a *modelfile.DimError for data whose number of
// features is not the model's, modelfile.ErrNotClustered for a model without
// a partition and the errors of dataset.Scanner as they are.
func LabelStream(ctx context.Context, open Opener, m *modelfile.File, cfg *LabelConfig, emit func(labels, classes []int) error) (int, error) {
	if cfg == nil {
		cfg = &LabelConfig{}
	}
	if err := m.Validate(); err != nil {
		return 0, err
	}
	if m.Partition == nil {
		return 0, modelfile.ErrNotClustered
	}
	if emit == nil {
		return 0, errors.New("stream: LabelStream: nil emit")
	}
	if cfg.Workers < 0 {
		return 0, &svclust.ConfigError{Field: "LabelConfig.Workers", Value: cfg.Workers, Reason: "must be ≥ 0 (0 means GOMAXPROCS)"}
	}
	if err := ctxErr(ctx); err != nil {
		return 0, err
	}
	report := func(p Progress) {
		if cfg.Progress != nil {
			cfg.Progress(p)
		}
	}
	r, err := open.pass(PassLabel)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	sc, err := dataset.NewScanner(r, cfg.Read)
	if err != nil {
		return 0, err
	}
	n := cfg.Rows
	report(Progress{Pass: PassLabel, Total: max(n, 0)})
	d := len(sc.Names())
	if want := m.Model.Dim(); d != want {
		return 0, &modelfile.DimError{Got: d, Want: want}
	}
	rows := max(1, min(chunkRows, chunkBytes/(8*d)))
	// Two chunks: the rows of one are read and scaled while the other's are
	// labelled, so that reading (one core) overlaps Predict. Every callback
	// is called from this goroutine, in the order of the rows.
	chunks := [2]*labelChunk{newLabelChunk(rows, d, cfg.Outlier != nil), newLabelChunk(rows, d, cfg.Outlier != nil)}
	cur := chunks[0]
	var pending *labelChunk // being labelled
	done := 0
	// finish waits for the labels of the pending chunk and emits them,
	// returning the error of Predict or of a callback.
	finish := func() error {
		c := pending
		if c == nil {
			return nil
		}
		pending = nil
		c.wait()
		err := c.err
		if err == nil && cfg.Outlier != nil {
			err = cfg.Outlier(c.gotScores)
		}
		if err != nil {
			return err
		}
		var classes []int
		if sc.Labelled() {
			classes = c.truth
		}
		if err := emit(c.got, classes); err != nil {
			return err
		}
		done += c.k
		report(Progress{Pass: PassLabel, Rows: done, Total: max(n, 0)})
		return nil
	}
	// emitted is finish, and then ctx's error if a chunk was emitted: the
	// pass checks for cancellation after each chunk.
	emitted := func() error {
		if pending == nil {
			return nil
		}
		if err := finish(); err != nil {
			return err
		}
		return ctx.Err()
	}
	// flush emits the pending chunk and starts labelling the current one;
	// with one worker it labels and emits it in this goroutine.
	flush := func() error {
		if err := emitted(); err != nil {
			return err
		}
		if cur.k == 0 {
			return nil
		}
		if cfg.Workers == 1 {
			cur.done = nil // for wait
			cur.label(m.Partition, d, 1)
		} else {
			cur.start(m.Partition, d, cfg.Workers)
		}
		pending = cur
		if cur == chunks[0] {
			cur = chunks[1]
		} else {
			cur = chunks[0]
		}
		cur.k, cur.truth = 0, cur.truth[:0]
		if cfg.Workers == 1 {
			return emitted()
		}
		return nil
	}
	// drain emits every row read.
	drain := func() error {
		if err := flush(); err != nil {
			return err
		}
		return emitted()
	}
	// fail returns err after emitting the chunk being labelled, whose
	// rows come before err's, or that chunk's own error.
	fail := func(err error) (int, error) {
		if e := finish(); e != nil {
			return done, e
		}
		return done, err
	}
	skipped := 0 // rows of sc.Dropped() reported
	skip := func() error {
		if len(sc.Dropped()) == skipped || cfg.Skipped == nil {
			return nil
		}
		if err := drain(); err != nil {
			return err
		}
		k := len(sc.Dropped()) - skipped
		skipped += k
		return cfg.Skipped(k)
	}
	for sc.Scan() {
		if err := skip(); err != nil {
			return fail(err)
		}
		if j, u := m.Scaler.Overflow(sc.Row()); j >= 0 {
			e := modelfile.NewOverflowError(m.Scaler, sc.Row(), j, u)
			e.Row, e.Line, e.Feature = done+cur.k, sc.Line(), sc.Names()[j]
			if pending != nil {
				e.Row += pending.k
			}
			return fail(e)
		}
		m.Scaler.TransformRow(cur.x[cur.k*d:(cur.k+1)*d], sc.Row())
		cur.truth = append(cur.truth, sc.Label())
		cur.k++
		if cur.k == rows {
			if err := flush(); err != nil {
				return fail(err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fail(err)
	}
	if err := skip(); err != nil { // rows skipped after the last row kept
		return fail(err)
	}
	if err := drain(); err != nil {
		return fail(err)
	}
	if n > 0 && done != n {
		return done, &ChangedError{Before: n, Now: done}
	}
	report(Progress{Pass: PassLabel, Rows: done, Total: done, Done: true})
	return done, nil
}

// labelChunk holds the rows of one chunk of LabelStream and, once
// labelled, their labels.
type labelChunk struct {
	x      []float64 // k rows of d scaled values
	truth  []int     // the class of each row
	pred   []int
	scores []float64 // nil without outlier scores
	k      int       // rows held

	got       []int     // the labels, as Predict returned them
	gotScores []float64 // the scores, as PredictScores returned them

	done     chan struct{} // closed when the labels of start are in; nil after label
	err      error         // of PredictScores
	panicked any           // a panic of Predict, raised again by wait
}

func newLabelChunk(rows, d int, scores bool) *labelChunk {
	c := &labelChunk{x: make([]float64, rows*d), truth: make([]int, 0, rows), pred: make([]int, rows)}
	if scores {
		c.scores = make([]float64, rows)
	}
	return c
}

// start labels the chunk's rows with p in a goroutine of its own (Predict
// starts workers more); wait waits for them.
func (c *labelChunk) start(p cluster.Partition, d, workers int) {
	c.done, c.panicked = make(chan struct{}), nil
	go func() {
		defer close(c.done)
		defer func() { c.panicked = recover() }()
		c.label(p, d, workers)
	}()
}

// label labels the chunk's rows with p.
func (c *labelChunk) label(p cluster.Partition, d, workers int) {
	x := mat.NewDense(c.k, d, c.x[:c.k*d])
	if c.scores != nil {
		// Labels and scores in one pass where the rule allows it.
		c.got, c.gotScores, c.err = p.PredictScores(c.pred[:c.k], c.scores[:c.k], x, workers)
	} else {
		c.got, c.err = p.Predict(c.pred[:c.k], x, workers), nil
	}
}

// wait waits for the labels of start, and raises a panic of Predict in
// the caller's goroutine, where it would have been without the goroutine.
func (c *labelChunk) wait() {
	if c.done == nil {
		return // labelled by label in the caller's goroutine
	}
	<-c.done
	if c.panicked != nil {
		panic(c.panicked)
	}
}
