package beam

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism" // the "prism" runner

	"github.com/svclust/svclust/dataset"
	"github.com/svclust/svclust/metrics"
	"github.com/svclust/svclust/modelfile"
	"github.com/svclust/svclust/settings"
)

func TestMain(m *testing.M) {
	// Prism logs every stage at level INFO, and failures at length.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	flag.Parse()
	sdk.Init()
	os.Exit(m.Run())
}

// split writes n generated moons rows (dataset.GenerateCSV, seed 1) to
// parts files in dir, part-0.csv, part-1.csv.gz, …: the odd ones gzipped,
// and part-0 with CRLF line ends and a space after each separator, so that
// rows must be copied as they are, not rewritten. It returns the files and
// the true class of every row, file by file.
func split(t testing.TB, dir string, kind dataset.Kind, n, parts int) ([]string, [][]string) {
	t.Helper()
	var all bytes.Buffer
	if err := dataset.GenerateCSV(&all, kind, n, 1); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(all.String(), "\n"), "\n")
	head, rows := lines[0], lines[1:]
	var files []string
	var texts [][]string
	for p := range parts {
		chunk := rows[p*len(rows)/parts : (p+1)*len(rows)/parts]
		name := filepath.Join(dir, fmt.Sprintf("part-%d.csv", p))
		eol, body := "\n", chunk
		if p == 0 {
			eol = "\r\n"
			body = make([]string, len(chunk))
			for i, r := range chunk {
				body[i] = strings.ReplaceAll(r, ",", ", ")
			}
		}
		text := head + eol + strings.Join(body, eol) + eol
		data := []byte(text)
		if p%2 == 1 {
			name += ".gz"
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			data = z.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		texts = append(texts, body)
	}
	return files, texts
}

