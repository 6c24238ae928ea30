package settings

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
)

// parse returns the settings of the command line args, registered as
// `svclust fit` registers them.
func parse(t *testing.T, args ...string) *Settings {
	t.Helper()
	s := Default()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return s
}

// TestValidate checks that every bad value of every flag that has one is
// an *Error naming the flag, with the message of `svclust fit`.
func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		flag string // the *Error's Flag, which its message names
		msg  string // in the message
	}{
		{[]string{"-gamma", "0"}, "-gamma", `-gamma must be > 0 or "auto"`},
		{[]string{"-gamma", "-1"}, "-gamma", "must be > 0"},
		{[]string{"-gamma", "NaN"}, "-gamma", "must be > 0"},
		{[]string{"-gamma", "Inf"}, "-gamma", "must be > 0"},
		{[]string{"-C", "-1"}, "-C", `-C must be > 0 or "auto"`},
		{[]string{"-C", "NaN"}, "-C", "must be > 0"},
		{[]string{"-budget", "-1"}, "-budget", `-budget must be ≥ 0 (0 means no budget) or "auto"`},
		{[]string{"-budget", "20001"}, "-budget", "-budget 20001: must be ≤ 20,000"},
		{[]string{"-width", "local"}, "-width", `-width must be adaptive or global, not "local"`},
		{[]string{"-rule", "density"}, "-rule", `-rule must be levels or components, not "density"`},
		{[]string{"-min-size", "0"}, "-min-size", `-min-size must be ≥ 1 or "auto"`},
		{[]string{"-rule", "components", "-min-size", "5"}, "-min-size", "-min-size applies only to -rule levels"},
		{[]string{"-all"}, "-all", "-all and -eps apply only to -rule components"},
		{[]string{"-eps", "0.1"}, "-eps", "-all and -eps apply only to -rule components"},
		{[]string{"-rule", "components", "-eps", "-1"}, "-eps", `-eps must be > 0 or "auto"`},
		{[]string{"-rule", "components", "-eps", "Inf"}, "-eps", "must be > 0"},
		{[]string{"-k", "0"}, "-k", "-k must be ≥ 1"},
		{[]string{"-k", "3"}, "-k", "-k applies only to -maintain project-knn and project-random, not merge"},
		{[]string{"-maintain", "project-knn", "-budget", "3", "-k", "5"}, "-k", "-k 5: "},
		{[]string{"-maintain", "prune"}, "-maintain", `-maintain must be removal, project-knn, project-random or merge, not "prune"`},
		{[]string{"-tol", "-1"}, "-tol", "-tol must be ≥ 0 and finite (0 runs -max-iter steps)"},
		{[]string{"-tol", "NaN"}, "-tol", "-tol must be ≥ 0"},
		{[]string{"-max-iter", "-5"}, "-max-iter", "-max-iter must be ≥ 0 (0 means the default)"},
		{[]string{"-max-iter", "1000000001"}, "-max-iter", "-max-iter 1000000001: must be ≤ 1,000,000,000"},
		{[]string{"-min-iter", "-2"}, "-min-iter", "-min-iter must be ≥ -1 (0 means the default, -1 the paper's rule)"},
		{[]string{"-min-iter", "1000000001"}, "-min-iter", "-min-iter 1000000001: must be ≤ 1,000,000,000"},
		{[]string{"-m", "0"}, "-m", "-m must be ≥ 2"},
		{[]string{"-m", "1"}, "-m", "-m must be ≥ 2"},
		{[]string{"-m", "1001"}, "-m", "-m 1001: must be ≤ 1,000"},
		{[]string{"-scale", "unit"}, "-scale", `-scale must be none, zscore or minmax, not "unit"`},
		{[]string{"-workers", "-1"}, "-workers", "-workers must be ≥ 0 (0 means all cores)"},
		{[]string{"-workers", "1025"}, "-workers", "-workers 1025: must be ≤ 1,024"},
		{[]string{"-sample", "10"}, "-sample", "-sample needs -stream"},
		{[]string{"-stream", "-sample", "0"}, "-sample", "-sample must be ≥ 1"},
		{[]string{"-outlier-threshold", "0"}, "-outlier-threshold", "-outlier-threshold must be in (0, 1), not 0"},
		{[]string{"-outlier-threshold", "1"}, "-outlier-threshold", "must be in (0, 1)"},
		{[]string{"-outlier-threshold", "NaN"}, "-outlier-threshold", "must be in (0, 1)"},
		{[]string{"-outliers", "-outlier-threshold", "-0.5"}, "-outlier-threshold", "must be in (0, 1)"},
		{[]string{"-stream", "-sample", "10000001"}, "-sample", "-sample 10000001: must be ≤ 10,000,000"},
	} {
		err := parse(t, tc.args...).Validate()
		var e *Error
		if !errors.As(err, &e) || e.Flag != tc.flag || !strings.Contains(err.Error(), tc.flag) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: error %v; want an *Error of %s with %q", tc.args, err, tc.flag, tc.msg)
		}
	}
}

