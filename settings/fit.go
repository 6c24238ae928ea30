package settings

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// Hooks report the phases of [Settings.Fit]. Any of them may be nil.
type Hooks struct {
	// Begin is called as a phase starts: "train", then "cluster". unit
	// names what Progress counts in the phase: "" while training, "rows"
	// for -rule levels, which scores rows, "trajectories" for -rule
	// components.
	Begin func(phase, unit string)
	// End is called as a phase ends without error.
	End func()
	// Progress reports the work done of the clustering phase.
	Progress func(done, total int)
}

// Fit trains a model on the scaled rows x and clusters them with the
// settings s, as fit, tune, demo, svclust-beam and the Python package all
// do: svclust.TrainContext with [Settings.Config], then cluster.Fit with
// [Settings.ClusterMethod]. It returns their errors as they are (the
// settings' as *Error); ctx cancels training. h may be nil.
func (s *Settings) Fit(ctx context.Context, x *mat.Dense, h *Hooks) (*svclust.Model, *cluster.Result, error) {
	if h == nil {
		h = &Hooks{}
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, nil, err
	}
	method, err := s.ClusterMethod()
	if err != nil {
		return nil, nil, err
	}
	h.begin("train", "")
	model, err := svclust.TrainContext(ctx, x, &cfg)
	if err != nil {
		return nil, nil, err
	}
	h.end()
	unit := "trajectories"
	if s.Rule == "levels" {
		unit = "rows"
	}
	h.begin("cluster", unit)
	if h.Progress != nil {
		switch c := method.(type) {
		case *cluster.Levels:
			c.Progress = h.Progress
		case *cluster.Components:
			c.Progress = h.Progress
		}
	}
	cl, err := cluster.Fit(model, x, method)
	if err != nil {
		return nil, nil, err
	}
	h.end()
	return model, cl, nil
}

func (h *Hooks) begin(phase, unit string) {
	if h.Begin != nil {
		h.Begin(phase, unit)
	}
}

func (h *Hooks) end() {
	if h.End != nil {
		h.End()
	}
}

// ModelFile returns the model file of a run with the settings s: the
// scaler fitted on the data, the feature names, the run record, the model
// and its clustering. s must be valid ([Settings.Validate]).
func (s *Settings) ModelFile(scaler *dataset.Scaler, features []string, run *modelfile.Run, m *svclust.Model, cl *cluster.Result) *modelfile.File {
	sc, _ := s.Scaling()
	return &modelfile.File{
		Scale:     sc,
		Scaler:    scaler,
		Features:  features,
		Label:     s.Label,
		Run:       run,
		Model:     m,
		Partition: cl.Partition,
	}
}

// Fitted is what [Settings.FitRows] makes of the rows of a data set: the
// scaler fitted on them, the scaled rows, the model trained on them and
// their clustering, with the outlier score of every row. The model file
// and the report of the run are [Settings.ModelFile] and
// [Settings.Report] of its parts.
type Fitted struct {
	Scaler *dataset.Scaler
	Scaled *mat.Dense
	Model  *svclust.Model
	Result *cluster.Result
}

// ScaleRows scales the raw rows x with scaler, or with the scaler of the
// settings' scaling fitted on x when scaler is nil. It scales x itself
// when inPlace is set, and a copy otherwise. A value that the scaling
// maps beyond ±[dataset.MaxScaled] is an *[modelfile.OverflowError] for
// the first such row (its Row, from 0, and Col), returned before x is
// changed. Rows holding NaN or ±Inf are an error wrapping
// svclust.ErrNotFinite (row and column from 1), nil or empty rows
// svclust.ErrNoData, and a scaler of another width svclust.ErrDimension. s
// must be valid ([Settings.Validate]).
func (s *Settings) ScaleRows(x *mat.Dense, scaler *dataset.Scaler, inPlace bool) (*dataset.Scaler, *mat.Dense, error) {
	if s == nil {
		return nil, nil, errors.New("settings: ScaleRows: nil *Settings")
	}
	if x == nil || x.IsEmpty() {
		return nil, nil, svclust.ErrNoData
	}
	n, d := x.Dims()
	if scaler != nil && (len(scaler.Shift) != d || len(scaler.Mul) != d) {
		return nil, nil, fmt.Errorf("%w: settings: ScaleRows: a scaler of %d columns for rows of %d", svclust.ErrDimension, len(scaler.Shift), d)
	}
	for i := range n {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%w: row %d, column %d: %v", svclust.ErrNotFinite, i+1, j+1, v)
			}
		}
	}
	if scaler == nil {
		sc, err := s.Scaling()
		if err != nil {
			return nil, nil, err
		}
		scaler = dataset.FitScaler(x, sc)
	}
	for i := range n {
		row := x.RawRowView(i)
		if j, u := scaler.Overflow(row); j >= 0 {
			e := modelfile.NewOverflowError(scaler, row, j, u)
			e.Row = i
			return nil, nil, e
		}
	}
	if !inPlace {
		x = mat.DenseCopyOf(x)
	}
	scaler.Transform(x)
	return scaler, x, nil
}

// FitRows is the fit of fit, the Python package and svclust-beam: it
// scales the raw rows x as [Settings.ScaleRows] does (scaler nil fits the
// settings' scaling on x) and then trains and clusters them as
// [Settings.Fit] does, returning the errors of both.
func (s *Settings) FitRows(ctx context.Context, x *mat.Dense, scaler *dataset.Scaler, inPlace bool, h *Hooks) (*Fitted, error) {
	scaler, scaled, err := s.ScaleRows(x, scaler, inPlace)
	if err != nil {
		return nil, err
	}
	m, cl, err := s.Fit(ctx, scaled, h)
	if err != nil {
		return nil, err
	}
	return &Fitted{Scaler: scaler, Scaled: scaled, Model: m, Result: cl}, nil
}
