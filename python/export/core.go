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
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// An errValue is an error the Python package raises as ValueError: bad
// data or bad parameters. Other errors (context.Canceled aside) are
// RuntimeErrors.
type errValue struct{ msg string }

func (e *errValue) Error() string { return e.msg }

func valuef(format string, args ...any) error {
	return &errValue{fmt.Sprintf(format, args...)}
}

// The bounds of the size parameters, as the svclust command's limits.go
// has them for its flags.
const (
	maxBudget  = 20_000
	maxM       = 1000
	maxIter    = 1_000_000_000
	maxWorkers = 1024
)

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
	if a.v != math.Trunc(a.v) || math.Abs(a.v) > 1<<53 {
		return 0, valuef(`%s must be a whole number or "auto", not %v`, name, a.v)
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

	// Features names the columns (nil for a plain array), and Data names
	// the data in the model file's run record. SourceDateEpoch is the
	// caller's $SOURCE_DATE_EPOCH, which the Go runtime of a shared
	// library does not see change (it reads the environment once).
	Features        []string `json:"features"`
	Data            string   `json:"data"`
	SourceDateEpoch string   `json:"source_date_epoch"`
}

// paramOf maps the Field of a *svclust.ConfigError to the parameter.
var paramOf = map[string]string{
	"Gamma": "gamma", "C": "C", "Budget": "budget", "Width": "width",
	"Maintainer.K": "k", "Tol": "tol", "MaxIter": "max_iter", "Eps": "eps",
	"M": "m", "Workers": "workers", "Rule": "rule", "MinSize": "min_size",
}

// configError turns a *svclust.ConfigError into a ValueError naming the
// parameter, as the svclust command names its flag.
func configError(err error) error {
	var ce *svclust.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	if name, ok := paramOf[ce.Field]; ok {
		return valuef("%s %v: %s", name, ce.Value, ce.Reason)
	}
	return &errValue{err.Error()}
}

// setup is a validated fit configuration.
type setup struct {
	p     params
	train svclust.Config
	// rule selects levels or components, each with its settings.
	rule       cluster.Rule
	levels     cluster.Levels
	components cluster.Components
	scale      dataset.Scale
	k          int // the k of a projection, given or DefaultK
}

// method returns the clustering rule of s with its settings.
func (s *setup) method() cluster.Method {
	if s.rule == cluster.RuleComponents {
		return &s.components
	}
	return &s.levels
}

