package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust/dataset"
)

// FuzzParseModel: reading any bytes as a command-line model file never
// panics, and a file that loads has a scaler and feature names of the
// model's dimension, saves to a file that loads to the same bytes again, and
// scores small finite data without NaN.
func FuzzParseModel(f *testing.F) {
	ds, err := dataset.Generate(dataset.Gauss3, 60, 1)
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	data, model := filepath.Join(dir, "in.csv"), filepath.Join(dir, "m.json")
	if err := os.WriteFile(data, []byte(csvOf(f, ds)), 0o644); err != nil {
		f.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), &out, &errs, []string{"fit", "-budget", "6", "-max-iter", "300", "-model", model, data}); code != 0 {
		f.Fatalf("fit: exit %d: %s", code, errs.String())
	}
	good, err := os.ReadFile(model)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"format":"svclust-cli-model","version":1}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		mf, err := parseModel(in)
		if err != nil {
			return
		}
		d := mf.Model.Dim()
		if len(mf.Scaler.Shift) != d || len(mf.Scaler.Mul) != d || (mf.Features != nil && len(mf.Features) != d) {
			t.Fatalf("dimension %d, scaler %d/%d, %d features", d, len(mf.Scaler.Shift), len(mf.Scaler.Mul), len(mf.Features))
		}
		var saved bytes.Buffer
		if err := mf.write(&saved); err != nil {
			t.Fatalf("a loaded model file does not save: %v", err)
		}
		again, err := parseModel(saved.Bytes())
		if err != nil {
			t.Fatalf("a saved model file does not load: %v", err)
		}
		var twice bytes.Buffer
		if err := again.write(&twice); err != nil || !bytes.Equal(saved.Bytes(), twice.Bytes()) {
			t.Fatalf("save, load, save is not stable (%v)", err)
		}
		x := mat.NewDense(2, d, nil)
		for j := range d {
			x.Set(1, j, float64(j%5))
		}
		for _, v := range mf.Model.Score(nil, x, 1) {
			if math.IsNaN(v) {
				t.Fatal("score NaN")
			}
		}
	})
}
