package settings

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/modelfile"
)

// UpdateOptions are the settings of an update that are not the model's:
// the forgetting rate (svclust.UpdateConfig.Forget: 0 off, or
// svclust.ForgetAuto), the SGD steps (0: svclust.UpdateSteps), the
// goroutines, and the smallest cluster and strip of the re-clustering.
type UpdateOptions struct {
	Forget  float64
	Steps   int
	Workers int
	// MinSize and Eps are -min-size and -eps of the re-clustering, which
	// the model file does not keep from the first fit: nil selects the
	// automatic ones; a value given is checked as fit checks it.
	MinSize *Int
	Eps     *Float
}

// ParseForget returns the forgetting rate of the flag -forget (the
// Python parameter forget): "off" or "0" for none, "auto" for
// svclust.ForgetAuto, or a rate in (0, 1).
func ParseForget(s string) (float64, error) {
	switch strings.ToLower(s) {
	case "", "off", "0":
		return 0, nil
	case "auto":
		return svclust.ForgetAuto, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0 && v < 1) {
		return 0, errorf("-forget", `%s must be a rate in (0, 1), "auto" or "off", not %q`, flagRef("-forget"), s)
	}
	return v, nil
}

// Updated is what [UpdateRows] makes of a batch: the updated model file
// and the batch's rows scaled, clustered with their outlier scores (in
// Result, whose labels are the partition's numbers; File.ClusterIDs maps
// them to the stable ids, as Labels holds them), and how the clusters
// continue the model's (Lineage; nil when the model had no partition).
type Updated struct {
	File    *modelfile.File
	Scaled  *mat.Dense
	Result  *cluster.Result
	Labels  []int
	Lineage *cluster.Lineage
}

// FromFile returns the settings an update of the model file f uses: the
// budget maintenance and its k from the run record (Merge when the file
// has none), the scaling, and the rule of the partition with its
// outliers setting, threshold and segment points; every other setting is
// the default (-min-size and -eps automatic, which UpdateOptions may
// set). γ, C, the budget, the widths' rule, the subspace and the seeded
// generator are the model's own.
func FromFile(f *modelfile.File) *Settings {
	s := Default()
	s.Scale = f.Scale.String()
	if r := f.Run; r != nil {
		s.Seed = r.Seed
		if r.Strategy != "" && r.Strategy != "none" {
			s.Maintain = r.Strategy
		}
		if r.K > 0 {
			s.K, s.KGiven = r.K, true
		}
	}
	switch p := f.Partition.(type) {
	case *cluster.LevelTree:
		d := p.Data()
		s.Rule, s.Outliers, s.M = "levels", d.Outliers, d.M
	case *cluster.Graph:
		d := p.Data()
		s.Rule, s.Outliers, s.M, s.All = "components", d.Outliers, d.M, d.All
	}
	if p := f.Partition; p != nil && p.OutlierThreshold() > 0 {
		s.OutlierThreshold = p.OutlierThreshold()
	}
	return s
}

