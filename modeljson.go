package svclust

import (
	"bytes"
	"fmt"
	"io"

	"github.com/svclust/svclust/internal/modelfile"
)

// The model file format written by [Model.MarshalJSON] and by package
// cluster's Partition.MarshalJSON.
const (
	// ModelFormat is the value of the "format" key of a model file.
	ModelFormat = modelfile.Format
	// ModelVersion is the newest version of the model file format, the one
	// WriteJSON writes. UnmarshalJSON reads it and every earlier version,
	// and rejects any other. Version 1's partitions are all of the
	// Components rule; version 2 added the partition's "rule",
	// "sv_cluster" and "birth" (LevelTree); version 3 added "gammas", the
	// width of each support vector of a model with adaptive widths
	// (Model.Gammas); version 4 added "c_auto", whether C was chosen
	// automatically (Model.Choice.CAuto), which clustering reads, so that
	// a model read from a file clusters again exactly as it did when
	// trained.
	ModelVersion = modelfile.Version
)

// MarshalJSON implements json.Marshaler. It returns what [Model.WriteJSON]
// writes.
func (m *Model) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := m.WriteJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON writes m to w as a versioned JSON object,
//
//	{"format":"svclust-model","version":4,"gamma":γ,"c":C,"c_auto":false,
//	 "dim":d,"sv":[[…],…],"alpha":[…],"status":"converged",
//	 "stats":{"iterations":…,"updates":…,"maintenance":…,"objective":…},
//	 "partition":null}
//
// with "gammas":[…] after "alpha" for a model with adaptive widths. Package
// cluster's Partition.WriteJSON writes the same object with the partition
// in place of null; [Model.UnmarshalJSON] reads both. Floats are written in
// the shortest form that reads back to the same float64, so a model read
// back gives bit-identical scores. Stats.Runtime and the model's Choice
// are not stored, but for Choice.CAuto, which clustering reads. WriteJSON
// returns an error wrapping ErrModelFormat, before writing anything, for a
// model without support vectors or with NaN or Inf values, which
// UnmarshalJSON would reject.
func (m *Model) WriteJSON(w io.Writer) error {
	j, err := m.fileForm()
	if err != nil {
		return err
	}
	return modelfile.Write(w, j)
}

// fileForm returns the file form of m without a partition. Its matrices
// are views of m's.
func (m *Model) fileForm() (*modelfile.File, error) {
	if m.SV == nil || len(m.Alpha) == 0 {
		return nil, fmt.Errorf("%w: no support vectors", ErrModelFormat)
	}
	r, d := m.SV.Dims()
	if r != len(m.Alpha) {
		return nil, fmt.Errorf("%w: %d support vectors but %d coefficients", ErrModelFormat, r, len(m.Alpha))
	}
	cAuto := m.Choice.CAuto
	return &modelfile.File{
		Format:  ModelFormat,
		Version: ModelVersion,
		Gamma:   m.Gamma,
		C:       m.C,
		CAuto:   &cAuto,
		Dim:     d,
		SV:      modelfile.Of(m.SV),
		Alpha:   m.Alpha,
		Gammas:  m.Gammas,
		Status:  m.Status.String(),
		Stats: &modelfile.Stats{
			Iterations:  m.Stats.Iterations,
			Updates:     m.Stats.Updates,
			Maintenance: m.Stats.Maintenance,
			Objective:   m.Stats.Objective,
		},
	}, nil
}

// UnmarshalJSON implements json.Unmarshaler. It reads a model file written
// by [Model.MarshalJSON] or package cluster's Partition.MarshalJSON, keeping
// the model only (a partition present is validated and dropped: read the
// file with package cluster to keep it). It validates the file strictly: unknown keys, a wrong format
// or version, γ or C not > 0, a dimension below 1, no support vectors, rows
// whose length is not the dimension, coefficients that do not match the
// support vectors, NaN or Inf anywhere, negative counts, and a partition
// with more clusters than equilibria, whose cluster numbers lie outside
// [0, clusters) or whose arrays disagree are all errors wrapping
// ErrModelFormat, and so is a key that occurs twice in one object, which
// encoding/json would accept with the last value winning. Memory is
// allocated from the lengths of the arrays actually present, never from a
// declared size. On an error m is left unchanged. A file of a version
// before 4, which does not store "c_auto", reads as a model with a given C.
func (m *Model) UnmarshalJSON(data []byte) error {
	j, err := modelfile.Decode(data, statusNames[:])
	if err != nil {
		return err
	}
	*m = *modelOf(j)
	return nil
}

// modelOf builds the Model a decoded, checked file describes, taking over
// its slices.
func modelOf(j *modelfile.File) *Model {
	st := j.Stats
	m := &Model{
		Gamma:  j.Gamma,
		C:      j.C,
		SV:     modelfile.Dense(&j.SV, j.Dim),
		Alpha:  j.Alpha,
		Gammas: j.Gammas,
		Status: statusOf(j.Status),
		Stats: Stats{
			Iterations:  st.Iterations,
			Updates:     st.Updates,
			Maintenance: st.Maintenance,
			Objective:   st.Objective,
		},
	}
	if j.CAuto != nil {
		m.Choice.CAuto = *j.CAuto
	}
	return m
}

// statusOf returns the Status named name, or −1.
func statusOf(name string) Status {
	for s, n := range statusNames {
		if n == name {
			return Status(s)
		}
	}
	return -1
}