// validate checks the parameters as the svclust command checks its fit
// flags, with the same messages naming the parameter instead of the flag.
func validate(js []byte) (*setup, error) {
	s := &setup{}
	p := &s.p
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, valuef("parameters: %v", err)
	}
	finitePos := func(a autoValue) bool { return a.v > 0 && !math.IsInf(a.v, 0) }
	if !p.Gamma.auto {
		if !finitePos(p.Gamma) {
			return nil, valuef(`gamma must be > 0 or "auto"`)
		}
		s.train.Gamma = p.Gamma.v
	}
	if !p.C.auto {
		if !finitePos(p.C) {
			return nil, valuef(`C must be > 0 or "auto"`)
		}
		s.train.C = p.C.v
	}
	if !p.Budget.auto {
		b, err := p.Budget.integer("budget")
		switch {
		case err != nil:
			return nil, err
		case b < 0:
			return nil, valuef(`budget must be ≥ 0 (0 means no budget) or "auto"`)
		case b == 0:
			s.train.Budget = svclust.NoBudget
		case b > maxBudget:
			return nil, valuef("budget %d: must be ≤ %d", b, maxBudget)
		default:
			s.train.Budget = b
		}
	}
	width, err := svclust.ParseWidth(p.Width)
	if err != nil {
		return nil, valuef("width must be adaptive or global, not %q", p.Width)
	}
	s.train.Width = width
	rule, err := cluster.ParseRule(p.Rule)
	if err != nil {
		return nil, valuef("rule must be levels or components, not %q", p.Rule)
	}
	s.rule = rule
	if !p.MinSize.auto {
		ms, err := p.MinSize.integer("min_size")
		if err != nil {
			return nil, err
		}
		if ms < 1 {
			return nil, valuef(`min_size must be ≥ 1 or "auto"`)
		}
		if rule != cluster.RuleLevels {
			return nil, valuef("min_size applies only to rule levels")
		}
		s.levels.MinSize = ms
	}
	if rule != cluster.RuleComponents && (p.All || !p.Eps.auto) {
		return nil, valuef("all and eps apply only to rule components")
	}
	k := 0 // not given: the library's default, capped by the budget
	s.k = svclust.DefaultK
	if p.K != nil {
		if *p.K < 1 {
			return nil, valuef("k must be ≥ 1")
		}
		k, s.k = *p.K, *p.K
	}
	mt, perr := svclust.ParseMaintainer(p.Maintain, k)
	if _, proj := mt.(svclust.Projection); p.K != nil && !proj && perr == nil {
		return nil, valuef("k applies only to maintain project-knn and project-random, not %s", p.Maintain)
	}
	if perr != nil {
		if p.K != nil && slicesContains(svclust.MaintainerNames(), p.Maintain) {
			return nil, valuef("k applies only to maintain project-knn and project-random, not %s", p.Maintain)
		}
		return nil, valuef("maintain must be %s, not %q", strings.Join(svclust.MaintainerNames(), ", "), p.Maintain)
	}
	s.train.Maintainer = mt
	if !p.Eps.auto {
		if !finitePos(p.Eps) {
			return nil, valuef(`eps must be > 0 or "auto"`)
		}
		s.components.Eps = p.Eps.v
	}
	switch tol := float64(p.Tol); {
	case !(tol >= 0) || math.IsInf(tol, 0):
		return nil, valuef("tol must be ≥ 0 and finite (0 runs max_iter steps)")
	case tol == 0:
		s.train.Tol = -1 // the library's "no stopping rule"
	default:
		s.train.Tol = tol
	}
	switch {
	case p.MaxIter < 0:
		return nil, valuef("max_iter must be ≥ 0 (0 means the default)")
	case p.MaxIter > maxIter:
		return nil, valuef("max_iter %d: must be ≤ %d", p.MaxIter, maxIter)
	case p.MinIter < -1:
		return nil, valuef("min_iter must be ≥ -1 (0 means the default, -1 the paper's rule)")
	case p.MinIter > maxIter:
		return nil, valuef("min_iter %d: must be ≤ %d", p.MinIter, maxIter)
	case p.M < 2:
		return nil, valuef("m must be ≥ 2")
	case p.M > maxM:
		return nil, valuef("m %d: must be ≤ %d", p.M, maxM)
	case p.Workers < 0:
		return nil, valuef("workers must be ≥ 0 (0 means all cores)")
	case p.Workers > maxWorkers:
		return nil, valuef("workers %d: must be ≤ %d", p.Workers, maxWorkers)
	}
	s.train.MaxIter, s.train.MinIter = p.MaxIter, p.MinIter
	s.levels.M, s.components.M = p.M, p.M
	if s.scale, err = dataset.ParseScale(p.Scale); err != nil {
		return nil, valuef("scale must be none, zscore or minmax, not %q", p.Scale)
	}
	s.train.Seed, s.train.Workers = p.Seed, p.Workers
	s.components.All, s.components.Outliers, s.components.Workers = p.All, p.Outliers, p.Workers
	s.levels.Outliers, s.levels.Workers = p.Outliers, p.Workers
	if err := s.train.Validate(); err != nil {
		return nil, configError(err)
	}
	if err := s.method().Validate(); err != nil {
		return nil, configError(err)
	}
	return s, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// fitted is a fitted estimator: the model file and, after a fit, the labels
// of the training rows and the report of fit -json.
type fitted struct {
	mf     *modelfile.File
	labels []int  // nil for a model read from a file
	report []byte // nil for a model read from a file
}

// notFinite returns the error of the first value of x (n×d, row-major) that
// is NaN or infinite, in the words of the svclust command, or nil.
func notFinite(x []float64, d int) error {
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return valuef("X[%d, %d]: %s: %v", k/d, k%d, strings.TrimPrefix(dataset.ErrNotFinite.Error(), "dataset: "), v)
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
	if err := checkData(x, n, d); err != nil {
		return nil, err
	}
	raw := mat.NewDense(n, d, x)
	scaler := dataset.FitScaler(raw, s.scale)
	for i := range n {
		row := x[i*d : i*d+d]
		if j, u := scaler.Overflow(row); j >= 0 {
			e := modelfile.NewOverflowError(scaler, row, j, u)
			e.Row = i
			return nil, overflowError(e, s.scale, s.p.Features)
		}
	}
	scaled := raw
	if s.scale != dataset.ScaleNone {
		if !owned {
			scaled = mat.DenseCopyOf(raw)
		}
		scaler.Transform(scaled)
	}
	model, err := svclust.TrainContext(ctx, scaled, &s.train)
	if err != nil {
		return nil, configError(err)
	}
	cl, err := cluster.Fit(model, scaled, s.method())
	if err != nil {
		return nil, configError(err)
	}
	mf := &modelfile.File{
		Scale:     s.scale,
		Scaler:    scaler,
		Features:  s.p.Features,
		Label:     "label",
		Run:       runOf(s, model, x, n),
		Model:     model,
		Partition: cl.Partition,
	}
	report, err := json.Marshal(reportOf(s, model, cl, n, d))
	if err != nil {
		return nil, err
	}
	return &fitted{mf: mf, labels: cl.Labels, report: report}, nil
}

