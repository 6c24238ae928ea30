package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// TestRoundTrip: a written model reads back to a model that writes the
// same bytes, with every field of the file form, through Read, ReadFile
// and encoding/json alike.
func TestRoundTrip(t *testing.T) {
	m, _ := fitted(t, 90)
	var a bytes.Buffer
	if err := m.Write(&a); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(a.Bytes(), []byte(`{"format":"svclust-model","version":8,"scale":"zscore","scaler":{`)) || !bytes.HasSuffix(a.Bytes(), []byte("}}\n")) {
		t.Fatalf("model file starts %.80q, ends %q", a.Bytes(), a.Bytes()[a.Len()-3:])
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, a.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := ReadFile(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	fromReader, err := Read(bytes.NewReader(a.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON File
	if err := json.Unmarshal(a.Bytes(), &fromJSON); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*File{"ReadFile": fromFile, "Read": fromReader, "json.Unmarshal": &fromJSON} {
		if got.Scale != m.Scale || got.Label != m.Label || !slices.Equal(got.Features, m.Features) ||
			*got.Run != *m.Run || !slices.Equal(got.Scaler.Mul, m.Scaler.Mul) || !slices.Equal(got.Scaler.Shift, m.Scaler.Shift) {
			t.Errorf("%s: read %+v, wrote %+v", name, got, m)
		}
		var b bytes.Buffer
		if err := got.Write(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: written again, the model file differs", name)
		}
	}
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(j, '\n'), a.Bytes()) {
		t.Error("json.Marshal differs from Write")
	}
}

// TestReadErrors: what Read refuses, and why (the checks the svclust
// command made of its model files before this package held them).
func TestReadErrors(t *testing.T) {
	m, _ := fitted(t, 60)
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for _, c := range []struct{ name, in, msg string }{
		{"empty", "", "not a model file: empty"},
		{"not an object", "[1]", "invalid byte 0x5b at offset 0"},
		{"duplicate key", strings.Replace(good, `"label":`, `"label":"x","label":`, 1), `duplicate key "label"`},
		{"newer", strings.Replace(good, `"version":8`, `"version":9`, 1), "version 9 is newer"},
		{"version 0", strings.Replace(good, `"version":8`, `"version":0`, 1), "version 0, want 1 to 8"},
		{"training in version 7", strings.Replace(good, `"version":8`, `"version":7`, 1), "version 7 has no training"},
		{"training of other support vectors", strings.Replace(good, `"coef":[`, `"coef":[1,`, 1), "coefficients"},
		{"training with a bad generator", strings.Replace(good, `"rng":"`, `"rng":"00`, 1), "training: RNG"},
		{"training's generator not hexadecimal", strings.Replace(good, `"rng":"`, `"rng":"x`, 1), "training: rng"},
		{"library version in the file", strings.Replace(good, `"version":8`, `"version":4`, 1), "version 4 holds a model only"},
		{"outlier data in version 5", strings.Replace(good, `"version":8`, `"version":5`, 1), "version 5 has no outlier data"},
		{"outlier threshold", strings.Replace(good, `"outlier_threshold":0.5`, `"outlier_threshold":1`, 1), "outlier threshold 1: must be in (0, 1)"},
		{"outlier fence", strings.Replace(good, `"outlier_fence":`, `"outlier_fence":-`, 1), "must be > 0 and finite"},
		{"c_auto in version 5", strings.Replace(good, `"model":{"gamma":`, `"model":{"c_auto":true,"gamma":`, 1), "c_auto belongs to version 4 only"},
		{"format", strings.Replace(good, `svclust-model`, `svclust-other`, 1), `format is "svclust-other"`},
		{"cli format", strings.Replace(good, `svclust-model`, `svclust-cli-model`, 1), `version 8 is newer`},
		{"outlier mass in version 6", strings.Replace(good, `"version":8`, `"version":6`, 1), "version 6 has no outlier_mass"},
		{"outlier mass", strings.Replace(good, `"outlier_mass":`, `"outlier_mass":1`, 1), "outlier mass"},
		{"outlier mass missing", strings.Replace(good, `"outlier_mass":`, `"x_mass":`, 1), `unknown field "x_mass"`},
		{"outlier spread", strings.Replace(good, `"outlier_spread":[`, `"outlier_spread":[-`, 1), "outlier spread -"},
		{"outlier centres", strings.Replace(good, `"outlier_center":[`, `"outlier_center":[1,`, 1), "3 outlier centres and 2 spreads"},
		{"outlier radii", strings.Replace(good, `"outlier_radius":[`, `"outlier_radius":[1,`, 1), "outlier radii for"},
		{"outlier radius", strings.Replace(good, `"outlier_radius":[`, `"outlier_radius":[-1`, 1), "outlier radius -1"},
		{"peaks beside a mass", strings.Replace(good, `"outlier_mass":`, `"outlier_peak":[1],"outlier_mass":`, 1), "outlier peaks belong to the depth score"},
		{"no model", strings.Replace(good, `"model":`, `"modelx":`, 1), `unknown field "modelx"`},
		{"bare keys in version 5", strings.Replace(good, `"scale":`, `"gamma":1,"scale":`, 1), `the model under "model"`},
		{"no choice", strings.Replace(good, `,"choice":`, `,"x":`, 1), `unknown field "x"`},
		{"scale", strings.Replace(good, `"zscore"`, `"log"`, 1), `unknown scale "log"`},
		{"negative multiplier", strings.Replace(good, `"mul":[`, `"mul":[-`, 1), "want > 0 with a finite inverse"},
		{"unknown key", strings.Replace(good, `{"format"`, `{"extra":1,"format"`, 1), `unknown field "extra"`},
		{"trailing data", good + "{}", "data after the model"},
		{"features", strings.Replace(good, `"features":["x1",`, `"features":[`, 1), "features has 1 names for 2 features"},
		{"sv null row", strings.Replace(good, `"sv":[[`, `"sv":[null,[`, 1), "row 0 is not a list of numbers"},
		{"sv string", strings.Replace(good, `"sv":[[`, `"sv":[["NaN",`, 1), "row 0: not a number"},
		{"sv huge number", strings.Replace(good, `"sv":[[`, `"sv":[[1e999,`, 1), "row 0: 1e999 is not a float64"},
		{"sv ragged", strings.Replace(good, `"sv":[[`, `"sv":[[1,2],[3],[`, 1), "sv row 1 has 1 values, want 2"},
		{"sv empty rows", strings.Replace(good, `"sv":[[`, `"sv":[`+strings.Repeat("[],", 100000)+`[`, 1), "sv row 0 has 0 values, want 2"},
		{"unknown strategy", strings.Replace(good, `"strategy":"merge"`, `"strategy":"bogus"`, 1), `run: strategy: "bogus", want none or one of`},
		{"no strategy beside a budget", strings.Replace(good, `"strategy":"merge"`, `"strategy":"none"`, 1), `run: strategy: "none" beside a budget of 6`},
		{"k of merge", strings.Replace(good, `"strategy":"merge"`, `"strategy":"merge","k":3`, 1), `run: k: 3 beside strategy "merge"`},
		{"m beyond MaxM", regexp.MustCompile(`"m":\d+`).ReplaceAllString(good, `"m":100000000`), "m = 100000000: must be in [2, 1000]"},
		{"rows below the objective's", regexp.MustCompile(`"rows":\d+`).ReplaceAllString(good, `"rows":5`), "fewer than the"},
		{"features twice", strings.Replace(good, `"features":["x1","x2"]`, `"features":["x1","x1"]`, 1), `features names "x1" twice`},
		{"feature is the label", strings.Replace(good, `"features":["x1","x2"]`, `"features":["x1","label"]`, 1), `features: "label" is also the Label column`},
		{"multiplier without inverse", regexp.MustCompile(`"mul":\[[^,]*,`).ReplaceAllString(good, `"mul":[5e-324,`), "multiplier of column 1 is 5e-324"},
		{"scale none, scaler not", strings.Replace(good, `"scale":"zscore"`, `"scale":"none"`, 1), "scale none, but column 1 is shifted"},
	} {
		_, err := Read(strings.NewReader(c.in), 0)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.msg)
		}
	}
	// Too large: a stream stops one byte past the limit; a file is
	// refused by its size.
	if _, err := Read(strings.NewReader(good), int64(len(good)-1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("one byte over the limit: %v", err)
	}
	if _, err := Read(strings.NewReader(good), int64(len(good))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path, int64(len(good)-1)); !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("ReadFile one byte over the limit: %v", err)
	}
}

// TestPredictRaw: Predict and Score on raw rows give what the partition's
// Predict and svclust.Model's Score give on the rows scaled by the model's scaler, leave
// the rows unchanged, and are the same in chunks as in one piece (labelRows
// is lowered below the number of rows to have several chunks).
func TestPredictRaw(t *testing.T) {
	m, raw := fitted(t, 300)
	orig := mat.DenseCopyOf(raw.X)
	scaled := mat.DenseCopyOf(raw.X)
	m.Scaler.Transform(scaled)
	want := m.Partition.Predict(nil, scaled, 1)
	wantScores := m.Model.Score(nil, scaled, 1)
	for _, workers := range []int{1, 3} {
		got, err := m.Predict(nil, raw.X, workers)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("workers %d: labels differ from Predict on the scaled rows", workers)
		}
		scores, err := m.Score(nil, raw.X, workers)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(scores, wantScores) {
			t.Errorf("workers %d: scores differ from Score on the scaled rows", workers)
		}
	}
	if !mat.Equal(raw.X, orig) {
		t.Error("Predict or Score changed its rows")
	}
	// Several chunks, the last one short: 300 rows in chunks of 7.
	got := make([]int, 300)
	if err := m.chunks(raw.X, func(lo, hi int, x *mat.Dense) error {
		if hi-lo > 7 {
			return errors.New("chunk too long")
		}
		m.Partition.Predict(got[lo:hi], x, 1)
		return nil
	}, 7); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Error("labels in chunks of 7 differ")
	}
	// ScaleRows is the scaler's transform.
	if err := m.ScaleRows(orig); err != nil || !mat.Equal(orig, scaled) {
		t.Errorf("ScaleRows: %v", err)
	}
}

