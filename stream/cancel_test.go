package stream

import (
	"context"
	"errors"
	"github.com/svclust/svclust"
	"io"
	"strings"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// TestSampleScaleCancelledBefore: a context cancelled before the call is
// ctx.Err() at once, without opening the data, however few the rows (a
// set shorter than the check interval was returned whole with a nil
// error); and a cancellation between passes stops the run before the
// next one, for the sample that holds every row (the further passes run
// over it) and for a reservoir (they read the data again), and after a
// one-pass scaling; a nil ctx is an error.
func TestSampleScaleCancelledBefore(t *testing.T) {
	ds, err := dataset.Generate(dataset.Moons, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	open, passes := csvOpener(t, ds)
	s, err := SampleScale(ctx, open, nil)
	if !errors.Is(err, context.Canceled) || s != nil || len(*passes) != 0 {
		t.Errorf("cancelled before the call: sample %v, error %v, passes %v; want nil, context.Canceled, none", s != nil, err, *passes)
	}
	for _, c := range []struct {
		size  int
		scale dataset.Scale
	}{{0, dataset.ScaleZScore}, {10, dataset.ScaleZScore}, {0, dataset.ScaleMinMax}, {10, dataset.ScaleNone}} {
		size := c.size
		ctx, cancel := context.WithCancel(context.Background())
		open, passes := csvOpener(t, ds)
		cfg := &SampleConfig{Size: size, Scale: c.scale, Progress: func(p Progress) {
			if p.Pass == PassSample && p.Done {
				cancel()
			}
		}}
		s, err := SampleScale(ctx, open, cfg)
		if !errors.Is(err, context.Canceled) || s != nil || len(*passes) != 1 {
			t.Errorf("size %d, %v, cancelled at the end of the first pass: sample %v, error %v, passes %v; want nil, context.Canceled, the first only", size, c.scale, s != nil, err, *passes)
		}
		cancel()
	}
	if _, err := SampleScale(nil, open, nil); err == nil {
		t.Error("nil Context: no error")
	}
}

// TestLabelStreamCancelledBefore: a context cancelled before the call is
// ctx.Err() at once, without opening the data or emitting a label (the
// first chunk was labelled and emitted, and data without rows returned
// the scanner's error); a nil ctx is an error.
func TestLabelStreamCancelledBefore(t *testing.T) {
	m, raw := fitted(t, 300)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{300, 0} {
		open, passes := csvOpener(t, raw)
		if n == 0 { // a header alone
			open = func(p Pass) (io.ReadCloser, error) {
				*passes = append(*passes, p)
				return io.NopCloser(strings.NewReader(strings.Join(raw.Names, ",") + ",label\n")), nil
			}
		}
		emits := 0
		got, err := LabelStream(ctx, open, m, nil, func(_, _ []int) error { emits++; return nil })
		if !errors.Is(err, context.Canceled) || got != 0 || emits != 0 || len(*passes) != 0 {
			t.Errorf("%d rows, cancelled before the call: %d rows, error %v, %d emits, passes %v; want 0, context.Canceled, 0, none", n, got, err, emits, *passes)
		}
	}
	if _, err := LabelStream(nil, func(Pass) (io.ReadCloser, error) { return nil, errors.New("opened") }, m, nil, func(_, _ []int) error { return nil }); err == nil || err.Error() == "opened" {
		t.Errorf("nil Context: error %v, want one before opening", err)
	}
}

// TestLabelStreamNegativeWorkers: a negative LabelConfig.Workers is a
// *svclust.ConfigError before the data are opened, as svclust.Config
// refuses one (it was taken as GOMAXPROCS).
func TestLabelStreamNegativeWorkers(t *testing.T) {
	m, raw := fitted(t, 60)
	open, passes := csvOpener(t, raw)
	_, err := LabelStream(context.Background(), open, m, &LabelConfig{Workers: -1}, func(_, _ []int) error { return nil })
	var ce *svclust.ConfigError
	if !errors.As(err, &ce) || ce.Field != "LabelConfig.Workers" || len(*passes) != 0 {
		t.Errorf("Workers -1: error %v, passes %v; want a ConfigError before opening", err, *passes)
	}
}
