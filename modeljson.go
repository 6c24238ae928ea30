package svclust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"
)

// The model file format written by [Model.MarshalJSON].
const (
	// ModelFormat is the value of the "format" key of a model file.
	ModelFormat = "svclust-model"
	// ModelVersion is the version of the model file format. UnmarshalJSON
	// rejects any other version.
	ModelVersion = 1
)

// ErrModelFormat is wrapped by every error of [Model.UnmarshalJSON] that
// concerns the content of the model file.
var ErrModelFormat = errors.New("svclust: invalid model file")

// modelJSON is the versioned file form of a Model. Pointer fields
// distinguish a missing key from a zero value.
type modelJSON struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Gamma     float64        `json:"gamma"`
	C         float64        `json:"c"`
	Dim       int            `json:"dim"`
	SV        [][]float64    `json:"sv"`
	Alpha     []float64      `json:"alpha"`
	Status    string         `json:"status"`
	Stats     *statsJSON     `json:"stats"`
	Partition *partitionJSON `json:"partition"`
}

type statsJSON struct {
	Iterations  int     `json:"iterations"`
	Updates     int     `json:"updates"`
	Maintenance int     `json:"maintenance"`
	Objective   float64 `json:"objective"`
}

type partitionJSON struct {
	Eps                float64     `json:"eps"`
	All                bool        `json:"all"`
	Outliers           bool        `json:"outliers"`
	M                  int         `json:"m"`
	Clusters           int         `json:"clusters"`
	Equilibria         [][]float64 `json:"equilibria"`
	EquilibriumCluster []int       `json:"equilibrium_cluster"`
	Anchors            int         `json:"anchors,omitempty"`
	Strip              [][]float64 `json:"strip"`
	StripCluster       []int       `json:"strip_cluster"`
}

// MarshalJSON implements json.Marshaler. It writes m as a versioned JSON
// object,
//
//	{"format":"svclust-model","version":1,"gamma":γ,"c":C,"dim":d,
//	 "sv":[[…],…],"alpha":[…],"status":"converged",
//	 "stats":{"iterations":…,"updates":…,"maintenance":…,"objective":…},
//	 "partition":{"eps":…,"all":…,"outliers":…,"m":…,"clusters":…,
//	   "equilibria":[[…],…],"equilibrium_cluster":[…],"anchors":…,
//	   "strip":[[…],…],"strip_cluster":[…]}}
//
// with "partition" null before [Model.Cluster] has run. Floats are written in
// the shortest form that reads back to the same float64, so a model read back
// by UnmarshalJSON gives bit-identical scores and labels. Stats.Runtime is not
// stored. MarshalJSON returns an error for a model without support vectors
// or with NaN or Inf values, which UnmarshalJSON would reject.
func (m *Model) MarshalJSON() ([]byte, error) {
	if m.SV == nil || len(m.Alpha) == 0 {
		return nil, fmt.Errorf("%w: no support vectors", ErrModelFormat)
	}
	r, d := m.SV.Dims()
	if r != len(m.Alpha) {
		return nil, fmt.Errorf("%w: %d support vectors but %d coefficients", ErrModelFormat, r, len(m.Alpha))
	}
	j := modelJSON{
		Format:  ModelFormat,
		Version: ModelVersion,
		Gamma:   m.Gamma,
		C:       m.C,
		Dim:     d,
		SV:      rows(m.SV),
		Alpha:   m.Alpha,
		Status:  m.Status.String(),
		Stats: &statsJSON{
			Iterations:  m.Stats.Iterations,
			Updates:     m.Stats.Updates,
			Maintenance: m.Stats.Maintenance,
			Objective:   m.Stats.Objective,
		},
	}
	if p := m.Partition; p != nil {
		pj := &partitionJSON{
			Eps:                p.Eps,
			All:                p.All,
			Outliers:           p.Outliers,
			M:                  p.M,
			Clusters:           p.Clusters,
			Equilibria:         rows(p.Equilibria),
			EquilibriumCluster: nonNil(p.EquilibriumCluster),
			Anchors:            p.Anchors,
			Strip:              rows(p.Strip),
			StripCluster:       nonNil(p.StripCluster),
		}
		j.Partition = pj
	}
	// Validate what is written, so that a file that saves always loads.
	if _, err := j.model(); err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// rows returns the rows of a as slices; nil gives an empty list.
func rows(a *mat.Dense) [][]float64 {
	if a == nil {
		return [][]float64{}
	}
	r, _ := a.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = a.RawRowView(i)
	}
	return out
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// UnmarshalJSON implements json.Unmarshaler. It reads a model written by
// [Model.MarshalJSON] and validates it strictly: unknown keys, a wrong format
// or version, γ or C not > 0, a dimension below 1, no support vectors, rows
// whose length is not the dimension, coefficients that do not match the
// support vectors, NaN or Inf anywhere, negative counts, and a partition
// with more clusters than equilibria, whose cluster numbers lie outside
// [0, clusters) or whose arrays disagree are all errors wrapping
// ErrModelFormat. Memory is allocated from the lengths of the arrays actually
// present, never from a declared size. On an error m is left unchanged.
func (m *Model) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j modelJSON
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("%w: %v", ErrModelFormat, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: data after the model object", ErrModelFormat)
	}
	nm, err := j.model()
	if err != nil {
		return err
	}
	*m = *nm
	return nil
}