// checkRun runs the pipeline of o on Prism and checks the properties the
// issue asks for: one shard per input file, with the input's header plus
// the cluster and outlier columns; every input row exactly once, unchanged, in input
// order; its cluster and outlier score those of modelfile.File.Predict and OutlierScores with the model file
// written (the code of svclust predict -model). It returns the labels of
// the rows, file by file, and the model.
func checkRun(t *testing.T, o *Options, files []string, texts [][]string) ([][]int, *modelfile.File) {
	t.Helper()
	res, err := Run(context.Background(), "prism", o)
	if err != nil {
		t.Fatal(err)
	}
	model, err := modelfile.ReadFile(o.Model, 0)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	var labels [][]int
	for i, f := range files {
		shard := fmt.Sprintf("%s-%05d-of-%05d.csv", o.Output, i, len(files))
		if res.Plan.Shards[i] != shard {
			t.Fatalf("shard %d is %s, want %s", i, res.Plan.Shards[i], shard)
		}
		b, err := os.ReadFile(shard)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if want := "x1,x2,label,cluster,outlier"; got[0] != want {
			t.Errorf("%s: header %q, want %q", shard, got[0], want)
		}
		got = got[1:]
		if len(got) != len(texts[i]) {
			t.Fatalf("%s: %d rows, input %s has %d", shard, len(got), f, len(texts[i]))
		}
		ds, err := dataset.ReadFile(f, dataset.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := model.Predict(nil, ds.X, 0)
		if err != nil {
			t.Fatal(err)
		}
		wantScores, err := model.OutlierScores(nil, ds.X, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ls []int
		for j, line := range got {
			k := strings.LastIndexByte(line, ',')
			if s := strconv.FormatFloat(wantScores[j], 'g', -1, 64); line[k+1:] != s {
				t.Fatalf("%s row %d: outlier %q, the model file's score %s", shard, j+1, line[k+1:], s)
			}
			line = line[:k]
			k = strings.LastIndexByte(line, ',')
			if line[:k] != texts[i][j] {
				t.Fatalf("%s row %d: %q, input row %q", shard, j+1, line[:k], texts[i][j])
			}
			l, err := strconv.Atoi(line[k+1:])
			if err != nil {
				t.Fatalf("%s row %d: cluster %q", shard, j+1, line[k+1:])
			}
			if l != want[j] {
				t.Fatalf("%s row %d: cluster %d, Predict with the model file %d", shard, j+1, l, want[j])
			}
			ls = append(ls, l)
		}
		total += int64(len(got))
		labels = append(labels, ls)
	}
	if res.Rows != total {
		t.Errorf("Result.Rows %d (the model's run record), shards hold %d rows", res.Rows, total)
	}
	return labels, model
}

// TestPipeline runs the pipeline on 4,000 moons rows in three files (one
// gzipped, one with CRLF and spaces) with a sample of 1,000, so that the
// sample is not every row, and checks the run (checkRun) and its record in
// the model file.
func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	files, texts := split(t, dir, dataset.Moons, 4000, 3)
	o := &Options{
		Input:    filepath.Join(dir, "part-*"),
		Output:   filepath.Join(dir, "out", "labels"),
		Model:    filepath.Join(dir, "model.json"),
		Settings: streamSettings(1000, 3),
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	_, model := checkRun(t, o, files, texts)
	if r := model.Run; r == nil || r.Rows != 4000 || r.Sample != 1000 || r.Seed != 3 || r.GammaFrom != "auto" || r.Width != "adaptive" {
		t.Errorf("run record %+v: want 4000 rows, sample 1000, seed 3, gamma auto, adaptive widths", r)
	}
}

// TestPipelineStaleShards: a run over 5 files, then one over 2 files to
// the same output prefix: after the second, the shard pattern matches its
// 2 shards only (the 5 of the first run were not made with the model the
// second wrote), and a file beside them not named as a shard is kept.
func TestPipelineStaleShards(t *testing.T) {
	dir := t.TempDir()
	in5, in2 := filepath.Join(dir, "five"), filepath.Join(dir, "two")
	for _, d := range []string{in5, in2, filepath.Join(dir, "out")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	split(t, in5, dataset.Moons, 1000, 5)
	split(t, in2, dataset.Moons, 600, 2)
	out := filepath.Join(dir, "out", "labels")
	other := out + "-notes.csv"
	if err := os.WriteFile(other, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{in5, in2} {
		o := &Options{Input: filepath.Join(in, "part-*"), Output: out, Model: filepath.Join(dir, "model.json"), Settings: streamSettings(400, 1)}
		if _, err := Run(context.Background(), "prism", o); err != nil {
			t.Fatal(err)
		}
	}
	got, err := filepath.Glob(out + "-*-of-*.csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{out + "-00000-of-00002.csv", out + "-00001-of-00002.csv"}; !slices.Equal(got, want) {
		t.Errorf("shards after the second run: %q, want %q", got, want)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file not named as a shard was removed: %v", err)
	}
}

// TestPipelineComponents runs the paper's rule (Components, with outliers)
// on 3,000 gauss3 rows in two files with a sample of 800, so that most rows
// are not in the sample and follow their own trajectories when labelled:
// the properties of checkRun hold with it too.
func TestPipelineComponents(t *testing.T) {
	dir := t.TempDir()
	files, texts := split(t, dir, dataset.Gauss3, 3000, 2)
	o := &Options{
		Input:    filepath.Join(dir, "part-*"),
		Output:   filepath.Join(dir, "labels"),
		Model:    filepath.Join(dir, "model.json"),
		Settings: streamSettings(800, 2),
	}
	o.Settings.Rule, o.Settings.Outliers = "components", true
	_, model := checkRun(t, o, files, texts)
	if model.Run == nil || model.Run.Rule != "components" {
		t.Errorf("run record %+v: want rule components", model.Run)
	}
}

// TestPipelineDeterministic checks that two runs with the same seed write
// the same model file and shards, byte for byte (the creation time fixed
// by SOURCE_DATE_EPOCH), and that another seed samples other rows.
func TestPipelineDeterministic(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	dir := t.TempDir()
	split(t, dir, dataset.Gauss3, 3000, 2)
	run := func(name string, seed uint64) (model []byte, shards []byte) {
		o := &Options{Input: filepath.Join(dir, "part-*"), Output: filepath.Join(dir, name), Model: filepath.Join(dir, name+".json"), Settings: streamSettings(500, seed)}
		if _, err := Run(context.Background(), "prism", o); err != nil {
			t.Fatal(err)
		}
		m, err := os.ReadFile(o.Model)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			b, err := os.ReadFile(fmt.Sprintf("%s-%05d-of-00002.csv", o.Output, i))
			if err != nil {
				t.Fatal(err)
			}
			shards = append(shards, b...)
		}
		return m, shards
	}
	m1, s1 := run("a", 5)
	m2, s2 := run("b", 5)
	if !bytes.Equal(m1, m2) || !bytes.Equal(s1, s2) {
		t.Error("two runs with seed 5 differ")
	}
	m3, _ := run("c", 6)
	if bytes.Equal(m1, m3) {
		t.Error("seeds 5 and 6 gave the same model")
	}
}

// TestPipelineErrors checks that bad input gives the user's error, naming
// the file, line and column, without the runner's trace, and leaves no
// output.
func TestPipelineErrors(t *testing.T) {
	dir := t.TempDir()
	good := "x1,x2\n1,2\n3,4\n5,6\n"
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte(good), 0o644)
	os.WriteFile(filepath.Join(dir, "b.csv"), []byte("x1,x2\n1,2\n3,oops\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.txt"), []byte("x1,x3\n1,2\n"), 0o644)
	for _, tc := range []struct {
		name, input, want string
	}{
		{"bad value", "[ab].csv", filepath.Join(dir, "b.csv") + ":3:2: "},
		{"no file", "nothing-*.csv", "matches no file"},
		{"columns", "[ac].*", "have different columns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tc.name, " ", ""))
			o := &Options{Input: filepath.Join(dir, tc.input), Output: out, Model: out + ".json"}
			_, err := Run(context.Background(), "prism", o)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine") {
				t.Errorf("error %q: want one line with %q", msg, tc.want)
			}
			if m, _ := filepath.Glob(out + "*"); len(m) != 0 {
				t.Errorf("outputs left: %v", m)
			}
		})
	}
	o := &Options{Input: filepath.Join(dir, "a.csv"), Output: filepath.Join(dir, "o"), Model: filepath.Join(dir, "a.csv")}
	if _, err := Run(context.Background(), "prism", o); err == nil || !strings.Contains(err.Error(), "inputs are never overwritten") {
		t.Errorf("model file = input: error %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.csv")); string(b) != good {
		t.Error("the input was overwritten")
	}
}