// TestValidateAccepts checks the settings that are valid at the edges.
func TestValidateAccepts(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		nil,
		{"-gamma", "auto", "-C", "AUTO", "-budget", "auto"},
		{"-budget", "0"},
		{"-budget", "20000", "-m", "1000", "-workers", "1024", "-max-iter", "1000000000", "-min-iter", "-1"},
		{"-maintain", "project-knn", "-budget", "3"}, // the default k, capped by the budget
		{"-maintain", "project-random", "-k", "7"},
		{"-rule", "components", "-all", "-eps", "0.2", "-outliers"},
		{"-outliers", "-outlier-threshold", "0.999"},
		{"-tol", "0", "-scale", "none"},
		{"-stream", "-sample", "1"},
	} {
		if err := parse(t, args...).Validate(); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestConfig checks the mapping of the flags to the library's settings,
// the conventions of the package doc.
func TestConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want svclust.Config
	}{
		{nil, svclust.Config{Maintainer: svclust.Merge{}, Tol: svclust.DefaultTol, Seed: 1}},
		{[]string{"-budget", "0"}, svclust.Config{Budget: svclust.NoBudget, Maintainer: svclust.Merge{}, Tol: svclust.DefaultTol, Seed: 1}},
		{[]string{"-budget", "40", "-gamma", "2", "-C", "3", "-tol", "0", "-seed", "9", "-width", "global"},
			svclust.Config{Gamma: 2, C: 3, Budget: 40, Maintainer: svclust.Merge{}, Tol: -1, Seed: 9, Width: auto.GlobalWidth}},
		// -k not given: the library's default, capped by the budget.
		{[]string{"-maintain", "project-knn"}, svclust.Config{Maintainer: svclust.Projection{Pick: svclust.Nearest}, Tol: svclust.DefaultTol, Seed: 1}},
		{[]string{"-maintain", "project-random", "-k", "4", "-max-iter", "5", "-min-iter", "-1", "-workers", "2"},
			svclust.Config{Maintainer: svclust.Projection{Pick: svclust.Random, K: 4}, Tol: svclust.DefaultTol, MaxIter: 5, MinIter: -1, Seed: 1, Workers: 2}},
	} {
		got, err := parse(t, tc.args...).Config()
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: Config %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	m, err := parse(t, "-rule", "components", "-eps", "0.5", "-m", "7", "-outliers", "-workers", "3", "-outlier-threshold", "0.4").ClusterMethod()
	if cp, ok := m.(*cluster.Components); err != nil || !ok || cp.Eps != 0.5 || cp.M != 7 || !cp.Outliers || cp.Workers != 3 || cp.All || cp.OutlierThreshold != 0.4 {
		t.Errorf("components: ClusterMethod %+v, %v", m, err)
	}
	// A streamed run labels every row by the partition: -rule components
	// then follows the trajectory of every sample row.
	m, err = parse(t, "-rule", "components", "-stream").ClusterMethod()
	if cp, ok := m.(*cluster.Components); err != nil || !ok || !cp.All {
		t.Errorf("components -stream: ClusterMethod %+v, %v; want All", m, err)
	}
	m, err = parse(t, "-min-size", "12", "-stream").ClusterMethod()
	if lv, ok := m.(*cluster.Levels); err != nil || !ok || lv.MinSize != 12 || lv.M != cluster.DefaultM {
		t.Errorf("levels -stream: ClusterMethod %+v, %v", m, err)
	}
}

