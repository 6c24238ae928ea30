package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

// robustCase is one case of TestRobust: a command line run in a fresh
// directory $DIR that holds the data file $DATA ($DIR/in.csv) and the model
// file $MODEL ($DIR/m.json). Its outputs are $OUT ($DIR/out.csv, the
// labels) and $SAVE ($DIR/model.json).
type robustCase struct {
	name string
	args []string // the command line, with the names above

	data  string                   // content of $DATA
	stdin string                   // standard input, for DATA "-"
	model func(good string) string // content of $MODEL from a good model file; nil keeps it
	old   bool                     // $OUT and $SAVE exist beforehand

	code int    // exit status
	msg  string // substring of the first line of standard error

	// ok checks a successful run further.
	ok func(t *testing.T, r *robustRun)
}

// robustRun is the result of one case.
type robustRun struct {
	dir            string
	args           []string
	stdout, stderr string
}

func (r *robustRun) path(name string) string { return filepath.Join(r.dir, name) }

// labels returns the labels of $OUT.
func (r *robustRun) labels(t *testing.T) []int {
	t.Helper()
	return parseLabels(t, readFile(t, r.path("out.csv")))
}

func parseLabels(t *testing.T, s string) []int {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if lines[0] != "cluster,outlier" {
		t.Fatalf("labels file starts with %q", lines[0])
	}
	var l []int
	for _, f := range lines[1:] {
		f, o, ok := strings.Cut(f, ",")
		if s, err := strconv.ParseFloat(o, 64); !ok || err != nil || !(s >= 0 && s <= 1) {
			t.Fatalf("outlier score %q: want a number in [0, 1]", o)
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		l = append(l, v)
	}
	return l
}

// report returns the fit -json report on standard output.
func (r *robustRun) report(t *testing.T) *fitJSON {
	t.Helper()
	var j fitJSON
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("fit -json output: %v\n%s", err, r.stdout)
	}
	return &j
}

// Old contents of the outputs, for the cases with old set.
const (
	oldOut   = "old labels\n"
	oldModel = "old model\n"
)

// fitArgs is a fit command line writing both outputs, with flags before
// DATA.
func fitArgs(flags ...string) []string {
	return append(append([]string{"fit", "-json", "-o", "$OUT", "-model", "$SAVE"}, flags...), "$DATA")
}

// modelArgs is a predict or score command line writing $OUT.
func modelArgs(cmd string, flags ...string) []string {
	return append(append([]string{cmd, "-model", "$MODEL", "-o", "$OUT"}, flags...), "$DATA")
}

// runSection matches the run section of a model file, which holds no
// object.
var runSection = regexp.MustCompile(`"run":\{[^{}]*\},`)

// withoutRun returns the model file s without its run section, which
// records the data file and its hash, to compare the models of two runs on
// the same rows from different files.
func withoutRun(s string) string { return runSection.ReplaceAllString(s, "") }

