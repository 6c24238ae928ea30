package settings

import (
	"context"

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