// TestPredictErrors: wrong dimension, a value that overflows when scaled,
// and a model without a partition, each before any row is labelled.
func TestPredictErrors(t *testing.T) {
	m, raw := fitted(t, 60)
	var de *DimError
	if _, err := m.Predict(nil, mat.NewDense(2, 3, nil), 1); !errors.As(err, &de) || de.Got != 3 || de.Want != 2 {
		t.Errorf("3 columns for 2: %v", err)
	}
	x := mat.DenseCopyOf(raw.X)
	// 1e300 scaled by the z-score of values of order 1 is far beyond
	// dataset.MaxScaled (1e150).
	x.Set(41, 1, 1e300)
	before := mat.DenseCopyOf(x)
	var oe *OverflowError
	_, err := m.Predict(nil, x, 1)
	if !errors.As(err, &oe) || oe.Row != 41 || oe.Col != 1 || oe.Feature != "x2" || oe.Value != 1e300 || !(math.Abs(oe.Scaled) > dataset.MaxScaled) {
		t.Errorf("overflow: %v (%+v)", err, oe)
	}
	if _, err := m.Score(nil, x, 1); !errors.As(err, &oe) {
		t.Errorf("Score overflow: %v", err)
	}
	if err := m.ScaleRows(x); !errors.As(err, &oe) || !mat.Equal(x, before) {
		t.Errorf("ScaleRows overflow: %v, or rows changed", err)
	}
	m.Partition = nil
	if _, err := m.Predict(nil, raw.X, 1); !errors.Is(err, ErrNotClustered) {
		t.Errorf("no partition: %v", err)
	}
}