// UpdateRows is the update of svclust update and the Python package's
// partial_fit: it scales the raw rows x with f's scaler (kept from the
// first fit, never refitted: a scaled value means what it meant then),
// continues the SGD of f's model on them (svclust.Update, with the
// settings of [FromFile] and o), clusters them with the updated model
// (cluster.FitUpdate: this batch and the model's support vectors, no
// earlier row kept) and matches the
// clusters to f's (cluster.Track), so that a cluster that persists keeps
// its id. The updated file has f's scaling, features and label, the
// partition and ids found, and f's run record with the tool, creation
// time and data src of this update, Rows counting every row the model has
// seen. x is scaled in place when inPlace is set. It returns the errors of
// ScaleRows, svclust.Update (svclust.ErrNoTraining for a model file
// without its training state, as those older than version 8),
// cluster.Fit and cluster.Track.
func UpdateRows(ctx context.Context, f *modelfile.File, x *mat.Dense, inPlace bool, o UpdateOptions, tool string, src Source, h *Hooks) (*Updated, error) {
	if h == nil {
		h = &Hooks{}
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if f.Model.Training == nil {
		return nil, svclust.ErrNoTraining
	}
	if o.Workers < 0 || o.Workers > MaxWorkers {
		return nil, errorf("-workers", "%s must be in [0, %d]", flagRef("-workers"), MaxWorkers)
	}
	if o.Steps < 0 || o.Steps > MaxIter {
		return nil, errorf("-steps", "%s must be in [0, %d]", flagRef("-steps"), MaxIter)
	}
	if o.Forget != svclust.ForgetAuto && !(o.Forget >= 0 && o.Forget < 1) {
		return nil, errorf("-forget", `%s must be a rate in (0, 1), "auto" or "off"`, flagRef("-forget"))
	}
	s := FromFile(f)
	s.Workers = o.Workers
	if o.MinSize != nil {
		s.MinSize = *o.MinSize
	}
	if o.Eps != nil {
		s.Eps = *o.Eps
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, err
	}
	method, err := s.ClusterMethod()
	if err != nil {
		return nil, err
	}
	_, scaled, err := s.ScaleRows(x, f.Scaler, inPlace)
	if err != nil {
		return nil, err
	}
	h.begin("train", "")
	m, err := svclust.Update(ctx, f.Model, scaled, &svclust.UpdateConfig{Maintainer: cfg.Maintainer, Steps: o.Steps, Forget: o.Forget, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	h.end()
	h.begin("cluster", "rows")
	cl, err := cluster.FitUpdate(m, scaled, method)
	if err != nil {
		return nil, err
	}
	h.end()
	u := &Updated{Scaled: scaled, Result: cl}
	nf := &modelfile.File{Scale: f.Scale, Scaler: f.Scaler, Features: f.Features, Label: f.Label, Model: m, Partition: cl.Partition}
	if f.Partition != nil {
		if u.Lineage, err = cluster.Track(f.Partition, f.ClusterIDs, cl.Partition, f.NextClusterID, o.Workers); err != nil {
			return nil, fmt.Errorf("settings: UpdateRows: %w", err)
		}
		nf.ClusterIDs, nf.NextClusterID = u.Lineage.IDs, u.Lineage.Next
	}
	u.Labels = slices.Clone(cl.Labels)
	nf.StableIDs(u.Labels)
	if f.Run != nil {
		r := *f.Run
		created := src.Created
		if created.IsZero() {
			created = CreationTime()
		}
		r.Tool, r.Created = tool, created.UTC().Format(time.RFC3339)
		r.Data, r.Rows, r.Sample, r.DataSHA256 = src.Data, m.Training.Rows, 0, src.SHA256
		r.Gamma, r.C, r.Width = m.Gamma, m.C, m.Choice.WidthRule().String()
		nf.Run = &r
	}
	if err := nf.Validate(); err != nil {
		return nil, err
	}
	u.File = nf
	return u, nil
}

// UpdateInfo describes an update, as update -json and the Python
// package's report give it: the rows seen in all, the updates so far, the
// SGD steps of this one, its forgetting rate (−1 for auto), the stable id
// of each cluster of the partition, in its order, and the lineage's
// events (empty lists, not null, when there are none).
type UpdateInfo struct {
	RowsSeen int             `json:"rows_seen"`
	Batches  int             `json:"batches"`
	Steps    int             `json:"steps"`
	Forget   float64         `json:"forget"`
	IDs      []int           `json:"ids"`
	Born     []int           `json:"born"`
	Died     []int           `json:"died"`
	Merged   []cluster.Merge `json:"merged"`
	Split    []cluster.Split `json:"split"`
}

// Info returns the UpdateInfo of u, made with the forgetting rate forget.
func (u *Updated) Info(forget float64) UpdateInfo {
	m := u.File.Model
	info := UpdateInfo{RowsSeen: m.Training.Rows, Batches: m.Training.Batches, Steps: m.Stats.Iterations, Forget: forget,
		IDs: []int{}, Born: []int{}, Died: []int{}, Merged: []cluster.Merge{}, Split: []cluster.Split{}}
	if l := u.Lineage; l != nil {
		info.IDs = append(info.IDs, l.IDs...)
		info.Born = append(info.Born, l.Born...)
		info.Died = append(info.Died, l.Died...)
		info.Merged = append(info.Merged, l.Merged...)
		info.Split = append(info.Split, l.Split...)
	}
	return info
}