// model validates j and builds the Model it describes.
func (j *modelJSON) model() (*Model, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrModelFormat}, args...)...)
	}
	if j.Format != ModelFormat {
		return nil, bad("format is %q, want %q", j.Format, ModelFormat)
	}
	if j.Version != ModelVersion {
		return nil, bad("version is %d, want %d", j.Version, ModelVersion)
	}
	if !(j.Gamma > 0) || math.IsInf(j.Gamma, 0) {
		return nil, bad("gamma = %v: must be > 0 and finite", j.Gamma)
	}
	if !(j.C > 0) || math.IsInf(j.C, 0) {
		return nil, bad("c = %v: must be > 0 and finite", j.C)
	}
	if j.Dim < 1 {
		return nil, bad("dim = %d: must be ≥ 1", j.Dim)
	}
	sv, err := dense("sv", j.SV, j.Dim)
	if err != nil {
		return nil, err
	}
	if sv == nil {
		return nil, bad("no support vectors")
	}
	if len(j.Alpha) != len(j.SV) {
		return nil, bad("%d coefficients for %d support vectors", len(j.Alpha), len(j.SV))
	}
	for i, a := range j.Alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, bad("alpha[%d] = %v: not finite", i, a)
		}
	}
	status := -1
	for s, name := range statusNames {
		if j.Status == name {
			status = s
		}
	}
	if status < 0 {
		return nil, bad("unknown status %q", j.Status)
	}
	if j.Stats == nil {
		return nil, bad("no stats")
	}
	st := j.Stats
	if st.Iterations < 0 || st.Updates < 0 || st.Maintenance < 0 {
		return nil, bad("negative count in stats")
	}
	if math.IsNaN(st.Objective) || math.IsInf(st.Objective, 0) {
		return nil, bad("objective = %v: not finite", st.Objective)
	}
	m := &Model{
		Gamma:  j.Gamma,
		C:      j.C,
		SV:     sv,
		Alpha:  append([]float64(nil), j.Alpha...),
		Status: Status(status),
		Stats: Stats{
			Iterations:  st.Iterations,
			Updates:     st.Updates,
			Maintenance: st.Maintenance,
			Objective:   st.Objective,
		},
	}
	if j.Partition != nil {
		p, err := j.Partition.partition(j.Dim)
		if err != nil {
			return nil, err
		}
		m.Partition = p
	}
	return m, nil
}

// partition validates pj for a model of dimension d and builds the
// Partition it describes.
func (pj *partitionJSON) partition(d int) (*Partition, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: partition: "+format, append([]any{ErrModelFormat}, args...)...)
	}
	if math.IsNaN(pj.Eps) || math.IsInf(pj.Eps, 0) || pj.Eps < 0 {
		return nil, bad("eps = %v: must be ≥ 0 and finite", pj.Eps)
	}
	if pj.M < 2 {
		return nil, bad("m = %d: must be ≥ 2", pj.M)
	}
	if pj.Clusters < 1 {
		return nil, bad("clusters = %d: must be ≥ 1", pj.Clusters)
	}
	eq, err := dense("partition: equilibria", pj.Equilibria, d)
	if err != nil {
		return nil, err
	}
	if eq == nil {
		return nil, bad("no equilibria")
	}
	if pj.Clusters > len(pj.Equilibria) {
		// Every cluster holds at least one equilibrium.
		return nil, bad("clusters = %d: more than the %d equilibria", pj.Clusters, len(pj.Equilibria))
	}
	if len(pj.EquilibriumCluster) != len(pj.Equilibria) {
		return nil, bad("%d equilibrium clusters for %d equilibria", len(pj.EquilibriumCluster), len(pj.Equilibria))
	}
	if pj.Anchors < 0 || pj.Anchors > len(pj.Equilibria) {
		return nil, bad("anchors = %d: outside [0, %d]", pj.Anchors, len(pj.Equilibria))
	}
	strip, err := dense("partition: strip", pj.Strip, d)
	if err != nil {
		return nil, err
	}
	if len(pj.StripCluster) != len(pj.Strip) {
		return nil, bad("%d strip clusters for %d strip points", len(pj.StripCluster), len(pj.Strip))
	}
	switch {
	case pj.All && strip != nil:
		return nil, bad("strip must be empty when all is set")
	case !pj.All && strip == nil:
		return nil, bad("no strip points")
	}
	for _, ids := range [][]int{pj.EquilibriumCluster, pj.StripCluster} {
		for _, c := range ids {
			if c < 0 || c >= pj.Clusters {
				return nil, bad("cluster %d outside [0, %d)", c, pj.Clusters)
			}
		}
	}
	p := &Partition{
		Eps:                pj.Eps,
		All:                pj.All,
		Outliers:           pj.Outliers,
		M:                  pj.M,
		Clusters:           pj.Clusters,
		Equilibria:         eq,
		EquilibriumCluster: append([]int(nil), pj.EquilibriumCluster...),
		Anchors:            pj.Anchors,
	}
	if strip != nil {
		p.Strip = strip
		p.StripCluster = append([]int(nil), pj.StripCluster...)
	}
	return p, nil
}

// dense checks that every row of rs has length d and finite values and
// returns them as a matrix, or nil when rs is empty. The size of the
// matrix comes from the rows present.
func dense(name string, rs [][]float64, d int) (*mat.Dense, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	for i, r := range rs {
		if len(r) != d {
			return nil, fmt.Errorf("%w: %s row %d has %d values, want %d", ErrModelFormat, name, i, len(r), d)
		}
		for k, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: %s row %d, column %d: %v is not finite", ErrModelFormat, name, i, k, v)
			}
		}
	}
	data := make([]float64, 0, len(rs)*d)
	for _, r := range rs {
		data = append(data, r...)
	}
	return mat.NewDense(len(rs), d, data), nil
}
