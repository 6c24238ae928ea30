package modelfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// Format and Version identify a model file: its "format" and the version
// written. Read reads this version and every older form (see the package
// documentation).
const (
	Format  = "svclust-model"
	Version = 8
)

// wholeVersion is the first version of the whole file (scaling, run
// record and model under "model"), and outlierVersion the first whose
// partitions may hold outlier data (version 6 added the outlier scores'
// peaks, fence and threshold, and the components rule's sv_cluster).
// subspaceVersion is the first whose model may hold "subspace" and the
// subspace rule's statistics in its "choice" (also version 6; optional).
// wholeScoreVersion is the first whose outlier data may be the
// whole-space score (mass, radii, centre, spread, fence, threshold) instead of
// version 6's depth score (peaks, fence, threshold), which a version-6
// partition written again keeps.
const (
	wholeVersion      = 5
	outlierVersion    = 6
	subspaceVersion   = 6
	wholeScoreVersion = 7
)

// The forms written before version 5, which Read still reads.
const (
	// cliFormat is the command's file (versions 1 and 2), which nests a
	// library file of libFormat as its "model".
	cliFormat  = "svclust-cli-model"
	cliVersion = 2
	// Versions 1 to 4 of Format are the library's bare file (no scaling):
	// version 1's partitions are all of the components rule, version 2
	// added the rule and the level tree, version 3 the width of each
	// support vector, version 4 "c_auto" (whether C was automatic).
	libVersion = 4
)

// Errors of reading a model file.
var (
	// ErrFormat is wrapped by every error of Read that concerns the
	// content of the file.
	ErrFormat = errors.New("modelfile: invalid model file")
	// ErrTooLarge is wrapped by the error of Read and ReadFile for input
	// longer than their limit.
	ErrTooLarge = errors.New("modelfile: model file larger than the limit")
	// ErrNotClustered is returned by Predict for a file without a
	// partition: it holds a phase-1 model, which can score points but not
	// label them.
	ErrNotClustered = errors.New("modelfile: model has no partition")
)

// File is a fitted model as a model file holds it: the scaling of the
// training data, the feature names, the run record, the trained
// [svclust.Model] and its [cluster.Partition]. Its methods label and score
// raw rows; they do not modify the File, which is safe for concurrent use
// once built.
type File struct {
	// Scale is the scaling fitted on the training data, and Scaler its
	// fitted shift and multiplier of each feature. A library file of
	// version 1 to 4, which has none, reads as ScaleNone with shift 0 and
	// multiplier 1.
	Scale  dataset.Scale
	Scaler *dataset.Scaler

	// Features names the model's features, in the order of its
	// dimensions; nil if unknown.
	Features []string

	// Label is the name of the ground-truth column of the training data,
	// which is no feature; "" means "label", as in dataset.ReadOptions.
	Label string

	// Run records how the model was made, for whoever finds it later; nil
	// if unknown. Labelling does not use it.
	Run *Run

	// Model is the trained model (phase 1), which Score applies. Its
	// Choice and Stats are stored, so that cluster.Fit on it gives the
	// partition stored. (Files older than version 5 store no Choice: its
	// CAuto is read from the library file's "c_auto" (version 4) or derived
	// from Run where there is one, see Read.)
	Model *svclust.Model
	// Partition is the clustering of Model that Predict applies; nil for a
	// file without one, which can score rows but not label them. When set,
	// Partition.Model() is Model.
	Partition cluster.Partition

	// ClusterIDs, when not nil, holds the stable id of each cluster of
	// Partition, which Predict and PredictScores return in place of the
	// partition's number, and NextClusterID the id the next new cluster
	// will get: a model updated with new rows (svclust.Update) keeps the
	// ids of the clusters that persist (cluster.Track). nil labels with
	// the partition's numbers 0 … k−1. Version 8.
	ClusterIDs    []int
	NextClusterID int
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
	// support vector has a width of its own (auto.Choice.Adaptive),
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

// head is the start of the file as Write writes it: every key before the
// model, which Write streams after it.
type head struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Scale    string          `json:"scale"`
	Scaler   *dataset.Scaler `json:"scaler"`
	Features []string        `json:"features"`
	Label    string          `json:"label"`
	Run      *Run            `json:"run,omitempty"`
}