// TestConfigFields fails when svclust.Config or the clustering
// configuration gains a field, until Settings knows whether a flag sets it.
func TestConfigFields(t *testing.T) {
	t.Parallel()
	// Config: all but Progress come from flags. cluster.Levels: all but
	// Progress, RippleZ, LevelPower, Neighbors and LevelLinks, the
	// library's defaults (and its unexported fields anchored and
	// allSteps, which cluster.FitUpdate sets);
	// cluster.Components: all but Progress and Neighbors (and its two
	// unexported fields for tests).
	if n := reflect.TypeFor[svclust.Config]().NumField(); n != 12 {
		t.Errorf("svclust.Config has %d fields, not 12: check Settings.Config", n)
	}
	if n := reflect.TypeFor[cluster.Levels]().NumField(); n != 12 {
		t.Errorf("cluster.Levels has %d fields, not 12: check Settings.ClusterMethod", n)
	}
	if n := reflect.TypeFor[cluster.Components]().NumField(); n != 10 {
		t.Errorf("cluster.Components has %d fields, not 10: check Settings.ClusterMethod", n)
	}
}

// TestRoundTrip checks that settings encode as JSON and decode to equal
// settings, which build the same configurations: svclust-beam sends them
// to its workers so.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		nil,
		{"-gamma", "0.25", "-C", "12.5", "-budget", "0", "-width", "global", "-maintain", "project-knn", "-k", "3", "-label", "y"},
		{"-rule", "components", "-all", "-eps", "0.125", "-outliers", "-outlier-threshold", "0.25", "-tol", "0", "-m", "9", "-seed", "18446744073709551615", "-stream", "-sample", "77"},
		{"-budget", "50", "-min-size", "8", "-max-iter", "1000", "-min-iter", "-1", "-workers", "2", "-scale", "minmax"},
	} {
		s := parse(t, args...)
		s.TunedC = true
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var got Settings
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&got, s) {
			t.Errorf("%v: %s decodes to\n%+v\nwant\n%+v", args, b, got, *s)
		}
		c1, err1 := s.Config()
		c2, err2 := got.Config()
		k1, _ := s.ClusterMethod()
		k2, _ := got.ClusterMethod()
		if err1 != nil || err2 != nil || !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(k1, k2) {
			t.Errorf("%v: configurations differ after the round trip", args)
		}
	}
}

// TestFlagError checks that the library's *ConfigError becomes an *Error
// naming the flag of its field, and that other errors pass unchanged.
func TestFlagError(t *testing.T) {
	t.Parallel()
	err := FlagError(&svclust.ConfigError{Field: "Maintainer.K", Value: 9, Reason: "must be ≤ the budget"})
	var e *Error
	if !errors.As(err, &e) || e.Flag != "-k" || err.Error() != "-k 9: must be ≤ the budget" {
		t.Errorf("FlagError: %v", err)
	}
	err = FlagError(&svclust.ConfigError{Field: "RippleZ", Value: 1, Reason: "r"})
	if !errors.As(err, &e) || e.Flag != "" || !strings.Contains(err.Error(), "RippleZ") {
		t.Errorf("FlagError of a field no flag sets: %v", err)
	}
	other := errors.New("x")
	if FlagError(other) != other || FlagError(nil) != nil {
		t.Error("FlagError changed an error that is not a ConfigError")
	}
}

// TestRecord checks the run record: how each of γ, C and the budget was
// chosen, the strategy ("none" without a budget) and the k of a projection.
func TestRecord(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	m := &svclust.Model{Gamma: 0.5, C: 2, Choice: auto.Choice{Decision: auto.Decision{Budget: 60}}}
	src := Source{Data: "d.csv", Rows: 100, Sample: 50, SHA256: "ab"}
	s := parse(t, "-gamma", "0.5", "-maintain", "project-knn", "-rule", "components")
	s.TunedC = true
	r := s.Record("tool", m, src)
	if r.Tool != "tool" || r.Created != "2023-11-14T22:13:20Z" || r.Seed != 1 || r.Strategy != "project-knn" || r.K != svclust.DefaultK ||
		r.Budget != 60 || r.BudgetFrom != "auto" || r.Rule != "components" || r.Gamma != 0.5 || r.GammaFrom != "given" ||
		r.C != 2 || r.CFrom != "tune" || r.Width != "global" || r.Data != "d.csv" || r.Rows != 100 || r.Sample != 50 || r.DataSHA256 != "ab" {
		t.Errorf("record %+v", r)
	}
	m.Choice.Budget = svclust.NoBudget
	r = parse(t, "-budget", "0", "-maintain", "project-knn").Record("tool", m, src)
	if r.Strategy != "none" || r.K != 0 || r.Budget != svclust.NoBudget || r.BudgetFrom != "given" || r.GammaFrom != "auto" {
		t.Errorf("no budget: record %+v", r)
	}
}

