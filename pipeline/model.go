package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// Format and Version identify the JSON form of a [Model]: the "format" and
// the latest "version" of a model file. [Read] reads versions 1 to Version.
const (
	Format  = "svclust-cli-model"
	Version = 2
)

// Model is a fitted model as the svclust command writes it with fit -model:
// the scaling of the training data, the feature names, the trained
// [svclust.Model] and its [cluster.Partition]. Its methods label and score raw rows; they do
// not modify the Model, which is safe for concurrent use once built.
type Model struct {
	// Version is the version of the model file the Model was read from:
	// 1 (no Run) or 2. [Model.Write] writes it as it is; 0 means
	// [Version].
	Version int

	// Scale is the scaling fitted on the training data, and Scaler its
	// fitted shift and multiplier of each feature.
	Scale  dataset.Scale
	Scaler *dataset.Scaler

	// Features names the model's features, in the order of its
	// dimensions; nil if unknown.
	Features []string

	// Label is the name of the ground-truth column of the training data,
	// which is no feature; "" means "label", as in dataset.ReadOptions.
	Label string

	// Run records how the model was made, for whoever finds it later;
	// nil in version 1 files. Labelling does not use it.
	Run *Run

	// Model is the trained model (phase 1), which Score applies.
	Model *svclust.Model
	// Partition is the clustering of Model that Predict applies; nil for a
	// file without one, which can score rows but not label them. When set,
	// Partition.Model() is Model.
	Partition *cluster.Partition
}

// Run records how a model was made. It is informative: labelling and
// scoring do not use it.
type Run struct {
	// Tool is the program that wrote the file and its version, such as
	// the svclust command's version line.
	Tool string `json:"tool"`
	// Created is the time of writing, RFC 3339 in UTC.
	Created string `json:"created"`
	// Seed is the seed of every random choice of the run.
	Seed uint64 `json:"seed"`
	// Strategy is the budget maintenance, "none" without a budget.
	Strategy string `json:"strategy"`
	// Budget is the budget used; −1 for none.
	Budget int `json:"budget"`
	// BudgetFrom says how the budget was chosen ("auto" or "given"), and
	// Rule is the cluster assignment (levels or components).
	BudgetFrom string `json:"budget_from,omitempty"`
	Rule       string `json:"rule,omitempty"`
	// K is the k of a projection, 0 otherwise.
	K     int     `json:"k,omitempty"`
	Gamma float64 `json:"gamma"`
	// GammaFrom and CFrom say how γ and C were chosen: "auto" (from the
	// data), "given" or "tune" (the best of a grid search).
	GammaFrom string  `json:"gamma_from"`
	C         float64 `json:"C"`
	CFrom     string  `json:"C_from"`
	// Width is the kernel-width rule of the model: "adaptive" when each
	// support vector has a width of its own (svclust.Choice.Adaptive),
	// "global" for one γ; empty in files written before it was recorded.
	Width string `json:"width,omitempty"`
	// Data names the training data, Rows is its number of rows, Sample
	// the rows trained on when that is a sample (0 otherwise) and
	// DataSHA256 the SHA-256 of its bytes, in hexadecimal.
	Data       string `json:"data"`
	Rows       int    `json:"rows"`
	Sample     int    `json:"sample,omitempty"`
	DataSHA256 string `json:"data_sha256"`
}

// fileJSON is the JSON form of a Model, the model file; the model is its
// last key, so that Write can stream it after the rest.
type fileJSON struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Scale    string          `json:"scale"`
	Scaler   *dataset.Scaler `json:"scaler"`
	Features []string        `json:"features"`
	Label    string          `json:"label"`
	Run      *Run            `json:"run,omitempty"`
	Model    *libModel       `json:"model"`
}

// libModel is the "model" of a model file, the library's model file: a
// partition or, from a file whose partition is null, the phase-1 model
// alone.
type libModel struct {
	model     *svclust.Model
	partition *cluster.Partition // nil when the file has none
}

// UnmarshalJSON reads a partition or, failing that for want of one, a
// phase-1 model.
func (l *libModel) UnmarshalJSON(b []byte) error {
	var p cluster.Partition
	err := p.UnmarshalJSON(b)
	if err == nil {
		l.model, l.partition = p.Model(), &p
		return nil
	}
	if !errors.Is(err, cluster.ErrNotClustered) {
		return err
	}
	var m svclust.Model
	if err := m.UnmarshalJSON(b); err != nil {
		return err
	}
	l.model, l.partition = &m, nil
	return nil
}

// Write writes the JSON form of m, the model file, and a final newline to
// w. The partition (or without one the svclust.Model), the last key, is
// streamed by [cluster.Partition.WriteJSON] rather than built in memory.
// Write returns an error if m has no Model or Scaler, a Partition of
// another Model, or an unknown Scale.
func (m *Model) Write(w io.Writer) error {
	if m.Model == nil || m.Scaler == nil {
		return errors.New("pipeline: Model.Write: no model or no scaler")
	}
	if m.Partition != nil && m.Partition.Model() != m.Model {
		return errors.New("pipeline: Model.Write: the Partition is not of the Model")
	}
	if _, err := dataset.ParseScale(m.Scale.String()); err != nil {
		return fmt.Errorf("pipeline: Model.Write: %w", err)
	}
	v := m.Version
	if v == 0 {
		v = Version
	}
	head := fileJSON{
		Format:   Format,
		Version:  v,
		Scale:    m.Scale.String(),
		Scaler:   m.Scaler,
		Features: m.Features,
		Label:    m.Label,
		Run:      m.Run,
	}
	b, err := json.Marshal(&head)
	if err != nil {
		return err
	}
	b, ok := bytes.CutSuffix(b, []byte("null}"))
	if !ok {
		panic("pipeline: model is not the last key of the model file")
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	if m.Partition != nil {
		err = m.Partition.WriteJSON(w)
	} else {
		err = m.Model.WriteJSON(w)
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "}\n")
	return err
}

// MarshalJSON implements json.Marshaler: it returns what [Model.Write]
// writes, without the final newline.
func (m *Model) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON implements json.Unmarshaler with the checks of [Read].
func (m *Model) UnmarshalJSON(b []byte) error {
	got, err := Read(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	*m = *got
	return nil
}