// Write writes f to w as a model file of the current Version, with a
// final newline:
//
//	{"format":"svclust-model","version":6,"scale":…,"scaler":{…},
//	 "features":[…],"label":…,"run":{…},
//	 "model":{"gamma":γ,"c":C,"dim":d,"sv":[[…],…],"alpha":[…],
//	   "gammas":[…],"subspace":{"mean":[…],"basis":[[…],…]},
//	   "status":…,"stats":{…},"choice":{…}},
//	 "partition":{"rule":"levels",…} or null}
//
// with "gammas" only for a model with adaptive widths and "subspace" only
// for a model with a Subspace ("dim" and "sv" are then in its space). Floats are written
// in the shortest form that reads back to the same float64, so a file
// read back gives bit-identical scores and labels; Stats.Runtime is not
// stored. The matrices are streamed row by row through a small buffer, so
// the memory Write needs does not grow with the model. Write returns an
// error before writing anything if f has no Model or Scaler, a Partition
// of another Model, an unknown Scale, or anything else Read would reject:
// an invalid File (File.Validate; the error wraps svclust.ErrNotTrained)
// or a run record that contradicts it, or values Read refuses (wrapping
// ErrFormat).
func (f *File) Write(w io.Writer) error {
	if f == nil || w == nil {
		return errors.New("modelfile: File.Write: nil *File or nil io.Writer")
	}
	if f.Model == nil || f.Scaler == nil {
		return errors.New("modelfile: File.Write: no model or no scaler")
	}
	// What Read would refuse is not written: a file that cannot be
	// loaded again loses the model.
	if err := f.Validate(); err != nil {
		return fmt.Errorf("modelfile: File.Write: %w", err)
	}
	if f.Run != nil {
		rule := ""
		if f.Partition != nil {
			rule = f.Partition.Rule().String()
		}
		if err := checkRun(f.Run, f.Model, rule, true); err != nil {
			return fmt.Errorf("modelfile: File.Write: %w", err)
		}
	}
	if f.Partition != nil && f.Partition.Model() != f.Model {
		return errors.New("modelfile: File.Write: the Partition is not of the Model")
	}
	if _, err := dataset.ParseScale(f.Scale.String()); err != nil {
		return fmt.Errorf("modelfile: File.Write: %w", err)
	}
	mj, err := modelForm(f.Model)
	if err != nil {
		return err
	}
	var pj *partitionJSON
	if f.Partition != nil {
		if pj, err = partitionForm(f.Partition); err != nil {
			return err
		}
	}
	b, err := json.Marshal(&head{
		Format:   Format,
		Version:  Version,
		Scale:    f.Scale.String(),
		Scaler:   f.Scaler,
		Features: f.Features,
		Label:    f.Label,
		Run:      f.Run,
	})
	if err != nil {
		return err
	}
	jw := &jsonWriter{w: bufio.NewWriterSize(w, 64<<10)}
	jw.bytes(b[:len(b)-1]) // without the closing brace
	jw.raw(`,"model":`)
	jw.model(mj)
	jw.raw(`,"partition":`)
	jw.partition(pj)
	if f.ClusterIDs != nil {
		jw.raw(`,"clusters":`)
		jw.value(&clustersJSON{IDs: f.ClusterIDs, Next: f.NextClusterID})
	}
	jw.raw("}\n")
	return jw.flush()
}

// MarshalJSON implements json.Marshaler: it returns what [File.Write]
// writes, without the final newline.
func (f *File) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON implements json.Unmarshaler with the checks of [Read].
func (f *File) UnmarshalJSON(b []byte) error {
	got, err := Read(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	*f = *got
	return nil
}