// TestCreationTime checks SOURCE_DATE_EPOCH and the whole seconds.
func TestCreationTime(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if got := CreationTime(); !got.Equal(time.Unix(1700000000, 0)) || got.Location() != time.UTC {
		t.Errorf("SOURCE_DATE_EPOCH: %v", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	if got := CreationTime(); got.Nanosecond() != 0 || got.Location() != time.UTC || time.Since(got) > time.Minute {
		t.Errorf("now: %v", got)
	}
}

// TestParseSep checks the names of the separators and the error of -sep.
func TestParseSep(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]byte{"": 0, "auto": 0, ",": ',', "comma": ',', ";": ';', "semicolon": ';', "\t": '\t', `\t`: '\t', "tab": '\t'} {
		if got, err := ParseSep(in); got != want || err != nil {
			t.Errorf("ParseSep(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	var e *Error
	if _, err := ParseSep("|"); !errors.As(err, &e) || e.Flag != "-sep" || err.Error() != `-sep must be , ; or tab, not "|"` {
		t.Errorf("ParseSep(|): %v", err)
	}
}

// TestSubspaceReason: the report of the subspace rule says why the kernel
// stays on the features when the concentration is below the threshold on
// a small sample but not once scaled to 2,000 rows, and carries the
// scaled value (the Choice of hd8 at 200 rows, data seed 2,
// docs/high-dim.md); the other decisions keep their reasons.
func TestSubspaceReason(t *testing.T) {
	for _, tc := range []struct {
		ch   auto.Choice
		want string // in the reason; "" for no report
	}{
		{auto.Choice{}, ""},
		{auto.Choice{Report: auto.Report{Concentration: 4.85, ConcentrationScaled: 6.47, ConcentrationMax: 6}}, "not once scaled to 2,000 rows"},
		{auto.Choice{Report: auto.Report{Concentration: 6.17, ConcentrationScaled: 7.82, ConcentrationMax: 6}}, "at or above threshold"},
		{auto.Choice{Decision: auto.Decision{Projected: true, Q: 3}, Report: auto.Report{Concentration: 4.21, ConcentrationScaled: 5.61, ConcentrationMax: 6}}, "below threshold: distances concentrate"},
		{auto.Choice{Decision: auto.Decision{Projected: true, Q: 3}, Report: auto.Report{Concentration: 1.42, ConcentrationMax: 6}}, "below threshold: distances concentrate"},
	} {
		s := subspaceOf(tc.ch)
		switch {
		case tc.want == "" && s != nil:
			t.Errorf("%+v: report %+v, want none", tc.ch, s)
		case tc.want == "":
		case s == nil || !strings.Contains(s.Reason, tc.want) || s.ConcentrationScaled != tc.ch.ConcentrationScaled || s.Projected != tc.ch.Projected:
			t.Errorf("%+v: report %+v, want reason with %q and the scaled concentration", tc.ch, s, tc.want)
		}
	}
	b, err := json.Marshal(subspaceOf(auto.Choice{Report: auto.Report{Concentration: 4.85, ConcentrationScaled: 6.47, ConcentrationMax: 6}}))
	if err != nil || !strings.Contains(string(b), `"concentration_scaled":6.47`) {
		t.Errorf("json %s, %v: want concentration_scaled", b, err)
	}
}

// TestErrorNamed checks that an *Error renders the flags it names in the
// words of another front end, and only the flags: a value that spells a
// flag stays as the user gave it.
func TestErrorNamed(t *testing.T) {
	t.Parallel()
	rename := func(flag string) string { return strings.ReplaceAll(strings.TrimPrefix(flag, "-"), "-", "_") }
	for _, tc := range []struct {
		args        []string
		cli, python string
	}{
		{[]string{"-k", "3", "-maintain", "removal"}, "-k applies only to -maintain project-knn and project-random, not removal",
			"k applies only to maintain project-knn and project-random, not removal"},
		{[]string{"-min-size", "4", "-rule", "components"}, "-min-size applies only to -rule levels", "min_size applies only to rule levels"},
		{[]string{"-scale", "-tol"}, `-scale must be none, zscore or minmax, not "-tol"`, `scale must be none, zscore or minmax, not "-tol"`},
	} {
		err := parse(t, tc.args...).Validate()
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("%v: %v is not an *Error", tc.args, err)
		}
		if got := se.Error(); got != tc.cli {
			t.Errorf("%v: Error() = %q, want %q", tc.args, got, tc.cli)
		}
		if got := se.Named(rename); got != tc.python {
			t.Errorf("%v: Named = %q, want %q", tc.args, got, tc.python)
		}
	}
	// A library ConfigError through FlagError names its flag too.
	var se *Error
	if !errors.As(FlagError(&svclust.ConfigError{Field: "MinIter", Value: -5, Reason: "must be ≥ -1"}), &se) {
		t.Fatal("FlagError did not give an *Error")
	}
	if got := se.Named(rename); got != "min_iter -5: must be ≥ -1" {
		t.Errorf("FlagError named %q", got)
	}
}

// TestScaleRows checks the scaling step of the pipeline: the first value
// that overflows is an *OverflowError naming its row and column, before x
// changes; otherwise x is scaled in place or in a copy as asked, and
// FitRows trains on exactly those rows.
func TestScaleRows(t *testing.T) {
	t.Parallel()
	s := Default()
	s.Scale = "none"
	bad := mat.NewDense(3, 2, []float64{0, 1, 2, -1e200, 3, 4})
	orig := mat.DenseCopyOf(bad)
	_, _, err := s.ScaleRows(bad, nil, true)
	var oe *modelfile.OverflowError
	if !errors.As(err, &oe) || oe.Row != 1 || oe.Col != 1 || oe.Value != -1e200 {
		t.Fatalf("error %v (%+v), want the overflow of row 1, column 1", err, oe)
	}
	if !mat.Equal(bad, orig) {
		t.Error("the rows changed before the error")
	}

	s = Default()
	ds, err := dataset.Generate(dataset.Gauss3, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	raw := mat.DenseCopyOf(ds.X)
	sc, scaled, err := s.ScaleRows(ds.X, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ds.X, raw) || mat.Equal(scaled, raw) {
		t.Fatal("a copy was not scaled, or the rows were")
	}
	want := mat.DenseCopyOf(raw)
	dataset.FitScaler(raw, dataset.ScaleZScore).Transform(want)
	if !mat.Equal(scaled, want) || !reflect.DeepEqual(sc, dataset.FitScaler(raw, dataset.ScaleZScore)) {
		t.Fatal("the rows are not z-scored by the scaler fitted on them")
	}
	fit, err := s.FitRows(context.Background(), ds.X, nil, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ds.X, want) || fit.Scaled != ds.X {
		t.Fatal("FitRows did not scale the rows in place")
	}
	m, cl, err := s.Fit(context.Background(), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fit.Model.Alpha, m.Alpha) || !reflect.DeepEqual(fit.Result.Labels, cl.Labels) {
		t.Error("FitRows trained or clustered otherwise than Fit on the scaled rows")
	}
}

// TestScaleRowsBadInput: the shared pipeline returns errors, never panics,
// for what a library caller may pass: nil rows or settings, a scaler of
// another width, NaN or Inf (which were reported as an overflow).
func TestScaleRowsBadInput(t *testing.T) {
	t.Parallel()
	s := Default()
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	if _, _, err := s.ScaleRows(nil, nil, true); !errors.Is(err, svclust.ErrNoData) {
		t.Errorf("nil rows: %v", err)
	}
	if _, err := (*Settings)(nil).FitRows(context.Background(), x, nil, true, nil); err == nil {
		t.Error("nil *Settings: no error")
	}
	if _, _, err := s.ScaleRows(x, &dataset.Scaler{Shift: []float64{0}, Mul: []float64{1}}, true); !errors.Is(err, svclust.ErrDimension) {
		t.Errorf("a scaler of 1 column: %v", err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(-1)} {
		y := mat.DenseCopyOf(x)
		y.Set(1, 0, v)
		var oe *modelfile.OverflowError
		if _, _, err := s.ScaleRows(y, nil, true); !errors.Is(err, svclust.ErrNotFinite) || errors.As(err, &oe) || !strings.Contains(err.Error(), "row 2, column 1") {
			t.Errorf("%v: %v", v, err)
		}
	}
}