// overflowError is the error of a finite value of X that the scaling sc
// maps beyond ±dataset.MaxScaled, in the words of the svclust command (its
// overflowError): e is the library's description of the value, names the
// feature names or nil. When the scaling of the column itself overflowed,
// the error is about the column.
func overflowError(e *modelfile.OverflowError, sc dataset.Scale, names []string) error {
	what := fmt.Sprintf("column %d", e.Col)
	if names != nil {
		what = fmt.Sprintf("feature %q", names[e.Col])
	}
	if e.Column {
		return valuef("X: %s: its mean, range or standard deviation overflows float64, so its values cannot be scaled (scale %s); divide the column by a power of ten", what, sc)
	}
	why := fmt.Sprintf("to %v", e.Scaled)
	if finite(e.Scaled) {
		why = fmt.Sprintf("to %.3g, beyond ±%.0e, where the squared distances of the kernel overflow", e.Scaled, dataset.MaxScaled)
	}
	return valuef("X[%d, %d]: %s: the value %v overflows when scaled (scale %s): it scales %s; divide the column by a power of ten", e.Row, e.Col, what, e.Value, sc, why)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// runOf returns the run record of the model file of a fit, as svclust fit
// writes it, with the data named by params.Data and hashed as the
// little-endian bytes of its float64 values.
func runOf(s *setup, m *svclust.Model, x []float64, n int) *modelfile.Run {
	h := sha256.New()
	var b [8]byte
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	from := func(auto bool) string {
		if auto {
			return "auto"
		}
		return "given"
	}
	r := &modelfile.Run{
		Tool:       tool(),
		Created:    settings.CreationTimeAt(s.p.SourceDateEpoch).Format(time.RFC3339),
		Seed:       s.p.Seed,
		Strategy:   s.p.Maintain,
		Budget:     m.Choice.Budget,
		BudgetFrom: from(s.p.Budget.auto),
		Rule:       s.p.Rule,
		Gamma:      m.Gamma,
		GammaFrom:  from(s.p.Gamma.auto),
		C:          m.C,
		CFrom:      from(s.p.C.auto),
		Width:      m.Choice.WidthRule().String(),
		Data:       s.p.Data,
		Rows:       n,
		DataSHA256: hex.EncodeToString(h.Sum(nil)),
	}
	if m.Choice.Budget == svclust.NoBudget {
		r.Strategy = "none"
	} else if strings.HasPrefix(s.p.Maintain, "project") {
		r.K = s.k
	}
	return r
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

// reportOf returns the report of fit -json without its metrics, which
// need a ground truth.
func reportOf(s *setup, m *svclust.Model, cl *cluster.Result, n, d int) *settings.Report {
	r := settings.NewReport(m, cl, n, d)
	r.Rule, r.Strategy, r.Scale, r.Seed = s.p.Rule, s.p.Maintain, s.p.Scale, s.p.Seed
	return r
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
		return nil, &errValue{err.Error()}
	}
	return &fitted{mf: mf}, nil
}

// infoJSON describes a fitted model to the Python package.
type infoJSON struct {
	Features   []string        `json:"features"`
	NFeatures  int             `json:"n_features"`
	NSV        int             `json:"n_sv"`
	Clusters   int             `json:"n_clusters"` // −1 without a partition
	Clustered  bool            `json:"clustered"`
	Rule       string          `json:"rule"`
	Outliers   bool            `json:"outliers"`
	Scale      string          `json:"scale"`
	Gamma      float64         `json:"gamma"`
	Gammas     []float64       `json:"gammas"`
	C          float64         `json:"C"`
	Run        *modelfile.Run  `json:"run"`
	Report     json.RawMessage `json:"report"` // null for a model read from a file
	Iterations int             `json:"iterations"`
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
// it stands for, Mean + Basisᵀ·sv, the point of the subspace's plane
// that projects onto it.
func (f *fitted) supportVectors(sv, alpha []float64) {
	m := f.mf.Model
	d := m.Dim()
	z := make([]float64, d)
	for i := range alpha {
		row := m.SV.RawRowView(i)
		if p := m.Subspace; p != nil {
			copy(z, p.Mean)
			for k, y := range row {
				for j, b := range p.Basis.RawRowView(k) {
					z[j] += y * b
				}
			}
			row = z
		}
		for j, v := range row {
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
