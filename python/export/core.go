package main

// core.go holds every call of the export layer into the svclust library, as
// plain Go functions on Go values: fit, predict, score, the model file's
// bytes and the description of a fitted model. export.go only converts C
// types to these and back. Porting the Python package to a new library API
// is editing this file; the C functions and the Python code stay as they are.
//
// The data passed in are the caller's memory (numpy's), valid for the
// duration of the call only: nothing here keeps a reference to them.

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// An errValue is an error the Python package raises as ValueError: bad
// data or bad parameters. Other errors (context.Canceled aside) are
// RuntimeErrors. An error about one value of X is located: at (row, col)
// of the rows the package passed, col alone when row is −1. The package
// names the place in the user's X (its rows before na="drop" left some
// out, its columns before they were put in the model's order).
type errValue struct {
	msg      string
	located  bool
	row, col int
}

func (e *errValue) Error() string {
	switch {
	case !e.located:
		return e.msg
	case e.row < 0:
		return fmt.Sprintf("X[:, %d]: %s", e.col, e.msg)
	}
	return fmt.Sprintf("X[%d, %d]: %s", e.row, e.col, e.msg)
}

func valuef(format string, args ...any) error {
	return &errValue{msg: fmt.Sprintf(format, args...)}
}

// locatedf is valuef for the value of X at (row, col), or the column col
// when row is −1.
func locatedf(row, col int, format string, args ...any) error {
	return &errValue{msg: fmt.Sprintf(format, args...), located: true, row: row, col: col}
}

// autoValue is a parameter that is a number or the string "auto", as the
// fit flags -gamma, -C, -budget, -min-size and -eps.
type autoValue struct {
	auto bool
	v    float64
}

func (a *autoValue) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil && strings.EqualFold(s, "auto") {
		*a = autoValue{auto: true}
		return nil
	}
	*a = autoValue{}
	return (*number)(&a.v).UnmarshalJSON(b)
}

// number is a float64 parameter: a JSON number, or a string strconv reads,
// such as "nan" or "inf", which JSON has no numbers for (the checks of
// validate then reject them with the flag's message).
type number float64

func (v *number) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf(`not a number or "auto": %q`, s)
		}
		*v = number(f)
		return nil
	}
	return json.Unmarshal(b, (*float64)(v))
}

// integer returns the value of a whole-number parameter, or an error
// naming it.
func (a autoValue) integer(name string) (int, error) {
	switch {
	case a.v != math.Trunc(a.v):
		return 0, valuef(`%s must be a whole number or "auto", not %v`, name, a.v)
	case a.v >= math.MaxInt64:
		// Beyond every bound of the settings, which name it.
		return math.MaxInt64, nil
	case a.v <= math.MinInt64:
		return math.MinInt64, nil
	}
	return int(a.v), nil
}

// params are the estimator's parameters, the fit flags of the svclust
// command under their Python names, as JSON; K is null when not given.
type params struct {
	Gamma    autoValue `json:"gamma"`
	C        autoValue `json:"C"`
	Budget   autoValue `json:"budget"`
	Width    string    `json:"width"`
	Space    string    `json:"space"` // "" is the default, "auto"
	Rule     string    `json:"rule"`
	MinSize  autoValue `json:"min_size"`
	Maintain string    `json:"maintain"`
	K        *int      `json:"k"`
	Eps      autoValue `json:"eps"`
	Tol      number    `json:"tol"`
	MaxIter  int       `json:"max_iter"`
	MinIter  int       `json:"min_iter"`
	M        int       `json:"m"`
	Scale    string    `json:"scale"`
	Seed     uint64    `json:"seed"`
	Workers  int       `json:"workers"`
	Outliers bool      `json:"outliers"`
	All      bool      `json:"all"`
	// OutlierThreshold is -outlier-threshold; absent (0) is an error.
	OutlierThreshold number `json:"outlier_threshold"`

	// Features names the columns (nil for a plain array), and Data names
	// the data in the model file's run record. SourceDateEpoch is the
	// caller's $SOURCE_DATE_EPOCH, which the Go runtime of a shared
	// library does not see change (it reads the environment once).
	Features []string `json:"features"`
	// Names maps the flags of the svclust command to the words that name
	// them in the package's messages (its parameters), as
	// settings.Error.Named renders them; a flag not in it keeps its name.
	Names           map[string]string `json:"names"`
	Data            string            `json:"data"`
	SourceDateEpoch string            `json:"source_date_epoch"`
}

