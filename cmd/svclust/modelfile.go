package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
)

// The CLI model file wraps the library's model file with the scaling of
// the training data.
const (
	cliFormat  = "svclust-cli-model"
	cliVersion = 1
)

// modelFile is the JSON form of the file written by fit -model:
//
//	{"format":"svclust-cli-model","version":1,"scale":"zscore",
//	 "scaler":{"shift":[…],"mul":[…]},"features":[names],"label":"label",
//	 "model":<svclust.Model JSON>}
type modelFile struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Scale    string          `json:"scale"`
	Scaler   *dataset.Scaler `json:"scaler"`
	Features []string        `json:"features"`
	Label    string          `json:"label"`
	Model    *svclust.Model  `json:"model"`
}

// write writes mf and a final newline to w. The model, the last key, is
// streamed by svclust.Model.WriteJSON rather than built in memory, since
// its strip holds a quarter of the training points.
func (mf *modelFile) write(w io.Writer) error {
	head := *mf
	head.Model = nil
	b, err := json.Marshal(&head)
	if err != nil {
		return err
	}
	b, ok := bytes.CutSuffix(b, []byte("null}"))
	if !ok {
		panic("svclust: model is not the last key of the model file")
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if err := mf.Model.WriteJSON(w); err != nil {
		return err
	}
	_, err = io.WriteString(w, "}\n")
	return err
}

// readModel reads and validates the model file path.
func readModel(path string) (*modelFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	mf, err := parseModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return mf, nil
}

func parseModel(b []byte) (*modelFile, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var mf modelFile
	if err := dec.Decode(&mf); err != nil {
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("not a model file: data after the model")
	}
	if mf.Format != cliFormat {
		return nil, fmt.Errorf("format is %q, want %q", mf.Format, cliFormat)
	}
	if mf.Version != cliVersion {
		return nil, fmt.Errorf("version %d, want %d", mf.Version, cliVersion)
	}
	if _, err := dataset.ParseScale(mf.Scale); err != nil {
		return nil, fmt.Errorf("unknown scale %q", mf.Scale)
	}
	if mf.Model == nil {
		return nil, fmt.Errorf("no model")
	}
	d := mf.Model.Dim()
	if mf.Scaler == nil {
		return nil, fmt.Errorf("no scaler")
	}
	if len(mf.Scaler.Shift) != d || len(mf.Scaler.Mul) != d {
		return nil, fmt.Errorf("scaler has %d shifts and %d multipliers for a model of dimension %d",
			len(mf.Scaler.Shift), len(mf.Scaler.Mul), d)
	}
	for j := range d {
		if !finite(mf.Scaler.Shift[j]) || !finite(mf.Scaler.Mul[j]) {
			return nil, fmt.Errorf("scaler column %d is not finite", j+1)
		}
	}
	if mf.Features != nil && len(mf.Features) != d {
		return nil, fmt.Errorf("%d feature names for a model of dimension %d", len(mf.Features), d)
	}
	return &mf, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// loadFor reads the data of path with the options opt for the model mf:
// the model's label column is dropped, the feature count checked and the
// stored scaling applied.
func loadFor(e *env, mf *modelFile, path string, opt dataset.ReadOptions) (*mat.Dense, error) {
	ds, err := dataset.ReadFile(path, opt)
	if err != nil {
		return nil, dataError(err)
	}
	ds.Labels = nil // not needed, and as large as a column of data
	_, d := ds.X.Dims()
	if want := mf.Model.Dim(); d != want {
		return nil, fmt.Errorf("%s has %d features, but the model was trained on %d", path, d, want)
	}
	if mf.Features != nil {
		for j, name := range ds.Names {
			if name != mf.Features[j] {
				fmt.Fprintf(e.stderr, "svclust: warning: feature %d of %s is %q, the model's is %q\n", j+1, path, name, mf.Features[j])
				break
			}
		}
	}
	// Scaling finite data by finite factors can still overflow.
	if err := checkScaled(path, ds, mf.Scaler, mf.Scale); err != nil {
		return nil, err
	}
	mf.Scaler.Transform(ds.X)
	return ds.X, nil
}