// TestAcceptance is the acceptance case: 200,000 generated moons
// points in 4 files, two of them gzipped; every property of checkRun, and
// ARI ≥ 0.99 against the true moons (the threshold).
func TestAcceptance(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 rows: skipped with -short")
	}
	dir := t.TempDir()
	files, texts := split(t, dir, dataset.Moons, 200_000, 4)
	o := &Options{
		Input:  filepath.Join(dir, "part-*"),
		Output: filepath.Join(dir, "labels"),
		Model:  filepath.Join(dir, "model.json"),
	}
	labels, _ := checkRun(t, o, files, texts)
	var truth, pred []int
	for i, f := range files {
		ds, err := dataset.ReadFile(f, dataset.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		truth = append(truth, ds.Labels...)
		pred = append(pred, labels[i]...)
	}
	ari := metrics.AdjustedRand(truth, pred)
	t.Logf("moons 200,000 rows, 4 files: ARI %.4f", ari)
	if ari < 0.99 || slices.Max(pred) < 1 {
		t.Errorf("ARI %.4f < 0.99", ari)
	}
}

// streamSettings returns the default settings with a sample of n rows and
// the seed.
func streamSettings(n int, seed uint64) *settings.Settings {
	st := settings.Default()
	st.Sample, st.Seed = n, seed
	return st
}