// csvOf writes ds as CSV.
func csvOf(t testing.TB, ds *dataset.Dataset) string {
	t.Helper()
	var b bytes.Buffer
	if err := ds.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// editJSON returns the JSON s after f changes its decoded form.
func editJSON(s string, f func(map[string]any)) string {
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	f(v)
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// inner returns the library model object of a CLI model file.
func inner(v map[string]any) map[string]any { return v["model"].(map[string]any) }

// twoBlobs returns n rows of d features in two blobs whose centres differ by
// 10 in every coordinate (standard deviation 1), with the blob as label.
// Each coordinate has variance 1 + 5² = 26, so after z-scoring two rows of
// one blob lie about √(2d/26) apart and rows of different blobs about
// √(2d/26 + 100d/26): the blobs are √51 ≈ 7.1 times as far apart as their
// points.
func twoBlobs(n, d int) string {
	var b strings.Builder
	for j := range d {
		b.WriteString("x" + strconv.Itoa(j) + ",")
	}
	b.WriteString("label\n")
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range n {
		c := i % 2
		for range d {
			b.WriteString(strconv.FormatFloat(rng.NormFloat64()+10*float64(c), 'f', 3, 64))
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c) + "\n")
	}
	return b.String()
}

// untimed returns the JSON of the report j without its timings.
func untimed(t *testing.T, j *fitJSON) string {
	t.Helper()
	j.TrainSeconds, j.AssignSeconds = 0, 0
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRobust runs every input, flag and model-file case of issue 5 through
// the command line: each must exit with the expected status and a one-line
// message that names the file, line and column or the flag at fault, must
// not panic, and must neither create nor change an output file; the
// legitimate inputs among them must succeed with the documented result.
func TestRobust(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (seconds); go test without -short runs it")
	}
	g3, err := dataset.Generate(dataset.Gauss3, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	valid := csvOf(t, g3) // x1,x2,label: 100 rows, 3 blobs
	// A good model file of valid, as fit -model writes it.
	goodModel := func() string {
		dir := t.TempDir()
		in := filepath.Join(dir, "in.csv")
		if err := os.WriteFile(in, []byte(valid), 0o644); err != nil {
			t.Fatal(err)
		}
		mustCLI(t, "fit", "-budget", "20", "-model", filepath.Join(dir, "m.json"), in)
		return readFile(t, filepath.Join(dir, "m.json"))
	}()
	plain := "x1,x2,label\n0,0,a\n0.1,0.2,a\n0.2,0,a\n5,5,b\n5.1,5.2,b\n5.2,5,b\n"
	long := strings.Repeat("7", 10<<20) // a 10 MB field

	// sameAs checks that the run gave the outputs of the same command line
	// on the data want: labels and model byte for byte, and the report
	// apart from its timings.
	sameAs := func(want string) func(t *testing.T, r *robustRun) {
		return func(t *testing.T, r *robustRun) {
			args := slices.Clone(r.args)
			if i := slices.Index(args, "-"); i >= 0 {
				args[i] = "$DATA" // the same data from a file
			}
			ref := runCase(t, &robustCase{args: args, data: want}, "")
			// The run sections differ in the data's hash (and for
			// standard input its name).
			if readFile(t, r.path("out.csv")) != readFile(t, ref.path("out.csv")) ||
				withoutRun(readFile(t, r.path("model.json"))) != withoutRun(readFile(t, ref.path("model.json"))) {
				t.Error("outputs differ from those of the plain file")
			}
			if a, b := untimed(t, r.report(t)), untimed(t, ref.report(t)); a != b {
				t.Errorf("report %s, want %s", a, b)
			}
		}
	}
	// oneCluster checks that every one of n rows is in cluster 0.
	oneCluster := func(n int) func(t *testing.T, r *robustRun) {
		return func(t *testing.T, r *robustRun) {
			l := r.labels(t)
			if len(l) != n || slices.ContainsFunc(l, func(v int) bool { return v != 0 }) {
				t.Errorf("labels %v, want %d zeros", l, n)
			}
			if j := r.report(t); j.Clusters != 1 {
				t.Errorf("%d clusters, want 1", j.Clusters)
			}
		}
	}
	// labelled checks that $OUT has n labels in [0, clusters).
	labelled := func(n int) func(t *testing.T, r *robustRun) {
		return func(t *testing.T, r *robustRun) {
			l := r.labels(t)
			k := r.report(t).Clusters
			if len(l) != n || k < 1 || slices.ContainsFunc(l, func(v int) bool { return v < 0 || v >= k }) {
				t.Errorf("%d labels %v for %d rows and %d clusters", len(l), l, n, k)
			}
		}
	}

	cases := []robustCase{
		// Data errors: exit 1 with file:line[:column].
		{name: "empty file", args: fitArgs(), data: "", code: 1, msg: "in.csv:1: no header line: empty input"},
		{name: "only a BOM", args: fitArgs(), data: "\ufeff", code: 1, msg: "in.csv:1: no header line"},
		{name: "blank first line", args: fitArgs(), data: "\nx\n1\n", code: 1, msg: "in.csv:1: no header line: line 1 is blank"},
		{name: "header only", args: fitArgs(), data: "x1,x2,label\n", old: true, code: 1, msg: "in.csv:2: no data rows"},
		{name: "header only, no newline", args: fitArgs(), data: "x1,x2", code: 1, msg: "in.csv:2: no data rows"},
		{name: "no header", args: fitArgs(), data: "1,2\n3,4\n", old: true, code: 1, msg: "in.csv:1: no header: line 1 holds only numbers"},
		{name: "ragged row, too many", args: fitArgs(), data: "a,b\n1,2\n1,2,3\n", code: 1, msg: "in.csv:3:3: wrong number of fields: expected 2, got 3"},
		{name: "ragged row, too few", args: fitArgs(), data: "a,b,c\n1,2,3\n1\n", old: true, code: 1, msg: "in.csv:3:2: wrong number of fields: expected 3, got 1"},
		{name: "blank line between rows", args: fitArgs(), data: "a,b\n1,2\n\n3,4\n", code: 1, msg: "in.csv:3: blank line (a row has 2 fields); delete it"},
		{name: "two final newlines", args: fitArgs(), data: "a,b\n1,2\n\n", code: 1, msg: "in.csv:3: blank line"},
		{name: "non-numeric cell", args: fitArgs(), data: "x1,x2,label\n1,2,a\n3,oops,b\n", old: true, code: 1, msg: `in.csv:3:2: not a number: "oops"`},
		{name: "empty cell", args: fitArgs(), data: "a,b\n1,\n", code: 1, msg: `in.csv:2:2: missing value ""; 1 row has missing values, in 1 column ("b") (-na drop skips those rows)`},
		{name: "badly quoted number", args: fitArgs(), data: "a,b\n\"1\"2,2\n", code: 1, msg: "in.csv:2:1: bad quoting: text after the closing quote"},
		{name: "NaN", args: fitArgs(), data: "a,b\n1,2\nNaN,3\n", old: true, code: 1, msg: `in.csv:3:1: missing value "NaN"; 1 row has missing values, in 1 column ("a") (-na drop skips those rows)`},
		{name: "Inf", args: fitArgs(), data: "a,b\n1,Inf\n", code: 1, msg: `in.csv:2:2: not a finite number: "Inf"`},
		{name: "-infinity", args: fitArgs(), data: "a,b\n1,-infinity\n", code: 1, msg: "in.csv:2:2: not a finite number"},
		{name: "1e400", args: fitArgs(), data: "a,b\n1,2\n3,1e400\n", code: 1, msg: `in.csv:3:2: not a finite number: "1e400" is out of range`},
		{name: "-1e400", args: fitArgs(), data: "a,b\n-1e400,2\n", code: 1, msg: "in.csv:2:1: not a finite number"},
		{name: "duplicate label column", args: fitArgs(), data: "label,x,label\na,1,a\n", old: true, code: 1, msg: `in.csv:1:3: duplicate label column "label" (columns 1 and 3)`},
		{name: "duplicate -label column", args: fitArgs("-label", "y"), data: "y,x,y\na,1,a\n", code: 1, msg: `in.csv:1:3: duplicate label column "y"`},
		{name: "missing -label column", args: fitArgs("-label", "class"), data: valid, old: true, code: 1, msg: `in.csv:1: no label column: no column is named "class"`},
		{name: "only a label column", args: fitArgs(), data: "label\na\n", code: 1, msg: "in.csv:1: no feature columns"},
		{name: "10 MB bad cell", args: fitArgs(), data: "a,b\n1,2\n3," + long + "x\n", code: 1, msg: `in.csv:3:2: not a number: "7777777777777777777777777777777777777777"...`},
		{name: "bad cell after CRLF", args: fitArgs(), data: "a,b\r\n1,2\r\n3,x\r\n", code: 1, msg: "in.csv:3:2: not a number"},
		{name: "bad cell after BOM", args: fitArgs(), data: "\ufeffa,b\n1,x\n", code: 1, msg: "in.csv:2:2: not a number"},
		{name: "missing data file", args: append(fitArgs()[:6:6], "$DIR/missing.csv"), code: 1, msg: "missing.csv: no such file or directory"},
		{name: "data file is a directory", args: append(fitArgs()[:6:6], "$DIR"), code: 1, msg: "is a directory"},
		{name: "stdin empty", args: append(fitArgs()[:6:6], "-"), stdin: "", code: 1, msg: "<stdin>:1: no header line"},
		{name: "stdin bad cell", args: append(fitArgs()[:6:6], "-"), stdin: "a,b\n1,2\nz,3\n", old: true, code: 1, msg: "<stdin>:3:1: not a number"},
		{name: "predict bad cell", args: modelArgs("predict"), data: "x1,x2\n1,2\n1,?\n", old: true, code: 1, msg: `in.csv:3:2: not a number: "?"`},
		{name: "score NaN", args: modelArgs("score"), data: "x1,x2\nNaN,2\n", code: 1, msg: `in.csv:2:1: missing value "NaN"`},
		{name: "empty strip", args: fitArgs("-rule", "components", "-eps", "1e-300"), data: valid, old: true, code: 1, msg: "strip |f(x)| ≤ ε holds no point"},

		// Legitimate data: success with the documented result.
		{name: "constant column", args: fitArgs(), data: "a,b,label\n1,5,x\n2,5,x\n3,5,x\n8,5,y\n9,5,y\n", code: 0,
			ok: func(t *testing.T, r *robustRun) {
				// The constant column gets Shift = its value, Mul = 1, so
				// it becomes 0 instead of 0/0 = NaN.
				var mf modelfile.File
				if err := json.Unmarshal([]byte(readFile(t, r.path("model.json"))), &mf); err != nil {
					t.Fatal(err)
				}
				if mf.Scaler.Shift[1] != 5 || mf.Scaler.Mul[1] != 1 {
					t.Errorf("scaler of the constant column: shift %v, mul %v; want 5, 1", mf.Scaler.Shift[1], mf.Scaler.Mul[1])
				}
				labelled(5)(t, r)
			}},
		{name: "constant column, minmax", args: fitArgs("-scale", "minmax"), data: "a,b\n1,-2\n2,-2\n3,-2\n", code: 0, ok: labelled(3)},
		{name: "single row", args: fitArgs(), data: "a,b,label\n1,2,x\n", code: 0, ok: oneCluster(1)},
		{name: "all rows identical", args: fitArgs(), data: "a,b\n1,2\n1,2\n1,2\n1,2\n", code: 0, ok: oneCluster(4)},
		{name: "N below the budget", args: fitArgs("-budget", "50"), data: plain, code: 0,
			ok: func(t *testing.T, r *robustRun) {
				// With 6 rows and a budget of 50 the support set, which
				// holds each row at most once, never exceeds the budget,
				// so no maintenance runs (Stats.Maintenance, kept in the
				// model file) and there are at most 6 support vectors;
				// γ comes from the distances between the rows.
				j := r.report(t)
				if j.SupportVectors > 6 || j.Gamma == 1 {
					t.Errorf("%d support vectors, γ = %v", j.SupportVectors, j.Gamma)
				}
				var mf modelfile.File
				if err := json.Unmarshal([]byte(readFile(t, r.path("model.json"))), &mf); err != nil {
					t.Fatal(err)
				}
				if n := mf.Model.Stats.Maintenance; n != 0 {
					t.Errorf("%d maintenance calls, want 0", n)
				}
				labelled(6)(t, r)
			}},
		{name: "UTF-8 BOM", args: fitArgs(), data: "\ufeff" + plain, code: 0, ok: sameAs(plain)},
		{name: "CRLF", args: fitArgs(), data: strings.ReplaceAll(plain, "\n", "\r\n"), code: 0, ok: sameAs(plain)},
		{name: "BOM, CRLF, no final newline", args: fitArgs(), data: "\ufeff" + strings.TrimSuffix(strings.ReplaceAll(plain, "\n", "\r\n"), "\r\n"), code: 0, ok: sameAs(plain)},
		{name: "no final newline", args: fitArgs(), data: strings.TrimSuffix(plain, "\n"), old: true, code: 0, ok: sameAs(plain)},
		{name: "stdin", args: append(fitArgs()[:6:6], "-"), stdin: plain, old: true, code: 0, ok: sameAs(plain)},
		{name: "10 MB label", args: fitArgs(), data: "a,label\n1,x\n3,y\n2," + long + "\n", code: 0, ok: labelled(3)},
		{name: "10 MB number", args: fitArgs(), data: plain + "1." + strings.Repeat("0", 10<<20) + ",0.5,a\n", code: 0,
			ok: func(t *testing.T, r *robustRun) {
				// 1.000… is 1: the same as a short 1.
				sameAs(plain+"1,0.5,a\n")(t, r)
			}},
		{name: "d = 2000", args: fitArgs("-rule", "components", "-budget", "10", "-all"), data: twoBlobs(30, 2000), code: 0,
			ok: func(t *testing.T, r *robustRun) {
				// With every point followed (-all), the blobs, 7.1 times as
				// far apart as their points (see twoBlobs), are the two
				// clusters.
				j := r.report(t)
				if j.D != 2000 || j.Clusters != 2 || j.Metrics == nil || j.Metrics.ARI != 1 {
					t.Errorf("d = %d, %d clusters, metrics %+v; want 2 clusters with ARI 1", j.D, j.Clusters, j.Metrics)
				}
			}},
		// The paper's rule reads the clusters off the domain f ≥ 0, which
		// C ≤ 1 leaves empty.
		{name: "-C 0.5 warns and runs", args: fitArgs("-rule", "components", "-C", "0.5"), data: valid, old: true, code: 0,
			msg: "svclust: warning: -C 0.5: the domain f ≥ 0 is empty for C ≤ 1: -rule components finds one cluster", ok: oneCluster(100)},
		{name: "-C 1 warns", args: fitArgs("-rule", "components", "-C", "1"), data: valid, code: 0, msg: "warning: -C 1:", ok: oneCluster(100)},
		// The level tree reads every level of f, which C only scales: no
		// warning, and the three blobs of valid are found.
		{name: "-C 0.5 with levels", args: fitArgs("-C", "0.5"), data: valid, code: 0,
			ok: func(t *testing.T, r *robustRun) {
				if strings.Contains(r.stderr, "warning") {
					t.Errorf("stderr %q, want no warning", r.stderr)
				}
				labelled(100)(t, r)
				if j := r.report(t); j.Clusters != 3 || j.Metrics == nil || j.Metrics.ARI != 1 {
					t.Errorf("%d clusters, metrics %+v; want the 3 blobs with ARI 1", j.Clusters, j.Metrics)
				}
			}},
		{name: "-C 0.5 -outliers", args: fitArgs("-rule", "components", "-C", "0.5", "-outliers"), data: valid, code: 0, msg: "warning: -C 0.5",
			ok: func(t *testing.T, r *robustRun) {
				// f ≤ C − 1 < 0 everywhere: one cluster, and −1 exactly
				// where the outlier score reaches ½.
				lines := strings.Split(strings.TrimSuffix(readFile(t, r.path("out.csv")), "\n"), "\n")[1:]
				for i, l := range r.labels(t) {
					_, o, _ := strings.Cut(lines[i], ",")
					s, _ := strconv.ParseFloat(o, 64)
					if l != 0 && l != -1 || (l == -1) != (s >= 0.5) {
						t.Fatalf("row %d: label %d, outlier score %v", i, l, s)
					}
				}
			}},

		// Flags: exit 2, naming the flag.
		{name: "-gamma 0", args: fitArgs("-gamma", "0"), data: valid, code: 2, msg: `-gamma must be > 0 or "auto"`},
		{name: "-gamma -1", args: fitArgs("-gamma", "-1"), data: valid, old: true, code: 2, msg: "-gamma"},
		{name: "-gamma NaN", args: fitArgs("-gamma", "NaN"), data: valid, code: 2, msg: "-gamma"},
		{name: "-gamma Inf", args: fitArgs("-gamma", "Inf"), data: valid, code: 2, msg: "-gamma"},
		{name: "-gamma text", args: fitArgs("-gamma", "wide"), data: valid, code: 2, msg: `invalid value "wide" for flag -gamma`},
		{name: "-C text", args: fitArgs("-C", "x"), data: valid, code: 2, msg: `invalid value "x" for flag -C: not a number or "auto"`},
		{name: "-C 0", args: fitArgs("-C", "0"), data: valid, code: 2, msg: `-C must be > 0 or "auto"`},
		{name: "-C -1", args: fitArgs("-C", "-1"), data: valid, old: true, code: 2, msg: "-C must be > 0"},
		{name: "-C NaN", args: fitArgs("-C", "NaN"), data: valid, code: 2, msg: "-C must be > 0"},
		{name: "-budget -1", args: fitArgs("-budget", "-1"), data: valid, old: true, code: 2, msg: "-budget must be ≥ 0"},
		{name: "-budget NaN", args: fitArgs("-budget", "NaN"), data: valid, code: 2, msg: `invalid value "NaN" for flag -budget`},
		{name: "-k 0", args: fitArgs("-k", "0"), data: valid, code: 2, msg: "-k must be ≥ 1"},
		{name: "-k above -budget", args: fitArgs("-maintain", "project-knn", "-budget", "3", "-k", "5"), data: valid, old: true, code: 2, msg: "-k 5: must not exceed the budget 3"},
		// -budget auto chooses 66 for valid: 3 × a cover of 22 ℓ-balls
		// (the "choice" of its fit -json report), and -k is checked
		// against that budget as against a given one.
		{name: "-k above the auto budget", args: fitArgs("-maintain", "project-random", "-k", "67"), data: valid, old: true, code: 2,
			msg: "-k 67: must not exceed the budget 66, the budget chosen from the data"},
		{name: "-k at the auto budget", args: fitArgs("-maintain", "project-random", "-k", "66"), data: valid, code: 0,
			ok: func(t *testing.T, r *robustRun) {
				labelled(100)(t, r)
				if j := r.report(t); j.Budget != 66 || j.Choice == nil || !j.Choice.BudgetAuto || j.Choice.Cover != 22 {
					t.Errorf("budget %d, choice %+v; want 66 = 3 × a cover of 22, chosen", j.Budget, j.Choice)
				}
			}},
		// In tune a given budget is checked at once; the automatic budget
		// follows γ, so each grid point is checked.
		{name: "-k above the given budget of tune", args: []string{"tune", "-json", "-maintain", "project-knn", "-budget", "50", "-k", "60", "-gamma-grid", "1", "-C-grid", "8", "$DATA"},
			data: valid, code: 2, msg: "-k 60: must not exceed the budget 50"},
		{name: "-k above the auto budget in tune", args: []string{"tune", "-json", "-maintain", "project-knn", "-k", "500", "-gamma-grid", "1", "-C-grid", "8", "$DATA"},
			data: valid, code: 1, msg: "every grid point failed; the first: -k 500: must not exceed the budget"},
		{name: "-k with merge", args: fitArgs("-k", "3"), data: valid, code: 2, msg: "-k applies only to -maintain project-knn and project-random, not merge"},
		{name: "-m 1", args: fitArgs("-m", "1"), data: valid, old: true, code: 2, msg: "-m must be ≥ 2"},
		{name: "-m 0", args: fitArgs("-m", "0"), data: valid, code: 2, msg: "-m must be ≥ 2"},
		{name: "-outlier-threshold 1", args: fitArgs("-outliers", "-outlier-threshold", "1"), data: valid, old: true, code: 2, msg: "-outlier-threshold must be in (0, 1), not 1"},
		{name: "-outlier-threshold x", args: fitArgs("-outlier-threshold", "x"), data: valid, code: 2, msg: "invalid value \"x\" for flag -outlier-threshold"},
		{name: "-m NaN", args: fitArgs("-m", "NaN"), data: valid, code: 2, msg: "flag -m"},
		{name: "-eps -1", args: fitArgs("-rule", "components", "-eps", "-1"), data: valid, old: true, code: 2, msg: `-eps must be > 0 or "auto"`},
		{name: "-eps NaN", args: fitArgs("-rule", "components", "-eps", "NaN"), data: valid, code: 2, msg: "-eps"},
		{name: "-all with levels", args: fitArgs("-all"), data: valid, code: 2, msg: "-all and -eps apply only to -rule components"},
		{name: "-min-size with components", args: fitArgs("-rule", "components", "-min-size", "9"), data: valid, code: 2, msg: "-min-size applies only to -rule levels"},
		{name: "-rule unknown", args: fitArgs("-rule", "dbscan"), data: valid, code: 2, msg: `-rule must be levels or components, not "dbscan"`},
		{name: "-width unknown", args: fitArgs("-width", "local"), data: valid, code: 2, msg: `-width must be adaptive or global, not "local"`},
		{name: "-budget word", args: fitArgs("-budget", "lots"), data: valid, code: 2, msg: `invalid value "lots" for flag -budget`},
		{name: "-tol -1", args: fitArgs("-tol", "-1"), data: valid, old: true, code: 2, msg: "-tol must be ≥ 0 and finite"},
		{name: "-tol NaN", args: fitArgs("-tol", "NaN"), data: valid, code: 2, msg: "-tol must be ≥ 0 and finite"},
		{name: "-tol Inf", args: fitArgs("-tol", "Inf"), data: valid, code: 2, msg: "-tol"},
		{name: "-max-iter -5", args: fitArgs("-max-iter", "-5"), data: valid, code: 2, msg: "-max-iter must be ≥ 0"},
		{name: "-min-iter -2", args: fitArgs("-min-iter", "-2"), data: valid, code: 2, msg: "-min-iter must be ≥ -1"},
		{name: "-workers -1", args: fitArgs("-workers", "-1"), data: valid, code: 2, msg: "-workers must be ≥ 0"},
		{name: "-seed -1", args: fitArgs("-seed", "-1"), data: valid, code: 2, msg: "flag -seed"},
		{name: "unknown strategy", args: fitArgs("-maintain", "forget"), data: valid, old: true, code: 2, msg: "-maintain must be removal, project-knn"},
		{name: "unknown scale", args: fitArgs("-scale", "log"), data: valid, code: 2, msg: `-scale must be none, zscore or minmax, not "log"`},
		{name: "unknown flag", args: fitArgs("-budgett", "5"), data: valid, code: 2, msg: "-budgett"},
		// Size flags beyond their documented bounds (limits.go); issue 13
		// found -budget 100000 dying of lack of memory, -budget 1e9 an
		// internal error and -m 1e8 running for minutes.
		{name: "-budget 100000", args: fitArgs("-budget", "100000"), data: valid, old: true, code: 2, msg: "-budget 100000: must be ≤ 20,000"},
		{name: "-budget 1e9", args: fitArgs("-budget", "1000000000"), data: valid, code: 2, msg: "-budget 1000000000: must be ≤ 20,000"},
		{name: "-m 1e8", args: fitArgs("-m", "100000000"), data: valid, code: 2, msg: "-m 100000000: must be ≤ 1,000"},
		{name: "-max-iter 2e9", args: fitArgs("-max-iter", "2000000000"), data: valid, code: 2, msg: "-max-iter 2000000000: must be ≤"},
		{name: "-min-iter 2e9", args: fitArgs("-min-iter", "2000000000"), data: valid, code: 2, msg: "-min-iter 2000000000: must be ≤"},
		{name: "-workers 1e6", args: fitArgs("-workers", "1000000"), data: valid, code: 2, msg: "-workers 1000000: must be ≤ 1,024"},
		{name: "-sample 1e9", args: fitArgs("-stream", "-sample", "1000000000"), data: valid, code: 2, msg: "-sample 1000000000: must be ≤"},
		{name: "tune -budget 1e9", args: []string{"tune", "-o", "$OUT", "-budget", "1000000000", "$DATA"}, data: valid, code: 2, msg: "-budget 1000000000"},
		{name: "tune grid of 10,201 settings", args: []string{"tune", "-o", "$OUT", "-gamma-grid", strings.Repeat("1,", 100) + "1", "-C-grid", strings.Repeat("8,", 100) + "8", "$DATA"}, data: valid, code: 2, msg: "-gamma-grid and -C-grid: 10,201 settings, more than 10,000"},
		{name: "reproduce grid of 10,201 settings", args: []string{"reproduce", "-gamma-grid", strings.Repeat("1,", 100) + "1", "-C-grid", strings.Repeat("8,", 100) + "8", "-out", "$DIR/rep"}, code: 2, msg: "-gamma-grid and -C-grid: 10,201 settings"},
		{name: "predict -workers 1e6", args: modelArgs("predict", "-workers", "1000000"), data: valid, code: 2, msg: "-workers 1000000: must be ≤"},
		{name: "gen -n 1e10", args: []string{"gen", "-o", "$OUT", "-n", "10000000000"}, code: 2, msg: "-n 10000000000: must be ≤"},
		{name: "demo -n 1e9", args: []string{"demo", "-n", "1000000000"}, code: 2, msg: "-n 1000000000: must be ≤"},
		{name: "plot -grid 1e6", args: []string{"plot", "-model", "$MODEL", "-o", "$DIR/p.png", "-grid", "1000000", "$DATA"}, data: valid, code: 2, msg: "-grid 1000000: must be ≤"},
		{name: "reproduce -runs 1e6", args: []string{"reproduce", "-runs", "1000000", "-out", "$DIR/rep"}, code: 2, msg: "-runs 1000000: must be ≤"},
		{name: "-o and -model the same", args: fitArgs("-model", "$OUT"), data: valid, old: true, code: 2, msg: "-o $DIR/out.csv and -model $DIR/out.csv name the same file"},
		{name: "no DATA", args: fitArgs()[:6:6], code: 2, msg: "missing DATA argument"},
		{name: "fit alone", args: []string{"fit"}, code: 2, msg: "svclust fit: missing DATA argument (a CSV file, or - for standard input)"},
		{name: "predict no DATA", args: []string{"predict", "-model", "$MODEL", "-o", "$OUT"}, old: true, code: 2, msg: "missing DATA argument"},
		{name: "two DATA", args: append(fitArgs(), "$DATA"), data: valid, code: 2, msg: "want one DATA argument, got 2"},
		{name: "tune text in a grid", args: []string{"tune", "-o", "$OUT", "-gamma-grid", "1,x", "$DATA"}, data: valid, code: 2, msg: "-gamma-grid"},
		{name: "tune has no -gamma", args: []string{"tune", "-o", "$OUT", "-gamma", "1", "$DATA"}, data: valid, code: 2, msg: "svclust tune: unknown flag -gamma: did you mean -gamma-grid?"},
		{name: "gen unknown kind", args: []string{"gen", "-o", "$OUT", "-kind", "spiral"}, old: true, code: 2, msg: "-kind must be one of"},
		{name: "gen -n 0", args: []string{"gen", "-o", "$OUT", "-n", "0"}, code: 2, msg: "-n must be ≥ 1"},
		{name: "demo -n 1", args: []string{"demo", "-n", "1"}, code: 2, msg: "-n"},
		{name: "tune NaN in a grid", args: []string{"tune", "-o", "$OUT", "-gamma-grid", "1,NaN", "$DATA"}, data: valid, code: 2, msg: "-gamma-grid"},
		{name: "tune -C-grid 0", args: []string{"tune", "-o", "$OUT", "-C-grid", "0", "$DATA"}, data: valid, old: true, code: 2, msg: "-C-grid"},
		{name: "tune -runs 0", args: []string{"tune", "-o", "$OUT", "-runs", "0", "$DATA"}, data: valid, code: 2, msg: "-runs must be ≥ 1"},
		{name: "tune -runs 101", args: []string{"tune", "-o", "$OUT", "-runs", "101", "$DATA"}, data: valid, code: 2, msg: "-runs 101: must be ≤ 100"},
		{name: "tune -C-grid 2x", args: []string{"tune", "-o", "$OUT", "-C-grid", "2x", "$DATA"}, data: valid, code: 2, msg: "-C-grid"},
		{name: "tune unknown metric", args: []string{"tune", "-o", "$OUT", "-metric", "f1", "$DATA"}, data: valid, code: 2, msg: "-metric"},
		{name: "tune unknown strategy", args: []string{"tune", "-o", "$OUT", "-maintain", "x", "$DATA"}, data: valid, code: 2, msg: "-maintain"},
		{name: "predict without -model", args: []string{"predict", "-o", "$OUT", "$DATA"}, data: valid, code: 2, msg: "-model is required"},
		{name: "predict -workers -1", args: modelArgs("predict", "-workers", "-1"), data: valid, old: true, code: 2, msg: "-workers must be ≥ 0"},
		{name: "score -workers -2", args: modelArgs("score", "-workers", "-2"), data: valid, code: 2, msg: "-workers must be ≥ 0"},
		{name: "score -workers NaN", args: modelArgs("score", "-workers", "NaN"), data: valid, code: 2, msg: "flag -workers"},

		{name: "fit -o over the data", args: fitArgs("-o", "$DATA"), data: valid, code: 2, msg: "-o $DATA is the same file as DATA $DATA"},
		{name: "predict -o over the model", args: modelArgs("predict", "-o", "$MODEL"), data: valid, code: 2, msg: "m.json is the same file as -model $DIR/m.json"},

		// Unwritable outputs: exit 1, naming the flag and the file.
		{name: "-o in a missing directory", args: fitArgs("-o", "$DIR/no/such/labels.csv"), data: valid, code: 1, msg: "-o $DIR/no/such/labels.csv: cannot write: no such file or directory"},
		{name: "-model in a missing directory", args: fitArgs("-model", "$DIR/no/model.json"), data: valid, old: true, code: 1, msg: "-model $DIR/no/model.json: cannot write"},
		{name: "-o is a directory", args: fitArgs("-o", "$DIR"), data: valid, old: true, code: 1, msg: "-o $DIR: cannot write: is a directory"},
		{name: "-model under a file", args: fitArgs("-model", "$DATA/model.json"), data: valid, code: 1, msg: "-model $DATA/model.json: cannot write: not a directory"},
		{name: "predict -o in a missing directory", args: modelArgs("predict", "-o", "$DIR/no/out.csv"), data: valid, old: true, code: 1, msg: "-o $DIR/no/out.csv: cannot write"},
		{name: "score -o is a directory", args: modelArgs("score", "-o", "$DIR"), data: valid, code: 1, msg: "-o $DIR: cannot write"},
		{name: "tune -model in a missing directory", args: []string{"tune", "-o", "$OUT", "-model", "$DIR/no/m.json", "-gamma-grid", "1", "-C-grid", "8", "$DATA"}, data: valid, old: true, code: 1, msg: "-model $DIR/no/m.json: cannot write"},

		// Model files: exit 1, naming the model file.
		{name: "missing model", args: modelArgs("predict", "-model", "$DIR/none.json"), data: valid, code: 1, msg: "none.json: no such file or directory"},
		{name: "model is a directory", args: modelArgs("predict", "-model", "$DIR"), data: valid, code: 1, msg: "is a directory"},
		{name: "empty model", args: modelArgs("predict"), data: valid, model: func(string) string { return "" }, code: 1, msg: "m.json: not a model file: empty"},
		{name: "truncated model", args: modelArgs("predict"), data: valid, model: func(g string) string { return g[:len(g)/2] }, old: true, code: 1, msg: "m.json: not a model file"},
		{name: "model cut after one byte", args: modelArgs("score"), data: valid, model: func(g string) string { return g[:1] }, code: 1, msg: "m.json: not a model file"},
		{name: "corrupted model", args: modelArgs("predict"), data: valid, model: func(g string) string { return strings.Replace(g, ",", ";", 5) }, code: 1, msg: "m.json: not a model file"},
		{name: "binary garbage", args: modelArgs("score"), data: valid, model: func(string) string { return "\x00\xff\x13PK\x03\x04" }, old: true, code: 1, msg: "m.json: not a model file"},
		{name: "data after the model", args: modelArgs("predict"), data: valid, model: func(g string) string { return g + "{}" }, code: 1, msg: "m.json: not a model file: data after the model"},
		{name: "wrong format", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["format"] = "svclust-other" })
		}, code: 1, msg: `m.json: modelfile: invalid model file: format is "svclust-other", want "svclust-model"`},
		{name: "wrong version", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["version"] = 9 })
		}, old: true, code: 1, msg: "m.json: model file version 9 is newer than this svclust reads (1 to 8): use a newer svclust"},
		{name: "version 0", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["version"] = 0 })
		}, code: 1, msg: "m.json: modelfile: invalid model file: version 0, want 1 to 8"},
		{name: "version as text", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["version"] = "1" })
		}, code: 1, msg: "invalid model file: version: a string where a whole number (in digits)"},
		// Version 5 keeps format, version and partition out of the model
		// (modelfile/read.go, decode).
		{name: "version inside the model", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { inner(v)["version"] = 3 })
		}, code: 1, msg: "model: format, version and partition are keys of the file"},
		{name: "wrong dimension of data", args: modelArgs("predict"), data: "a,b,c\n1,2,3\n", old: true, code: 1, msg: "in.csv has 3 features, but the model was trained on 2"},
		{name: "wrong dimension, score", args: modelArgs("score"), data: "a\n1\n", code: 1, msg: "in.csv has 1 features, but the model was trained on 2"},
		{name: "scaler of another dimension", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scaler"].(map[string]any)["shift"] = []any{0.0, 0.0, 0.0} })
		}, code: 1, msg: "m.json: modelfile: invalid model file: scaler has 3 shifts"},
		{name: "short scaler", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scaler"].(map[string]any)["shift"] = []any{1.0} })
		}, code: 1, msg: "invalid model file: scaler has 1 shifts and 2 multipliers for 2 features"},
		{name: "no scaler", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { delete(v, "scaler") })
		}, code: 1, msg: "invalid model file: no scaler"},
		{name: "unknown scale in the model", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scale"] = "log" })
		}, code: 1, msg: `invalid model file: unknown scale "log"`},
		{name: "no model object", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { delete(v, "model") })
		}, old: true, code: 1, msg: "invalid model file: no model"},
		{name: "features of another dimension", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["features"] = []any{"x1"} })
		}, code: 1, msg: "invalid model file: features has 1 names for 2 features"},
		{name: "huge declared dim", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { inner(v)["dim"] = 1 << 40 })
		}, old: true, code: 1, msg: "sv row 0 has 2 values, want 1099511627776"},
		{name: "huge declared clusters", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["clusters"] = 1 << 40 })
		}, code: 1, msg: "partition: clusters = 1099511627776: must be in [1, 20], the support vectors"},
		{name: "dim beyond int64", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { inner(v)["dim"] = 1e30 })
		}, code: 1, msg: "invalid model file: model.dim: number 1e+30 is not a whole number (in digits)"},
		{name: "NaN coefficient", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Replace(g, `"alpha":[`, `"alpha":[NaN,`, 1)
		}, old: true, code: 1, msg: "m.json: not a model file: invalid character 'N'"},
		{name: "NaN coefficient as text", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Replace(g, `"alpha":[`, `"alpha":["NaN",`, 1)
		}, code: 1, msg: "invalid model file: model.alpha: a string where a number within float64"},
		{name: "overflowing coefficient", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Replace(g, `"alpha":[`, `"alpha":[1e999,`, 1)
		}, code: 1, msg: "invalid model file: model.alpha: number 1e999 is not a number within float64"},
		{name: "NaN scaler", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scaler"].(map[string]any)["mul"] = []any{"NaN", 1.0} })
		}, code: 1, msg: "invalid model file: scaler.mul: a string where a number within float64"},
		// Issue 13: a multiplier ≤ 0 was accepted, and so were duplicate
		// keys, the last one winning, which hid a γ of -1.
		{name: "zero scaler multiplier", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scaler"].(map[string]any)["mul"] = []any{0.0, 1.0} })
		}, code: 1, msg: "invalid model file: scaler: the multiplier of column 1 is 0: want > 0 with a finite inverse"},
		{name: "negative scaler multiplier", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["scaler"].(map[string]any)["mul"] = []any{1.0, -2.0} })
		}, code: 1, msg: "invalid model file: scaler: the multiplier of column 2 is -2: want > 0 with a finite inverse"},
		{name: "duplicate gamma", args: modelArgs("predict"), data: valid, model: func(g string) string {
			i := strings.Index(g, `"model":`)
			return g[:i] + strings.Replace(g[i:], `"gamma":`, `"gamma":-1,"gamma":`, 1)
		}, old: true, code: 1, msg: `m.json: not a model file: duplicate key "model.gamma"`},
		{name: "duplicate top-level key", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Replace(g, `"scale":`, `"scale":"none","scale":`, 1)
		}, code: 1, msg: `m.json: not a model file: duplicate key "scale"`},
		{name: "duplicate key deep down", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Replace(g, `"iterations":`, `"iterations":1,"iterations":`, 1)
		}, code: 1, msg: `duplicate key "model.stats.iterations"`},
		{name: "model of random bytes", args: modelArgs("score"), data: valid, model: func(g string) string {
			return "\x9f\x00" + g
		}, code: 1, msg: "m.json: not a model file: invalid byte 0x9f at offset 0"},
		{name: "model of spaces", args: modelArgs("score"), data: valid, model: func(g string) string {
			return strings.Repeat(" ", 10000) + g
		}, code: 1, msg: "m.json: not a model file: no '{' within its first 4096 bytes"},
		{name: "model above -max-model-mb", args: modelArgs("score", "-max-model-mb", "1"), data: valid, model: func(g string) string {
			return g + strings.Repeat(" ", 1<<20)
		}, code: 1, msg: "m.json: larger than 1 MiB; raise -max-model-mb"},
		{name: "-max-model-mb 0", args: modelArgs("predict", "-max-model-mb", "0"), data: valid, code: 2, msg: "-max-model-mb 0: must be ≥ 1"},
		{name: "negative count", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { inner(v)["stats"].(map[string]any)["iterations"] = -1 })
		}, old: true, code: 1, msg: "negative count in stats"},
		{name: "negative clusters", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["clusters"] = -1 })
		}, code: 1, msg: "partition: clusters = -1: must be in [1, 20], the support vectors"},
		// The default partition is of the levels rule (sv_cluster, birth;
		// modelfile/json.go, partition, and cluster/check.go).
		{name: "missing birth levels", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["birth"] = []any{} })
		}, code: 1, msg: "partition: 0 birth levels for "},
		{name: "short sv_cluster", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["sv_cluster"] = []any{0} })
		}, code: 1, msg: "1 support-vector clusters for 20 support vectors"},
		{name: "eps in a levels partition", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["eps"] = 0.5 })
		}, code: 1, msg: `partition: equilibria, strip, all, eps and anchors belong to the "components" rule`},
		{name: "unknown partition rule", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"].(map[string]any)["rule"] = "dbscan" })
		}, code: 1, msg: `partition: rule "dbscan": want "levels" or "components"`},
		{name: "cluster out of range", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) {
				v["partition"].(map[string]any)["sv_cluster"].([]any)[0] = 7
			})
		}, code: 1, msg: "cluster 7 outside"},
		{name: "gamma -1", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { inner(v)["gamma"] = -1 })
		}, code: 1, msg: "gamma = -1: must be > 0"},
		{name: "unknown key", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["budget"] = 50 })
		}, code: 1, msg: `m.json: not a model file: json: unknown field "budget"`},
		{name: "no partition: predict fails", args: modelArgs("predict"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"] = nil })
		}, old: true, code: 1, msg: "m.json: the model has no partition: it can score points but not label them"},
		{name: "no partition: score works", args: modelArgs("score"), data: valid, model: func(g string) string {
			return editJSON(g, func(v map[string]any) { v["partition"] = nil })
		}, code: 0, ok: func(t *testing.T, r *robustRun) {
			if n := strings.Count(readFile(t, r.path("out.csv")), "\n"); n != 101 {
				t.Errorf("%d lines of scores, want 101", n)
			}
		}},
	}
	if len(cases) < 40 {
		t.Fatalf("%d cases; the issue asks for at least 40", len(cases))
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] {
			t.Fatalf("two cases named %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) { runCase(t, &tc, goodModel) })
	}
}