// TestOutlierScoresSaved: a saved and loaded model gives the raw training
// rows exactly the outlier scores fit gave them, and the labels of
// -outliers, of both rules.
func TestOutlierScoresSaved(t *testing.T) {
	for _, method := range []cluster.Method{&cluster.Levels{Outliers: true, OutlierThreshold: 0.4}, &cluster.Components{Outliers: true}} {
		ds, err := dataset.Generate(dataset.Gauss3, 200, 1)
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
		cl, err := cluster.Fit(m, ds.X, method)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := (&File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: m, Partition: cl.Partition}).Write(&b); err != nil {
			t.Fatal(err)
		}
		f, err := Read(&b, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.OutlierScores(nil, raw, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, cl.OutlierScores) {
			t.Errorf("%v: saved model's outlier scores differ from fit's", method.Rule())
		}
		labels, err := f.Predict(nil, raw, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(labels, cl.Labels) || f.Partition.OutlierThreshold() != cl.OutlierThreshold {
			t.Errorf("%v: saved model's labels or threshold differ from fit's", method.Rule())
		}
		f1, s1, err := f.ScoreOutliers(nil, nil, raw, 2)
		f0, _ := f.Score(nil, raw, 1)
		if err != nil || !slices.Equal(f1, f0) || !slices.Equal(s1, cl.OutlierScores) {
			t.Errorf("%v: ScoreOutliers differs from Score and fit: %v", method.Rule(), err)
		}
		l2, s2, err := f.PredictScores(nil, nil, raw, 3)
		if err != nil || !slices.Equal(l2, cl.Labels) || !slices.Equal(s2, cl.OutlierScores) {
			t.Errorf("%v: PredictScores differs from fit: %v", method.Rule(), err)
		}
		// A destination of the wrong length is an error, not a panic.
		if _, _, err := f.PredictScores(make([]int, 1), nil, raw, 1); !errors.Is(err, svclust.ErrDimension) {
			t.Errorf("%v: PredictScores with len(dst) 1: %v, want ErrDimension", method.Rule(), err)
		}
		if _, _, err := f.ScoreOutliers(nil, make([]float64, 1), raw, 1); !errors.Is(err, svclust.ErrDimension) {
			t.Errorf("%v: ScoreOutliers with len(scores) 1: %v, want ErrDimension", method.Rule(), err)
		}
	}
}
