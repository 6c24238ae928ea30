package crosscheck_test

import (
	"context"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/baseline"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/figure"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/sample"
	"github.com/svclust/svclust/stream"
)

// TestBadInputErrors walks the exported functions with an error result of
// svclust, cluster, modelfile, stream, sample, dataset, baseline and figure
// with the inputs a careless caller gives them — a nil matrix, a typed nil
// (*mat.Dense)(nil), an empty matrix, the wrong number of columns, the zero
// value of a model, file or partition, nil readers, writers and callbacks —
// and requires an error (wrapping the documented sentinel where there is
// one), never a panic nor a nil error. docs/guarantees.md promises this.
// (Package metrics has no function with an error result; its functions
// document their panics.)
func TestBadInputErrors(t *testing.T) {
	x2 := mat.NewDense(40, 2, nil)
	for i := range 40 {
		x2.Set(i, 0, float64(i%7))
		x2.Set(i, 1, float64(i%5))
	}
	x3 := mat.NewDense(5, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	m, err := svclust.Train(x2, &svclust.Config{Gamma: 1, C: 10, Budget: 10})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Fit(m, x2, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := &modelfile.File{Model: m, Partition: res.Partition, Scaler: dataset.FitScaler(x2, dataset.ScaleNone)}
	svdd, err := baseline.TrainSVDD(x2, &baseline.SVDDConfig{Gamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(t.TempDir(), "x.png")
	csv := func(s string) stream.Opener {
		return func(stream.Pass) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
	}
	emit := func(_, _ []int) error { return nil }

	type tc struct {
		name string
		want error // nil: any error
		call func() error
	}
	var cases []tc
	// Bad matrices for every function that takes data.
	bad := []struct {
		name string
		x    mat.Matrix
		want error
	}{
		{"nil", nil, svclust.ErrNoData},
		{"typed nil Dense", (*mat.Dense)(nil), svclust.ErrNoData},
		{"typed nil VecDense", (*mat.VecDense)(nil), svclust.ErrNoData},
		{"typed nil SymDense", (*mat.SymDense)(nil), svclust.ErrNoData},
		{"empty Dense", &mat.Dense{}, svclust.ErrNoData},
	}
	for _, b := range bad {
		x := b.x
		cases = append(cases,
			tc{"Train/" + b.name, b.want, func() error { _, err := svclust.Train(x, nil); return err }},
			tc{"TrainContext/" + b.name, b.want, func() error { _, err := svclust.TrainContext(context.Background(), x, nil); return err }},
			tc{"Choose/" + b.name, b.want, func() error { _, err := svclust.Choose(x, nil); return err }},
			tc{"Update/" + b.name, b.want, func() error { _, err := svclust.Update(context.Background(), m, x, nil); return err }},
			tc{"zero Model Update/" + b.name, svclust.ErrNotTrained, func() error {
				_, err := svclust.Update(context.Background(), &svclust.Model{}, x, nil)
				return err
			}},
			tc{"cluster.Fit/" + b.name, b.want, func() error { _, err := cluster.Fit(m, x, nil); return err }},
			tc{"cluster.Fit components/" + b.name, b.want, func() error { _, err := cluster.Fit(m, x, &cluster.Components{}); return err }},
			tc{"baseline.KMeans/" + b.name, b.want, func() error { _, err := baseline.KMeans(x, &baseline.KMeansConfig{K: 2}); return err }},
			tc{"baseline.FuzzyCMeans/" + b.name, b.want, func() error { _, err := baseline.FuzzyCMeans(x, &baseline.FCMConfig{K: 2}); return err }},
			tc{"baseline.HDBSCAN/" + b.name, b.want, func() error { _, err := baseline.HDBSCAN(x, nil); return err }},
			tc{"baseline.TrainSVDD/" + b.name, b.want, func() error { _, err := baseline.TrainSVDD(x, &baseline.SVDDConfig{Gamma: 1}); return err }},
			tc{"SVDD.LabelCompleteGraph/" + b.name, b.want, func() error { _, err := svdd.LabelCompleteGraph(x, nil); return err }},
			tc{"SVDD.LabelFSVC/" + b.name, b.want, func() error { _, err := svdd.LabelFSVC(x, nil); return err }},
			tc{"File.Predict/" + b.name, b.want, func() error { _, err := file.Predict(nil, x, 0); return err }},
			tc{"File.Score/" + b.name, b.want, func() error { _, err := file.Score(nil, x, 0); return err }},
			// A zero-value receiver is reported before the data.
			tc{"zero File.Predict/" + b.name, svclust.ErrNotTrained, func() error { _, err := (&modelfile.File{}).Predict(nil, x, 0); return err }},
			tc{"zero File.Score/" + b.name, svclust.ErrNotTrained, func() error { _, err := (&modelfile.File{}).Score(nil, x, 0); return err }},
			tc{"zero Model cluster.Fit/" + b.name, svclust.ErrNotTrained, func() error { _, err := cluster.Fit(&svclust.Model{}, x, nil); return err }},
			tc{"nil Model cluster.Fit/" + b.name, svclust.ErrNotTrained, func() error { _, err := cluster.Fit(nil, x, nil); return err }},
			tc{"zero Model figure.Domain/" + b.name, svclust.ErrNotTrained, func() error { _, err := figure.Domain(&svclust.Model{}, x, nil, nil); return err }},
			tc{"nil Model figure.Domain/" + b.name, svclust.ErrNotTrained, func() error { _, err := figure.Domain(nil, x, nil, nil); return err }},
		)
	}
	cases = append(cases,
		// Dimensions: x3 has 3 columns, the models 2.
		tc{"cluster.Fit/dimension", svclust.ErrDimension, func() error { _, err := cluster.Fit(m, x3, nil); return err }},
		tc{"Update/dimension", svclust.ErrDimension, func() error { _, err := svclust.Update(context.Background(), m, x3, nil); return err }},
		tc{"Update/model without training", svclust.ErrNoTraining, func() error {
			bare := *m
			bare.Training = nil
			_, err := svclust.Update(context.Background(), &bare, x2, nil)
			return err
		}},
		tc{"cluster.Track/nil partitions", nil, func() error { _, err := cluster.Track(nil, nil, nil, 0, 0); return err }},
		tc{"cluster.Fit components/dimension", svclust.ErrDimension, func() error { _, err := cluster.Fit(m, x3, &cluster.Components{}); return err }},
		tc{"File.Predict/dimension", svclust.ErrDimension, func() error { _, err := file.Predict(nil, x3, 0); return err }},
		tc{"File.Score/dimension", svclust.ErrDimension, func() error { _, err := file.Score(nil, x3, 0); return err }},
		tc{"File.Predict/dst length", svclust.ErrDimension, func() error { _, err := file.Predict(make([]int, 3), x2, 0); return err }},
		tc{"File.Score/dst length", svclust.ErrDimension, func() error { _, err := file.Score(make([]float64, 3), x2, 0); return err }},
		tc{"File.ScaleRows/dimension", svclust.ErrDimension, func() error { return file.ScaleRows(mat.DenseCopyOf(x3)) }},
		tc{"File.Renamed/dimension", svclust.ErrDimension, func() error { _, err := file.Renamed([]string{"a"}); return err }},
		tc{"SVDD.LabelCompleteGraph/dimension", svclust.ErrDimension, func() error { _, err := svdd.LabelCompleteGraph(x3, nil); return err }},
		tc{"SVDD.LabelFSVC/dimension", svclust.ErrDimension, func() error { _, err := svdd.LabelFSVC(x3, nil); return err }},
		tc{"figure.Domain/dimension", figure.ErrNot2D, func() error { _, err := figure.Domain(m, x3, nil, nil); return err }},
		tc{"figure.Clusters/dimension", figure.ErrNot2D, func() error { _, err := figure.Clusters(x3, nil, nil); return err }},
		tc{"figure.Clusters/labels length", nil, func() error { _, err := figure.Clusters(x2, []int{1}, nil); return err }},
		tc{"figure.Domain/negative grid", nil, func() error { _, err := figure.Domain(m, x2, nil, &figure.Options{Grid: -1}); return err }},
		tc{"figure.Save/no plot", nil, func() error { return figure.Save(png, 100, 100) }},
		tc{"figure.Save/nil plot", nil, func() error { return figure.Save(png, 100, 100, nil) }},
		tc{"figure.Panels/no panel", nil, func() error { return figure.Panels(png, "", nil) }},
		// Zero values and nil receivers.
		tc{"nil File.Predict", svclust.ErrNotTrained, func() error { _, err := (*modelfile.File)(nil).Predict(nil, x2, 0); return err }},
		tc{"File without Scaler.Predict", svclust.ErrNotTrained, func() error {
			f := *file
			f.Scaler = nil
			_, err := f.Predict(nil, x2, 0)
			return err
		}},
		tc{"File with zero Model.Score", svclust.ErrNotTrained, func() error {
			f := *file
			f.Model = &svclust.Model{}
			_, err := f.Score(nil, x2, 0)
			return err
		}},
		tc{"File without Partition.Predict", modelfile.ErrNotClustered, func() error {
			f := *file
			f.Partition = nil
			_, err := f.Predict(nil, x2, 0)
			return err
		}},
		tc{"zero File.ScaleRows", svclust.ErrNotTrained, func() error { return (&modelfile.File{}).ScaleRows(mat.DenseCopyOf(x2)) }},
		tc{"File.ScaleRows/nil", svclust.ErrNoData, func() error { return file.ScaleRows(nil) }},
		tc{"zero File.Renamed", svclust.ErrNotTrained, func() error { _, err := (&modelfile.File{}).Renamed([]string{"a"}); return err }},
		tc{"zero File.Write", nil, func() error { return (&modelfile.File{}).Write(io.Discard) }},
		tc{"zero File.MarshalJSON", nil, func() error { _, err := (&modelfile.File{}).MarshalJSON(); return err }},
		tc{"File.Write/nil writer", nil, func() error { return file.Write(nil) }},
		tc{"modelfile.Read/nil reader", modelfile.ErrFormat, func() error { _, err := modelfile.Read(nil, 0); return err }},
		tc{"modelfile.Read/empty", modelfile.ErrFormat, func() error { _, err := modelfile.Read(strings.NewReader(""), 0); return err }},
		tc{"File.UnmarshalJSON/null", nil, func() error { var f modelfile.File; return f.UnmarshalJSON([]byte("null")) }},
		tc{"cluster.NewLevelTree/zero Model", svclust.ErrNotTrained, func() error { _, err := cluster.NewLevelTree(&svclust.Model{}, cluster.LevelTreeData{}); return err }},
		tc{"cluster.NewLevelTree/nil Model", svclust.ErrNotTrained, func() error { _, err := cluster.NewLevelTree(nil, cluster.LevelTreeData{}); return err }},
		tc{"cluster.NewGraph/zero Model", svclust.ErrNotTrained, func() error { _, err := cluster.NewGraph(&svclust.Model{}, cluster.GraphData{}); return err }},
		tc{"cluster.NewGraph/nil Model", svclust.ErrNotTrained, func() error { _, err := cluster.NewGraph(nil, cluster.GraphData{}); return err }},
		tc{"cluster.NewLevelTree/zero data", nil, func() error { _, err := cluster.NewLevelTree(m, cluster.LevelTreeData{}); return err }},
		tc{"cluster.NewGraph/zero data", nil, func() error { _, err := cluster.NewGraph(m, cluster.GraphData{}); return err }},
		tc{"cluster.Fit/nil *Levels", nil, func() error { _, err := cluster.Fit(m, x2, (*cluster.Levels)(nil)); return err }},
		tc{"cluster.Fit/nil *Components", nil, func() error { _, err := cluster.Fit(m, x2, (*cluster.Components)(nil)); return err }},
		tc{"cluster.Fit/WithWorkers nil *Levels", nil, func() error {
			_, err := cluster.Fit(m, x2, cluster.WithWorkers((*cluster.Levels)(nil), 1))
			return err
		}},
		tc{"cluster.Fit/model of a view", svclust.ErrNotTrained, func() error {
			v := *m
			wide := mat.NewDense(len(m.Alpha), 3, nil)
			v.SV = wide.Slice(0, len(m.Alpha), 0, 2).(*mat.Dense)
			_, err := cluster.Fit(&v, x2, nil)
			return err
		}},
		tc{"cluster.Fit/model with short Alpha", svclust.ErrNotTrained, func() error {
			v := *m
			v.Alpha = v.Alpha[:1]
			_, err := cluster.Fit(&v, x2, nil)
			return err
		}},
		tc{"zero SVDD.LabelCompleteGraph", svclust.ErrNotTrained, func() error { _, err := (&baseline.SVDD{}).LabelCompleteGraph(x2, nil); return err }},
		tc{"zero SVDD.LabelFSVC", svclust.ErrNotTrained, func() error { _, err := (&baseline.SVDD{}).LabelFSVC(x2, nil); return err }},
		// Streams, readers and writers.
		tc{"stream.LabelStream/nil File", svclust.ErrNotTrained, func() error {
			_, err := stream.LabelStream(context.Background(), csv("x1,x2\n1,2\n"), nil, nil, emit)
			return err
		}},
		tc{"stream.LabelStream/zero File", svclust.ErrNotTrained, func() error {
			_, err := stream.LabelStream(context.Background(), csv("x1,x2\n1,2\n"), &modelfile.File{}, nil, emit)
			return err
		}},
		tc{"stream.LabelStream/nil Opener", nil, func() error { _, err := stream.LabelStream(context.Background(), nil, file, nil, emit); return err }},
		tc{"stream.LabelStream/nil emit", nil, func() error {
			_, err := stream.LabelStream(context.Background(), csv("x1,x2\n1,2\n"), file, nil, nil)
			return err
		}},
		tc{"stream.LabelStream/dimension", svclust.ErrDimension, func() error {
			_, err := stream.LabelStream(context.Background(), csv("x1,x2,x3\n1,2,3\n"), file, nil, emit)
			return err
		}},
		tc{"stream.SampleScale/nil Opener", nil, func() error { _, err := stream.SampleScale(context.Background(), nil, nil); return err }},
		tc{"stream.SampleScale/nil reader", nil, func() error {
			_, err := stream.SampleScale(context.Background(), func(stream.Pass) (io.ReadCloser, error) { return nil, nil }, nil)
			return err
		}},
		tc{"stream.SampleScale/empty", dataset.ErrEmpty, func() error { _, err := stream.SampleScale(context.Background(), csv(""), nil); return err }},
		tc{"dataset.Read/nil reader", nil, func() error { _, err := dataset.Read(nil, dataset.ReadOptions{}); return err }},
		tc{"dataset.Read/empty", dataset.ErrEmpty, func() error { _, err := dataset.Read(strings.NewReader(""), dataset.ReadOptions{}); return err }},
		tc{"dataset.NewScanner/nil reader", nil, func() error { _, err := dataset.NewScanner(nil, dataset.ReadOptions{}); return err }},
		tc{"dataset.GenerateCSV/nil writer", nil, func() error { return dataset.GenerateCSV(nil, dataset.Moons, 10, 1) }},
		tc{"dataset.Generate/negative n", nil, func() error { _, err := dataset.Generate(dataset.Moons, -1, 1); return err }},
		tc{"dataset.Generate/unknown kind", nil, func() error { _, err := dataset.Generate("spiral?", 10, 1); return err }},
		tc{"zero Dataset.WriteCSV", nil, func() error { return (&dataset.Dataset{}).WriteCSV(io.Discard) }},
		tc{"Dataset.WriteCSV/nil writer", nil, func() error {
			d, err := dataset.Generate(dataset.Moons, 5, 1)
			if err != nil {
				return nil // reported as a nil error
			}
			return d.WriteCSV(nil)
		}},
		tc{"Dataset.WriteCSV/short Names", nil, func() error {
			return (&dataset.Dataset{X: mat.NewDense(1, 2, nil), Names: []string{"a"}}).WriteCSV(io.Discard)
		}},
		tc{"Dataset.WriteCSV/short Labels", nil, func() error {
			return (&dataset.Dataset{X: mat.NewDense(2, 2, nil), Labels: []int{1}}).WriteCSV(io.Discard)
		}},
		tc{"ScaleFitter.UnmarshalBinary/empty", nil, func() error { return (&dataset.ScaleFitter{}).UnmarshalBinary(nil) }},
		tc{"sample.BottomK.UnmarshalBinary/empty", nil, func() error { return (&sample.BottomK{}).UnmarshalBinary(nil) }},
		tc{"sample.BottomK.UnmarshalBinary/junk", nil, func() error { return (&sample.BottomK{}).UnmarshalBinary([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}) }},
		tc{"svclust.ParseMaintainer/unknown", nil, func() error { _, err := svclust.ParseMaintainer("nope", 0); return err }},
		tc{"cluster.ParseRule/unknown", nil, func() error { _, err := cluster.ParseRule("nope"); return err }},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			err := c.call()
			switch {
			case err == nil:
				t.Fatal("nil error")
			case c.want != nil && !errors.Is(err, c.want):
				t.Fatalf("error %q does not wrap %q", err, c.want)
			}
		})
	}
}

// TestModelValidate: the zero Model and a nil one are refused naming what
// is missing, and a trained one is accepted.
func TestModelValidate(t *testing.T) {
	for _, m := range []*svclust.Model{nil, {}, {SV: mat.NewDense(1, 1, []float64{0}), Alpha: []float64{1}}} {
		if err := m.Validate(); !errors.Is(err, svclust.ErrNotTrained) {
			t.Errorf("%+v: %v, want ErrNotTrained", m, err)
		}
	}
	ok := &svclust.Model{Gamma: 1, C: 2, SV: mat.NewDense(1, 1, []float64{0}), Alpha: []float64{1}}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid model: %v", err)
	}
	if got := (*svclust.Model)(nil).Dim(); got != 0 {
		t.Errorf("nil Model: Dim = %d, want 0", got)
	}
}

// TestModelValidateSubspace: a Model whose Subspace is malformed is
// refused by Validate, so that cluster.Fit and Predict return an error
// instead of panicking on a worker (a mean one value short) or scoring
// NaN (a non-finite mean or basis, or a basis far from orthonormal, such
// as one with entries of 1.7e308, whose projections overflow).
func TestModelValidateSubspace(t *testing.T) {
	model := func(edit func(s *auto.Subspace)) *svclust.Model {
		s := &auto.Subspace{Mean: []float64{0, 0, 0}, Basis: mat.NewDense(2, 3, []float64{1, 0, 0, 0, 0.6, 0.8})}
		if edit != nil {
			edit(s)
		}
		return &svclust.Model{Gamma: 1, C: 2, SV: mat.NewDense(2, 2, []float64{0, 0, 1, 1}), Alpha: []float64{1, 1}, Subspace: s}
	}
	if err := model(nil).Validate(); err != nil {
		t.Fatalf("valid model: %v", err)
	}
	x := mat.NewDense(4, 3, []float64{0, 0, 0, 1, 1, 1, 2, 0, 1, 0, 2, 2})
	for _, c := range []struct {
		name, msg string
		edit      func(s *auto.Subspace)
	}{
		{"mean short", "mean of length 2", func(s *auto.Subspace) { s.Mean = s.Mean[:2] }},
		{"NaN mean", "mean NaN", func(s *auto.Subspace) { s.Mean[1] = math.NaN() }},
		{"huge mean", "mean 1e+160 is beyond", func(s *auto.Subspace) { s.Mean[0] = 1e160 }},
		{"Inf basis", "basis value +Inf", func(s *auto.Subspace) { s.Basis.Set(0, 2, math.Inf(1)) }},
		{"huge basis", "not orthonormal", func(s *auto.Subspace) { s.Basis.Set(1, 1, 1.7e308); s.Basis.Set(1, 2, 1.7e308) }},
		{"scaled basis", "not orthonormal", func(s *auto.Subspace) { s.Basis.Set(0, 0, 2) }},
		{"skew basis", "not orthonormal", func(s *auto.Subspace) { s.Basis.Set(0, 1, 0.1) }},
	} {
		m := model(c.edit)
		if err := m.Validate(); !errors.Is(err, svclust.ErrNotTrained) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: Validate: %v, want ErrNotTrained naming %q", c.name, err, c.msg)
		}
		if _, err := cluster.Fit(m, x, nil); !errors.Is(err, svclust.ErrNotTrained) {
			t.Errorf("%s: cluster.Fit: %v, want ErrNotTrained", c.name, err)
		}
	}
}