// runCase runs tc in a new directory and checks the exit status, the
// message, and what became of the outputs.
func runCase(t *testing.T, tc *robustCase, goodModel string) *robustRun {
	t.Helper()
	dir := t.TempDir()
	r := &robustRun{dir: dir, args: tc.args}
	write := func(name, content string) {
		if err := os.WriteFile(r.path(name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs := []string{"in.csv", "m.json"}
	write("in.csv", tc.data)
	model := goodModel
	if tc.model != nil {
		model = tc.model(goodModel)
	}
	write("m.json", model)
	if tc.old {
		write("out.csv", oldOut)
		write("model.json", oldModel)
		inputs = append(inputs, "out.csv", "model.json")
	}
	args := make([]string, len(tc.args))
	for i, a := range tc.args {
		a = strings.ReplaceAll(a, "$DATA", r.path("in.csv"))
		a = strings.ReplaceAll(a, "$MODEL", r.path("m.json"))
		a = strings.ReplaceAll(a, "$OUT", r.path("out.csv"))
		a = strings.ReplaceAll(a, "$SAVE", r.path("model.json"))
		args[i] = strings.ReplaceAll(a, "$DIR", dir)
	}
	if slices.Contains(args, "-") {
		withStdin(t, tc.stdin)
	}
	code, stdout, stderr := cli(t, args...)
	r.stdout, r.stderr = stdout, stderr
	msg := strings.ReplaceAll(tc.msg, "$DIR", dir)
	msg = strings.ReplaceAll(msg, "$DATA", r.path("in.csv"))
	// The message is the first line of standard error; a failure's
	// message comes after any warnings, and is the command's (such as
	// "svclust fit: …") or the flag package's.
	lines := strings.Split(stderr, "\n")
	for tc.code != 0 && len(lines) > 1 && strings.HasPrefix(lines[0], "svclust: warning: ") {
		lines = lines[1:]
	}
	first := lines[0]
	if code != tc.code || !strings.Contains(first, msg) {
		t.Fatalf("svclust %s: exit %d, want %d, with %q in the first line of\n%s", strings.Join(args, " "), code, tc.code, msg, stderr)
	}
	if tc.code != 0 && !strings.HasPrefix(first, "svclust "+args[0]+": ") &&
		!strings.HasPrefix(first, "invalid value ") {
		t.Errorf("message %q does not start with \"svclust %s: \"", first, args[0])
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "internal error") {
		t.Errorf("stderr shows a crash:\n%s", stderr)
	}
	if len(first) > 400 {
		t.Errorf("message of %d bytes", len(first))
	}
	if tc.code != 0 {
		if stdout != "" {
			t.Errorf("failure wrote to stdout: %q", stdout)
		}
		// No output is created or changed, and no temporary file is left.
		if tc.old {
			if readFile(t, r.path("out.csv")) != oldOut || readFile(t, r.path("model.json")) != oldModel {
				t.Error("an existing output changed")
			}
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if !slices.Contains(inputs, e.Name()) {
				t.Errorf("%s appeared", e.Name())
			}
		}
		return r
	}
	if tc.ok != nil {
		tc.ok(t, r)
	}
	return r
}

// withStdin makes os.Stdin read content until the test ends.
func withStdin(t *testing.T, content string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin = f
	t.Cleanup(func() { os.Stdin = saved; f.Close() })
}

// TestLibraryValidationAgrees: every flag value that fit rejects and that
// has a counterpart in svclust.Config or a cluster.Method is rejected by the
// library's Validate too, with a *ConfigError for the field of that flag.
func TestLibraryValidationAgrees(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		flags []string
		cfg   svclust.Config
		cc    cluster.Method
	}{
		{[]string{"-gamma", "-1"}, svclust.Config{Gamma: -1}, &cluster.Levels{}},
		{[]string{"-gamma", "NaN"}, svclust.Config{Gamma: nan}, &cluster.Levels{}},
		{[]string{"-gamma", "Inf"}, svclust.Config{Gamma: inf}, &cluster.Levels{}},
		{[]string{"-C", "-1"}, svclust.Config{C: -1}, &cluster.Levels{}},
		{[]string{"-C", "NaN"}, svclust.Config{C: nan}, &cluster.Levels{}},
		{[]string{"-C", "Inf"}, svclust.Config{C: inf}, &cluster.Levels{}},
		// -budget 0 is the library's NoBudget (−1), so -1 maps below it.
		{[]string{"-budget", "-1"}, svclust.Config{Budget: -2}, &cluster.Levels{}},
		{[]string{"-maintain", "project-knn", "-budget", "3", "-k", "5"}, svclust.Config{Budget: 3, Maintainer: svclust.Projection{K: 5}}, &cluster.Levels{}},
		{[]string{"-tol", "NaN"}, svclust.Config{Tol: nan}, &cluster.Levels{}},
		{[]string{"-max-iter", "-5"}, svclust.Config{MaxIter: -5}, &cluster.Levels{}},
		{[]string{"-workers", "-1"}, svclust.Config{Workers: -1}, &cluster.Levels{Workers: -1}},
		{[]string{"-rule", "components", "-eps", "-1"}, svclust.Config{}, &cluster.Components{Eps: -1}},
		{[]string{"-rule", "components", "-eps", "NaN"}, svclust.Config{}, &cluster.Components{Eps: nan}},
		{[]string{"-rule", "components", "-eps", "Inf"}, svclust.Config{}, &cluster.Components{Eps: inf}},
		{[]string{"-min-size", "0"}, svclust.Config{}, &cluster.Levels{MinSize: -1}},
		{[]string{"-m", "1"}, svclust.Config{}, &cluster.Levels{M: 1}},
	} {
		flag := tc.flags[len(tc.flags)-2]
		code, _, errs := cli(t, append(append([]string{"fit"}, tc.flags...), "x.csv")...)
		if first, _, _ := strings.Cut(errs, "\n"); code != 2 || !strings.Contains(first, flag) {
			t.Errorf("fit %v: exit %d, %q; want 2 naming %s", tc.flags, code, first, flag)
		}
		rejected := false
		for _, err := range []error{tc.cfg.Validate(), tc.cc.Validate()} {
			if err == nil {
				continue
			}
			rejected = true
			var ce *svclust.ConfigError
			if !errors.As(err, &ce) || settings.FlagOf(ce.Field) != flag {
				t.Errorf("fit %v: the library returns %v, not a ConfigError for the field of %s", tc.flags, err, flag)
			}
		}
		if !rejected {
			t.Errorf("fit %v: the library accepts %+v and %+v", tc.flags, tc.cfg, tc.cc)
		}
	}
}

// TestSavedModelScoresExactly: score with a model file written by fit gives
// bit for bit the scores of the model in memory, trained by the library
// with the same settings on the same scaled data; the model file stores
// every float in the shortest form that reads back exactly.
func TestSavedModelScoresExactly(t *testing.T) {
	data := genFile(t, "nested", 400)
	model := filepath.Join(t.TempDir(), "model.json")
	mustCLI(t, "fit", "-seed", "4", "-model", model, data)
	out := strings.Split(strings.TrimSuffix(mustCLI(t, "score", "-model", model, data), "\n"), "\n")

	o := defaultFit()
	o.run.Seed = 4
	cfg, err := o.run.Config()
	if err != nil {
		t.Fatal(err)
	}
	dt, err := load(data, o, nil)
	if err == nil {
		err = dt.scale(&o.run)
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := svclust.Train(dt.ds.X, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Score(nil, dt.ds.X, 1)
	if len(out) != len(want)+1 || out[0] != "score,outlier" {
		t.Fatalf("%d lines for %d rows", len(out), len(want))
	}
	for i, w := range want {
		f, _, _ := strings.Cut(out[i+1], ",")
		got, err := strconv.ParseFloat(f, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(w) {
			t.Fatalf("row %d: score %s, in memory %v", i, out[i+1], w)
		}
	}
}

// TestReadOnlyOutputDir: an output in a directory without write permission
// fails before training, naming the flag, and creates nothing.
func TestReadOnlyOutputDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write anywhere")
	}
	data := genFile(t, "gauss3", 100)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	code, _, errs := cli(t, "fit", "-o", filepath.Join(dir, "labels.csv"), data)
	if code != 1 || !strings.Contains(errs, "-o "+filepath.Join(dir, "labels.csv")+": cannot write: permission denied") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files created", len(ents))
	}
}
