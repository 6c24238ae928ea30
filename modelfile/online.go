package modelfile

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/svclust/svclust"
)

// trainingVersion is the first version of the model file whose model may
// hold "training", the state of the SGD that svclust.Update continues
// (svclust.Model.Training). It is optional: a model without it (read
// from an older file, or built by hand) scores and labels as before, and
// svclust.Update refuses it with svclust.ErrNoTraining.
const trainingVersion = 8

// trainingJSON is svclust.Training: the step count, the rows seen, the
// updates applied, the C of the SGD steps, one raw coefficient, stream row
// and entry step per support vector (in the order of "sv") and the state
// of the seeded generator in hexadecimal. Its size is that of the support
// set, whatever the rows seen.
type trainingJSON struct {
	Steps   int       `json:"steps"`
	Rows    int       `json:"rows"`
	Batches int       `json:"batches"`
	C       float64   `json:"c"`
	Coef    []float64 `json:"coef"`
	ID      []int     `json:"id"`
	Stamp   []int     `json:"stamp"`
	RNG     string    `json:"rng"`
}

// trainingForm returns the file form of t, nil for nil.
func trainingForm(t *svclust.Training) *trainingJSON {
	if t == nil {
		return nil
	}
	return &trainingJSON{Steps: t.Steps, Rows: t.Rows, Batches: t.Batches, C: t.C,
		Coef: t.Coef, ID: t.ID, Stamp: t.Stamp, RNG: hex.EncodeToString(t.RNG)}
}

// training returns the svclust.Training of tj (nil for nil), checked
// against b support vectors as svclust.Model.Validate checks it.
func (tj *trainingJSON) training(version, b int) (*svclust.Training, error) {
	if tj == nil {
		return nil, nil
	}
	if version < trainingVersion {
		return nil, fmt.Errorf("%w: model: version %d has no training", ErrFormat, version)
	}
	rng, err := hex.DecodeString(tj.RNG)
	if err != nil {
		return nil, fmt.Errorf("%w: model: training: rng: %v", ErrFormat, err)
	}
	t := &svclust.Training{Steps: tj.Steps, Rows: tj.Rows, Batches: tj.Batches, C: tj.C,
		Coef: tj.Coef, ID: tj.ID, Stamp: tj.Stamp, RNG: rng}
	if err := t.Check(b); err != nil {
		return nil, fmt.Errorf("%w: model: training: %v", ErrFormat, err)
	}
	return t, nil
}

// training writes the "training" object of t.
func (jw *jsonWriter) training(t *trainingJSON) {
	jw.raw(`,"training":{"steps":`)
	jw.int(t.Steps)
	jw.raw(`,"rows":`)
	jw.int(t.Rows)
	jw.raw(`,"batches":`)
	jw.int(t.Batches)
	jw.raw(`,"c":`)
	jw.float(t.C)
	jw.raw(`,"coef":`)
	jw.floats(t.Coef)
	jw.raw(`,"id":`)
	jw.ints(t.ID)
	jw.raw(`,"stamp":`)
	jw.ints(t.Stamp)
	jw.raw(`,"rng":`)
	jw.value(t.RNG)
	jw.raw("}")
}

// clustersJSON is the "clusters" of a model file of version 8: the stable
// id of each cluster of the partition and the next id to give
// (File.ClusterIDs, File.NextClusterID).
type clustersJSON struct {
	IDs  []int `json:"ids"`
	Next int   `json:"next"`
}

// checkIDs returns nil if f has no ClusterIDs, or one distinct id in
// [0, NextClusterID) per cluster of its partition.
func (f *File) checkIDs() error {
	if f.ClusterIDs == nil {
		return nil
	}
	if f.Partition == nil {
		return errors.New("ClusterIDs without a Partition")
	}
	if k := f.Partition.Clusters(); len(f.ClusterIDs) != k {
		return fmt.Errorf("ClusterIDs has %d ids for %d clusters", len(f.ClusterIDs), k)
	}
	for c, id := range f.ClusterIDs {
		if id < 0 || id >= f.NextClusterID || slices.Contains(f.ClusterIDs[:c], id) {
			return fmt.Errorf("ClusterIDs: id %d of cluster %d is negative, repeated or not below NextClusterID = %d", id, c, f.NextClusterID)
		}
	}
	return nil
}

// StableIDs replaces each label c ≥ 0 of labels, partition numbers as
// Partition.Predict gives them, by the stable id ClusterIDs[c] of an
// updated model's cluster, as Predict does; labels are left as they are
// when f has no ids (a model of fit).
func (f *File) StableIDs(labels []int) {
	if f.ClusterIDs == nil {
		return
	}
	for i, c := range labels {
		if c >= 0 {
			labels[i] = f.ClusterIDs[c]
		}
	}
}