// configError turns the errors of the settings (a *settings.Error) and of
// the library (a *svclust.ConfigError) into a ValueError with the svclust
// command's message, each flag named as names says (p.Names: "-min-size
// must be ≥ 1" is "min_cluster_size must be ≥ 1"). Other errors are
// returned as they are.
func configError(err error, names map[string]string) error {
	err = settings.FlagError(err)
	var se *settings.Error
	if !errors.As(err, &se) {
		return err
	}
	return &errValue{msg: se.Named(func(flag string) string {
		if name, ok := names[flag]; ok {
			return name
		}
		return flag
	})}
}

// setup is a validated fit configuration: the settings of the svclust
// command that the parameters give.
type setup struct {
	p  params
	st *settings.Settings
}

// validate reads the parameters and checks them as the svclust command
// checks its fit flags (settings.Settings.Validate), with the same
// messages naming the parameter instead of the flag.
func validate(js []byte) (*setup, error) {
	s := &setup{}
	p := &s.p
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, valuef("parameters: %v", err)
	}
	st := settings.Default()
	st.Gamma = settings.Float{Auto: p.Gamma.auto, Value: p.Gamma.v}
	st.C = settings.Float{Auto: p.C.auto, Value: p.C.v}
	st.Eps = settings.Float{Auto: p.Eps.auto, Value: p.Eps.v}
	for _, a := range []struct {
		flag string
		v    autoValue
		dst  *settings.Int
	}{{"-budget", p.Budget, &st.Budget}, {"-min-size", p.MinSize, &st.MinSize}} {
		*a.dst = settings.Int{Auto: true}
		if !a.v.auto {
			n, err := a.v.integer(cmp.Or(p.Names[a.flag], a.flag))
			if err != nil {
				return nil, err
			}
			*a.dst = settings.Int{Value: n}
		}
	}
	st.Width, st.Rule, st.Maintain, st.Scale = p.Width, p.Rule, p.Maintain, p.Scale
	if p.Space != "" {
		st.Space = p.Space
	}
	if p.K != nil {
		st.K, st.KGiven = *p.K, true
	}
	st.Tol = float64(p.Tol)
	st.MaxIter, st.MinIter, st.M = p.MaxIter, p.MinIter, p.M
	st.Seed, st.Workers = p.Seed, p.Workers
	st.Outliers, st.All = p.Outliers, p.All
	st.OutlierThreshold = float64(p.OutlierThreshold)
	if err := st.Validate(); err != nil {
		return nil, configError(err, p.Names)
	}
	s.st = st
	return s, nil
}

// fitted is a fitted estimator: the model file and, after a fit, the labels
// of the training rows and the report of fit -json.
type fitted struct {
	mf     *modelfile.File
	labels []int  // nil for a model read from a file
	report []byte // nil for a model read from a file
	// outlier holds the outlier scores of the training rows; nil for a
	// model read from a file.
	outlier []float64
}

// notFinite returns the error of the first value of x (n×d, row-major) that
// is NaN or infinite, in the words of the svclust command, or nil.
func notFinite(x []float64, d int) error {
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return locatedf(k/d, k%d, "%s: %v", strings.TrimPrefix(dataset.ErrNotFinite.Error(), "dataset: "), v)
		}
	}
	return nil
}

// checkData checks the rows x (n×d) before they reach the library, which
// panics or misreports for some of them.
func checkData(x []float64, n, d int) error {
	if n <= 0 || d <= 0 {
		return valuef("X has %d rows and %d columns: %s", n, d, strings.TrimPrefix(svclust.ErrNoData.Error(), "svclust: "))
	}
	return notFinite(x, d)
}

