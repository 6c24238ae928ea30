package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svclust/svclust/dataset"
)

// TestTuneFitCommand: the fit command line tune prints for its best
// setting reproduces tune's outputs exactly (labels and model file), with
// and without labels, through flags that shape the model (-k, -seed, -m,
// -scale, -outliers, -outlier-threshold) and the reading of the data (-sep, -drop).
func TestTuneFitCommand(t *testing.T) {
	dir := t.TempDir()
	plain := readFile(t, genFile(t, "moons", 300))
	for _, labelled := range []bool{true, false} {
		// The same rows with ; as separator and an id column to drop, with
		// or without the label column.
		var b strings.Builder
		for i, l := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
			if !labelled {
				l = l[:strings.LastIndexByte(l, ',')]
			}
			id := "id"
			if i > 0 {
				id = "r" + strings.Repeat("x", i%3)
			}
			b.WriteString(id + ";" + strings.ReplaceAll(l, ",", ";") + "\n")
		}
		data := writeFile(t, "it's data.csv", b.String()) // a quote to quote
		tuneLabels, tuneModel := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.json")
		args := []string{"tune", "-json", "-gamma-grid", "0.5x,8", "-C-grid", "auto,32", "-maintain", "project-knn", "-k", "4", "-seed", "3", "-m", "10", "-scale", "minmax", "-outliers", "-outlier-threshold", "0.3", "-sep", ";", "-drop", "id", "-o", tuneLabels, "-model", tuneModel}
		var res tuneJSON
		if err := json.Unmarshal([]byte(mustCLI(t, append(args, data)...)), &res); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{true: "nmi", false: "dbcv"}[labelled]; res.Criterion != want {
			t.Errorf("criterion %q, want %q", res.Criterion, want)
		}
		if res.Strategy != "project-knn (k = 4)" {
			t.Errorf("strategy %q", res.Strategy)
		}
		words := shellSplit(t, res.FitCommand)
		if len(words) < 3 || words[0] != "svclust" || words[1] != "fit" || words[len(words)-1] != data {
			t.Fatalf("fit command %q", res.FitCommand)
		}
		fitLabels, fitModel := filepath.Join(dir, "f.csv"), filepath.Join(dir, "f.json")
		mustCLI(t, append(append(words[1:len(words)-2:len(words)-2], "-o", fitLabels, "-model", fitModel), words[len(words)-2:]...)...)
		if readFile(t, fitLabels) != readFile(t, tuneLabels) {
			t.Errorf("labelled %v: the labels of %q differ from tune's", labelled, res.FitCommand)
		}
		// The run sections differ: tune's says γ and C were tuned.
		if withoutRun(readFile(t, fitModel)) != withoutRun(readFile(t, tuneModel)) {
			t.Errorf("labelled %v: the model of %q differs from tune's", labelled, res.FitCommand)
		}
	}
}

// shellSplit undoes shellJoin: words separated by spaces, each either
// plain or in single quotes with '\” for a quote.
func shellSplit(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
		case c == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unclosed quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestTuneSubspaceModel: on the t32 kind, whose automatic choice is
// projected, the best multiple of the automatic γ trains in the automatic
// point's subspace, which fit -gamma does not reproduce: tune prints no
// fit command, and the model -model writes predicts the labels -o wrote
// (the model file keeps the subspace).
func TestTuneSubspaceModel(t *testing.T) {
	ds, err := dataset.GenerateHigh("t32", 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, "t32.csv", csvOf(t, ds))
	dir := t.TempDir()
	labels, model := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.json")
	var res tuneJSON
	out := mustCLI(t, "tune", "-json", "-gamma-grid", "0.5x,2x", "-o", labels, "-model", model, data)
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.FitCommand != "" {
		t.Errorf("fit command %q for a point in the subspace", res.FitCommand)
	}
	if !strings.Contains(readFile(t, model), `"subspace":{`) {
		t.Error("the model file has no subspace")
	}
	if got := mustCLI(t, "predict", "-model", model, data); got != readFile(t, labels) {
		t.Error("predict with tune's model differs from tune's labels")
	}
}

// TestTuneGridError: a grid point whose γ overflows names -gamma-grid,
// the flag that gave it, in the table and in -json (it named -gamma,
// which tune does not have).
func TestTuneGridError(t *testing.T) {
	t.Parallel()
	data := genFile(t, "gauss3", 200)
	out := mustCLI(t, "tune", "-gamma-grid", "1e308x,auto", "-C-grid", "auto", data)
	if !strings.Contains(out, "error: -gamma-grid +Inf: must be > 0") || strings.Contains(out, "error: -gamma ") {
		t.Errorf("table:\n%s", out)
	}
	js := mustCLI(t, "tune", "-json", "-gamma-grid", "1e308x,auto", "-C-grid", "auto", data)
	if !strings.Contains(js, `-gamma-grid +Inf`) {
		t.Errorf("-json: %s", js)
	}
}

// TestTuneFitCommandReadsAlike: the fit command tune prints carries the
// flags that shape the reading of the data and the space of the kernel
// (-no-header, -na, -space), so that running it gives tune's labels (it
// dropped them: the command failed, or fitted otherwise).
func TestTuneFitCommandReadsAlike(t *testing.T) {
	t.Parallel()
	text := readFile(t, genFile(t, "gauss3", 300))
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")[1:]
	lines[4] = "NA" + lines[4][strings.IndexByte(lines[4], ','):]
	data := writeFile(t, "bare.csv", strings.Join(lines, "\n")+"\n")
	dir := t.TempDir()
	tuned, fitted := filepath.Join(dir, "tune.csv"), filepath.Join(dir, "fit.csv")
	var res tuneJSON
	out := mustCLI(t, "tune", "-json", "-no-header", "-label", "x3", "-na", "drop", "-space", "input", "-gamma-grid", "auto", "-C-grid", "auto", "-o", tuned, data)
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"-no-header", "-na drop", "-space input"} {
		if !strings.Contains(res.FitCommand, " "+f+" ") {
			t.Errorf("fit_command %q lacks %s", res.FitCommand, f)
		}
	}
	args := strings.Fields(res.FitCommand)[1:]
	args = append(args[:len(args)-2], "-o", fitted, "--", data)
	mustCLI(t, args...)
	if readFile(t, fitted) != readFile(t, tuned) {
		t.Error("the printed fit command labels the rows otherwise than tune")
	}
}
