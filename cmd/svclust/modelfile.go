package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/internal/jsonkeys"
)

// The CLI model file wraps the library's model file with the scaling of
// the training data. Version 2 added the "run" section; version 1 files,
// without it, still load.
const (
	cliFormat  = "svclust-cli-model"
	cliVersion = 2
)

// modelFile is the JSON form of the file written by fit -model:
//
//	{"format":"svclust-cli-model","version":2,"scale":"zscore",
//	 "scaler":{"shift":[…],"mul":[…]},"features":[names],"label":"label",
//	 "run":{…},"model":<svclust.Model JSON>}
type modelFile struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Scale    string          `json:"scale"`
	Scaler   *dataset.Scaler `json:"scaler"`
	Features []string        `json:"features"`
	Label    string          `json:"label"`
	Run      *runInfo        `json:"run,omitempty"`
	Model    *svclust.Model  `json:"model"`
}

// runInfo records how a model file was made, for whoever finds it later.
// It is informative: predict and score do not use it.
type runInfo struct {
	// Tool is the svclust that wrote the file (buildInfo.String).
	Tool string `json:"tool"`
	// Created is the time of writing, RFC 3339 in UTC (SOURCE_DATE_EPOCH
	// when set).
	Created string `json:"created"`
	Seed    uint64 `json:"seed"`
	// Strategy is the budget maintenance, "none" without a budget.
	Strategy string `json:"strategy"`
	Budget   int    `json:"budget"` // the budget used; −1 for none
	// BudgetFrom says how the budget was chosen ("auto" or "given"), and
	// Rule is the cluster assignment (levels or components).
	BudgetFrom string  `json:"budget_from,omitempty"`
	Rule       string  `json:"rule,omitempty"`
	K          int     `json:"k,omitempty"` // of a projection
	Gamma      float64 `json:"gamma"`
	// GammaFrom and CFrom say how γ and C were chosen: "auto" (from the
	// data), "given" (by -gamma, -C) or "tune" (the best of tune's grid).
	GammaFrom string  `json:"gamma_from"`
	C         float64 `json:"C"`
	CFrom     string  `json:"C_from"`
	// Data is the DATA argument, Rows its number of rows, Sample the rows
	// fit -stream trained on, and DataSHA256 the SHA-256 of its bytes.
	Data       string `json:"data"`
	Rows       int    `json:"rows"`
	Sample     int    `json:"sample,omitempty"`
	DataSHA256 string `json:"data_sha256"`
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

// defaultMaxModelMB is the default of -max-model-mb, the largest model file
// predict, score and plot read, in MiB. A model file holds the support
// vectors and the strip, about a quarter of the training rows, at about
// 20 bytes a value: 1 GiB is 10⁷ strip rows of 5 features.
const defaultMaxModelMB = 1024

// maxModelMB bounds -max-model-mb (1 TiB).
const maxModelMB = 1 << 20

// maxLeadingSpace is the most white space read before the '{' that starts
// a model file; fit writes none.
const maxLeadingSpace = 4096

// readModel reads and validates the model file path, of at most limit
// bytes. It fails at the first byte that cannot belong to a model file: a
// first non-space byte other than '{', a JSON syntax error, a key that
// occurs twice in one object (jsonkeys.Check, read as a stream), without
// reading further.
func readModel(path string, limit int64) (*modelFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := fmt.Errorf("%s: larger than %d MiB; raise -max-model-mb if it is a model file", path, limit>>20)
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	regular := fi.Mode().IsRegular()
	if regular && fi.Size() > limit {
		return nil, tooLarge
	}
	lr := &io.LimitedReader{R: f, N: limit + 1}
	br := bufio.NewReader(lr)
	if err := startsObject(br); err != nil {
		return nil, fmt.Errorf("%s: not a model file: %w", path, err)
	}
	// Check the keys as a stream, keeping what it reads when the file
	// cannot be read again (a pipe), then decode it.
	var kept bytes.Buffer
	var src io.Reader = br
	if !regular {
		src = io.TeeReader(br, &kept)
	}
	err = jsonkeys.Check(src)
	if lr.N == 0 {
		return nil, tooLarge
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a model file: %w", path, err)
	}
	if regular {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		lr.N = limit + 1
		src = bufio.NewReader(lr)
	} else {
		src = io.MultiReader(&kept, br)
	}
	mf, err := decodeModel(src)
	if lr.N == 0 {
		return nil, tooLarge
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return mf, nil
}

// startsObject skips the white space at the start of br, at most
// maxLeadingSpace bytes, and checks that the next byte is '{', which it
// leaves unread.
func startsObject(br *bufio.Reader) error {
	for i := 0; ; i++ {
		c, err := br.ReadByte()
		if err == io.EOF {
			return errors.New("empty")
		}
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if i >= maxLeadingSpace {
				return fmt.Errorf("no '{' within its first %d bytes", maxLeadingSpace)
			}
			continue
		case '{':
			return br.UnreadByte()
		}
		return fmt.Errorf("invalid byte 0x%02x at offset %d: a model file is a JSON object", c, i)
	}
}

// parseModel reads and validates the model file b.
func parseModel(b []byte) (*modelFile, error) {
	if err := startsObject(bufio.NewReader(bytes.NewReader(b))); err != nil {
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	if err := jsonkeys.Check(bytes.NewReader(b)); err != nil {
		return nil, fmt.Errorf("not a model file: %w", err)
	}
	return decodeModel(bytes.NewReader(b))
}

// decodeModel decodes and validates a model file whose keys have been
// checked.
func decodeModel(r io.Reader) (*modelFile, error) {
	dec := json.NewDecoder(r)
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
	switch {
	case mf.Version > cliVersion:
		return nil, fmt.Errorf("model file version %d is newer than this svclust reads (1 to %d): use a newer svclust", mf.Version, cliVersion)
	case mf.Version < 1:
		return nil, fmt.Errorf("version %d, want 1 to %d", mf.Version, cliVersion)
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
		// fit writes 1/spread, or 1 for a constant column: never ≤ 0,
		// which would fold or collapse the column.
		if mf.Scaler.Mul[j] <= 0 {
			return nil, fmt.Errorf("scaler multiplier of column %d is %v, not > 0", j+1, mf.Scaler.Mul[j])
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
