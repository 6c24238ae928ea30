package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fitModel fits data with a small budget and writes the model and the
// labels; it returns their paths.
func fitModel(t *testing.T, data string, extra ...string) (model, labels string) {
	t.Helper()
	dir := t.TempDir()
	model, labels = filepath.Join(dir, "model.json"), filepath.Join(dir, "labels.csv")
	args := append([]string{"fit", "-budget", "20", "-min-iter", "2000", "-model", model, "-o", labels}, extra...)
	mustCLI(t, append(args, data)...)
	return model, labels
}

// TestPlot: plot writes a PNG of the requested size (inches times 150 dpi)
// and an SVG document, from the model's labels or from -labels, with or
// without a legend and a title.
func TestPlot(t *testing.T) {
	data := genFile(t, "moons", 200)
	model, labels := fitModel(t, data)
	dir := t.TempDir()

	png1 := filepath.Join(dir, "f.png")
	if out := mustCLI(t, "plot", "-model", model, "-o", png1, "-width", "4", "-height", "3", "-grid", "80", data); out != "" {
		t.Errorf("plot printed %q on standard output", out)
	}
	b, err := os.ReadFile(png1)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 4*150 || cfg.Height != 3*150 {
		t.Errorf("PNG %d×%d (%v), want 600×450", cfg.Width, cfg.Height, err)
	}

	// -labels with the labels fit wrote gives the same figure as the
	// model's own labels, since predict reproduces fit -o.
	png2 := filepath.Join(dir, "g.png")
	mustCLI(t, "plot", "-model", model, "-labels", labels, "-o", png2, "-width", "4", "-height", "3", "-grid", "80", data)
	if !bytes.Equal(b, []byte(readFile(t, png2))) {
		t.Error("-labels with fit's labels gives another figure")
	}

	svg := filepath.Join(dir, "f.svg")
	mustCLI(t, "plot", "-model", model, "-o", svg, "-legend", "-title", "moons", "-grid", "80", data)
	s := readFile(t, svg)
	if !strings.HasPrefix(s, "<?xml") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
		t.Errorf("not an SVG document: %.60q…", s)
	}
	for _, want := range []string{">moons<", ">support vectors<", ">x1<", ">x2<"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks the text %s", want)
		}
	}
}

// TestPlotStableIDs: an updated model's clusters are coloured by their
// stable ids, as predict prints them, so that a cluster keeps its colour
// from update to update. The model file's ids are reversed by hand (a valid
// file: each id below "next", none twice): the figure must be that of
// predict's labels, and not that of the partition's numbers.
func TestPlotStableIDs(t *testing.T) {
	t.Parallel()
	data := genFile(t, "moons", 200)
	model, partition := fitModel(t, data)
	var v map[string]any
	if err := json.Unmarshal([]byte(readFile(t, model)), &v); err != nil {
		t.Fatal(err)
	}
	k := int(v["partition"].(map[string]any)["clusters"].(float64))
	if k < 2 {
		t.Fatalf("moons gave %d cluster; the test needs two or more", k)
	}
	ids := make([]int, k) // the partition's numbers reversed
	for c := range ids {
		ids[c] = k - 1 - c
	}
	v["clusters"] = map[string]any{"ids": ids, "next": k}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	swapped := filepath.Join(dir, "swapped.json")
	if err := os.WriteFile(swapped, b, 0o644); err != nil {
		t.Fatal(err)
	}
	stable := filepath.Join(dir, "ids.csv")
	mustCLI(t, "predict", "-model", swapped, "-o", stable, data)
	if readFile(t, stable) == readFile(t, partition) {
		t.Fatal("predict gives the partition's numbers for swapped ids")
	}
	plot := func(name string, extra ...string) string {
		out := filepath.Join(dir, name)
		mustCLI(t, append(append([]string{"plot", "-model", swapped, "-o", out, "-width", "3", "-height", "3", "-grid", "60"}, extra...), data)...)
		return readFile(t, out)
	}
	own := plot("own.png")
	if own != plot("ids.png", "-labels", stable) {
		t.Error("plot -model colours the clusters otherwise than by the stable ids predict prints")
	}
	if own == plot("partition.png", "-labels", partition) {
		t.Error("plot -model colours the clusters by the partition's numbers")
	}
}

