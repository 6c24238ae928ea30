package main

// online.go holds the export layer's update of a fitted model with new
// rows, the Python package's partial_fit, as plain Go (see core.go).

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// updateParams are the parameters of an update, as JSON: the forgetting
// rate (null, "off", "auto" or a number), the SGD steps, the goroutines,
// the smallest cluster and the strip of the re-clustering ("auto" or a
// number; absent: auto), the data's name and the creation time of the run
// record.
type updateParams struct {
	Forget          json.RawMessage `json:"forget"`
	Steps           int             `json:"steps"`
	Workers         int             `json:"workers"`
	MinSize         *autoValue      `json:"min_size"`
	Eps             *autoValue      `json:"eps"`
	Data            string          `json:"data"`
	SourceDateEpoch string          `json:"source_date_epoch"`
}

// forget returns the rate of p.Forget, or the error naming the parameter.
func (p *updateParams) forget() (float64, error) {
	raw := strings.TrimSpace(string(p.Forget))
	var s string
	var v float64
	switch {
	case raw == "" || raw == "null":
		return 0, nil
	case json.Unmarshal(p.Forget, &s) == nil:
	case json.Unmarshal(p.Forget, &v) == nil:
		if v == 0 {
			return 0, nil
		}
		if !(v > 0 && v < 1) {
			return 0, valuef(`forget must be a rate in (0, 1), "auto" or None, not %v`, v)
		}
		return v, nil
	default:
		return 0, valuef(`forget must be a rate in (0, 1), "auto" or None`)
	}
	r, err := settings.ParseForget(s)
	if err != nil {
		return 0, valuef(`forget must be a rate in (0, 1), "auto" or None, not %q`, s)
	}
	return r, nil
}

// update continues the training of f's model with the rows x (n×d,
// row-major), as svclust update does with a file (settings.UpdateRows):
// scaled with f's scaler, clustered, the clusters matched to f's. owned
// says that x is the caller's copy, which may be scaled in place.
func (f *fitted) update(ctx context.Context, x []float64, n, d int, owned bool, js []byte) (*fitted, error) {
	var p updateParams
	dec := json.NewDecoder(strings.NewReader(string(js)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	forget, err := p.forget()
	if err != nil {
		return nil, err
	}
	if p.Steps < 0 {
		return nil, valuef("steps must be ≥ 0, not %d", p.Steps)
	}
	if err := f.checkRows(x, n, d); err != nil {
		return nil, err
	}
	if err := checkData(x, n, d); err != nil {
		return nil, err
	}
	if f.mf.Model.Training == nil {
		return nil, valuef("%v", svclust.ErrNoTraining)
	}
	o := settings.UpdateOptions{Forget: forget, Steps: p.Steps, Workers: p.Workers}
	if a := p.MinSize; a != nil {
		o.MinSize = &settings.Int{Auto: true}
		if !a.auto {
			v, err := a.integer("min_cluster_size")
			if err != nil {
				return nil, err
			}
			o.MinSize = &settings.Int{Value: v}
		}
	}
	if a := p.Eps; a != nil {
		o.Eps = &settings.Float{Auto: a.auto, Value: a.v}
	}
	src := settings.Source{Data: p.Data, SHA256: sum(x), Created: settings.CreationTimeAt(p.SourceDateEpoch)}
	up, err := settings.UpdateRows(ctx, f.mf, mat.NewDense(n, d, x), owned, o, tool(), src, nil)
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		return nil, overflowError(oe, f.mf.Scale, f.mf.Features)
	}
	if err != nil {
		return nil, configError(err, map[string]string{"-forget": "forget", "-steps": "steps", "-workers": "n_jobs", "-min-size": "min_cluster_size", "-eps": "eps"})
	}
	report := struct {
		*settings.Report
		Update settings.UpdateInfo `json:"update"`
	}{settings.FromFile(f.mf).Report(up.File.Model, up.Result, n, d), up.Info(forget)}
	b, err := json.Marshal(&report)
	if err != nil {
		return nil, err
	}
	return &fitted{mf: up.File, labels: up.Labels, report: b, outlier: up.Result.OutlierScores}, nil
}
