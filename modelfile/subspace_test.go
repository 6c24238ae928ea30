package modelfile

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// TestReclusterProjected: a model trained in a subspace (the t32 kind of
// dataset.GenerateHigh, four Student-t clusters in 32 dimensions, which
// the defaults project) is saved with its Subspace, and the loaded model
// scores raw rows, predicts and clusters again exactly as fit did. A file
// of version 5 cannot hold a subspace, and one without it does not
// predict as fit did: the test can fail.
func TestReclusterProjected(t *testing.T) {
	ds, err := dataset.GenerateHigh("t32", 600, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw := mat.DenseCopyOf(ds.X)
	scaler := dataset.FitScaler(ds.X, dataset.ScaleZScore)
	scaler.Transform(ds.X)
	m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subspace == nil {
		t.Fatalf("t32 not projected: %+v", m.Choice)
	}
	cl, err := cluster.Fit(m, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: m, Partition: cl.Partition}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	loaded, err := Read(strings.NewReader(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	lm := loaded.Model
	if lm.Subspace == nil || !mat.Equal(lm.Subspace.Basis, m.Subspace.Basis) || !slices.Equal(lm.Subspace.Mean, m.Subspace.Mean) || lm.Choice != m.Choice {
		t.Fatal("subspace or choice not read back")
	}
	again, err := cluster.Fit(lm, ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Labels, cl.Labels) {
		t.Errorf("clustered again after loading: %d clusters, fit found %d", again.Clusters, cl.Clusters)
	}
	pred, err := loaded.Predict(nil, raw, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, cl.Labels) {
		t.Error("the loaded file predicts the training rows differently from fit")
	}
	score, err := loaded.Score(nil, raw, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Score(nil, ds.X, 2)
	if !slices.Equal(score, want) {
		t.Error("the loaded file scores differently from the model")
	}
	// Outlier scores: the scorer works in the subspace too, and gives f
	// as Score does.
	fx, out := make([]float64, 600), make([]float64, 600)
	if err := cluster.ScoreOutliers(loaded.Partition, fx, out, ds.X, 2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fx, want) {
		t.Error("ScoreOutliers gives another f than Score")
	}
	fx2, out2 := make([]float64, 600), make([]float64, 600)
	if err := cluster.ScoreOutliers(cl.Partition, fx2, out2, ds.X, 1); err != nil || !slices.Equal(out, out2) {
		t.Errorf("the loaded partition's outlier scores differ from fit's (%v)", err)
	}
	if _, err := Read(strings.NewReader(strings.Replace(text, `"version":8`, `"version":5`, 1)), 0); err == nil || !strings.Contains(err.Error(), "version 5 has no subspace") {
		t.Errorf("version 5 with a subspace: error %v", err)
	}
	// Without its subspace the model is of the wrong dimension for its
	// scaler: the file is refused rather than predicting in the wrong space,
	// and not even written.
	v5 := *m
	v5.Subspace, v5.Choice = nil, auto.Choice{Decision: auto.Decision{GammaAuto: true, CAuto: true, BudgetAuto: true}}
	b.Reset()
	if err := (&File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: &v5}).Write(&b); !errors.Is(err, svclust.ErrNotTrained) || b.Len() > 0 {
		t.Errorf("model without its subspace: Write error %v, %d bytes", err, b.Len())
	}
	cut := regexp.MustCompile(`,"subspace":\{[^}]*\}`).ReplaceAllString(text, "")
	cut = strings.Replace(cut, `"projected":true`, `"projected":false`, 1)
	cut = regexp.MustCompile(`"q":\d+`).ReplaceAllString(cut, `"q":0`)
	if _, err := Read(strings.NewReader(cut), 0); err == nil || !strings.Contains(err.Error(), "scaler has 32 shifts and 32 multipliers for 3 features") {
		t.Errorf("model without its subspace: error %v", err)
	}
}

// projectedFile returns a fitted file whose model has a subspace (the
// identity in its 2 features, which leaves its scores as they are) and a
// choice that says so, and the file as written.
func projectedFile(t testing.TB) (*File, string) {
	t.Helper()
	f, _ := fitted(t, 60)
	f.Model.Subspace = &auto.Subspace{Mean: []float64{0, 0}, Basis: mat.NewDense(2, 2, []float64{1, 0, 0, 1})}
	f.Model.Choice.Projected, f.Model.Choice.Q = true, 2
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return f, b.String()
}

// TestChoiceSubspace: a model whose choice contradicts its subspace is
// refused by Read and by Write (issue 34: "projected": false beside a
// subspace, or true with none, was accepted): the choice says it projects
// exactly when the model has a subspace, and its q, when recorded, is the
// subspace's number of directions.
func TestChoiceSubspace(t *testing.T) {
	_, projected := projectedFile(t)
	if _, err := Read(strings.NewReader(projected), 0); err != nil {
		t.Fatalf("the projected file: %v", err)
	}
	_, plain := recorded(t)
	for _, c := range []struct{ name, in, old, new, msg string }{
		{"not projected beside a subspace", projected, `"projected":true,`, ``, "projected"},
		{"projected without a subspace", string(plain), `"width_median":`, `"projected":true,"width_median":`, "projected"},
		{"q of another subspace", projected, `"q":2`, `"q":1`, "q = 1"},
		{"q without a subspace", string(plain), `"width_median":`, `"q":2,"width_median":`, "q = 2"},
	} {
		in := strings.Replace(c.in, c.old, c.new, 1)
		if in == c.in {
			t.Errorf("%s: the file has no %q", c.name, c.old)
			continue
		}
		_, err := Read(strings.NewReader(in), 0)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want ErrFormat naming %q", c.name, err, c.msg)
		}
	}
	// Write refuses what Read would.
	for name, edit := range map[string]func(*auto.Choice){
		"not projected":   func(ch *auto.Choice) { ch.Projected = false },
		"q of 1":          func(ch *auto.Choice) { ch.Q = 1 },
		"no q is allowed": nil,
	} {
		f, _ := projectedFile(t)
		if edit == nil {
			f.Model.Choice.Q = 0
			if err := f.Write(io.Discard); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		edit(&f.Model.Choice)
		if err := f.Write(io.Discard); !errors.Is(err, ErrFormat) {
			t.Errorf("Write, %s: %v, want ErrFormat", name, err)
		}
	}
}
