package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
)

// cli runs the command line args in-process and returns the exit status
// and the outputs.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &out, &errb, args)
	return code, out.String(), errb.String()
}

// mustCLI runs args and fails the test unless they succeed.
func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := cli(t, args...)
	if code != 0 {
		t.Fatalf("svclust %s: exit %d\n%s", strings.Join(args, " "), code, errs)
	}
	return out
}

// genFile writes n points of kind to a new file with gen -o.
func genFile(t *testing.T, kind string, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), kind+".csv")
	mustCLI(t, "gen", "-kind", kind, "-n", strconv.Itoa(n), "-seed", "3", "-o", path)
	return path
}

// unlabelled writes n points of Gauss3 without the label column.
func unlabelled(t *testing.T, n int) string {
	t.Helper()
	ds, err := dataset.Generate(dataset.Gauss3, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	ds.Labels, ds.Classes = nil, nil
	return writeFile(t, "nolabel.csv", csvOf(t, ds))
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stdout or stderr
	}{
		{nil, 2, "The commands are"},
		{[]string{"-h"}, 0, "The commands are"},
		{[]string{"help"}, 0, "tune"},
		{[]string{"help", "fit"}, 0, "-max-iter"},
		{[]string{"help", "tune"}, 0, "DBCV"},
		{[]string{"help", "nope"}, 2, "unknown command"},
		{[]string{"nope"}, 2, `unknown command "nope"`},
		{[]string{"fit", "-h"}, 0, "usage: svclust fit"},
	}
	for _, tc := range tests {
		code, out, errs := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("svclust %q: exit %d, want %d; output lacks %q?\n%s%s", tc.args, code, tc.code, tc.want, out, errs)
		}
	}
	// Help goes to stdout, the list for a bare svclust to stderr.
	if _, out, _ := cli(t, "help"); out == "" {
		t.Error("help printed nothing on stdout")
	}
}

