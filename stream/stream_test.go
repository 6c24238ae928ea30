package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// csvOpener returns an Opener of the CSV text of ds and the passes it was
// opened for.
func csvOpener(t *testing.T, ds *dataset.Dataset) (Opener, *[]Pass) {
	t.Helper()
	var b bytes.Buffer
	if err := ds.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	var passes []Pass
	return func(p Pass) (io.ReadCloser, error) {
		passes = append(passes, p)
		return io.NopCloser(bytes.NewReader(b.Bytes())), nil
	}, &passes
}

// TestSampleScaleAll: with at most Size rows the sample is every row in
// order, scaled by the scaler dataset.FitScaler fits in memory, bit for
// bit, and the data are read once (the further passes of the z-score run
// over the sample).
func TestSampleScaleAll(t *testing.T) {
	ds, err := dataset.Generate(dataset.Moons, 500, 3)
	if err != nil {
		t.Fatal(err)
	}
	open, passes := csvOpener(t, ds)
	var done []Pass
	s, err := SampleScale(context.Background(), open, &SampleConfig{Scale: dataset.ScaleZScore, Size: 500, Seed: 1,
		Progress: func(p Progress) {
			if p.Done {
				done = append(done, p.Pass)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	if !slices.Equal(s.Scaler.Shift, want.Shift) || !slices.Equal(s.Scaler.Mul, want.Mul) {
		t.Errorf("scaler %+v, FitScaler %+v", s.Scaler, want)
	}
	want.Transform(ds.X)
	if !mat.Equal(s.X, ds.X) || s.Rows != 500 || !slices.Equal(s.Names, ds.Names) || len(s.Classes) != len(ds.Classes) {
		t.Errorf("sample is not every row in order (rows %d, names %v, classes %v)", s.Rows, s.Names, s.Classes)
	}
	if !slices.Equal(*passes, []Pass{PassSample}) || !slices.Equal(done, []Pass{PassSample}) {
		t.Errorf("opened for %v, passes done %v; want the sample pass alone", *passes, done)
	}
}

// TestSampleScaleReservoir: with more rows than Size the sample has Size
// distinct rows of the data, the same for the same seed and others for
// another seed; the scaler is FitScaler's bit for bit, after a second pass
// over the data.
func TestSampleScaleReservoir(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss4, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	scaled := mat.DenseCopyOf(ds.X)
	want.Transform(scaled)
	rowOf := map[[2]float64]bool{}
	for i := range 2000 {
		rowOf[[2]float64(scaled.RawRowView(i))] = true
	}
	sample := func(seed uint64) *Sample {
		open, passes := csvOpener(t, ds)
		s, err := SampleScale(context.Background(), open, &SampleConfig{Scale: dataset.ScaleZScore, Size: 100, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(*passes, []Pass{PassSample, PassScale}) {
			t.Errorf("opened for %v, want a sample and a scale pass", *passes)
		}
		if !slices.Equal(s.Scaler.Shift, want.Shift) || !slices.Equal(s.Scaler.Mul, want.Mul) {
			t.Errorf("scaler %+v, FitScaler %+v", s.Scaler, want)
		}
		if r, _ := s.X.Dims(); r != 100 || s.Rows != 2000 {
			t.Fatalf("%d sample rows of %d, want 100 of 2000", r, s.Rows)
		}
		seen := map[[2]float64]bool{}
		for i := range 100 {
			row := [2]float64(s.X.RawRowView(i))
			if !rowOf[row] || seen[row] {
				t.Fatalf("sample row %d %v is not a distinct row of the data", i, row)
			}
			seen[row] = true
		}
		return s
	}
	a, b, c := sample(1), sample(1), sample(2)
	if !mat.Equal(a.X, b.X) {
		t.Error("the same seed gives another sample")
	}
	if mat.Equal(a.X, c.X) {
		t.Error("seeds 1 and 2 give the same sample")
	}
}

// TestStreamErrors: cancellation, data that change between passes, and a
// value that overflows when scaled, with its line.
func TestStreamErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows := strings.Repeat("1,2\n3,4\n", checkRows)
	open := func(Pass) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("a,b\n" + rows)), nil }
	if _, err := SampleScale(ctx, open, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	calls := 0
	shrinking := func(Pass) (io.ReadCloser, error) {
		calls++
		return io.NopCloser(strings.NewReader("a,b\n" + strings.Repeat("1,2\n3,4\n", 10/calls))), nil
	}
	var ce *ChangedError
	if _, err := SampleScale(context.Background(), shrinking, &SampleConfig{Size: 3, Scale: dataset.ScaleZScore}); !errors.As(err, &ce) || ce.Before != 20 || ce.Now != 10 {
		t.Errorf("changed: %v", err)
	}
	// The minmax range of 1e308 and -1e308 overflows: the column cannot
	// be scaled.
	huge := func(Pass) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("a,b\n1,2\n1e308,3\n-1e308,4\n")), nil
	}
	var oe *modelfile.OverflowError
	if _, err := SampleScale(context.Background(), huge, &SampleConfig{Scale: dataset.ScaleMinMax}); !errors.As(err, &oe) || oe.Line != 2 || oe.Feature != "a" || !oe.Column {
		t.Errorf("overflow: %v %+v", err, oe)
	}
}

// TestLabelStream: the labels of the chunks, in order, are Predict's on
// every row (three chunks of chunkRows rows and a short one), the classes
// those of the label column, and a wrong row count is a ChangedError.
func TestLabelStream(t *testing.T) {
	m, _ := fitted(t, 300)
	ds, err := dataset.Generate(dataset.Gauss3, 3*chunkRows+77, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Predict(nil, ds.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	open, _ := csvOpener(t, ds)
	var got, classes []int
	chunks := 0
	n, err := LabelStream(context.Background(), open, m, &LabelConfig{Rows: 3*chunkRows + 77}, func(l, c []int) error {
		got, classes = append(got, l...), append(classes, c...)
		chunks++
		return nil
	})
	if err != nil || n != 3*chunkRows+77 {
		t.Fatal(n, err)
	}
	if !slices.Equal(got, want) || chunks != 4 {
		t.Errorf("labels differ from Predict's, or %d chunks, want 4", chunks)
	}
	// The scanner numbers the classes in their order of appearance, and
	// the generator in its own: the classes must agree as a bijection.
	pair := map[int]int{}
	for i, c := range classes {
		if p, ok := pair[c]; ok && p != ds.Labels[i] || len(classes) != len(ds.Labels) {
			t.Fatalf("row %d: class %d, the data's %d", i, c, ds.Labels[i])
		}
		pair[c] = ds.Labels[i]
	}
	if len(pair) != 3 {
		t.Errorf("%d classes, want 3", len(pair))
	}
	var ce *ChangedError
	if _, err := LabelStream(context.Background(), open, m, &LabelConfig{Rows: 5}, func(_, _ []int) error { return nil }); !errors.As(err, &ce) {
		t.Errorf("wrong row count: %v", err)
	}
}

// TestLabelStreamOrder: while one chunk is labelled the next is read, and
// the callbacks still come as they would one chunk at a time, as they do
// with one worker (which labels in the caller's goroutine): the outlier
// scores of a chunk just before its labels. With -na drop, a skipped row
// is reported after the labels of every row before it; a value that
// overflows, read while a chunk is being labelled, returns its error after
// that chunk's labels, with the row and line of the value; an error of
// emit stops the pass at once.
func TestLabelStreamOrder(t *testing.T) {
	m, _ := fitted(t, 300)
	n := 2*chunkRows + 20
	ds, err := dataset.Generate(dataset.Gauss3, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ds.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want, err := m.Predict(nil, ds.X, 0)
	if err != nil {
		t.Fatal(err)
	}
	// set returns lines with the first field of data row i set to v.
	set := func(lines []string, i int, v string) []string {
		text := slices.Clone(lines)
		l := text[i+1] // after the header
		text[i+1] = v + l[strings.Index(l, ","):]
		return text
	}
	// chunks returns the events of chunks of the given sizes.
	chunks := func(sizes ...int) []string {
		var e []string
		for _, k := range sizes {
			e = append(e, fmt.Sprintf("scores %d", k), fmt.Sprintf("emit %d", k))
		}
		return e
	}
	for _, workers := range []int{1, 2} {
		// run labels text (lines, header first) and returns the events,
		// the labels emitted and the result.
		run := func(text []string, stop error) (events []string, labels []int, done int, err error) {
			open := func(Pass) (io.ReadCloser, error) {
				return io.NopCloser(strings.NewReader(strings.Join(text, "\n") + "\n")), nil
			}
			cfg := &LabelConfig{
				Read:    dataset.ReadOptions{NA: dataset.NADrop},
				Workers: workers,
				Skipped: func(k int) error { events = append(events, fmt.Sprintf("skip %d", k)); return nil },
				Outlier: func(s []float64) error { events = append(events, fmt.Sprintf("scores %d", len(s))); return nil },
			}
			done, err = LabelStream(context.Background(), open, m, cfg, func(l, _ []int) error {
				events = append(events, fmt.Sprintf("emit %d", len(l)))
				labels = append(labels, l...)
				return stop
			})
			return events, labels, done, err
		}

		// A missing value in the third chunk, then a value that overflows.
		text := set(set(lines, 2*chunkRows+5, "NA"), 2*chunkRows+15, "1e300")
		events, labels, done, err := run(text, nil)
		wantEvents := append(chunks(chunkRows, chunkRows, 5), "skip 1")
		var oe *modelfile.OverflowError
		if !slices.Equal(events, wantEvents) || done != 2*chunkRows+5 || !errors.As(err, &oe) {
			t.Fatalf("%d workers, missing, then overflow: events %v, %d rows, %v; want %v, %d rows, an overflow", workers, events, done, err, wantEvents, 2*chunkRows+5)
		}
		if oe.Row != 2*chunkRows+14 || oe.Line != 2*chunkRows+17 {
			t.Errorf("%d workers: overflow at row %d, line %d; want row %d, line %d", workers, oe.Row, oe.Line, 2*chunkRows+14, 2*chunkRows+17)
		}
		if !slices.Equal(labels, want[:done]) {
			t.Errorf("%d workers: labels before the error differ from Predict's", workers)
		}

		// A value that overflows just after the second chunk is full: the
		// chunk being labelled is emitted first.
		events, labels, done, err = run(set(lines, 2*chunkRows+3, "1e300"), nil)
		if wantEvents = chunks(chunkRows, chunkRows); !slices.Equal(events, wantEvents) || done != 2*chunkRows || !errors.As(err, &oe) {
			t.Fatalf("%d workers, overflow after two chunks: events %v, %d rows, %v", workers, events, done, err)
		}
		if oe.Row != 2*chunkRows+3 || oe.Line != 2*chunkRows+5 {
			t.Errorf("%d workers: overflow at row %d, line %d; want row %d, line %d", workers, oe.Row, oe.Line, 2*chunkRows+3, 2*chunkRows+5)
		}
		if !slices.Equal(labels, want[:done]) {
			t.Errorf("%d workers: labels before the error differ from Predict's", workers)
		}

		// emit's error stops the pass after the first chunk.
		stop := errors.New("stop")
		events, _, done, err = run(lines, stop)
		if !slices.Equal(events, chunks(chunkRows)) || done != 0 || err != stop {
			t.Errorf("%d workers, emit's error: events %v, %d rows, %v", workers, events, done, err)
		}
	}
}
