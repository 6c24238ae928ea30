package modelfile

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/svclust/svclust"
	"github.com/svclust/svclust/auto"
	"github.com/svclust/svclust/cluster"
	"github.com/svclust/svclust/dataset"
)

// readColumn reads the one-column CSV that svclust predict or score wrote.
func readColumn(t *testing.T, path string) []float64 {
	t.Helper()
	return readColumns(t, path)[0]
}

// rewritten returns f written as the current version and read back.
func rewritten(t *testing.T, f *File) *File {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	g, err := Read(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// closeScore reports whether a score computed now is the one an svclust
// before the kernel's own exponential (internal/kernel/exp.go) wrote. Those
// versions took every kernel value from math.Exp; the kernel's exponential
// is within 2 ulp of it, a relative 4.4·10⁻¹⁶ on each term, and a score
// adds the same terms in the same order, so it moves by about that much of
// the terms' magnitude. On these files the largest move is between 4·10⁻¹⁶
// and 10⁻¹⁵ of 1 + |score| (the test fails at the former, passes at the
// latter); the bound allows ten times the latter. The files' scores are
// printed to the shortest decimal that reads back to the same double.
func closeScore(got, want float64) bool {
	return math.Abs(got-want) <= 1e-14*(1+math.Abs(want))
}

// TestOldFiles: every form of model file written before version 6 (see
// testdata/old/README.md) loads, labels and scores the data as the
// svclust that wrote it did (labels equal, -outliers by the rule of its
// time, scores within closeScore's bound), gives no outlier scores (ErrNoOutlierScores),
// and saves as the current version to a file that labels the same. A bare library file holds
// no scaling: its rows are the data scaled by the command's file it came
// from. For the level tree, clustering the loaded model again gives the
// stored partition, the run record (or version 4's c_auto) telling that C
// was automatic.
func TestOldFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "old")
	data, err := dataset.ReadFile(filepath.Join(dir, "data.csv"), dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, from string }{
		{"cli1-lib1-components.json", ""},
		{"cli1-lib2-levels.json", ""},
		{"cli2-lib2-components.json", ""},
		{"cli2-lib2-levels.json", ""},
		{"cli2-lib3-components.json", ""},
		{"cli2-lib3-levels.json", ""},
		{"cli2-lib4-components.json", ""},
		{"cli2-lib4-levels.json", ""},
		{"lib4-levels.json", "cli2-lib4-levels"},
		{"lib1-components.json", "cli1-lib1-components"},
		{"lib2-components.json", "cli2-lib2-components"},
		{"lib2-levels.json", "cli2-lib2-levels"},
		{"lib3-components.json", "cli2-lib3-components"},
		{"lib3-levels.json", "cli2-lib3-levels"},
		{"lib2-model.json", "cli2-lib2-levels"},
		{"lib3-model.json", "cli2-lib3-levels"},
		{"v5-levels.json", ""},
		{"v5-components.json", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := ReadFile(filepath.Join(dir, tc.file), 0)
			if err != nil {
				t.Fatal(err)
			}
			x, src := data.X, strings.TrimSuffix(tc.file, ".json")
			if tc.from != "" {
				// A bare file: scale the rows as the command's file does.
				if f.Scale != dataset.ScaleNone || f.Run != nil || f.Features != nil {
					t.Errorf("bare file: scale %v, run %v, features %v", f.Scale, f.Run, f.Features)
				}
				cli, err := ReadFile(filepath.Join(dir, tc.from+".json"), 0)
				if err != nil {
					t.Fatal(err)
				}
				x = mat.DenseCopyOf(data.X)
				if err := cli.ScaleRows(x); err != nil {
					t.Fatal(err)
				}
				src = tc.from
			}
			wantScores := readColumn(t, filepath.Join(dir, src+".score"))
			scores, err := f.Score(nil, x, 2)
			if err != nil {
				t.Fatal(err)
			}
			for i := range scores {
				if !closeScore(scores[i], wantScores[i]) {
					t.Fatalf("score %d: %v, the old svclust %v", i, scores[i], wantScores[i])
				}
			}
			var want []int
			for _, v := range readColumn(t, filepath.Join(dir, src+".pred")) {
				want = append(want, int(v))
			}
			labels, err := f.Predict(nil, x, 2)
			if strings.HasSuffix(tc.file, "-model.json") {
				if !errors.Is(err, ErrNotClustered) {
					t.Fatalf("a file without a partition: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(labels, want) {
				t.Errorf("labels differ from the old svclust's")
			}
			// No outlier scores before version 6: the error names the fix.
			if _, err := f.OutlierScores(nil, x, 1); !errors.Is(err, cluster.ErrNoOutlierScores) || !strings.Contains(err.Error(), "refit") {
				t.Errorf("outlier scores of an old file: %v, want ErrNoOutlierScores", err)
			}
			if got, _ := rewritten(t, f).Predict(nil, x, 1); !slices.Equal(got, want) {
				t.Error("saved as the current version, the file labels differently")
			}
			if (f.Run != nil || strings.HasPrefix(tc.file, "lib4")) && f.Partition.Rule() == cluster.RuleLevels {
				scaled := mat.DenseCopyOf(x)
				if err := f.ScaleRows(scaled); err != nil {
					t.Fatal(err)
				}
				// Without -outliers: clustered again, a file gets the
				// outlier scores, whose -outliers rule is not the old one.
				cl, err := cluster.Fit(f.Model, scaled, &cluster.Levels{M: f.Partition.(*cluster.LevelTree).Data().M})
				if err != nil {
					t.Fatal(err)
				}
				same := len(cl.Labels) == len(want)
				for i := range want {
					same = same && (want[i] == -1 || cl.Labels[i] == want[i])
				}
				if !f.Model.Choice.CAuto || !same {
					t.Errorf("clustered again (C automatic: %v): labels differ from the stored partition's", f.Model.Choice.CAuto)
				}
			}
		})
	}
}

// TestReclusterLoaded: a model trained with every default, saved, loaded
// and clustered again gives exactly the partition fit found, on each of
// the 16 generated kinds (issue 21: before the file stored the model's
// Choice, 7 of them changed, line3 from 8 clusters to 33). It also checks
// that the test can fail: without the Choice (whether C was automatic),
// as a library file before version 4 reads, some kind must
// cluster differently.
func TestReclusterLoaded(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 200
	}
	changed := 0
	for _, kind := range dataset.AllKinds() {
		ds, err := dataset.Generate(kind, n, 1)
		if err != nil {
			t.Fatal(err)
		}
		scaler := dataset.FitScaler(ds.X, dataset.ScaleZScore)
		scaler.Transform(ds.X)
		m, err := svclust.Train(ds.X, &svclust.Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		cl, err := cluster.Fit(m, ds.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		f := &File{Scale: dataset.ScaleZScore, Scaler: scaler, Model: m, Partition: cl.Partition}
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		loaded, err := Read(&b, 0)
		if err != nil {
			t.Fatal(err)
		}
		again, err := cluster.Fit(loaded.Model, ds.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.Labels, cl.Labels) {
			t.Errorf("%s: clustered again after loading, %d clusters; fit found %d", kind, again.Clusters, cl.Clusters)
		}
		loaded.Model.Choice = auto.Choice{}
		old, err := cluster.Fit(loaded.Model, ds.X, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(old.Labels, cl.Labels) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("without the stored Choice no kind clusters differently: the test cannot fail")
	}
	t.Logf("without the stored Choice, %d of %d kinds cluster differently", changed, len(dataset.AllKinds()))
}

// readColumns returns the columns of the numeric CSV file at path, after
// its header line.
func readColumns(t *testing.T, path string) [][]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cols [][]float64
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[1:] {
		fields := strings.Split(l, ",")
		if cols == nil {
			cols = make([][]float64, len(fields))
		}
		for j, s := range fields {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			cols[j] = append(cols[j], v)
		}
	}
	return cols
}

// TestVersion6Files: a model file of version 6 (testdata/old/README.md),
// whose outlier score is the depth below its cluster's peak, labels and
// scores the data exactly as the svclust that wrote it did, f and the
// outlier score alike, and keeps that score when saved as the current
// version.
func TestVersion6Files(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "old")
	data, err := dataset.ReadFile(filepath.Join(dir, "data.csv"), dataset.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"v6-levels", "v6-components"} {
		t.Run(name, func(t *testing.T) {
			f, err := ReadFile(filepath.Join(dir, name+".json"), 0)
			if err != nil {
				t.Fatal(err)
			}
			score := readColumns(t, filepath.Join(dir, name+".score"))
			pred := readColumns(t, filepath.Join(dir, name+".pred"))
			for k, h := range []*File{f, rewritten(t, f)} {
				fx, err := h.Score(nil, data.X, 2)
				if err != nil {
					t.Fatal(err)
				}
				out, err := h.OutlierScores(nil, data.X, 2)
				if err != nil {
					t.Fatal(err)
				}
				labels, err := h.Predict(nil, data.X, 2)
				if err != nil {
					t.Fatal(err)
				}
				for i := range fx {
					if fx[i] != score[0][i] || out[i] != score[1][i] || out[i] != pred[1][i] || float64(labels[i]) != pred[0][i] {
						t.Fatalf("file %d (0 read, 1 saved again), row %d: f %v, outlier %v, label %d; svclust of version 6: %v, %v, %v",
							k, i, fx[i], out[i], labels[i], score[0][i], score[1][i], pred[0][i])
					}
				}
			}
		})
	}
}