func TestGen(t *testing.T) {
	for _, k := range dataset.AllKinds() {
		out := mustCLI(t, "gen", "-kind", string(k), "-n", "50")
		want, err := dataset.Generate(k, 50, 1)
		if err != nil {
			t.Fatal(err)
		}
		_, d := want.X.Dims()
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if header := strings.Join(want.Names, ",") + ",label"; len(lines) != 51 || lines[0] != header {
			t.Errorf("%s: %d lines, header %q, want 51 and %q", k, len(lines), lines[0], header)
		}
		ds, err := dataset.Read(strings.NewReader(out), dataset.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r, c := ds.X.Dims(); r != 50 || c != d {
			t.Errorf("%s: read back %d×%d, want 50×%d", k, r, c, d)
		}
	}
	// -o and stdout hold the same data.
	path := filepath.Join(t.TempDir(), "m.csv")
	mustCLI(t, "gen", "-n", "20", "-o", path)
	if got, want := readFile(t, path), mustCLI(t, "gen", "-n", "20"); got != want {
		t.Error("gen -o differs from standard output")
	}
}

// TestFitPredict checks that predict on the training data reproduces the
// labels of fit -o exactly, for every labelling rule and scaling.
func TestFitPredict(t *testing.T) {
	t.Parallel()
	data := genFile(t, "gauss3", 300)
	moons := genFile(t, "moons", 300)
	for _, tc := range []struct {
		name string
		data string
		args []string
	}{
		{"default", data, nil},
		{"all", data, []string{"-rule", "components", "-all"}},
		{"components outliers", data, []string{"-rule", "components", "-outliers"}},
		{"outliers", data, []string{"-outliers"}},
		{"all outliers", data, []string{"-rule", "components", "-all", "-outliers"}},
		{"removal minmax", data, []string{"-maintain", "removal", "-scale", "minmax"}},
		{"random none", moons, []string{"-maintain", "project-random", "-scale", "none", "-gamma", "2"}},
		{"no budget eps", moons, []string{"-rule", "components", "-budget", "0", "-eps", "EPS", "-C", "8"}},
		{"levels min-size", moons, []string{"-min-size", "40", "-budget", "80"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			labels := filepath.Join(dir, "labels.csv")
			model := filepath.Join(dir, "model.json")
			args := append([]string{"fit", "-o", labels, "-model", model}, tc.args...)
			for i, a := range args {
				if a == "EPS" {
					// An explicit ε: twice the automatic one, so that the
					// strip is not empty whatever the model.
					var v struct{ Eps float64 }
					if err := json.Unmarshal([]byte(mustCLI(t, "fit", "-json", "-rule", "components", "-budget", "0", "-C", "8", tc.data)), &v); err != nil || !(v.Eps > 0) {
						t.Fatalf("automatic ε %v: %v", v.Eps, err)
					}
					args[i] = strconv.FormatFloat(2*v.Eps, 'g', -1, 64)
				}
			}
			mustCLI(t, append(args, tc.data)...)
			want := readFile(t, labels)
			if n := strings.Count(want, "\n"); n != 301 || !strings.HasPrefix(want, "cluster,outlier\n") {
				t.Fatalf("labels file has %d lines", n)
			}
			got := mustCLI(t, "predict", "-model", model, tc.data)
			if got != want {
				t.Errorf("predict differs from fit -o")
			}
			pred := filepath.Join(dir, "pred.csv")
			mustCLI(t, "predict", "-model", model, "-workers", "3", "-o", pred, tc.data)
			if readFile(t, pred) != want {
				t.Errorf("predict -o -workers 3 differs from fit -o")
			}
			if strings.Contains(strings.Join(tc.args, " "), "-outliers") != strings.Contains(want, "\n-1\n") &&
				strings.Contains(want, "\n-1\n") {
				t.Errorf("outlier labels without -outliers")
			}
		})
	}
}

// TestScore checks the columns of score, f and the outlier score, against
// fit -o and fit -outliers: with either rule -outliers labels a row −1
// exactly where its outlier score reaches -outlier-threshold (default
// 0.5), and score, predict and fit -o give the same outlier scores.
func TestScore(t *testing.T) {
	data := genFile(t, "gauss4", 200)
	dir := t.TempDir()
	labels, model := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "model.json")
	for _, tc := range [][]string{
		{"-rule", "components", "-outliers"},
		{"-outliers", "-outlier-threshold", "0.2"},
	} {
		mustCLI(t, append(append([]string{"fit", "-o", labels, "-model", model}, tc...), data)...)
		thr := 0.5
		if tc[len(tc)-2] == "-outlier-threshold" {
			thr = 0.2
		}
		out := mustCLI(t, "score", "-model", model, data)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 201 || lines[0] != "score,outlier" {
			t.Fatalf("%v: %d lines, header %q", tc, len(lines), lines[0])
		}
		fitted := strings.Split(strings.TrimSuffix(readFile(t, labels), "\n"), "\n")
		flagged := 0
		for i, l := range lines[1:] {
			fs, os, _ := strings.Cut(l, ",")
			if _, err := strconv.ParseFloat(fs, 64); err != nil {
				t.Fatal(err)
			}
			s, err := strconv.ParseFloat(os, 64)
			if err != nil || !(s >= 0 && s <= 1) {
				t.Fatalf("%v row %d: outlier score %q", tc, i+1, os)
			}
			c, o, _ := strings.Cut(fitted[i+1], ",")
			if o != os {
				t.Fatalf("%v row %d: outlier score %s, fit -o wrote %s", tc, i+1, os, o)
			}
			if (s >= thr) != (c == "-1") {
				t.Errorf("%v row %d: outlier score %v, fit -outliers label %s", tc, i+1, s, c)
			}
			if c == "-1" {
				flagged++
			}
		}
		if flagged == 0 && thr < 0.5 {
			t.Errorf("%v: no row flagged: the test cannot fail", tc)
		}
	}
	out := mustCLI(t, "score", "-model", model, data)
	// Far from every support vector each kernel term exp(−γ‖x − svᵢ‖²)
	// underflows to 0, so f = Σ αᵢ·0 − 1 = −1 exactly. The features have
	// a standard deviation of about 2, so after z-scoring (10⁶, −10⁶)
	// lies about 5·10⁵ from every support vector in each coordinate, and
	// γ‖x − svᵢ‖² > 746 (exp(−746) rounds to 0 in float64) for any
	// γ > 10⁻⁸; AutoGamma chooses about 20 here.
	// Its outlier score is below 1 (computed in logs, so that far points
	// keep their order) and above the threshold.
	far := writeFile(t, "far.csv", "x1,x2\n1e6,-1e6\n")
	got := mustCLI(t, "score", "-model", model, far)
	f, o, _ := strings.Cut(strings.TrimPrefix(strings.TrimSuffix(got, "\n"), "score,outlier\n"), ",")
	if s, err := strconv.ParseFloat(o, 64); f != "-1" || err != nil || !(s > 0.99 && s < 1) {
		t.Errorf("score far from the data %q, want -1 and an outlier score in (0.99, 1)", got)
	}
	// A data file without the label column gives the same scores.
	ds, err := dataset.ReadFile(data, dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds.Labels, ds.Classes = nil, nil
	if got := mustCLI(t, "score", "-model", model, writeFile(t, "x.csv", csvOf(t, ds))); got != out {
		t.Error("scores change without the label column")
	}
}

func TestFitJSON(t *testing.T) {
	t.Parallel()
	data := genFile(t, "gauss3", 200)
	keys := []string{"n", "d", "clusters", "support_vectors", "iterations", "status", "objective",
		"strip_size", "equilibria", "eps", "train_seconds", "assign_seconds", "gamma", "C",
		"budget", "strategy", "scale", "seed"}
	for _, tc := range []struct {
		data    string
		metrics bool
	}{{data, true}, {unlabelled(t, 200), false}} {
		out := mustCLI(t, "fit", "-json", tc.data)
		var v map[string]any
		dec := json.NewDecoder(strings.NewReader(out))
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if dec.More() {
			t.Error("more than one JSON value")
		}
		for _, k := range keys {
			if _, ok := v[k]; !ok {
				t.Errorf("key %q missing", k)
			}
		}
		m, ok := v["metrics"].(map[string]any)
		if ok != tc.metrics {
			t.Fatalf("metrics present = %v, want %v", ok, tc.metrics)
		}
		if ok {
			for _, k := range []string{"ari", "nmi", "purity", "rand", "db"} {
				if _, ok := m[k]; !ok {
					t.Errorf("metric %q missing", k)
				}
			}
		}
		if v["n"] != 200.0 || v["d"] != 2.0 || v["status"] != "converged" || v["strategy"] != "merge" {
			t.Errorf("unexpected values: %v", v)
		}
		if g := v["gamma"].(float64); !(g > 0) {
			t.Errorf("auto gamma %v not reported", g)
		}
	}
	// The widths: adaptive by default, with the rule's statistics
	// (auto.Choice.RhoWidth); global with -width global or a given γ.
	for _, tc := range []struct {
		args []string
		want string
	}{{nil, "adaptive"}, {[]string{"-width", "global"}, "global"}, {[]string{"-gamma", "2"}, "global"}} {
		var v struct {
			Choice struct {
				Width    string
				RhoWidth float64 `json:"rho_width"`
				Narrowed int
			}
			SupportVectors int `json:"support_vectors"`
		}
		out := mustCLI(t, append(append([]string{"fit", "-json"}, tc.args...), data)...)
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		c := v.Choice
		if c.Width != tc.want || (tc.want == "adaptive") != (c.RhoWidth > 0 && c.Narrowed > 0 && c.Narrowed <= v.SupportVectors) {
			t.Errorf("%v: choice %+v", tc.args, c)
		}
	}
	// -C auto reports the C the library chose.
	var v struct{ C float64 }
	if err := json.Unmarshal([]byte(mustCLI(t, "fit", "-json", "-C", "auto", data)), &v); err != nil || !(v.C > 0) {
		t.Errorf("-C auto: C = %v, %v", v.C, err)
	}
	// The human summary names the chosen γ.
	if out := mustCLI(t, "fit", data); !strings.Contains(out, "(auto)") || !strings.Contains(out, "ARI") {
		t.Errorf("summary:\n%s", out)
	}
}

// TestFitMetricsMatchLibrary checks the metrics of fit -json, which the
// command computes from classes stored in 2 or 4 bytes with a
// metrics.Table, against metrics.Evaluate on the labels it wrote: equal
// bit for bit, as the Table documents. The second file has 70,000
// classes, more than 2 bytes hold.
func TestFitMetricsMatchLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	var many strings.Builder
	many.WriteString("x1,label\n")
	for i := range 70000 {
		fmt.Fprintf(&many, "%d,c%d\n", i%97, i)
	}
	for _, data := range []string{genFile(t, "nested", 1000), writeFile(t, "many.csv", many.String())} {
		out := filepath.Join(t.TempDir(), "labels.csv")
		var got struct{ Metrics metrics.Validity }
		if err := json.Unmarshal([]byte(mustCLI(t, "fit", "-json", "-scale", "none", "-o", out, data)), &got); err != nil {
			t.Fatal(err)
		}
		ds, err := dataset.ReadFile(data, dataset.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lab, err := dataset.ReadFile(out, dataset.ReadOptions{NoLabel: true})
		if err != nil {
			t.Fatal(err)
		}
		pred := make([]int, len(ds.Labels))
		for i := range pred {
			pred[i] = int(lab.X.At(i, 0))
		}
		n, _ := ds.X.Dims()
		want := metrics.Evaluate(nil, ds.Labels, pred)
		want.DB = metrics.DaviesBouldin(ds.X, pred)
		if n <= metrics.CompactnessLimit {
			want.Compactness = metrics.Compactness(ds.X, pred)
		}
		// Compare through JSON, where NaN is null.
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got.Metrics)
		if string(wb) != string(gb) {
			t.Errorf("%s: fit reports %s, metrics.Evaluate gives %s", filepath.Base(data), gb, wb)
		}
	}
}