// fit scales the rows x (n×d, row-major) with a scaler fitted on them,
// trains and clusters, as svclust fit does with a data file. owned says
// that x is a copy the caller made, which fit may scale in place; x is
// otherwise left as it is and scaled in a copy. ctx cancels training.
func fit(ctx context.Context, x []float64, n, d int, owned bool, js []byte) (*fitted, error) {
	s, err := validate(js)
	if err != nil {
		return nil, err
	}
	if s.p.Features != nil && len(s.p.Features) != d {
		return nil, valuef("%d feature names for %d columns", len(s.p.Features), d)
	}
	if slices.Contains(s.p.Features, s.st.Label) {
		// A DataFrame's column named as the command's label column is a
		// feature here: the model file then names no label column, and
		// svclust predict reads that column as the feature.
		s.st.Label = ""
	}
	if err := checkData(x, n, d); err != nil {
		return nil, err
	}
	sha := sum(x) // before fit scales x, if it is owned
	res, err := s.st.FitRows(ctx, mat.NewDense(n, d, x), nil, owned, nil)
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		sc, _ := s.st.Scaling() // validated
		return nil, overflowError(oe, sc, s.p.Features)
	}
	if err != nil {
		return nil, configError(err, s.p.Names)
	}
	model, cl := res.Model, res.Result
	mf := s.st.ModelFile(res.Scaler, s.p.Features, runOf(s, model, sha, n), model, cl)
	report, err := json.Marshal(s.st.Report(model, cl, n, d))
	if err != nil {
		return nil, err
	}
	return &fitted{mf: mf, labels: cl.Labels, report: report, outlier: cl.OutlierScores}, nil
}

// overflowError is the error of a finite value of X that the scaling sc
// maps beyond ±dataset.MaxScaled, in the words of the svclust command (its
// overflowError): e is the library's description of the value, names the
// feature names or nil. When the scaling of the column itself overflowed,
// the error is about the column.
func overflowError(e *modelfile.OverflowError, sc dataset.Scale, names []string) error {
	what := "" // the feature's name, with its separator, for a DataFrame
	if names != nil {
		what = fmt.Sprintf("feature %q: ", names[e.Col])
	}
	if e.Column {
		return locatedf(-1, e.Col, "%sits mean, range or standard deviation overflows float64, so its values cannot be scaled (scale %s); divide the column by a power of ten", what, sc)
	}
	why := fmt.Sprintf("to %v", e.Scaled)
	if finite(e.Scaled) {
		why = fmt.Sprintf("to %.3g, beyond ±%.0e, where the squared distances of the kernel overflow", e.Scaled, dataset.MaxScaled)
	}
	return locatedf(e.Row, e.Col, "%sthe value %v overflows when scaled (scale %s): it scales %s; divide the column by a power of ten", what, e.Value, sc, why)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// sum returns the SHA-256 of the rows x, in hexadecimal: the little-endian
// bytes of their float64 values, as the run record of a model file holds
// it.
func sum(x []float64) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// runOf returns the run record of the model file of a fit of n rows whose
// SHA-256 is sha (see sum), as svclust fit writes it, with the data named
// by params.Data.
func runOf(s *setup, m *svclust.Model, sha string, n int) *modelfile.Run {
	return s.st.Record(tool(), m, settings.Source{
		Data: s.p.Data, Rows: n, SHA256: sha,
		Created: settings.CreationTimeAt(s.p.SourceDateEpoch),
	})
}

// tool names the writer of a model file: the Python package, with the
// module version of the library it was built from.
func tool() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return "svclust python " + v
}

// checkRows checks the rows to label or score against the model, with
// the svclust command's message for a wrong number of features.
func (f *fitted) checkRows(x []float64, n, d int) error {
	if want := f.mf.Model.Dim(); d != want {
		return valuef("X has %d features, but the model was trained on %d", d, want)
	}
	return checkData(x, n, d)
}

// modelError turns the errors of modelfile.File.Predict and Score into
// ValueErrors in the command's words.
func (f *fitted) modelError(err error) error {
	var oe *modelfile.OverflowError
	if errors.As(err, &oe) {
		return overflowError(oe, f.mf.Scale, f.mf.Features)
	}
	if errors.Is(err, modelfile.ErrNotClustered) {
		return valuef("the model has no partition: it can score points but not label them")
	}
	return err
}

// predict writes the cluster of each raw row of x (n×d) to dst, as svclust
// predict does.
func (f *fitted) predict(dst []int, x []float64, n, d, workers int) error {
	if err := f.checkRows(x, n, d); err != nil {
		return err
	}
	_, err := f.mf.Predict(dst, mat.NewDense(n, d, x), workers)
	return f.modelError(err)
}

// score writes f(x) of each raw row of x (n×d) to dst, as svclust score
// does.
func (f *fitted) score(dst []float64, x []float64, n, d, workers int) error {
	if err := f.checkRows(x, n, d); err != nil {
		return err
	}
	_, err := f.mf.Score(dst, mat.NewDense(n, d, x), workers)
	return f.modelError(err)
}