// TestPlotUnits: a 2-D figure is drawn in the data's own units: its tick
// labels span the data's range, not the z-scores of the model's space.
func TestPlotUnits(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 60 {
		c := float64(i%2) * 1000
		fmt.Fprintf(&b, "%g,%g\n", 1000+c+float64(i%7), 5000+c+float64(i%5))
	}
	data := writeFile(t, "big.csv", b.String())
	model, _ := fitModel(t, data)
	svg := filepath.Join(t.TempDir(), "f.svg")
	mustCLI(t, "plot", "-model", model, "-o", svg, "-grid", "40", data)
	s := readFile(t, svg)
	for _, want := range []string{">a<", ">b<", ">1500<", ">6000<"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks the text %s: not in the data's units", want)
		}
	}
}

// TestPlotProjection: a model of more than 2 features is drawn on the
// first two principal components of the scaled data, axes saying so,
// with -sv the support vectors in the legend, and -labels as before.
func TestPlotProjection(t *testing.T) {
	t.Parallel()
	// 500 rows of five blobs in 8 dimensions, found whole on every data
	// seed at 500 rows and more (docs/high-dim.md, few rows).
	data := genFile(t, "hd8", 500)
	model, labels := fitModel(t, data)
	svg := filepath.Join(t.TempDir(), "f.svg")
	mustCLI(t, "plot", "-model", model, "-o", svg, "-legend", "-sv", data)
	s := readFile(t, svg)
	for _, want := range []string{"PC1 of the zscore-scaled data (", "PC2 of the zscore-scaled data (", "% of the variance)", ">support vectors<", ">cluster 4<"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks the text %s", want)
		}
	}
	plain := filepath.Join(t.TempDir(), "g.svg")
	mustCLI(t, "plot", "-model", model, "-labels", labels, "-o", plain, "-legend", data)
	if strings.Contains(readFile(t, plain), ">support vectors<") {
		t.Error("support vectors drawn without -sv")
	}
}

func TestPlotErrors(t *testing.T) {
	data := genFile(t, "gauss3", 100)
	model, labels := fitModel(t, data)
	data1 := writeFile(t, "d1.csv", "a\n0\n1\n0.5\n3\n3.5\n")
	model1, _ := fitModel(t, data1)
	short := writeFile(t, "short.csv", "cluster\n0\n1\n")
	frac := writeFile(t, "frac.csv", "cluster\n"+strings.Repeat("0\n", 50)+"0.5\n"+strings.Repeat("1\n", 49))
	two := writeFile(t, "two.csv", "a,b\n"+strings.Repeat("0,1\n", 100))
	out := func(name string) string { return filepath.Join(t.TempDir(), name) }

	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"missing -o", []string{"-model", model, data}, 2, "-o is required"},
		{"bad extension", []string{"-model", model, "-o", out("f.jpg"), data}, 2, "-o"},
		{"stdout", []string{"-model", model, "-o", "-", data}, 2, "-o"},
		{"missing -model", []string{"-o", out("f.png"), data}, 2, "-model is required"},
		{"no data", []string{"-model", model, "-o", out("f.png")}, 2, "missing DATA"},
		{"width", []string{"-model", model, "-o", out("f.png"), "-width", "0", data}, 2, "-width"},
		{"height", []string{"-model", model, "-o", out("f.png"), "-height", "1e9", data}, 2, "-height"},
		{"grid", []string{"-model", model, "-o", out("f.png"), "-grid", "-1", data}, 2, "-grid"},
		{"1-D", []string{"-model", model1, "-o", out("f.png"), data1}, 1, "plot needs at least 2 features; the model has 1"},
		{"labels count", []string{"-model", model, "-labels", short, "-o", out("f.png"), data}, 1, "2 labels for the 100 rows"},
		{"labels not integer", []string{"-model", model, "-labels", frac, "-o", out("f.png"), data}, 1, "frac.csv:52: cluster 0.5 is not an integer"},
		{"labels columns", []string{"-model", model, "-labels", two, "-o", out("f.png"), data}, 1, "2 columns"},
		{"labels missing", []string{"-model", model, "-labels", out("none.csv"), "-o", out("f.png"), data}, 1, "none.csv"},
		{"unwritable", []string{"-model", model, "-o", filepath.Join(t.TempDir(), "no", "f.png"), data}, 1, "f.png"},
	}
	for _, tc := range tests {
		code, _, errs := cli(t, append([]string{"plot"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tc.name, code, errs, tc.code, tc.want)
		}
	}
	// The labels file of fit is accepted (the error cases above fail for
	// their own reason, not for every -labels).
	mustCLI(t, "plot", "-model", model, "-labels", labels, "-grid", "20", "-o", out("ok.svg"), data)
}