// TestFitUnlabelledRows checks that rows whose label is empty are left out
// of the metrics of fit (in memory and with -stream) and of tune, and
// counted: the indices are those of the labelled rows alone, where
// counting the empty label as a class lowered the ARI of a file that
// clusters perfectly (issue 34).
func TestFitUnlabelledRows(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	full := genFile(t, "gauss3", 700)
	lines := strings.Split(strings.TrimSuffix(readFile(t, full), "\n"), "\n")
	blank := 0
	for i := 1; i < len(lines); i += 7 {
		lines[i] = lines[i][:strings.LastIndexByte(lines[i], ',')+1]
		blank++
	}
	data := writeFile(t, "holes.csv", strings.Join(lines, "\n")+"\n")
	ds, err := dataset.ReadFile(full, dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{{"fit"}, {"fit", "-stream"}} {
		out := filepath.Join(t.TempDir(), "labels.csv")
		var got struct{ Metrics metrics.Validity }
		if err := json.Unmarshal([]byte(mustCLI(t, append(mode, "-json", "-o", out, data)...)), &got); err != nil {
			t.Fatal(err)
		}
		all := clusterColumn(t, out)
		var truth, pred []int
		for i, c := range ds.Labels {
			if i%7 != 0 {
				truth = append(truth, c)
				pred = append(pred, all[i])
			}
		}
		want := metrics.Evaluate(nil, truth, pred)
		if got.Metrics.ARI != want.ARI || got.Metrics.NMI != want.NMI || got.Metrics.Unlabelled != blank {
			t.Errorf("%v: ARI %v, NMI %v, %d unlabelled; want %v, %v on the labelled rows, %d", mode,
				got.Metrics.ARI, got.Metrics.NMI, got.Metrics.Unlabelled, want.ARI, want.NMI, blank)
		}
		if counted := metrics.AdjustedRand(withBlank(ds.Labels), all); counted == want.ARI {
			t.Errorf("%v: counting the empty label as a class gives the same ARI %v: the test cannot fail", mode, counted)
		}
	}
	if sum := mustCLI(t, "fit", data); !strings.Contains(sum, fmt.Sprintf("3 true classes (%d rows without a label left out)", blank)) {
		t.Errorf("summary does not count the rows without a label:\n%s", sum)
	}
	if out := mustCLI(t, "tune", "-gamma-grid", "auto", "-C-grid", "auto", data); !strings.Contains(out, fmt.Sprintf("NMI: %d rows without a label left out", blank)) {
		t.Errorf("tune does not count the rows without a label:\n%s", out)
	}
	// Every label missing: no external index, and no error.
	for i := 1; i < len(lines); i++ {
		lines[i] = lines[i][:strings.LastIndexByte(lines[i], ',')+1]
	}
	none := writeFile(t, "none.csv", strings.Join(lines, "\n")+"\n")
	for _, mode := range [][]string{{"fit"}, {"fit", "-stream"}} {
		if sum := mustCLI(t, append(mode, none)...); !strings.Contains(sum, "no row has a label") {
			t.Errorf("%v, every label missing:\n%s", mode, sum)
		}
		var got struct{ Metrics *metrics.Validity }
		if err := json.Unmarshal([]byte(mustCLI(t, append(mode, "-json", none)...)), &got); err != nil || got.Metrics == nil ||
			got.Metrics.Unlabelled != len(lines)-1 || got.Metrics.Clusters < 1 || !math.IsNaN(got.Metrics.ARI) {
			t.Errorf("%v -json, every label missing: metrics %+v (%v)", mode, got.Metrics, err)
		}
	}
	if code, _, errs := cli(t, "tune", "-gamma-grid", "auto", "-C-grid", "auto", none); code != 0 || !strings.Contains(errs, "no row of") {
		t.Errorf("tune, every label missing: exit %d, %s", code, errs)
	}
}

// TestNoHeader checks -no-header: a file without its header line, its
// label column named x3, fits, predicts and reports as the file with it;
// without the flag the error names it.
func TestNoHeader(t *testing.T) {
	t.Parallel()
	full := genFile(t, "moons", 400)
	text := readFile(t, full)
	bare := writeFile(t, "bare.csv", text[strings.IndexByte(text, '\n')+1:])
	dir := t.TempDir()
	want, got := filepath.Join(dir, "want.csv"), filepath.Join(dir, "got.csv")
	model := filepath.Join(dir, "m.json")
	sumWant := mustCLI(t, "fit", "-o", want, full)
	sumGot := mustCLI(t, "fit", "-no-header", "-label", "x3", "-o", got, "-model", model, bare)
	if readFile(t, got) != readFile(t, want) {
		t.Error("-no-header -label x3 labels the rows otherwise than the file with its header")
	}
	if metricsLine(sumGot) != metricsLine(sumWant) || metricsLine(sumGot) == "" {
		t.Errorf("metrics %q, with the header %q", metricsLine(sumGot), metricsLine(sumWant))
	}
	pred := filepath.Join(dir, "pred.csv")
	mustCLI(t, "predict", "-no-header", "-model", model, "-o", pred, bare)
	if readFile(t, pred) != readFile(t, got) {
		t.Errorf("predict -no-header wrote %.40q, fit %.40q", readFile(t, pred), readFile(t, got))
	}
	code, _, errs := cli(t, "fit", bare)
	if code != 1 || !strings.Contains(errs, "bare.csv:1: no header") || !strings.Contains(errs, "-no-header") {
		t.Errorf("without -no-header: exit %d, %s", code, errs)
	}
	// Given to a file with a header, the header is a row of text.
	code, _, errs = cli(t, "fit", "-no-header", full)
	if code != 1 || !strings.Contains(errs, `:1:1: not a number: "x1"`) || !strings.Contains(errs, "leave -no-header out") {
		t.Errorf("-no-header on a file with a header: exit %d, %s", code, errs)
	}
	// Line 1 is data: a label there is a label, not a column name, so a
	// byte that is not UTF-8 is a class as on any other line.
	latin := writeFile(t, "latin.csv", "1,\xe9\n3,a\n5,b\n7,\xe9\n")
	if code, _, errs := cli(t, "fit", "-no-header", "-label", "x2", latin); code != 0 {
		t.Errorf("-no-header, a Latin-1 label on line 1: exit %d, %s", code, errs)
	}
}

// metricsLine returns the metrics line of a fit summary, or "".
func metricsLine(summary string) string {
	for line := range strings.SplitSeq(summary, "\n") {
		if strings.HasPrefix(line, "metrics") {
			return line
		}
	}
	return ""
}

// withBlank returns labels with every 7th row's class made a class of its
// own, as the empty label counted as a class would be.
func withBlank(labels []int) []int {
	out := slices.Clone(labels)
	for i := 0; i < len(out); i += 7 {
		out[i] = -1
	}
	return out
}

// clusterColumn returns the cluster column of a file fit -o wrote.
func clusterColumn(t *testing.T, path string) []int {
	t.Helper()
	lab, err := dataset.ReadFile(path, dataset.ReadOptions{NoLabel: true})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := lab.X.Dims()
	out := make([]int, n)
	for i := range out {
		out[i] = int(lab.X.At(i, 0))
	}
	return out
}

// TestEvaluateIndices checks that evaluate computes an internal index only
// when asked for it, and then as the metrics package does, while the
// external indices are always there.
func TestEvaluateIndices(t *testing.T) {
	ds, err := dataset.Generate(dataset.Gauss3, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	dt := newData(ds)
	pred := make([]int, dt.n)
	for i := range pred {
		pred[i] = i % 3
	}
	db, comp := metrics.DaviesBouldin(dt.ds.X, pred), metrics.Compactness(dt.ds.X, pred)
	for _, want := range []metrics.Indices{{}, {DaviesBouldin: true}, {Compactness: true}, {DaviesBouldin: true, Compactness: true}} {
		s := metrics.Assess(dt.ds.X, dt.truth, pred, want)
		if want.DaviesBouldin && s.DB != db || !want.DaviesBouldin && !math.IsNaN(s.DB) {
			t.Errorf("%+v: DB %v; metrics.DaviesBouldin gives %v", want, s.DB, db)
		}
		if want.Compactness && s.Compactness != comp || !want.Compactness && !math.IsNaN(s.Compactness) {
			t.Errorf("%+v: compactness %v; metrics.Compactness gives %v", want, s.Compactness, comp)
		}
		if math.IsNaN(s.ARI) || s.Clusters != 3 {
			t.Errorf("%+v: ARI %v, %d clusters; want a number and 3", want, s.ARI, s.Clusters)
		}
	}
}

func TestTune(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	data := genFile(t, "gauss3", 300)
	grid := []string{"-gamma-grid", "0.5x,auto,4", "-C-grid", "auto,8"}
	var first string
	for _, w := range []string{"1", "4"} {
		out := mustCLI(t, append(append([]string{"tune", "-json", "-workers", w}, grid...), data)...)
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("-workers %s changed the result:\n%s\n%s", w, out, first)
		}
	}
	var res tuneJSON
	if err := json.Unmarshal([]byte(first), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Grid) != 6 || res.Best == nil || res.Criterion != "nmi" || res.Strategy != "merge" {
		t.Fatalf("result %s", first)
	}
	g := res.Grid
	if g[0].GammaGrid != "0.5x" || g[1].CGrid != "8" || g[2].GammaGrid != "auto" || g[4].Gamma != 4 || float64(g[0].Gamma) != 0.5*res.AutoGamma || float64(g[2].Gamma) != res.AutoGamma {
		t.Errorf("grid is not γ-major or not resolved: %s", first)
	}
	for _, p := range g {
		if p.Index == nil || p.DBCV == nil || *p.Index > *res.Best.Index {
			t.Errorf("grid point %+v: want a score and a DBCV, no score above the best %v", p, *res.Best.Index)
		}
	}

	// -o and -model of the best setting agree with predict.
	dir := t.TempDir()
	labels, model := filepath.Join(dir, "l.csv"), filepath.Join(dir, "m.json")
	out := mustCLI(t, append(append([]string{"tune", "-metric", "ari", "-o", labels, "-model", model}, grid...), data)...)
	if !strings.Contains(out, "best (by ari)") {
		t.Errorf("table:\n%s", out)
	}
	if got := mustCLI(t, "predict", "-model", model, data); got != readFile(t, labels) {
		t.Error("predict differs from tune -o")
	}

	// Without labels the criterion is DBCV: the best point has the
	// largest, and no score is reported.
	out = mustCLI(t, append(append([]string{"tune", "-json"}, grid...), unlabelled(t, 200))...)
	res = tuneJSON{}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Criterion != "dbcv" || res.Best == nil || res.Best.Index != nil {
		t.Fatalf("unlabelled result %s", out)
	}
	for _, p := range res.Grid {
		if *p.DBCV > *res.Best.DBCV || p.Stability != nil {
			t.Errorf("grid point %+v has a DBCV above the best %v, or a stability with one run", p, *res.Best.DBCV)
		}
	}

	// -runs 2 reports a stability in [−1, 1] (an ARI) and leaves the rest
	// as with one run.
	out2 := mustCLI(t, append(append([]string{"tune", "-json", "-runs", "2"}, grid...), unlabelled(t, 200))...)
	var res2 tuneJSON
	if err := json.Unmarshal([]byte(out2), &res2); err != nil {
		t.Fatal(err)
	}
	for i, p := range res2.Grid {
		if p.Stability == nil || *p.Stability < -1 || *p.Stability > 1 {
			t.Errorf("-runs 2: grid point %+v has no stability in [−1, 1]", p)
			continue
		}
		q := *p
		q.Stability = nil
		a, _ := json.Marshal(q)
		b, _ := json.Marshal(res.Grid[i])
		if string(a) != string(b) {
			t.Errorf("-runs 2 changed grid point %d: %s, with one run %s", i, a, b)
		}
	}

	// A grid where every fit fails is an error.
	code, _, errs := cli(t, "tune", "-rule", "components", "-eps", "1e-300", "-gamma-grid", "1", "-C-grid", "8", data)
	if code != 1 || !strings.Contains(errs, "every grid point failed") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	t.Parallel()
	out := mustCLI(t, "demo", "-n", "200")
	for _, k := range dataset.Kinds() {
		if !strings.Contains(out, string(k)) {
			t.Errorf("demo lacks %s:\n%s", k, out)
		}
	}
	var rows []demoRow
	if err := json.Unmarshal([]byte(mustCLI(t, "demo", "-n", "200", "-json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[2].Kind != "gauss3" || rows[2].TrueClusters != 3 {
		t.Errorf("rows %+v", rows)
	}
}

// flagNames returns the names of the flags of fs, sorted.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	sort.Strings(names)
	return names
}

// TestDoc checks that the manual in doc.go names every command and flag.
func TestDoc(t *testing.T) {
	doc := readFile(t, "doc.go")
	for _, c := range commands() {
		if !strings.Contains(doc, "svclust "+c.UsageLine) {
			t.Errorf("doc.go lacks the usage line of %s", c.Name())
		}
		for _, f := range flagNames(c.Flag) {
			if deprecated(c.Flag.Lookup(f)) && strings.Contains(doc, "-"+f) {
				continue // listed with the other old names of its kind
			}
			if !strings.Contains(doc, "\t-"+f+" ") && !strings.Contains(doc, "-"+f+"\n") {
				t.Errorf("doc.go does not describe %s -%s", c.Name(), f)
			}
		}
	}
}

// TestInternalError checks that a panic is reported, not shown as a trace.
func TestInternalError(t *testing.T) {
	c := &Command{UsageLine: "boom", Flag: flag.NewFlagSet("boom", flag.ContinueOnError)}
	c.Run = func(context.Context, *env, []string) error { panic("kaboom") }
	var out, errb bytes.Buffer
	code := runCommands(context.Background(), &out, &errb, []string{"boom"}, append(commands(), c))
	if errs := errb.String(); code != 1 || errs != "svclust: internal error: kaboom\n" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestCPUProfile(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	mustCLI(t, "fit", "-cpuprofile", prof, data)
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("no profile: %v", err)
	}
}

// TestOldModelNoOutliers: a model file of version 5, written before the
// outlier scores, still predicts and scores as the svclust that wrote it
// did, without the outlier column, and says how to get it.
func TestOldModelNoOutliers(t *testing.T) {
	dir := filepath.Join("..", "..", "modelfile", "testdata", "old")
	data, model := filepath.Join(dir, "data.csv"), filepath.Join(dir, "v5-levels.json")
	for cmd, want := range map[string]string{"predict": "v5-levels.pred", "score": "v5-levels.score"} {
		code, stdout, stderr := cli(t, cmd, "-model", model, data)
		if code != 0 || !sameColumn(stdout, readFile(t, filepath.Join(dir, want))) {
			t.Errorf("%s: exit %d, output differs from %s", cmd, code, want)
		}
		if !strings.Contains(stderr, "no outlier column; fit the data again to get it") {
			t.Errorf("%s: stderr %q, want the note naming the fix", cmd, stderr)
		}
	}
}

// sameColumn reports whether two one-column CSV outputs have the same
// header and, line by line, the same value: labels exactly, scores within
// the bound of modelfile's closeScore (the svclust that wrote the old
// files took its kernel values from math.Exp, within 2 ulp of today's).
func sameColumn(got, want string) bool {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(g) != len(w) || len(g) == 0 || g[0] != w[0] {
		return false
	}
	for i := 1; i < len(g); i++ {
		if g[i] == w[i] {
			continue
		}
		a, errA := strconv.ParseFloat(g[i], 64)
		b, errB := strconv.ParseFloat(w[i], 64)
		if errA != nil || errB != nil || math.Abs(a-b) > 1e-14*(1+math.Abs(b)) {
			return false
		}
	}
	return true
}