// outlierScores writes the outlier score of each raw row of x (n×d) to
// dst, as svclust score does, and, unless strength is nil, its membership
// strength to strength. A model file written before the scores gives a
// ValueError naming the fix.
func (f *fitted) outlierScores(dst, strength []float64, x []float64, n, d, workers int) error {
	if err := f.checkRows(x, n, d); err != nil {
		return err
	}
	_, err := f.mf.OutlierScores(dst, mat.NewDense(n, d, x), workers)
	if errors.Is(err, cluster.ErrNoOutlierScores) {
		return valuef("the model holds no outlier data (a model file of version 5 or older, or a partition built without them): fit the data again to get them")
	}
	if err != nil {
		return f.modelError(err)
	}
	f.strengths(strength, dst)
	return nil
}

// strengths writes the membership strength of each outlier score of
// scores to dst (nil: nothing).
func (f *fitted) strengths(dst, scores []float64) {
	if dst == nil {
		return
	}
	t := f.mf.Partition.OutlierThreshold()
	for i, s := range scores {
		dst[i] = cluster.MembershipStrength(s, t)
	}
}

// trainOutliers writes the outlier scores and membership strengths of the
// training rows of a fit to scores and strength.
func (f *fitted) trainOutliers(scores, strength []float64) error {
	if f.outlier == nil {
		return valuef("the outlier scores of the training rows are known after fit only")
	}
	copy(scores, f.outlier)
	f.strengths(strength, f.outlier)
	return nil
}

// modelFile returns the bytes of the model file, as svclust fit -model
// writes it.
func (f *fitted) modelFile() ([]byte, error) {
	var b bytes.Buffer
	err := f.mf.Write(&b)
	return b.Bytes(), err
}

// load reads a model file, as svclust predict does.
func load(b []byte) (*fitted, error) {
	mf, err := modelfile.Read(bytes.NewReader(b), 0)
	if err != nil {
		return nil, &errValue{msg: err.Error()}
	}
	return &fitted{mf: mf}, nil
}

// infoJSON describes a fitted model to the Python package.
type infoJSON struct {
	Features  []string `json:"features"`
	NFeatures int      `json:"n_features"`
	NSV       int      `json:"n_sv"`
	Clusters  int      `json:"n_clusters"` // −1 without a partition
	Clustered bool     `json:"clustered"`
	Rule      string   `json:"rule"`
	Outliers  bool     `json:"outliers"`
	// OutlierThreshold is the partition's threshold of the outlier
	// score, 0 without outlier scores.
	OutlierThreshold float64         `json:"outlier_threshold"`
	Scale            string          `json:"scale"`
	Gamma            float64         `json:"gamma"`
	Gammas           []float64       `json:"gammas"`
	C                float64         `json:"C"`
	Run              *modelfile.Run  `json:"run"`
	Report           json.RawMessage `json:"report"` // null for a model read from a file
	Iterations       int             `json:"iterations"`
}

// info returns the description of f as JSON.
func (f *fitted) info() ([]byte, error) {
	m := f.mf.Model
	j := infoJSON{
		Features: f.mf.Features, NFeatures: m.Dim(), NSV: len(m.Alpha), Clusters: -1,
		Scale: f.mf.Scale.String(), Gamma: m.Gamma, Gammas: m.Gammas, C: m.C,
		Run: f.mf.Run, Report: f.report, Iterations: m.Stats.Iterations,
	}
	if p := f.mf.Partition; p != nil {
		j.Clustered, j.Clusters, j.Rule, j.Outliers = true, p.Clusters(), p.Rule().String(), p.Outliers()
		j.OutlierThreshold = p.OutlierThreshold()
	}
	if j.Report == nil {
		j.Report = json.RawMessage("null")
	}
	return json.Marshal(&j)
}

// supportVectors writes the support vectors, mapped back to the units of
// the data by the inverse of the model's scaler, to sv (row-major, n_sv×d)
// and their coefficients to alpha. A model with a subspace has its
// support vectors in it: each is written as the point of the data's space
// it stands for (svclust.Model.SupportVectors).
func (f *fitted) supportVectors(sv, alpha []float64) {
	m := f.mf.Model
	d := m.Dim()
	svs := m.SupportVectors()
	for i := range alpha {
		for j, v := range svs.RawRowView(i) {
			sv[i*d+j] = v/f.mf.Scaler.Mul[j] + f.mf.Scaler.Shift[j]
		}
	}
	copy(alpha, m.Alpha)
}

// labelsOf writes the labels of the training rows of a fit to dst.
func (f *fitted) labelsOf(dst []int64) {
	for i, l := range f.labels {
		dst[i] = int64(l)
	}
}
