package settings

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

func TestParseForget(t *testing.T) {
	for in, want := range map[string]float64{"": 0, "off": 0, "OFF": 0, "0": 0, "auto": svclust.ForgetAuto, "0.001": 0.001} {
		if got, err := ParseForget(in); err != nil || got != want {
			t.Errorf("ParseForget(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1", "-0.1", "nan", "often", "1e400"} {
		var e *Error
		if _, err := ParseForget(in); !errors.As(err, &e) || e.Flag != "-forget" {
			t.Errorf("ParseForget(%q): %v, want an *Error of -forget", in, err)
		}
	}
}

// TestUpdateRows: the update of a model file keeps its scaler, counts the
// rows seen, keeps the cluster ids of a stationary batch and refuses bad
// options and files without the training state.
func TestUpdateRows(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss3, 1200, 4)
	if err != nil {
		t.Fatal(err)
	}
	first, second := mat.DenseCopyOf(ds.X.Slice(0, 600, 0, 2)), mat.DenseCopyOf(ds.X.Slice(600, 1200, 0, 2))
	s := Default()
	fit, err := s.FitRows(context.Background(), first, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := s.ModelFile(fit.Scaler, nil, s.Record("test", fit.Model, Source{Data: "first", Rows: 600}), fit.Model, fit.Result)
	raw := mat.DenseCopyOf(second)
	u, err := UpdateRows(context.Background(), f, second, false, UpdateOptions{}, "test", Source{Data: "second"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(second, raw) {
		t.Error("UpdateRows scaled the rows in place without inPlace")
	}
	if u.File.Scaler != f.Scaler || u.File.Model.Training.Rows != 1200 || u.File.Run.Rows != 1200 || u.File.Run.Data != "second" {
		t.Errorf("updated file: scaler kept %v, rows seen %d, run rows %d, run data %q", u.File.Scaler == f.Scaler, u.File.Model.Training.Rows, u.File.Run.Rows, u.File.Run.Data)
	}
	if info := u.Info(0); len(info.IDs) != 3 || len(info.Born)+len(info.Died)+len(info.Merged)+len(info.Split) != 0 {
		t.Errorf("a stationary batch: %+v", info)
	}
	for _, o := range []UpdateOptions{{Forget: 1}, {Steps: -1}, {Workers: -1}} {
		var e *Error
		if _, err := UpdateRows(context.Background(), f, second, false, o, "test", Source{}, nil); !errors.As(err, &e) {
			t.Errorf("%+v: %v, want an *Error", o, err)
		}
	}
	old := *f
	m := *f.Model
	m.Training = nil
	old.Model = &m
	if _, err := UpdateRows(context.Background(), &old, second, false, UpdateOptions{}, "test", Source{}, nil); !errors.Is(err, svclust.ErrNoTraining) {
		t.Errorf("a model without training: %v", err)
	}
	if _, err := UpdateRows(context.Background(), &modelfile.File{}, second, false, UpdateOptions{}, "test", Source{}, nil); !errors.Is(err, svclust.ErrNotTrained) {
		t.Errorf("a zero File: %v", err)
	}
}
